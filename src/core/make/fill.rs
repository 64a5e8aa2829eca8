//! Random complete grids under variant rules, for the generator.
//!
//! The seed contract (a seed names one puzzle forever) needs a grid that does not depend on how
//! the variant engine searches. So cells are filled in row-major order, each with the first
//! digit of a random permutation (drawn from the seed's stream, one per cell, whatever happens)
//! for which some grid meeting the rules still exists: the engine is only asked "is there a
//! completion?", whose answer its heuristics cannot change. A completion found on the way
//! answers the question for its own digits, so most cells need no search at all.

use crate::core::error::{Error, Result};
use crate::core::make::random::Rng;
use crate::core::search::control::{Attempt, Control, Flow};

use crate::core::search::variant::Variant;

/// A random grid that meets the rules, drawn from `rng` alone. [`Error::Generate`] when no grid
/// meets them.
pub(crate) fn fill(
    variant: &mut Variant,
    rng: &mut Rng,
    control: &mut (impl Control + ?Sized),
) -> Result<Vec<u8>> {
    let n = variant.layout().n;
    let mut grid = vec![0u8; n * n];
    let Some(mut known) = completion(variant, &grid, control)? else {
        return Err(Error::Generate(
            "no grid meets these rules: they contradict each other".into(),
        ));
    };
    let mut digits: Vec<u8> = (1..=n as u8).collect();
    for cell in 0..n * n {
        rng.shuffle(&mut digits);
        for &d in &digits {
            grid[cell] = d;
            if known[cell] == d {
                break;
            }
            if let Some(other) = completion(variant, &grid, control)? {
                known = other;
                break;
            }
        }
        debug_assert_eq!(grid[cell], known[cell], "the known completion's digit fits");
    }
    Ok(grid)
}

/// Some completion of `grid` under the rules, or `None`.
fn completion(
    variant: &mut Variant,
    grid: &[u8],
    control: &mut (impl Control + ?Sized),
) -> Result<Option<Vec<u8>>> {
    let mut found = None;
    let outcome = variant.search(grid, control, Attempt::only(None), |s| {
        found = Some(s.to_vec());
        Flow::Stop
    });
    match outcome {
        Ok(_) => Ok(found),
        // The digit just placed breaks a rule with another one outright.
        Err(Error::RuleConflict { .. } | Error::Conflict { .. }) => Ok(None),
        Err(err) => Err(err),
    }
}
