#![no_main]
// The body lives in the library (sudoku_rs::core::fuzzing) so cargo test replays the corpus.
libfuzzer_sys::fuzz_target!(|data: &[u8]| sudoku_rs::core::fuzzing::marks(data));
