//! Solving like a person: pencil marks, one logical step at a time, and a technique-based grade.
//!
//! - [`candidates`]: the pencil-mark model ([`Candidates`]), for every size and box shape.
//! - [`step`]: [`Step`], [`Level`], and the technique table that declares [`Technique`].
//! - [`engine`]: [`hint`] (the next step, cheapest technique first), [`apply`], [`explain`] and
//!   [`grade`].
//! - One file per technique family: [`singles`], [`locked`], [`subsets`], [`fish`],
//!   [`single_digit`], [`wings`], [`colouring`], [`uniqueness`], [`chains`], [`als`], [`forcing`];
//!   [`links`] holds what the advanced ones share.
//! - [`tokens`]: steps as token ids, and the grid and marks after each step.
//! - [`se`]: the Sudoku Explainer rating (ER, EP, ED) with SE's own techniques and order.
//!
//! # Adding a technique
//!
//! 1. Write its finder in a file of this folder (a new family gets a new file and a `mod` line
//!    below): `pub fn my_technique(ctx: &Context) -> Option<Step>`. It reads the candidates
//!    from `ctx.cands` (per-cell masks, and per unit and digit the positions left), and returns
//!    the first instance that removes or places something, in a fixed scan order (the engine
//!    is deterministic), or `None`. Fill `placements`/`eliminations` (rows and columns from 0,
//!    digits from 1, eliminations sorted), the `cells` and `units` a person looks at, the
//!    pattern's `digits`, and the sentence with `ctx.say(format_args!(...))` (skipped when
//!    grading). Uniqueness-based techniques must return `None` unless `ctx.unique()`; it asks the
//!    solver on first use, so call it once a pattern is found, not before.
//! 2. Add one line to the technique table in `step.rs`: variant, stable snake_case name,
//!    weight, level, finder path. The table's order is the order `hint` tries techniques;
//!    keep it sorted by weight (a test checks).
//!
//! The soundness tests (`tests.rs`) run every technique over the sample sets and check each
//! step against the solution, so a new technique is tested as soon as it is in the table.

pub mod als;
pub mod candidates;
pub mod chains;
pub mod colouring;
pub mod engine;
pub mod fish;
pub mod forcing;
pub mod links;
pub mod locked;
pub mod se;
pub mod single_digit;
pub mod singles;
pub mod step;
pub mod subsets;
pub mod tokens;
pub mod uniqueness;
pub mod wings;

#[cfg(test)]
mod tests;

pub use candidates::Candidates;
pub use engine::{
    apply, apply_changes, explain, grade, hint, next_step, start, Explanation, Grade, Solutions,
    Start,
};
pub use step::{Level, Step, Technique, Techniques};
