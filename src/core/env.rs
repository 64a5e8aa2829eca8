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
//! search, and a placement on a grid that cannot be solved keeps it unsolvable. When the
//! episode's puzzle has exactly one solution (known from the generator, or counted once per
//! puzzle of a list), no search is needed at all: every completion of the grid completes the
//! puzzle, so the grid can be solved exactly when it breaks no rule and every filled cell holds
//! the solution's digit. That is the answer a search would give, not a look at the solution
//! beyond it.

use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::core::helpers::Helpers;
use crate::core::make::generate::{self, Options};
use crate::core::make::logic_generate::{self, Target};
use crate::core::make::random::{stream_seed, Rng};
use crate::core::rules::{find_conflict, Layout};
#[cfg(target_arch = "x86_64")]
use crate::core::search::nine::modern;
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
    /// Per digit and cell (`(digit - 1) * n * n + cell`), how many filled cells forbid the
    /// digit there. Digit-major, so that a placement's marks on its peers fall in the few cache
    /// lines of one digit's plane rather than one line per peer.
    seen: Vec<u8>,
    /// Per cell, the digits no filled cell forbids there (bit `digit - 1`): `seen`'s zeros, in
    /// [`words`] 16-bit words per cell (one on grids up to 16x16, where it keeps a board's
    /// masks in a few cache lines).
    free: Vec<u16>,
    /// `free`'s words per cell.
    words: usize,
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
    /// The puzzle has exactly one solution, `solution` (and `witness` stays equal to it).
    unique: bool,
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
    /// Per puzzle of a [`Source::Puzzles`], once an episode has played it, its solution when it
    /// has exactly one (`None` when it has several or none), so that later episodes of it need
    /// no search at reset.
    unique: Vec<Listed>,
}

/// What [`Batch::unique`] knows of one listed puzzle.
type Listed = OnceLock<Option<Box<[u8]>>>;

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

/// What every chunk of one [`Batch::run_all`] shares, and the chunk's first environment.
struct Pass<'a> {
    config: &'a Config,
    layout: &'a Layout,
    unique: &'a [Listed],
    seeds: &'a [Option<u64>],
    puzzle: Option<&'a [u8]>,
    step: Option<&'a [usize]>,
    draw: Option<u64>,
    first: usize,
}

impl Pass<'_> {
    /// Runs one chunk's environments, compiled for this CPU's instructions and for 9x9 grids
    /// when it can: the step's arithmetic is a few dozen instructions per peer, so counting
    /// bits in one instruction and sizes known at compile time matter.
    fn run<C, R>(
        &self,
        solver: &mut Solver,
        envs: &mut [State],
        drawn: &mut [Option<usize>],
        out: &mut C,
        record: &R,
    ) -> Result<()>
    where
        R: Fn(&mut C, usize, &Config, &State, Outcome),
    {
        let nine = self.config.shape.size() == 9;
        #[cfg(target_arch = "x86_64")]
        if modern() {
            // SAFETY: `modern` found every feature these are compiled for.
            return unsafe {
                if nine {
                    self.run_modern::<9, C, R>(solver, envs, drawn, out, record)
                } else {
                    self.run_modern::<0, C, R>(solver, envs, drawn, out, record)
                }
            };
        }
        if nine {
            self.run_sized::<9, C, R>(solver, envs, drawn, out, record)
        } else {
            self.run_sized::<0, C, R>(solver, envs, drawn, out, record)
        }
    }

    /// [`Pass::run_sized`] compiled for the instructions [`modern`] checks.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    unsafe fn run_modern<const N: usize, C, R>(
        &self,
        solver: &mut Solver,
        envs: &mut [State],
        drawn: &mut [Option<usize>],
        out: &mut C,
        record: &R,
    ) -> Result<()>
    where
        R: Fn(&mut C, usize, &Config, &State, Outcome),
    {
        self.run_sized::<N, C, R>(solver, envs, drawn, out, record)
    }

    /// The chunk's environments one by one, on `N`x`N` grids (`N` 0: the shape's size).
    #[inline(always)]
    fn run_sized<const N: usize, C, R>(
        &self,
        solver: &mut Solver,
        envs: &mut [State],
        drawn: &mut [Option<usize>],
        out: &mut C,
        record: &R,
    ) -> Result<()>
    where
        R: Fn(&mut C, usize, &Config, &State, Outcome),
    {
        let (config, layout) = (self.config, self.layout);
        let n = size::<N>(config);
        for k in 0..envs.len() {
            let i = self.first + k;
            // The next environment's state is scattered over memory no cache holds after a
            // whole batch went by: ask for the lines its step reads while this one steps.
            if let (Some(actions), Some(next)) = (self.step, envs.get(k + 1)) {
                next.prefetch_step(n, actions[i + 1]);
            }
            let env = &mut envs[k];
            let outcome = match self.step {
                Some(actions) if !env.done => {
                    step_env::<N>(config, layout, solver, env, actions[i])?
                }
                Some(_) => reset_env::<N>(config, layout, self.unique, solver, env, None, None)?,
                None => reset_env::<N>(
                    config,
                    layout,
                    self.unique,
                    solver,
                    env,
                    self.seeds[i],
                    self.puzzle,
                )?,
            };
            record(out, k, config, env, outcome);
            if let Some(seed) = self.draw {
                let mut rng = Rng::new(stream_seed(seed, i as u64));
                drawn[k] = sample_env::<N>(config, env, &mut rng);
            }
        }
        Ok(())
    }
}

/// Draws the actions of environments `first..` into `slots` as [`Batch::sample_all`] does,
/// compiled as [`Pass::run`] is.
fn sample_chunk(
    config: &Config,
    envs: &[State],
    first: usize,
    seed: u64,
    slots: &mut [Option<usize>],
) {
    let nine = config.shape.size() == 9;
    #[cfg(target_arch = "x86_64")]
    if modern() {
        // SAFETY: `modern` found every feature this is compiled for.
        unsafe {
            if nine {
                sample_modern::<9>(config, envs, first, seed, slots);
            } else {
                sample_modern::<0>(config, envs, first, seed, slots);
            }
        }
        return;
    }
    if nine {
        sample_sized::<9>(config, envs, first, seed, slots);
    } else {
        sample_sized::<0>(config, envs, first, seed, slots);
    }
}

/// [`sample_sized`] compiled for the instructions [`modern`] checks.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
unsafe fn sample_modern<const N: usize>(
    config: &Config,
    envs: &[State],
    first: usize,
    seed: u64,
    slots: &mut [Option<usize>],
) {
    sample_sized::<N>(config, envs, first, seed, slots);
}

#[inline(always)]
fn sample_sized<const N: usize>(
    config: &Config,
    envs: &[State],
    first: usize,
    seed: u64,
    slots: &mut [Option<usize>],
) {
    for (k, slot) in slots.iter_mut().enumerate() {
        let i = first + k;
        if let Some(next) = envs.get(i + 1) {
            prefetch_lines(&next.open[..]);
            prefetch_lines(&next.free[..]);
        }
        let mut rng = Rng::new(stream_seed(seed, i as u64));
        *slot = sample_env::<N>(config, &envs[i], &mut rng);
    }
}

/// `n` of a call's grids: `N` when the call is compiled for one size, else the shape's.
#[inline(always)]
fn size<const N: usize>(config: &Config) -> usize {
    if N == 0 {
        config.shape.size()
    } else {
        N
    }
}

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
            free: vec![0; cells * words(n)],
            words: words(n),
            legal: 0,
            history: Vec::with_capacity(cells),
            open: Vec::with_capacity(cells),
            open_at: vec![0; cells],
            solution: vec![0; cells],
            witness: vec![0; cells],
            witness_ok: false,
            solvable: false,
            unique: false,
            conflicts: 0,
            blanks: cells as u32,
            correct: 0,
            steps: 0,
            done: true,
        };
        let unique = match &config.source {
            Source::Puzzles(all) => (0..all.len() / cells).map(|_| Listed::new()).collect(),
            Source::Generate(_) => Vec::new(),
        };
        Ok(Batch {
            unique,
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
        reset_env::<0>(
            &self.config,
            &self.layout,
            &self.unique,
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
        let (config, layout, unique) = (&self.config, &self.layout, &self.unique);
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
            let pass = Pass {
                config,
                layout,
                unique,
                seeds,
                puzzle,
                step,
                draw,
                first: chunk * CHUNK,
            };
            *result = pass.run(&mut solver, envs, drawn, out, &record);
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
            sample_chunk(config, envs, chunk * CHUNK, seed, &mut slots);
        });
        out
    }

    /// Whether `action` is legal in environment `i` now: a candidate digit on a blank cell, or
    /// an undo with something to undo.
    pub fn is_legal(&self, i: usize, action: usize) -> bool {
        is_legal::<0>(&self.config, &self.envs[i], action)
    }

    /// The legal actions of environment `i` as one flag per action.
    pub fn masks_into(&self, i: usize, out: &mut [bool]) {
        self.config.masks_into(&self.envs[i], out);
    }

    /// A uniformly drawn legal action of environment `i`, or `None` when there is none.
    pub fn sample_legal(&self, i: usize, rng: &mut Rng) -> Option<usize> {
        sample_env::<0>(&self.config, &self.envs[i], rng)
    }

    /// Takes `action` (checked by the caller to be below [`Config::action_count`]) in
    /// environment `i`, whose episode must not have ended.
    pub fn step(&mut self, i: usize, action: usize) -> Result<Outcome> {
        self.drawn_for = None;
        let env = &mut self.envs[i];
        step_env::<0>(
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
#[inline(always)]
fn reset_env<const N: usize>(
    config: &Config,
    layout: &Layout,
    unique: &[Listed],
    solver: &mut Solver,
    env: &mut State,
    seed: Option<u64>,
    puzzle: Option<&[u8]>,
) -> Result<Outcome> {
    let n = size::<N>(config);
    let cell_count = n * n;
    if let Some(seed) = seed {
        env.rng = Rng::new(seed);
    }
    // Where a listed puzzle's solution is kept, and whether the puzzle is known to have one
    // solution without counting.
    let (listed, generated) = match (puzzle, &config.source) {
        (Some(given), _) => {
            env.puzzle.copy_from_slice(given);
            (None, false)
        }
        (None, Source::Puzzles(all)) => {
            let k = env.rng.below((all.len() / cell_count) as u64) as usize;
            env.puzzle
                .copy_from_slice(&all[k * cell_count..(k + 1) * cell_count]);
            (Some(&unique[k]), false)
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
            // The generator's puzzles have one solution; those made to a level are counted,
            // being promised solvable by logic rather than unique.
            (None, generator.target.is_none())
        }
    };
    env.cells.copy_from_slice(&env.puzzle);
    env.history.clear();
    env.steps = 0;
    env.done = false;
    // Sliced to their lengths, which a call compiled for one size knows, so that the loops
    // below run without bounds checks, in vector registers where there are some.
    let seen = &mut env.seen[..cell_count * n];
    seen.fill(0);
    for (cell, &v) in env.cells[..cell_count].iter().enumerate() {
        if v != 0 {
            mark_seen(layout, seen, n, cell, v);
        }
    }
    // The free digits a plane of `seen` at a time, each a run of bytes.
    let w = words(n);
    let free = &mut env.free[..cell_count * w];
    free.fill(0);
    if w == 1 {
        for (d, plane) in seen.chunks_exact(cell_count).enumerate() {
            for (word, &count) in free.iter_mut().zip(plane) {
                *word |= u16::from(count == 0) << d;
            }
        }
    } else {
        for (d, plane) in seen.chunks_exact(cell_count).enumerate() {
            let (at, bit) = (d / 16, d % 16);
            for (words, &count) in free.chunks_exact_mut(w).zip(plane) {
                words[at] |= u16::from(count == 0) << bit;
            }
        }
    }
    env.legal = env.cells[..cell_count]
        .iter()
        .zip(free.chunks_exact(w))
        .map(|(&v, words)| u32::from(v == 0) * words.iter().map(|x| x.count_ones()).sum::<u32>())
        .sum();
    env.conflicts = count_conflicts(&env.cells, &env.seen);
    let known = listed.and_then(OnceLock::get);
    if let (Some(Some(solution)), 0) = (known, env.conflicts) {
        env.witness.copy_from_slice(solution);
        env.witness_ok = true;
        env.unique = true;
    } else {
        env.witness_ok = env.conflicts == 0
            && solver.solve_into(&env.cells, &mut env.witness, &mut Unbounded)?;
        env.unique = env.witness_ok
            && match known {
                // Listed and known to have several solutions.
                Some(_) => false,
                None if generated => true,
                None => {
                    let one = solver.count(&env.cells, Some(2), &mut Unbounded)? == 1;
                    if let Some(slot) = listed {
                        slot.get_or_init(|| one.then(|| env.witness.clone().into_boxed_slice()));
                    }
                    one
                }
            };
    }
    env.solvable = env.witness_ok;
    if env.witness_ok {
        env.solution.copy_from_slice(&env.witness);
    } else {
        env.solution.fill(0);
    }
    // Every cell written at the list's end and kept by counting it only when blank: a branch
    // on whether a cell is blank would be a coin toss per cell. A filled cell's `open_at` is
    // never read.
    env.open.clear();
    env.open.resize(cell_count, 0);
    let (open, open_at) = (&mut env.open[..cell_count], &mut env.open_at[..cell_count]);
    let mut blanks = 0;
    for (cell, (&v, at)) in env.cells[..cell_count].iter().zip(open_at).enumerate() {
        open[blanks] = cell as u16;
        *at = blanks as u16;
        blanks += usize::from(v == 0);
    }
    env.open.truncate(blanks);
    env.blanks = blanks as u32;
    env.correct = env.cells[..cell_count]
        .iter()
        .zip(&env.solution[..cell_count])
        .map(|(&c, &s)| u32::from(c != 0) & u32::from(c == s))
        .sum();
    Ok(report(env, None, false, false))
}

/// Whether `action` is legal in `env` now (see [`Batch::is_legal`]).
#[inline(always)]
fn is_legal<const N: usize>(config: &Config, env: &State, action: usize) -> bool {
    let n = size::<N>(config);
    let placements = n * n * n;
    if action >= placements {
        return config.undo && action == placements && !env.history.is_empty();
    }
    let cell = action / n;
    env.cells[cell] == 0 && env.free_bit_of(cell, action % n, words(n))
}

/// A uniformly drawn legal action of `env`, or `None` when there is none.
#[inline(always)]
fn sample_env<const N: usize>(config: &Config, env: &State, rng: &mut Rng) -> Option<usize> {
    let n = size::<N>(config);
    let w = words(n);
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
        if env.free_bit_of(cell, pick % n, w) {
            return Some(cell * n + pick % n);
        }
    }
    let mut pick = rng.below(choices as u64) as usize;
    if pick == placements {
        return Some(n * n * n);
    }
    for &cell in &env.open {
        let cell = usize::from(cell);
        let mut bits = env.free_of(cell, w);
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
#[inline(always)]
fn step_env<const N: usize>(
    config: &Config,
    layout: &Layout,
    solver: &mut Solver,
    env: &mut State,
    action: usize,
) -> Result<Outcome> {
    let n = size::<N>(config);
    let w = words(n);
    let placements = n * n * n;
    let rewards = config.rewards;
    let on_invalid = config.on_invalid;
    let legal = is_legal::<N>(config, env, action);
    env.steps += 1;
    let event = if action == placements && legal {
        let cell = usize::from(env.history.pop().expect("undo is legal"));
        let v = env.cells[cell];
        mark::<false>(layout, env, n, cell, v);
        env.cells[cell] = 0;
        env.legal += env.free_of(cell, w).count_ones();
        env.blanks += 1;
        env.open_at[cell] = env.open.len() as u16;
        env.open.push(cell as u16);
        env.correct -= u32::from(v == env.solution[cell]);
        if env.conflicts > 0 {
            env.conflicts = count_conflicts(&env.cells, &env.seen);
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
        env.legal -= env.free_of(cell, w).count_ones();
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
            env.conflicts = count_conflicts(&env.cells, &env.seen);
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
    if env.unique {
        // The completions of the grid are among the puzzle's, its one solution or none.
        let filled = env.cells.len() - env.blanks as usize;
        env.solvable = env.conflicts == 0 && env.correct as usize == filled;
        env.witness_ok = env.solvable;
        return Ok(());
    }
    env.witness_ok =
        env.conflicts == 0 && solver.solve_into(&env.cells, &mut env.witness, &mut Unbounded)?;
    env.solvable = env.witness_ok;
    Ok(())
}

/// Adds (`ADD`) or takes away the marks value `v` at `cell` puts on its peers and, under
/// non-consecutive, on its orthogonal neighbours' digits one away, keeping the free digits and
/// the count of legal placements with them.
#[inline(always)]
fn mark<const ADD: bool>(layout: &Layout, env: &mut State, n: usize, cell: usize, v: u8) {
    let d = usize::from(v) - 1;
    let (cells, w) = (n * n, words(n));
    // Sliced to their lengths, which a call compiled for one size knows: one check of a peer
    // against the cell count then covers every access.
    let mut marks = Marks {
        seen: &mut env.seen[..cells * n],
        free: &mut env.free[..cells * w],
        cells: &env.cells[..cells],
        legal: env.legal,
        words: w,
    };
    let plane = &mut marks.seen[d * cells..(d + 1) * cells];
    let (word, bit) = (d / 16, d % 16);
    for &p in layout.peers(cell) {
        let p = usize::from(p);
        Marks::bump_in::<ADD>(
            &mut plane[p],
            &mut marks.free[p * w + word],
            bit,
            marks.cells[p] == 0,
            &mut marks.legal,
        );
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
    // Counted in a local: stored through a reference, the compiler writes it back on every
    // peer, since the byte stores might alias it.
    env.legal = marks.legal;
}

/// What [`mark`] changes.
struct Marks<'a> {
    seen: &'a mut [u8],
    free: &'a mut [u16],
    cells: &'a [u8],
    legal: u32,
    words: usize,
}

impl Marks<'_> {
    /// One mark more (`ADD`) or fewer on digit `d` of cell `p`.
    #[inline(always)]
    fn bump<const ADD: bool>(&mut self, p: usize, d: usize) {
        let at = d * self.cells.len() + p;
        let word = p * self.words + d / 16;
        Marks::bump_in::<ADD>(
            &mut self.seen[at],
            &mut self.free[word],
            d % 16,
            self.cells[p] == 0,
            &mut self.legal,
        );
    }

    /// One mark more (`ADD`) or fewer on the count `seen` of a cell's digit, whose free bit is
    /// `bit` of `free`; `blank` says whether the cell is blank.
    #[inline(always)]
    fn bump_in<const ADD: bool>(
        seen: &mut u8,
        free: &mut u16,
        bit: usize,
        blank: bool,
        legal: &mut u32,
    ) {
        // A digit turns forbidden or free only when its count leaves or reaches zero; the
        // updates are arithmetic on that flag, since a branch on it is a coin toss.
        let blank = u32::from(blank);
        if ADD {
            *seen += 1;
            let turned = *seen == 1;
            *free &= !(u16::from(turned) << bit);
            *legal -= u32::from(turned) & blank;
        } else {
            *seen -= 1;
            let turned = *seen == 0;
            *free |= u16::from(turned) << bit;
            *legal += u32::from(turned) & blank;
        }
    }
}

/// Adds the marks of value `v` at `cell` to `seen` alone, as a reset does before it counts the
/// free digits once.
#[inline(always)]
fn mark_seen(layout: &Layout, seen: &mut [u8], n: usize, cell: usize, v: u8) {
    let d = usize::from(v) - 1;
    let cells = n * n;
    let plane = &mut seen[d * cells..(d + 1) * cells];
    for &p in layout.peers(cell) {
        plane[usize::from(p)] += 1;
    }
    if let Some(near) = &layout.orthogonal {
        for &p in &near[cell] {
            let p = usize::from(p);
            if d > 0 {
                seen[(d - 1) * cells + p] += 1;
            }
            if d + 1 < n {
                seen[(d + 1) * cells + p] += 1;
            }
        }
    }
}

fn count_conflicts(cells: &[u8], seen: &[u8]) -> u32 {
    // Without a branch per cell: a blank cell reads digit 1's count and does not count it.
    cells
        .iter()
        .enumerate()
        .map(|(cell, &v)| {
            let d = usize::from(v.max(1)) - 1;
            u32::from(v != 0) & u32::from(seen[d * cells.len() + cell] > 0)
        })
        .sum()
}

/// Asks the cache for the line holding `slice[at]`, if there is one.
#[inline(always)]
fn prefetch<T>(slice: &[T], at: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(item) = slice.get(at) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE, which the intrinsic needs, is part of every x86-64; a prefetch only
        // hints the cache, reading nothing, and the pointer is to a live element anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slice, at);
}

/// [`prefetch`] of each cache line of `slice`, up to [`PREFETCH_LINES`] of them.
#[inline(always)]
fn prefetch_lines<T>(slice: &[T]) {
    let step = (64 / size_of::<T>()).max(1);
    for at in (0..slice.len()).step_by(step).take(PREFETCH_LINES) {
        prefetch(slice, at);
    }
    prefetch(slice, slice.len().saturating_sub(1));
}

/// The most lines [`prefetch_lines`] asks for: more than a 9x9 board's arrays span, and few
/// enough not to flood the cache on big grids.
const PREFETCH_LINES: usize = 4;

/// The 16-bit words of one cell's free digits on an `n`x`n` grid.
fn words(n: usize) -> usize {
    n.div_ceil(16)
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
            self.free_bits(cell)
        } else {
            0
        }
    }

    /// The digits no filled cell forbids at `cell` (bit `digit - 1`), blank or not.
    #[inline]
    fn free_bits(&self, cell: usize) -> u64 {
        self.free_of(cell, self.words)
    }

    /// [`State::free_bits`] with `w` the words per cell, which callers compiled for one size
    /// know at compile time.
    #[inline(always)]
    fn free_of(&self, cell: usize, w: usize) -> u64 {
        self.free[cell * w..(cell + 1) * w]
            .iter()
            .rev()
            .fold(0, |bits, &word| bits << 16 | u64::from(word))
    }

    /// Hints the cache to load what a step by `action` reads and writes of this state (and
    /// what the output copies of it); does nothing where hints are not available.
    #[inline(always)]
    fn prefetch_step(&self, n: usize, action: usize) {
        let cells = n * n;
        if self.done || action >= n * n * n {
            return;
        }
        let (cell, d) = (action / n, action % n);
        // Whole (on 9x9, where each is a few lines): the cells and puzzle the output copies,
        // the digit's plane of marks the peers take, the free digits and blank cells that
        // drawing the next action reads at random.
        prefetch_lines(&self.cells[..cells]);
        prefetch_lines(&self.puzzle[..cells]);
        prefetch_lines(&self.seen[d * cells..(d + 1) * cells]);
        prefetch_lines(&self.free[..cells * words(n)]);
        prefetch_lines(&self.open[..]);
        prefetch(&self.solution, cell);
        prefetch(&self.witness, cell);
        prefetch(&self.open_at, cell);
        prefetch(&self.history, self.history.len().saturating_sub(1));
    }

    /// Whether no filled cell forbids digit `d + 1` at `cell`, `w` the words per cell.
    #[inline(always)]
    fn free_bit_of(&self, cell: usize, d: usize, w: usize) -> bool {
        self.free[cell * w + d / 16] >> (d % 16) & 1 != 0
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

    /// The generator's 4x4 puzzles, no clue count, symmetry or minimality asked.
    fn generated() -> Source {
        Source::Generate(Generator {
            options: Options {
                clues: None,
                symmetry: Symmetry::None,
                minimal: false,
            },
            target: None,
        })
    }

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
        let cells = env.cells.len();
        for cell in 0..cells {
            for d in 0..n {
                let free = env.seen[d * cells + cell] == 0;
                assert_eq!(
                    env.free_bits(cell) >> d & 1 != 0,
                    free,
                    "cell {cell} digit {d}"
                );
                assert_eq!(
                    env.free_bit_of(cell, d, env.words),
                    free,
                    "cell {cell} digit {d}"
                );
            }
        }
        let legal = (0..cells)
            .filter(|&c| env.cells[c] == 0)
            .map(|c| (0..n).filter(|&d| env.seen[d * cells + c] == 0).count())
            .sum::<usize>();
        assert_eq!(env.legal as usize, legal);
    }

    #[test]
    fn the_legal_count_follows_placements_conflicts_and_undos() {
        let source = generated();
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
    fn the_free_digits_span_words_on_grids_past_16x16() {
        // A 25x25 grid keeps two words of free digits per cell; a pattern solution with a
        // blank every few cells keeps the still-solvable searches short.
        let (rows, cols) = (5, 5);
        let n = rows * cols;
        let mut puzzle = vec![0u8; n * n];
        for r in 0..n {
            for c in 0..n {
                let v = (r % rows * cols + r / rows + c) % n + 1;
                puzzle[r * n + c] = if (r * 7 + c * 3) % 9 == 0 { 0 } else { v as u8 };
            }
        }
        let mut config = config(Source::Puzzles(puzzle), OnInvalid::Penalise, true);
        config.shape = BoxShape::new(rows, cols).unwrap();
        config.max_steps = 200;
        let mut batch = Batch::new(config, 1).unwrap();
        let mut rng = Rng::new(4);
        let actions = (n * n * n + 1) as u64;
        for episode in 0..3 {
            batch.reset(0, Some(episode), None).unwrap();
            check_counts(batch.env(0), n);
            while !batch.env(0).done {
                // Mostly legal placements (high digits included), some of anything at all.
                let action = match rng.below(4) {
                    0 => rng.below(actions) as usize,
                    _ => batch.sample_legal(0, &mut rng).unwrap(),
                };
                batch.step(0, action).unwrap();
                check_counts(batch.env(0), n);
            }
        }
    }

    #[test]
    fn still_solvable_is_what_a_search_says_on_unique_and_other_puzzles() {
        // Generated puzzles (unique), a list holding a unique puzzle and one with several
        // solutions (counted at their first episode), and a puzzle given at reset.
        let mut open = PUZZLE;
        for cell in [0, 5, 10, 15, 14, 11] {
            open[cell] = 0;
        }
        let mut several = [0u8; 16];
        several[0] = 1;
        let listed = Source::Puzzles([open, several].concat());
        let mut solver = Solver::new(BoxShape::new(2, 2).unwrap());
        let mut rng = Rng::new(9);
        for (source, given) in [
            (generated(), None),
            (listed.clone(), None),
            (listed, Some(several)),
        ] {
            let mut batch = Batch::new(config(source, OnInvalid::Penalise, true), 1).unwrap();
            for episode in 0..60 {
                batch
                    .reset(0, Some(episode), given.as_ref().map(|g| &g[..]))
                    .unwrap();
                loop {
                    let env = batch.env(0);
                    let expected = env.conflicts == 0
                        && solver.count(env.cells(), Some(1), &mut Unbounded).unwrap() == 1;
                    assert_eq!(env.solvable, expected, "{:?}", env.cells());
                    if env.done {
                        break;
                    }
                    // Legal placements most of the time, undos and conflicts now and then.
                    let action = match rng.below(3) {
                        0 => rng.below(65) as usize,
                        _ => batch.sample_legal(0, &mut rng).unwrap(),
                    };
                    batch.step(0, action).unwrap();
                }
            }
            // A list's puzzles are counted once each; a puzzle given at reset, every time.
            let counted: Vec<Option<bool>> = batch
                .unique
                .iter()
                .map(|u| u.get().map(Option::is_some))
                .collect();
            match (&batch.config.source, given) {
                (Source::Puzzles(_), None) => assert_eq!(counted, [Some(true), Some(false)]),
                _ => assert!(counted.iter().all(Option::is_none)),
            }
        }
    }

    #[test]
    fn actions_drawn_during_a_batch_call_are_those_sample_all_draws() {
        let source = generated();
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
        let source = generated();
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
