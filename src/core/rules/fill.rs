//! Random complete grids under variant rules, for the generator: the variant engine with digits
//! tried in a random order, restarted with a doubled node budget whenever a budget runs out, so
//! an unlucky early digit costs little and an unsatisfiable set of rules still ends.

use crate::core::error::{Error, Result};
use crate::core::make::random::Rng;
use crate::core::search::control::{Control, Flow, GuessBudget};

use super::engine::Variant;

/// Nodes per cell for the first attempt.
const FIRST_BUDGET_PER_CELL: u64 = 50;

/// A random grid that meets the rules, drawn from `rng` alone (the seed contract): the same
/// stream gives the same grid. [`Error::Generate`] when no grid meets them.
pub(crate) fn fill(
    variant: &mut Variant,
    rng: &mut Rng,
    control: &mut (impl Control + ?Sized),
) -> Result<Vec<u8>> {
    let n = variant.layout().n;
    let blank = vec![0u8; n * n];
    let mut budget = FIRST_BUDGET_PER_CELL * (n * n) as u64;
    loop {
        variant.random = Some(Rng::new(rng.next_u64()));
        let mut found = None;
        let outcome = variant.search(&blank, control, GuessBudget::default(), budget, |grid| {
            found = Some(grid.to_vec());
            Flow::Stop
        });
        variant.random = None;
        let ran_out = outcome?;
        if let Some(grid) = found {
            return Ok(grid);
        }
        if !ran_out {
            return Err(Error::Generate(
                "no grid meets these rules: they contradict each other".into(),
            ));
        }
        budget = budget.saturating_mul(2);
    }
}
