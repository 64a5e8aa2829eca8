//! The depth-first loop the generic and the variant engines share: count nodes, poll the
//! [`Control`], keep the attempt's node and guess budgets, hand solutions to the visitor, and
//! take the next alternative of the deepest open branch into a fresh level of the engine's
//! arena. What a state is, how it propagates and what it branches on stay with each engine
//! ([`Levels`]); the loop is monomorphised per engine, so sharing it costs neither a call nor
//! a branch.

use super::control::{mix, Attempt, Control, Flow, SearchStats, POLL_INTERVAL};
use super::trace::Tracer;
use crate::core::error::{Error, Result};

/// What propagating one state to its fixed point gave.
pub(crate) enum Step<C> {
    Contradiction,
    Solved,
    /// Branch on this choice, trying these alternatives (a bitmask, lowest first).
    Branch(C, u64),
}

/// A branching point: the choice at this level and the alternatives not tried yet.
#[derive(Clone, Copy)]
pub(crate) struct Frame<C> {
    choice: C,
    untried: u64,
}

/// An engine whose states live in levels of an arena, level `k + 1` being a guess made on a
/// copy of level `k`.
pub(crate) trait Levels {
    /// What a branch is on (a cell, or a digit's places in a unit).
    type Choice: Copy;

    /// A restart draws where each branch's digit order starts among this many positions.
    fn draw_span(&self) -> u64;
    /// The branch stack (kept by the engine so that it is reused across searches).
    fn frames(&mut self) -> &mut Vec<Frame<Self::Choice>>;
    fn stats_mut(&mut self) -> &mut SearchStats;
    /// The solved grid at `level`.
    fn solution(&self, level: usize) -> &[u8];
    /// The cell and digit bit that alternative `next` of `choice` stands for.
    fn resolve(&self, choice: Self::Choice, next: u64) -> (usize, u64);
    /// Copies level `parent` into `parent + 1`, puts `bit` in `cell` there and propagates.
    fn child<T: Tracer>(
        &mut self,
        parent: usize,
        cell: usize,
        bit: u64,
        tracer: &mut T,
    ) -> Step<Self::Choice>;
}

/// Runs the search from level 0's propagated state `step`, calling `visit` on each solution
/// until it says `Stop`, within the attempt's budgets: `Ok(true)` when the node budget ran out
/// first. The engine's stats must be reset and its frames cleared by the caller.
pub(crate) fn depth_first<E: Levels, T: Tracer>(
    engine: &mut E,
    mut step: Step<E::Choice>,
    control: &mut (impl Control + ?Sized),
    attempt: Attempt,
    mut visit: impl FnMut(&[u8]) -> Flow,
    tracer: &mut T,
) -> Result<bool> {
    let span = engine.draw_span();
    let mut level = 0usize;
    loop {
        let stats = engine.stats_mut();
        stats.nodes += 1;
        if stats.nodes % POLL_INTERVAL == 0 && !control.proceed(stats) {
            return Err(Error::Interrupted);
        }
        if stats.nodes > attempt.node_budget {
            return Ok(true);
        }
        match step {
            Step::Solved => {
                tracer.solved();
                if visit(engine.solution(level)) == Flow::Stop {
                    return Ok(false);
                }
            }
            Step::Contradiction => {
                tracer.dead_end();
                stats.dead_ends += 1;
            }
            Step::Branch(choice, untried) => {
                debug_assert_eq!(engine.frames().len(), level);
                engine.frames().push(Frame { choice, untried });
            }
        }
        // Take the next untried alternative of the deepest open branch into a fresh level.
        loop {
            let frames = engine.frames();
            let depth = frames.len() as u64;
            let Some(frame) = frames.last_mut() else {
                tracer.backtrack(level);
                return Ok(false);
            };
            if frame.untried == 0 {
                frames.pop();
                continue;
            }
            // The lowest alternative, or under a restart the lowest at or above a position
            // drawn from (attempt, depth), wrapping round to the lowest.
            let mut next = frame.untried & frame.untried.wrapping_neg();
            if attempt.seed != 0 {
                let from = mix(attempt.seed, depth) % span;
                let above = frame.untried & (u64::MAX << from);
                if above != 0 {
                    next = above & above.wrapping_neg();
                }
            }
            frame.untried ^= next;
            let choice = frame.choice;
            let parent = frames.len() - 1;
            let (cell, bit) = engine.resolve(choice, next);
            attempt.guesses.spend(engine.stats_mut())?;
            // Out of the levels below the one this guess branches from.
            tracer.backtrack(level - parent);
            tracer.guess(cell, bit.trailing_zeros() as u8 + 1);
            level = parent + 1;
            step = engine.child(parent, cell, bit, tracer);
            break;
        }
    }
}
