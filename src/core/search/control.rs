//! The vocabulary every search engine shares: how a caller stops a search ([`Control`]), how a
//! visitor asks for more solutions ([`Flow`]), what a search reports ([`SearchStats`]), and the
//! guess budget, and a restart attempt's terms. The engines (`generic`, `nine`, the variant engine
//! in `variant.rs`) and the [`super::Solver`] facade use these, and none of them depends on
//! another engine through it.

use crate::core::error::{Error, Result};

/// How many search nodes pass between calls of [`Control::proceed`]: often enough for Ctrl-C to
/// feel immediate, rarely enough that the call costs nothing measurable.
pub(crate) const POLL_INTERVAL: u64 = 1024;

/// A hook the search calls every `POLL_INTERVAL` nodes: return `false` to stop it
/// (Ctrl-C, a time or guess budget). The search then returns [`Error::Interrupted`].
pub trait Control {
    fn proceed(&mut self, stats: &SearchStats) -> bool;
}

/// Never stops the search.
#[derive(Debug)]
pub struct Unbounded;

impl Control for Unbounded {
    fn proceed(&mut self, _: &SearchStats) -> bool {
        true
    }
}

/// What a search did, so a caller can see how hard a puzzle was.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// States propagated: the start plus one per guess.
    pub nodes: u64,
    /// Alternatives tried at branch points: the generic engine tries each digit of a cell with
    /// two or more candidates; the 9x9 engine tries a digit in a cell and then its negation
    /// (so a two-candidate cell is two guesses in both).
    pub guesses: u64,
    /// Guesses (or the start) that propagation proved wrong.
    pub dead_ends: u64,
}

impl SearchStats {
    /// Adds another attempt's work to this one (restarts report their total).
    pub(crate) fn add(&mut self, other: SearchStats) {
        self.nodes += other.nodes;
        self.guesses += other.guesses;
        self.dead_ends += other.dead_ends;
    }
}

/// Whether the caller wants more solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// The most guesses one call may make, over all its restart attempts: every engine asks it
/// just before each guess, so a budget means the same thing whichever engine runs.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GuessBudget {
    /// `None`: no limit.
    pub max: Option<u64>,
    /// Guesses made by the earlier restart attempts of the current call.
    pub spent_before: u64,
}

impl GuessBudget {
    /// Counts one more guess in `stats`, or refuses it with [`Error::GuessLimit`].
    #[inline]
    pub(crate) fn spend(&self, stats: &mut SearchStats) -> Result<()> {
        if let Some(max_guesses) = self.max {
            if self.spent_before + stats.guesses >= max_guesses {
                return Err(Error::GuessLimit { max_guesses });
            }
        }
        stats.guesses += 1;
        Ok(())
    }
}

/// One attempt's terms: its search order and how much work it may do.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Attempt {
    /// 0 for the plain search order; a restart's attempt number otherwise.
    pub seed: u64,
    /// Nodes this attempt may use before it gives up (`u64::MAX`: no limit).
    pub node_budget: u64,
    pub guesses: GuessBudget,
}

impl Attempt {
    /// The one attempt of a search that never restarts: the plain order, no node budget, at
    /// most `max_guesses` guesses.
    pub(crate) fn only(max_guesses: Option<u64>) -> Self {
        Attempt {
            seed: 0,
            node_budget: u64::MAX,
            guesses: GuessBudget {
                max: max_guesses,
                spent_before: 0,
            },
        }
    }
}

/// A fixed 64-bit mix (splitmix64's finaliser), for restart perturbations: an
/// attempt's tie-breaks and digit order are drawn from it, so each attempt is fixed.
pub(crate) fn mix(seed: u64, value: u64) -> u64 {
    let mut z =
        seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ value.wrapping_add(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
