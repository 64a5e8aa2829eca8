//! With the binding layer on, sets pyo3's `Py_3_*` cfgs for this crate too, so that
//! `src/bindings` can take what the stable ABI it is built for allows: from 3.10, a `str`'s
//! UTF-8 form can be borrowed instead of copied (see `src/bindings/pystr.rs`).
fn main() {
    // Without this, Cargo runs the script again, and rebuilds the crate, whenever any file of
    // the package changes (the README, the tests, a results file).
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(feature = "python")]
    pyo3_build_config::use_pyo3_cfgs();
}
