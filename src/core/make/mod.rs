//! Making and reshaping puzzles: the seeded generator, the rating search, validity-preserving
//! transforms, the canonical form, and the random numbers they share.

pub mod canonical;
pub mod generate;
pub mod logic_generate;
pub mod random;
pub mod rate;
pub mod transform;
