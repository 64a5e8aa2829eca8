//! The reinforcement-learning environment: a batch of Sudoku episodes stepped together. One
//! action places one digit (id `(row*n + col)*n + digit - 1`, as the datasets encode moves) or,
//! when enabled, undoes the last placement (id `n**3`). The Python `SudokuEnv` is a batch of
//! one and `SudokuVectorEnv` a batch of many, so the two step through the same code here.
//!
//! Each environment keeps, per cell and digit, how many cells that see the cell hold the
//! digit (peers under the rules, and the orthogonal neighbours holding a digit one away under
//! non-consecutive), so a candidate, a conflict and an action mask are lookups, and a
//! placement or an undo updates only the cell's peers. Killer cage sums are not candidates'
//! business: as in `rules::conflicting_cells`, a move breaks a rule when it repeats a digit a
//! peer holds or sits next to a consecutive one.
//!
//! Whether the grid can still be solved is a count of solutions up to one by the solver. The
//! last completion found is kept: a move that agrees with it keeps the grid solvable without a
//! search, and a placement on a grid that cannot be solved keeps it unsolvable.

use std::sync::{Arc, Mutex, PoisonError};

use crate::core::helpers::Helpers;
use crate::core::make::generate::{self, Options};
use crate::core::make::logic_generate::{self, Target};
use crate::core::make::random::{stream_seed, Rng};
use crate::core::rules::{find_conflict, Layout};
use crate::core::{BoxShape, Error, Result, Rules, Solver, Unbounded};

/// What an action that is not legal (a digit that is not a candidate, a filled cell, an undo
/// with nothing to undo) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnInvalid {
    /// Nothing changes; the step pays the `invalid` reward (agents are expected to mask).
    Mask,
    /// A digit that is not a candidate is placed anyway, conflicts and all, for the
    /// `conflict` reward; other invalid actions change nothing and pay `invalid`.
    Penalise,
    /// Nothing changes, the step pays `invalid` and the episode ends (terminated).
    End,
}

/// What one step was; each step is exactly one of these and pays its reward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A placement that completed the grid without a conflict (terminates).
    Solved,
    /// A placement of a candidate after which the grid can still be solved.
    Progress,
    /// A placement of a candidate after which the grid can no longer be solved.
    DeadEnd,
    /// A digit placed although a peer holds it (`OnInvalid::Penalise` only).
    Conflict,
    /// An action that changed nothing (or ended the episode under `OnInvalid::End`).
    Invalid,
    /// The last placement taken back.
    Undo,
}

impl Event {
    /// Every event, in the order of [`Rewards::values`].
    pub const ALL: [Event; 6] = [
        Event::Solved,
        Event::Progress,
        Event::DeadEnd,
        Event::Conflict,
        Event::Invalid,
        Event::Undo,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Event::Solved => "solved",
            Event::Progress => "progress",
            Event::DeadEnd => "dead_end",
            Event::Conflict => "conflict",
            Event::Invalid => "invalid",
            Event::Undo => "undo",
        }
    }
}

/// The reward of each [`Event`], in the order of [`Event::ALL`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rewards {
    pub values: [f64; 6],
}

impl Rewards {
    pub fn of(&self, event: Event) -> f64 {
        self.values[event as usize]
    }
}

/// How the generator makes each episode's puzzle.
#[derive(Clone, Debug)]
pub struct Generator {
    pub options: Options,
    /// A technique level (and the techniques it may use): classic puzzles only.
    pub target: Option<Target>,
}

/// Where each episode's puzzle comes from.
#[derive(Clone, Debug)]
pub enum Source {
    /// Puzzles of `n*n` cells each, back to back; each episode draws one uniformly.
    Puzzles(Vec<u8>),
    /// A fresh seeded puzzle per episode.
    Generate(Generator),
}

/// What every environment of a batch shares.
#[derive(Clone, Debug)]
pub struct Config {
    pub shape: BoxShape,
    pub rules: Option<Arc<Rules>>,
    pub source: Source,
    pub on_invalid: OnInvalid,
    pub rewards: Rewards,
    /// Steps after which an episode is truncated.
    pub max_steps: u32,
    pub undo: bool,
}

impl Config {
    /// The number of actions: `n**3` placements, and the undo when enabled.
    pub fn action_count(&self) -> usize {
        let n = self.shape.size();
        n * n * n + usize::from(self.undo)
    }
}

/// What one step or reset reports for one environment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// What the step was (`None` for a reset).
    pub event: Option<Event>,
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
    /// Filled cells that break a rule with another filled cell.
    pub conflicts: u32,
    pub solved: bool,
    pub still_solvable: bool,
    /// Filled cells equal to the solution found at reset (the solution when it is unique).
    pub cells_correct: u32,
}

/// One environment's episode.
#[derive(Clone, Debug)]
pub struct State {
    rng: Rng,
    puzzle: Vec<u8>,
    cells: Vec<u8>,
    /// Per cell and digit (`cell * n + digit - 1`), how many filled cells forbid the digit there.
    seen: Vec<u8>,
    /// Per cell, the digits no filled cell forbids there (bit `digit - 1`): `seen`'s zeros.
    free: Vec<u64>,
    /// The legal placements: the free digits of the blank cells, counted as marks change, so
    /// sampling and the end-of-episode check need no scan of the grid.
    legal: u32,
    /// The cells the agent filled, in order, for undo.
    history: Vec<u16>,
    /// The blank cells, in no order, and where each blank cell sits in it, so sampling draws
    /// among blanks only and a placement or an undo updates it in constant time.
    open: Vec<u16>,
    open_at: Vec<u16>,
    /// The solution found at reset, and a completion of the current grid when `witness_ok`.
    solution: Vec<u8>,
    witness: Vec<u8>,
    witness_ok: bool,
    solvable: bool,
    conflicts: u32,
    /// Blank cells, and filled cells equal to `solution`, kept as cells change.
    blanks: u32,
    correct: u32,
    steps: u32,
    /// The episode ended; the vector env resets it on its next step.
    pub done: bool,
}

/// A batch of environments under one [`Config`], with the solver they share.
#[derive(Debug)]
pub struct Batch {
    config: Config,
    layout: Layout,
    /// One solver per worker a call may use; the first serves single-environment calls.
    solvers: Vec<Solver>,
    envs: Vec<State>,
    helpers: Helpers,
    /// The actions [`Batch::sample_all`] would draw with the seed in `drawn_for`, drawn by the
    /// last batch call while each environment's state was at hand in the cache; any other
    /// change to an environment forgets them.
    drawn: Vec<Option<usize>>,
    drawn_for: Option<u64>,
}

/// A chunk of environments in a batch call, with its output and how its turn went.
type Piece<'a, C> = Mutex<(&'a mut [State], &'a mut [Option<usize>], C, Result<()>)>;

/// How many random pairs [`Batch::sample_legal`] tries before it walks the legal ones.
const SAMPLE_TRIES: usize = 4;

/// Environments below which a batch call stays on one thread: waking a helper costs about what
/// stepping this many does.
const PER_THREAD: usize = 128;

/// The environments a batch call hands a worker at a time, and the rows of each output of
/// [`Batch::run_all`].
pub const CHUNK: usize = 64;

impl Batch {
    /// Checks the configuration (every puzzle of a [`Source::Puzzles`] must fit the shape,
    /// have a blank and break no rule) and makes `count` environments, not yet reset.
    pub fn new(config: Config, count: usize) -> Result<Batch> {
        let shape = config.shape;
        let classic = Rules::default();
        let rules = config.rules.as_deref().unwrap_or(&classic);
        rules.check_shape(shape)?;
        let layout = Layout::new(shape, rules)?;
        let solver = match &config.rules {
            None => Solver::new(shape),
            Some(rules) => Solver::with_rules(shape, rules.clone())?,
        };
        let cells = shape.cell_count();
        match &config.source {
            Source::Puzzles(all) => {
                if all.is_empty() || all.len() % cells != 0 {
                    return Err(Error::Shape(format!(
                        "the puzzles must be a non-empty list of {cells} cells each"
                    )));
                }
                for (i, puzzle) in all.chunks(cells).enumerate() {
                    check_puzzle(shape, rules, puzzle).map_err(|err| {
                        Error::Shape(format!("puzzle {i} cannot start an episode: {err}"))
                    })?;
                }
            }
            Source::Generate(generator) => {
                generate::check_options_with(shape, &generator.options, config.rules.is_some())?;
                if let Some(target) = &generator.target {
                    if config.rules.is_some() {
                        return Err(Error::Generate(
                            "level= makes classic puzzles only; it cannot be combined with rules="
                                .into(),
                        ));
                    }
                    logic_generate::check_target(&generator.options, target)?;
                }
            }
        }
        let n = shape.size();
        let blank = State {
            rng: Rng::new(0),
            puzzle: vec![0; cells],
            cells: vec![0; cells],
            seen: vec![0; cells * n],
            free: vec![0; cells],
            legal: 0,
            history: Vec::with_capacity(cells),
            open: Vec::with_capacity(cells),
            open_at: vec![0; cells],
            solution: vec![0; cells],
            witness: vec![0; cells],
            witness_ok: false,
            solvable: false,
            conflicts: 0,
            blanks: cells as u32,
            correct: 0,
            steps: 0,
            done: true,
        };
        Ok(Batch {
            config,
            layout,
            solvers: vec![solver],
            envs: vec![blank; count],
            helpers: Helpers::new(0),
            drawn: vec![None; count],
            drawn_for: None,
        })
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn len(&self) -> usize {
        self.envs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.envs.is_empty()
    }

    pub fn env(&self, i: usize) -> &State {
        &self.envs[i]
    }

    /// Checks a puzzle given for one episode as [`Batch::new`] checks a source's.
    pub fn check_puzzle(&self, puzzle: &[u8]) -> Result<()> {
        let classic = Rules::default();
        let rules = self.config.rules.as_deref().unwrap_or(&classic);
        check_puzzle(self.config.shape, rules, puzzle)
    }

    /// Starts a new episode of environment `i`: `seed` restarts its random numbers (else they
    /// go on), and `puzzle` (checked with [`Batch::check_puzzle`]) replaces the source's draw.
    pub fn reset(&mut self, i: usize, seed: Option<u64>, puzzle: Option<&[u8]>) -> Result<Outcome> {
        self.drawn_for = None;
        let env = &mut self.envs[i];
        reset_env(
            &self.config,
            &self.layout,
            &mut self.solvers[0],
            env,
            seed,
            puzzle,
        )
    }

    /// Resets every environment (`seeds` one per environment) or, with `step` set, steps every
    /// environment by its action in `step` (resetting instead those whose episode ended), on
    /// up to `threads` threads. The environments go in chunks of [`CHUNK`], `outs` holding one
    /// `C` per chunk; `record(out, k, config, env, outcome)` sees the `k`th environment of a
    /// chunk after its turn, with that chunk's `out`. With `draw` set, each environment also
    /// draws the action a following [`Batch::sample_all`] with that seed hands back.
    #[allow(clippy::too_many_arguments)]
    pub fn run_all<C: Send>(
        &mut self,
        seeds: &[Option<u64>],
        puzzle: Option<&[u8]>,
        step: Option<&[usize]>,
        draw: Option<u64>,
        threads: usize,
        outs: Vec<C>,
        record: impl Fn(&mut C, usize, &Config, &State, Outcome) + Sync,
    ) -> Result<()> {
        self.drawn_for = None;
        let count = self.envs.len();
        assert_eq!(outs.len(), count.div_ceil(CHUNK), "one output per chunk");
        let workers = self.workers(threads);
        while self.solvers.len() < workers {
            let solver = match &self.config.rules {
                None => Solver::new(self.config.shape),
                Some(rules) => Solver::with_rules(self.config.shape, rules.clone())?,
            };
            self.solvers.push(solver);
        }
        let (config, layout) = (&self.config, &self.layout);
        let solvers: Vec<Mutex<&mut Solver>> = self.solvers.iter_mut().map(Mutex::new).collect();
        let chunks: Vec<Piece<'_, C>> = self
            .envs
            .chunks_mut(CHUNK)
            .zip(self.drawn.chunks_mut(CHUNK))
            .zip(outs)
            .map(|((envs, drawn), out)| Mutex::new((envs, drawn, out, Ok(()))))
            .collect();
        let work = |worker: usize, chunk: usize| {
            // Each lock is taken by one worker at a time (a worker runs one chunk at a time,
            // a chunk runs once), so none waits.
            let mut solver = solvers[worker]
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let mut piece = chunks[chunk].lock().unwrap_or_else(PoisonError::into_inner);
            let (envs, drawn, out, result) = &mut *piece;
            for (k, env) in envs.iter_mut().enumerate() {
                let i = chunk * CHUNK + k;
                let outcome = match step {
                    Some(actions) if !env.done => {
                        step_env(config, layout, &mut solver, env, actions[i])
                    }
                    Some(_) => reset_env(config, layout, &mut solver, env, None, None),
                    None => reset_env(config, layout, &mut solver, env, seeds[i], puzzle),
                };
                match outcome {
                    Ok(outcome) => record(out, k, config, env, outcome),
                    Err(err) => {
                        *result = Err(err);
                        return;
                    }
                }
                if let Some(seed) = draw {
                    let mut rng = Rng::new(stream_seed(seed, i as u64));
                    drawn[k] = sample_env(config, env, &mut rng);
                }
            }
        };
        self.helpers.run(chunks.len(), &work);
        for chunk in chunks {
            chunk
                .into_inner()
                .unwrap_or_else(PoisonError::into_inner)
                .3?;
        }
        self.drawn_for = draw;
        Ok(())
    }

    /// The workers a call over the whole batch may use, at most `threads`: the helpers are
    /// kept only for batches large enough to share.
    fn workers(&mut self, threads: usize) -> usize {
        let helpers = if self.envs.len() >= 2 * PER_THREAD {
            threads.max(1) - 1
        } else {
            0
        };
        if self.helpers.workers() != helpers + 1 {
            self.helpers = Helpers::new(helpers);
        }
        helpers + 1
    }

    /// One uniformly drawn legal action per environment (`None` where there is none), on up
    /// to `threads` threads: environment i draws from a stream of its own seeded by `seed`
    /// and i, so the draws do not depend on the threads.
    pub fn sample_all(&mut self, seed: u64, threads: usize) -> Vec<Option<usize>> {
        if self.drawn_for == Some(seed) {
            return self.drawn.clone();
        }
        let count = self.envs.len();
        let mut out = vec![None; count];
        self.workers(threads);
        let (config, envs) = (&self.config, &self.envs);
        let slots: Vec<Mutex<&mut [Option<usize>]>> =
            out.chunks_mut(CHUNK).map(Mutex::new).collect();
        self.helpers.run(slots.len(), &|_, chunk| {
            let mut slots = slots[chunk].lock().unwrap_or_else(PoisonError::into_inner);
            for (k, slot) in slots.iter_mut().enumerate() {
                let i = chunk * CHUNK + k;
                let mut rng = Rng::new(stream_seed(seed, i as u64));
                *slot = sample_env(config, &envs[i], &mut rng);
            }
        });
        out
    }

    /// Whether `action` is legal in environment `i` now: a candidate digit on a blank cell, or
    /// an undo with something to undo.
    pub fn is_legal(&self, i: usize, action: usize) -> bool {
        is_legal(&self.config, &self.envs[i], action)
    }

    /// The legal actions of environment `i` as one flag per action.
    pub fn masks_into(&self, i: usize, out: &mut [bool]) {
        self.config.masks_into(&self.envs[i], out);
    }

    /// A uniformly drawn legal action of environment `i`, or `None` when there is none.
    pub fn sample_legal(&self, i: usize, rng: &mut Rng) -> Option<usize> {
        sample_env(&self.config, &self.envs[i], rng)
    }

    /// Takes `action` (checked by the caller to be below [`Config::action_count`]) in
    /// environment `i`, whose episode must not have ended.
    pub fn step(&mut self, i: usize, action: usize) -> Result<Outcome> {
        self.drawn_for = None;
        let env = &mut self.envs[i];
        step_env(
            &self.config,
            &self.layout,
            &mut self.solvers[0],
            env,
            action,
        )
    }
}

impl Config {
    /// The legal actions of `env` as one flag per action.
    pub fn masks_into(&self, env: &State, out: &mut [bool]) {
        let n = self.shape.size();
        for (cell, row) in out[..n * n * n].chunks_exact_mut(n).enumerate() {
            let bits = env.candidate_bits(cell);
            for (d, flag) in row.iter_mut().enumerate() {
                *flag = bits >> d & 1 != 0;
            }
        }
        if self.undo {
            out[n * n * n] = !env.history.is_empty();
        }
    }
}

/// Starts a new episode of `env` (see [`Batch::reset`]).
fn reset_env(
    config: &Config,
    layout: &Layout,
    solver: &mut Solver,
    env: &mut State,
    seed: Option<u64>,
    puzzle: Option<&[u8]>,
) -> Result<Outcome> {
    let n = config.shape.size();
    let cell_count = n * n;
    if let Some(seed) = seed {
        env.rng = Rng::new(seed);
    }
    match (puzzle, &config.source) {
        (Some(given), _) => env.puzzle.copy_from_slice(given),
        (None, Source::Puzzles(all)) => {
            let k = env.rng.below((all.len() / cell_count) as u64) as usize;
            env.puzzle
                .copy_from_slice(&all[k * cell_count..(k + 1) * cell_count]);
        }
        (None, Source::Generate(generator)) => {
            let seed = stream_seed(env.rng.next_u64(), 0);
            let made = match &generator.target {
                None => generate::generate(
                    config.shape,
                    &generator.options,
                    seed,
                    solver,
                    &mut Unbounded,
                )?,
                Some(target) => logic_generate::generate(
                    config.shape,
                    &generator.options,
                    target,
                    seed,
                    &mut Unbounded,
                )?,
            };
            env.puzzle.copy_from_slice(&made);
        }
    }
    env.cells.copy_from_slice(&env.puzzle);
    env.history.clear();
    env.steps = 0;
    env.done = false;
    env.seen.fill(0);
    for cell in 0..cell_count {
        let v = env.cells[cell];
        if v != 0 {
            mark_seen(layout, &mut env.seen, n, cell, v);
        }
    }
    env.legal = 0;
    for (cell, free) in env.free.iter_mut().enumerate() {
        *free = env.seen[cell * n..(cell + 1) * n]
            .iter()
            .enumerate()
            .fold(0, |bits, (d, &s)| bits | u64::from(s == 0) << d);
        if env.cells[cell] == 0 {
            env.legal += free.count_ones();
        }
    }
    env.conflicts = count_conflicts(&env.cells, &env.seen, n);
    env.witness_ok =
        env.conflicts == 0 && solver.solve_into(&env.cells, &mut env.witness, &mut Unbounded)?;
    env.solvable = env.witness_ok;
    if env.witness_ok {
        env.solution.copy_from_slice(&env.witness);
    } else {
        env.solution.fill(0);
    }
    env.open.clear();
    for (cell, &v) in env.cells.iter().enumerate() {
        if v == 0 {
            env.open_at[cell] = env.open.len() as u16;
            env.open.push(cell as u16);
        }
    }
    env.blanks = env.open.len() as u32;
    env.correct = env
        .cells
        .iter()
        .zip(&env.solution)
        .filter(|&(&c, &s)| c != 0 && c == s)
        .count() as u32;
    Ok(report(env, None, false, false))
}

/// Whether `action` is legal in `env` now (see [`Batch::is_legal`]).
fn is_legal(config: &Config, env: &State, action: usize) -> bool {
    let n = config.shape.size();
    let placements = n * n * n;
    if action >= placements {
        return config.undo && action == placements && !env.history.is_empty();
    }
    let cell = action / n;
    env.cells[cell] == 0 && env.seen[action] == 0
}

/// A uniformly drawn legal action of `env`, or `None` when there is none.
fn sample_env(config: &Config, env: &State, rng: &mut Rng) -> Option<usize> {
    let n = config.shape.size();
    let undo = config.undo && !env.history.is_empty();
    let placements = env.legal as usize;
    let choices = placements + usize::from(undo);
    if choices == 0 {
        return None;
    }
    // Draw among every (blank cell, digit) pair and the undo until a legal one comes up, which
    // is uniform over the legal actions and quick while many pairs are legal; when few are,
    // draw among the legal ones and find the pick by walking the blank cells' free digits.
    let pairs = env.open.len() * n;
    for _ in 0..SAMPLE_TRIES {
        let pick = rng.below((pairs + usize::from(undo)) as u64) as usize;
        if pick == pairs {
            return Some(n * n * n);
        }
        let cell = usize::from(env.open[pick / n]);
        if env.free[cell] >> (pick % n) & 1 != 0 {
            return Some(cell * n + pick % n);
        }
    }
    let mut pick = rng.below(choices as u64) as usize;
    if pick == placements {
        return Some(n * n * n);
    }
    for &cell in &env.open {
        let cell = usize::from(cell);
        let mut bits = env.free[cell];
        let here = bits.count_ones() as usize;
        if pick < here {
            for _ in 0..pick {
                bits &= bits - 1;
            }
            return Some(cell * n + bits.trailing_zeros() as usize);
        }
        pick -= here;
    }
    unreachable!("the pick is below the count of legal actions")
}

/// Takes `action` in `env` (see [`Batch::step`]).
fn step_env(
    config: &Config,
    layout: &Layout,
    solver: &mut Solver,
    env: &mut State,
    action: usize,
) -> Result<Outcome> {
    let n = config.shape.size();
    let placements = n * n * n;
    let rewards = config.rewards;
    let on_invalid = config.on_invalid;
    let legal = is_legal(config, env, action);
    env.steps += 1;
    let event = if action == placements && legal {
        let cell = usize::from(env.history.pop().expect("undo is legal"));
        let v = env.cells[cell];
        mark::<false>(layout, env, n, cell, v);
        env.cells[cell] = 0;
        env.legal += env.free[cell].count_ones();
        env.blanks += 1;
        env.open_at[cell] = env.open.len() as u16;
        env.open.push(cell as u16);
        env.correct -= u32::from(v == env.solution[cell]);
        if env.conflicts > 0 {
            env.conflicts = count_conflicts(&env.cells, &env.seen, n);
        }
        // A completion of the grid completes it with a cell fewer.
        if !env.witness_ok {
            settle(solver, env)?;
        }
        Event::Undo
    } else if action < placements
        && env.cells[action / n] == 0
        && (legal || on_invalid == OnInvalid::Penalise)
    {
        let cell = action / n;
        let v = (action % n + 1) as u8;
        env.legal -= env.free[cell].count_ones();
        env.cells[cell] = v;
        env.blanks -= 1;
        let at = usize::from(env.open_at[cell]);
        let last = env.open.pop().expect("the cell was open");
        if at < env.open.len() {
            env.open[at] = last;
            env.open_at[usize::from(last)] = at as u16;
        }
        env.correct += u32::from(v == env.solution[cell]);
        env.history.push(cell as u16);
        mark::<true>(layout, env, n, cell, v);
        if legal {
            if env.witness_ok && env.witness[cell] != v {
                env.witness_ok = false;
            }
            // Without a completion, search for one, unless the grid could not be solved
            // before: a further clue cannot make it solvable.
            if !env.witness_ok && env.solvable && env.conflicts == 0 {
                settle(solver, env)?;
            }
            if env.blanks == 0 && env.conflicts == 0 {
                Event::Solved
            } else if env.solvable {
                Event::Progress
            } else {
                Event::DeadEnd
            }
        } else {
            env.conflicts = count_conflicts(&env.cells, &env.seen, n);
            env.witness_ok = false;
            env.solvable = false;
            Event::Conflict
        }
    } else {
        Event::Invalid
    };
    let stuck = || {
        let undo = config.undo && !env.history.is_empty();
        let placeable = match on_invalid {
            OnInvalid::Penalise => env.blanks > 0,
            _ => env.legal > 0,
        };
        !placeable && !undo
    };
    let terminated = event == Event::Solved
        || (event == Event::Invalid && on_invalid == OnInvalid::End)
        || stuck();
    let truncated = !terminated && env.steps >= config.max_steps;
    env.done = terminated || truncated;
    Ok(report(
        env,
        Some((event, rewards.of(event))),
        terminated,
        truncated,
    ))
}

/// Fits the shape, has a blank, breaks no rule.
fn check_puzzle(shape: BoxShape, rules: &Rules, puzzle: &[u8]) -> Result<()> {
    let n = shape.size();
    if puzzle.len() != n * n {
        return Err(Error::Shape(format!(
            "a puzzle of this environment has {} cells, not {}",
            n * n,
            puzzle.len()
        )));
    }
    if let Some(&bad) = puzzle.iter().find(|&&v| usize::from(v) > n) {
        return Err(Error::Shape(format!(
            "{bad} is not a value of a {n}x{n} grid (0 for a blank, 1 to {n})"
        )));
    }
    if puzzle.iter().all(|&v| v != 0) {
        return Err(Error::Shape(
            "the puzzle has no blank cell, so there is nothing to play".into(),
        ));
    }
    match find_conflict(shape, rules, puzzle) {
        Some(err) => Err(err),
        None => Ok(()),
    }
}

/// Searches a completion of the current grid (no conflicts) and notes whether there is one.
fn settle(solver: &mut Solver, env: &mut State) -> Result<()> {
    env.witness_ok =
        env.conflicts == 0 && solver.solve_into(&env.cells, &mut env.witness, &mut Unbounded)?;
    env.solvable = env.witness_ok;
    Ok(())
}

/// Adds (`ADD`) or takes away the marks value `v` at `cell` puts on its peers and, under
/// non-consecutive, on its orthogonal neighbours' digits one away, keeping the free digits and
/// the count of legal placements with them.
fn mark<const ADD: bool>(layout: &Layout, env: &mut State, n: usize, cell: usize, v: u8) {
    let d = usize::from(v) - 1;
    let mut marks = Marks {
        seen: &mut env.seen,
        free: &mut env.free,
        cells: &env.cells,
        legal: &mut env.legal,
        n,
    };
    for &p in layout.peers(cell) {
        marks.bump::<ADD>(usize::from(p), d);
    }
    if let Some(near) = &layout.orthogonal {
        for &p in &near[cell] {
            let p = usize::from(p);
            if d > 0 {
                marks.bump::<ADD>(p, d - 1);
            }
            if d + 1 < n {
                marks.bump::<ADD>(p, d + 1);
            }
        }
    }
}

/// What [`mark`] changes.
struct Marks<'a> {
    seen: &'a mut [u8],
    free: &'a mut [u64],
    cells: &'a [u8],
    legal: &'a mut u32,
    n: usize,
}

impl Marks<'_> {
    /// One mark more (`ADD`) or fewer on digit `d` of cell `p`.
    #[inline(always)]
    fn bump<const ADD: bool>(&mut self, p: usize, d: usize) {
        let at = p * self.n + d;
        // A digit turns forbidden or free only when its count leaves or reaches zero; the
        // updates are arithmetic on that flag, since a branch on it is a coin toss.
        let blank = u32::from(self.cells[p] == 0);
        if ADD {
            self.seen[at] += 1;
            let turned = self.seen[at] == 1;
            self.free[p] &= !(u64::from(turned) << d);
            *self.legal -= u32::from(turned) & blank;
        } else {
            self.seen[at] -= 1;
            let turned = self.seen[at] == 0;
            self.free[p] |= u64::from(turned) << d;
            *self.legal += u32::from(turned) & blank;
        }
    }
}

/// Adds the marks of value `v` at `cell` to `seen` alone, as a reset does before it counts the
/// free digits once.
fn mark_seen(layout: &Layout, seen: &mut [u8], n: usize, cell: usize, v: u8) {
    let d = usize::from(v) - 1;
    for &p in layout.peers(cell) {
        seen[usize::from(p) * n + d] += 1;
    }
    if let Some(near) = &layout.orthogonal {
        for &p in &near[cell] {
            let p = usize::from(p);
            if d > 0 {
                seen[p * n + d - 1] += 1;
            }
            if d + 1 < n {
                seen[p * n + d + 1] += 1;
            }
        }
    }
}

fn count_conflicts(cells: &[u8], seen: &[u8], n: usize) -> u32 {
    cells
        .iter()
        .enumerate()
        .filter(|&(cell, &v)| v != 0 && seen[cell * n + usize::from(v) - 1] > 0)
        .count() as u32
}

fn report(env: &State, event: Option<(Event, f64)>, terminated: bool, truncated: bool) -> Outcome {
    let complete = env.blanks == 0;
    Outcome {
        event: event.map(|(e, _)| e),
        reward: event.map_or(0.0, |(_, r)| r),
        terminated,
        truncated,
        conflicts: env.conflicts,
        solved: complete && env.conflicts == 0,
        still_solvable: env.solvable,
        cells_correct: env.correct,
    }
}

impl State {
    /// The cells now, row-major, 0 = blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The puzzle the episode started from.
    pub fn puzzle(&self) -> &[u8] {
        &self.puzzle
    }

    /// The solution found at reset (all 0 when the puzzle has none).
    pub fn solution(&self) -> &[u8] {
        &self.solution
    }

    /// The digits that are candidates of `cell` now (bit `digit - 1`), none for a filled cell.
    pub fn candidate_bits(&self, cell: usize) -> u64 {
        if self.cells[cell] == 0 {
            self.free[cell]
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::make::generate::Symmetry;

    fn config(source: Source, on_invalid: OnInvalid, undo: bool) -> Config {
        Config {
            shape: BoxShape::new(2, 2).unwrap(),
            rules: None,
            source,
            on_invalid,
            rewards: Rewards {
                values: [1.0, 0.1, -0.1, -0.5, -1.0, -0.05],
            },
            max_steps: 64,
            undo,
        }
    }

    const PUZZLE: [u8; 16] = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0];

    #[test]
    fn the_last_cell_solves() {
        let mut batch = Batch::new(
            config(Source::Puzzles(PUZZLE.to_vec()), OnInvalid::Mask, false),
            1,
        )
        .unwrap();
        let start = batch.reset(0, Some(7), None).unwrap();
        assert!(start.still_solvable && !start.solved);
        let last = 15 * 4;
        assert!(batch.is_legal(0, last));
        assert!(!batch.is_legal(0, last + 1));
        let out = batch.step(0, last + 1).unwrap();
        assert_eq!((out.event, out.terminated), (Some(Event::Invalid), false));
        let out = batch.step(0, last).unwrap();
        assert!(out.solved && out.terminated && out.event == Some(Event::Solved));
    }

    #[test]
    fn a_conflict_counts_and_undo_takes_it_back() {
        let mut puzzle = PUZZLE;
        puzzle[14] = 0;
        let mut batch = Batch::new(
            config(Source::Puzzles(puzzle.to_vec()), OnInvalid::Penalise, true),
            1,
        )
        .unwrap();
        batch.reset(0, Some(1), None).unwrap();
        let out = batch.step(0, 15 * 4 + 2).unwrap(); // a 3 beside the row's 3
        assert_eq!(out.event, Some(Event::Conflict));
        assert!(out.conflicts >= 2 && !out.still_solvable);
        let out = batch.step(0, 64).unwrap();
        assert_eq!(
            (out.event, out.conflicts, out.still_solvable),
            (Some(Event::Undo), 0, true)
        );
    }

    /// The legal placements and free digits recounted from the cells and marks.
    fn check_counts(env: &State, n: usize) {
        for cell in 0..env.cells.len() {
            for d in 0..n {
                let free = env.seen[cell * n + d] == 0;
                assert_eq!(env.free[cell] >> d & 1 != 0, free, "cell {cell} digit {d}");
            }
        }
        let legal = (0..env.cells.len())
            .filter(|&c| env.cells[c] == 0)
            .map(|c| (0..n).filter(|&d| env.seen[c * n + d] == 0).count())
            .sum::<usize>();
        assert_eq!(env.legal as usize, legal);
    }

    #[test]
    fn the_legal_count_follows_placements_conflicts_and_undos() {
        let source = Source::Generate(Generator {
            options: Options {
                clues: None,
                symmetry: Symmetry::None,
                minimal: false,
            },
            target: None,
        });
        let mut batch = Batch::new(config(source, OnInvalid::Penalise, true), 1).unwrap();
        let mut rng = Rng::new(11);
        for episode in 0..40 {
            batch.reset(0, Some(episode), None).unwrap();
            check_counts(batch.env(0), 4);
            while !batch.env(0).done {
                // Any action at all: legal and conflicting placements, filled cells, undos.
                let action = rng.below(65) as usize;
                batch.step(0, action).unwrap();
                check_counts(batch.env(0), 4);
            }
        }
    }

    #[test]
    fn actions_drawn_during_a_batch_call_are_those_sample_all_draws() {
        let source = Source::Generate(Generator {
            options: Options {
                clues: None,
                symmetry: Symmetry::None,
                minimal: false,
            },
            target: None,
        });
        let count = 300;
        let mut batch = Batch::new(config(source, OnInvalid::Mask, true), count).unwrap();
        let seeds: Vec<Option<u64>> = (0..count as u64).map(Some).collect();
        let outs = vec![0u8; count.div_ceil(CHUNK)];
        batch
            .run_all(&seeds, None, None, Some(5), 2, outs, |_, _, _, _, _| {})
            .unwrap();
        for round in 0..20 {
            let drawn = batch.sample_all(5 + round, 2);
            batch.drawn_for = None;
            let fresh = batch.sample_all(5 + round, 2);
            assert_eq!(drawn, fresh, "round {round}");
            for (i, action) in fresh.iter().enumerate() {
                assert!(action.is_none_or(|a| batch.is_legal(i, a)));
            }
            let actions: Vec<usize> = fresh.iter().map(|a| a.unwrap_or(0)).collect();
            let outs = vec![0u8; count.div_ceil(CHUNK)];
            batch
                .run_all(
                    &[],
                    None,
                    Some(&actions),
                    Some(6 + round),
                    2,
                    outs,
                    |_, _, _, _, _| {},
                )
                .unwrap();
            // A draw for another seed is made afresh.
            assert_eq!(batch.drawn_for, Some(6 + round));
        }
    }

    #[test]
    fn generated_episodes_follow_the_seed() {
        let source = Source::Generate(Generator {
            options: Options {
                clues: None,
                symmetry: Symmetry::None,
                minimal: false,
            },
            target: None,
        });
        let mut batch = Batch::new(config(source, OnInvalid::End, false), 2).unwrap();
        batch.reset(0, Some(5), None).unwrap();
        batch.reset(1, Some(5), None).unwrap();
        assert_eq!(batch.env(0).puzzle(), batch.env(1).puzzle());
        let mut rng = Rng::new(3);
        let legal: Vec<usize> = (0..64).filter(|&a| batch.is_legal(0, a)).collect();
        let mut drawn = vec![0u32; 64];
        for _ in 0..4000 {
            drawn[batch.sample_legal(0, &mut rng).unwrap()] += 1;
        }
        for (a, &count) in drawn.iter().enumerate() {
            assert_eq!(
                count > 0,
                legal.contains(&a),
                "action {a} drawn {count} times"
            );
        }
        while !batch.env(0).done {
            let a = batch.sample_legal(0, &mut rng).unwrap();
            batch.step(0, a).unwrap();
        }
    }
}
