//! Random complete grids under variant rules, for the generator.
//!
//! The seed contract (a seed names one puzzle forever) needs a grid that does not depend on how
//! the variant engine searches. So cells are filled in row-major order, each with the first
//! digit of a random permutation (drawn from the seed's stream, one per cell, whatever happens)
//! for which some grid meeting the rules still exists: the engine is only asked "is there a
//! completion?", whose answer its heuristics cannot change. A completion found on the way
//! answers the question for its own digits, so most cells need no search at all.
//!
//! Under some rules (renban lines, X-sums) proving that a prefix has no completion, or finding
//! the one it has, can take the engine minutes. So each question gets [`COMPLETION_NODES`]
//! search nodes in the engine's plain order, and one that needs more counts as "no
//! completion": the digit is passed over. That is safe, since the known completion's digit
//! ends every cell's loop without a question, and every placed digit has a completion found.
//! A fill whose questions all fit the budget is as before; one that hits it depends on how the
//! engine searches, and may change when the engine does (docs/making.md, the seed contract).
//!
//! The fill's searches run in the engine's plain order, without moving cells whose guesses
//! failed up the branching order: which questions meet the budget is what the fill's time
//! hangs on, and the failure-led order, which shrinks hard counting searches, leaves more of
//! them over it under X-sums and sandwiches (measured in
//! benches/results/2026-11-27-variant-generate-3.md).

use crate::core::error::{Error, Result};
use crate::core::make::random::Rng;
use crate::core::search::control::{Attempt, Control, Flow};
use crate::core::search::solver::luby;

use crate::core::search::variant::Variant;

/// Search nodes a "does this prefix have a completion?" question may use; past them the answer
/// is "no". Twice the most any question of the seeds the tests pin needs (about 62,000, a
/// sandwich fill), so those puzzles never meet it; measured in
/// benches/results/2026-11-27-variant-generate-2.md.
pub(crate) const COMPLETION_NODES: u64 = 1 << 17;

/// The first attempt's budget and the Luby unit of the restarts that look for the first grid.
const FIRST_GRID_NODES: u64 = 1 << 14;

/// A random grid that meets the rules, drawn from `rng` alone. [`Error::Generate`] when no grid
/// meets them.
pub(crate) fn fill(
    variant: &mut Variant,
    rng: &mut Rng,
    control: &mut (impl Control + ?Sized),
) -> Result<Vec<u8>> {
    let weighed = variant.set_weigh_failures(false);
    let grid = fill_plain(variant, rng, control);
    variant.set_weigh_failures(weighed);
    grid
}

/// [`fill`], with the engine in its plain order.
fn fill_plain(
    variant: &mut Variant,
    rng: &mut Rng,
    control: &mut (impl Control + ?Sized),
) -> Result<Vec<u8>> {
    let n = variant.layout().n;
    let mut grid = vec![0u8; n * n];
    let Some(mut known) = first_grid(variant, control)? else {
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
            if let Answer::Known(Some(other)) =
                completion(variant, &grid, control, 0, COMPLETION_NODES)?
            {
                known = other;
                break;
            }
        }
        debug_assert_eq!(grid[cell], known[cell], "the known completion's digit fits");
    }
    Ok(grid)
}

/// Some grid meeting the rules, or `None` when none does. Which grid does not shape the fill's
/// result (only whether the questions have answers does), so this search may restart: heavy-tailed
/// searches (X-sums on an empty grid) find one in a restart long before the plain order does.
/// Budgets follow the Luby sequence, so some attempt is long enough to prove "none".
fn first_grid(
    variant: &mut Variant,
    control: &mut (impl Control + ?Sized),
) -> Result<Option<Vec<u8>>> {
    let blank = vec![0u8; variant.layout().n.pow(2)];
    for seed in 0.. {
        let nodes = FIRST_GRID_NODES.saturating_mul(luby(seed + 1));
        if let Answer::Known(found) = completion(variant, &blank, control, seed, nodes)? {
            return Ok(found);
        }
    }
    unreachable!("the budgets grow until an attempt completes")
}

/// What a bounded search says about a prefix.
enum Answer {
    /// `Some` completion, or `None` when there is none.
    Known(Option<Vec<u8>>),
    /// The budget ran out first.
    Unknown,
}

/// Some completion of `grid` under the rules, searched in the order of attempt `seed` within
/// `nodes` nodes.
fn completion(
    variant: &mut Variant,
    grid: &[u8],
    control: &mut (impl Control + ?Sized),
    seed: u64,
    nodes: u64,
) -> Result<Answer> {
    let mut found = None;
    let attempt = Attempt {
        seed,
        node_budget: nodes,
        ..Attempt::only(None)
    };
    let outcome = variant.search(grid, control, attempt, |s| {
        found = Some(s.to_vec());
        Flow::Stop
    });
    match outcome {
        Ok(true) if found.is_none() => Ok(Answer::Unknown),
        Ok(_) => Ok(Answer::Known(found)),
        // The digit just placed breaks a rule with another one outright.
        Err(Error::RuleConflict { .. } | Error::Conflict { .. }) => Ok(Answer::Known(None)),
        Err(err) => Err(err),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::core::rules::{Rules, Spec};
    use crate::core::{BoxShape, Unbounded};

    #[test]
    fn the_fill_searches_in_the_plain_order_and_leaves_the_engine_as_it_found_it() {
        let shape = BoxShape::new(3, 3).unwrap();
        let rules = Arc::new(
            Rules::new(Spec {
                non_consecutive: true,
                ..Spec::default()
            })
            .unwrap(),
        );
        let mut variant = Variant::new(shape, rules.clone()).unwrap();
        let grid = fill(&mut variant, &mut Rng::new(7), &mut Unbounded).unwrap();
        assert!(variant.set_weigh_failures(true), "the weighting is back on");
        let mut plain = Variant::new(shape, rules).unwrap();
        plain.set_weigh_failures(false);
        let again = fill_plain(&mut plain, &mut Rng::new(7), &mut Unbounded).unwrap();
        assert_eq!(grid, again);
    }
}
