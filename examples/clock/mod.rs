//! The calling thread's CPU time, for the examples that time themselves: a shared machine's load
//! does not inflate it as it does wall time.

use std::time::Duration;

/// The calling thread's CPU time; `None` where there is no thread CPU clock (libc is a
/// dev-dependency on unix only).
#[cfg(unix)]
#[allow(clippy::unnecessary_wraps)] // the signature of the form for systems without the clock
pub fn thread_cpu_time() -> Option<Duration> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid place for the result; Linux and macOS have this clock.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "the thread CPU clock is unavailable");
    Some(Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
}

#[cfg(not(unix))]
pub fn thread_cpu_time() -> Option<Duration> {
    None
}
