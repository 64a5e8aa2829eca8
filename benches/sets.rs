//! Criterion benchmarks: single-thread puzzles/s of the core's first solution (`solve`) and
//! count-to-2 (`count2`) on each benchmark set, beside the `sudoku` crate on the same puzzles
//! for the 9x9 sets.
//!
//!     cargo bench --bench sets                        # every set, about three minutes
//!     cargo bench --bench sets -- puzzles6            # one set (a criterion name filter)
//!     SUDOKU_RS_BENCH_PUZZLES=5000 cargo bench --bench sets
//!
//! Each set is one criterion group whose ids read `SET/solve/ours`, `SET/solve/sudoku`,
//! `SET/count2/ours`, `SET/count2/sudoku`; one iteration is one pass over the set's first
//! `SUDOKU_RS_BENCH_PUZZLES` puzzles (default 1000 for 9x9, 200 for bigger grids), reported as
//! elements/s = puzzles/s. Criterion's defaults (100 samples, 5 s each) would take most of an
//! hour on the hard sets, so this takes 10 flat samples in about 2 s: enough to compare, not to
//! resolve a 1% change. On the hard sets one pass takes longer than 0.2 s, so criterion warns
//! that it cannot complete 10 samples in 2 s and takes longer; that is expected. For fair
//! ratios on a busy machine, `cargo run --release --example compare` interleaves the two.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use sudoku_rs::core::Solver;

mod common;
use common::PuzzleSet;

/// Puzzles per 9x9 set unless `SUDOKU_RS_BENCH_PUZZLES` says otherwise (0: the whole file).
const DEFAULT_PUZZLES: usize = 1000;

/// Puzzles per set of bigger grids by default: a 16x16 takes about as long as 30 hard 9x9s, and
/// 200 keep one pass under a second.
const DEFAULT_BIG_PUZZLES: usize = 200;

/// The set's first puzzles: `SUDOKU_RS_BENCH_PUZZLES` of them if set, else the defaults.
fn load(dir: &std::path::Path, name: &str) -> Option<PuzzleSet> {
    let (nine, bigger) = match std::env::var("SUDOKU_RS_BENCH_PUZZLES") {
        Ok(value) => {
            let count = value
                .parse()
                .expect("SUDOKU_RS_BENCH_PUZZLES must be a count");
            (count, count)
        }
        Err(_) => (DEFAULT_PUZZLES, DEFAULT_BIG_PUZZLES),
    };
    PuzzleSet::load_sized(dir, name, nine, bigger).unwrap_or_else(|message| panic!("{message}"))
}

fn bench_sets(c: &mut Criterion) {
    let dir = common::data_dir();
    for name in common::DEFAULT_SETS {
        let Some(set) = load(&dir, name) else {
            eprintln!("skipping {name}: not found in {}", dir.display());
            continue;
        };
        let mut group = c.benchmark_group(set.name.as_str());
        group.throughput(Throughput::Elements(set.len() as u64));
        // One pass can take most of a second on the hard sets: flat sampling runs each sample
        // the same (small) number of passes instead of criterion's growing ramp.
        group.sampling_mode(SamplingMode::Flat);

        let mut solver = Solver::new(set.shape);
        let mut out = vec![0u8; set.shape.cell_count()];
        group.bench_function("solve/ours", |b| {
            b.iter(|| common::ours_solve(&mut solver, black_box(&set), &mut out));
        });
        if set.has_theirs() {
            group.bench_function("solve/sudoku", |b| {
                b.iter(|| common::theirs_solve(black_box(&set)));
            });
        }
        group.bench_function("count2/ours", |b| {
            b.iter(|| common::ours_count2(&mut solver, black_box(&set)));
        });
        if set.has_theirs() {
            group.bench_function("count2/sudoku", |b| {
                b.iter(|| common::theirs_count2(black_box(&set)));
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = sets;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .without_plots();
    targets = bench_sets
}
criterion_main!(sets);
