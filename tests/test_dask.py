"""sudoku_rs.dask: lazy batch results equal to the in-process batch API, block by block, on the
local schedulers and on a LocalCluster of worker processes."""

import random
import subprocess
import sys
import threading

import numpy as np
import pytest
import reference as ref
from helpers import INT_DTYPES, LEETCODE, NO_SOLUTION, data_dir, random_puzzle, read_lines

import sudoku_rs as sr

da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")
import dask  # noqa: E402

import sudoku_rs.dask as srd  # noqa: E402


def run_python(code):
    return subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120
    )


def test_import_sudoku_rs_does_not_import_dask():
    done = run_python(
        "import sys, sudoku_rs, sudoku_rs.cli\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_without_dask_the_error_names_the_extra():
    done = run_python(
        "import sys\n"
        "sys.modules['dask'] = None  # what a missing package looks like to import\n"
        "import sudoku_rs.dask"
    )
    assert done.returncode != 0
    assert "ImportError" in done.stderr
    assert 'pip install "sudoku_rs[dask]"' in done.stderr


# ---------------------------------------------------------------- arrays


@pytest.fixture(scope="module")
def mixed(data_dir):
    """9x9 rows with none, one and several solutions, plus rows the batch marks bad."""
    # 30 lines of each: what tests/data holds, so the batch is the same with or without
    # ../shared/data.
    lines = read_lines(data_dir / "gen_invalid", 30) + read_lines(data_dir / "gen_easy35", 30)
    rows = [ref.parse81(line) for line in lines]
    rows.append(list(NO_SOLUTION))
    rows.append([1, 1] + [0] * 79)  # conflicting clues
    rows.append([10] + [0] * 80)  # a value out of range
    return np.array(rows, dtype=np.int64)


def equal_arrays(lazy, eager):
    assert lazy.dtype == eager.dtype and lazy.shape == eager.shape
    got = lazy.compute(scheduler="sync")
    assert got.dtype == eager.dtype and got.shape == eager.shape
    np.testing.assert_array_equal(got, eager)


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("layout", ["flat", "square"])
def test_arrays_equal_the_in_process_batch(mixed, dtype, layout):
    puzzles = mixed.astype(dtype)
    if layout == "square":
        puzzles = puzzles.reshape(-1, 9, 9)
    lazy = da.from_array(puzzles, chunks=(17, *puzzles.shape[1:]))

    solved = srd.solve_batch(lazy, threads=1)
    assert solved.chunks == lazy.chunks
    equal_arrays(solved, sr.solve_batch(puzzles, threads=1))

    counts = srd.count_solutions_batch(lazy, limit=3, threads=1)
    assert counts.chunks == (lazy.chunks[0],)
    equal_arrays(counts, sr.count_solutions_batch(puzzles, limit=3, threads=1))
    assert {0, 1, 3} <= set(counts.compute(scheduler="sync").tolist())


@pytest.mark.parametrize(("n", "box"), [(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (16, (4, 4))])
def test_other_sizes_and_box_shapes(n, box):
    rng = random.Random(n * 10 + box[0])
    rows = [random_puzzle(n, *box, rng, 0.5)[0] for _ in range(30)]
    puzzles = np.array(rows, dtype=np.uint8).reshape(-1, n, n)
    lazy = da.from_array(puzzles, chunks=(7, n, n))
    equal_arrays(srd.solve_batch(lazy, box=box), sr.solve_batch(puzzles, box=box))
    equal_arrays(
        srd.count_solutions_batch(lazy, box=box), sr.count_solutions_batch(puzzles, box=box)
    )


def test_split_puzzle_axes_are_joined_and_first_axis_chunks_kept(mixed):
    lazy = da.from_array(mixed.reshape(-1, 9, 9), chunks=(20, 4, 5))
    solved = srd.solve_batch(lazy)
    assert solved.chunks == ((20, 20, 20, 3), (9,), (9,))
    equal_arrays(solved, sr.solve_batch(mixed.reshape(-1, 9, 9)))
    counts = srd.count_solutions_batch(da.from_array(mixed, chunks=(30, 40)))
    assert counts.chunks == ((30, 30, 3),)
    equal_arrays(counts, sr.count_solutions_batch(mixed))


def test_each_block_is_computed_once_and_only_on_compute(mixed):
    seen = []
    lock = threading.Lock()

    def record(block):
        with lock:
            seen.append(len(block))
        return block

    source = da.from_array(mixed, chunks=(25, 81))
    watched = source.map_blocks(record, dtype=mixed.dtype, meta=np.empty((0, 81), mixed.dtype))
    solved = srd.solve_batch(watched, threads=1)
    counts = srd.count_solutions_batch(watched, threads=1)
    assert seen == []  # building the graph computes nothing
    got_solved, got_counts = dask.compute(solved, counts, scheduler="threads")
    assert sorted(seen) == [13, 25, 25]  # each input block once, shared by both results
    np.testing.assert_array_equal(got_solved, sr.solve_batch(mixed))
    np.testing.assert_array_equal(got_counts, sr.count_solutions_batch(mixed))


def test_results_come_back_through_the_threaded_scheduler(mixed):
    lazy = da.from_array(mixed, chunks=10)
    got = srd.solve_batch(lazy, threads=1).compute(scheduler="threads")
    np.testing.assert_array_equal(got, sr.solve_batch(mixed))


# ---------------------------------------------------------------- series


@pytest.fixture(scope="module")
def lines(data_dir):
    """Puzzle strings with an unsolvable, a conflicting and a malformed one among them."""
    return (
        read_lines(data_dir / "gen_invalid", 30)
        + [ref.to_string(LEETCODE), ref.to_string(NO_SOLUTION), "11" + "." * 79, "1234"]
        + read_lines(data_dir / "gen_easy35", 30)
    )


@pytest.mark.parametrize("dtype", [object, "string"])
def test_series_equal_the_in_process_batch(lines, dtype):
    index = pd.RangeIndex(100, 100 + len(lines))
    series = dd.from_pandas(pd.Series(lines, index=index, name="quizzes", dtype=dtype), 4)

    solved = srd.solve_batch(series, threads=1).compute(scheduler="sync")
    expected = sr.solve_batch(lines, threads=1)
    assert solved.name == "quizzes" and solved.index.equals(index)
    assert [None if pd.isna(v) else v for v in solved] == expected
    assert expected.count(None) > 3  # the bad rows are in there, and missing in the result

    counts = srd.count_solutions_batch(series, threads=1).compute(scheduler="sync")
    assert counts.dtype == np.int64 and counts.index.equals(index)
    assert counts.tolist() == sr.count_solutions_batch(lines, threads=1).tolist()


def test_a_csv_column_with_zero_blanks(tmp_path, lines):
    # Kaggle's layout: quizzes,solutions with '0' for blanks, so all-digit fields.
    quizzes = [q.replace(".", "0") for q in lines]
    path = tmp_path / "train.csv"
    path.write_text("quizzes,solutions\n" + "".join(f"{q},{q}\n" for q in quizzes))
    frame = dd.read_csv(path, dtype=str, blocksize=1000)
    assert frame.npartitions > 1
    solved = srd.solve_batch(frame["quizzes"]).compute()
    assert [None if pd.isna(v) else v for v in solved] == sr.solve_batch(quizzes)
    counts = srd.count_solutions_batch(frame.quizzes, limit=5).compute()
    assert counts.tolist() == sr.count_solutions_batch(quizzes, limit=5).tolist()


def test_a_column_read_as_numbers_is_refused(tmp_path):
    # 4x4 lines with '0' blanks fit in an int64: without dtype=str pandas makes them numbers
    # (dropping leading zeros), and no row could come back solved.
    path = tmp_path / "small.csv"
    path.write_text("puzzle\n0000000000000000\n1200340000000000\n")
    with pytest.raises(TypeError, match="got dtype int64; read the file with dtype=str"):
        srd.solve_batch(dd.read_csv(path)["puzzle"])
    solved = srd.count_solutions_batch(dd.read_csv(path, dtype=str)["puzzle"], limit=300)
    second = ref.count_solutions([1, 2, 0, 0, 3, 4] + [0] * 10, 4, 2, 2, limit=300)
    assert solved.compute().tolist() == [288, second]


# ---------------------------------------------------------------- bad input


def test_bad_input_raises_when_the_graph_is_built(mixed):
    lazy = da.from_array(mixed, chunks=20)
    with pytest.raises(TypeError, match="integer dtype, got float64"):
        srd.solve_batch(lazy.astype(float))
    with pytest.raises(sr.InvalidPuzzleError, match=r"got \(63, 80\)"):
        srd.solve_batch(lazy[:, :80])
    with pytest.raises(sr.InvalidPuzzleError, match=r"got \(5103,\)"):
        srd.count_solutions_batch(lazy.ravel())
    with pytest.raises(sr.InvalidPuzzleError, match=r"box=\(2, 3\) fits a 6x6 grid"):
        srd.solve_batch(lazy, box=(2, 3))
    with pytest.raises(ValueError, match="threads must be a positive integer, got 0"):
        srd.solve_batch(lazy, threads=0)
    with pytest.raises(ValueError, match="limit must be a positive integer, got 0"):
        srd.count_solutions_batch(lazy, limit=0)
    series = dd.from_pandas(pd.Series(["." * 81] * 4), 2)
    with pytest.raises(ValueError, match="limit must be a positive integer"):
        srd.count_solutions_batch(series, limit=-1)
    with pytest.raises(TypeError, match=r"pass one column, for example df\['quizzes'\]"):
        srd.solve_batch(series.to_frame())
    with pytest.raises(TypeError, match=r"for data in memory use sudoku_rs.solve_batch"):
        srd.solve_batch(mixed)


def test_ratings_equal_the_in_process_batch(mixed, lines):
    lazy = da.from_array(mixed, chunks=(17, 81))
    rated = srd.rate_batch(lazy, threads=1)
    assert rated.chunks == (lazy.chunks[0],)
    equal_arrays(rated, sr.rate_batch(mixed, threads=1))

    index = pd.RangeIndex(5, 5 + len(lines))
    series = dd.from_pandas(pd.Series(lines, index=index, dtype=object), 3)
    frame = srd.rate_batch(series, threads=1).compute(scheduler="sync")
    expected = sr.rate_batch(lines, threads=1)
    assert list(frame.columns) == list(expected.dtype.names)
    assert frame.index.equals(index)
    for name in expected.dtype.names:
        assert frame[name].tolist() == expected[name].tolist()


def test_a_guess_budget_marks_rows_as_in_process():
    hard = read_lines(data_dir() / "puzzles6_forum_hardest_1106", 4)
    puzzles = np.array([[int(c) if c != "." else 0 for c in line] for line in hard])
    lazy = da.from_array(puzzles, chunks=(2, 81))
    counts = srd.count_solutions_batch(lazy, threads=1, max_guesses=1)
    expected = sr.count_solutions_batch(puzzles, threads=1, max_guesses=1)
    equal_arrays(counts, expected)
    assert (expected == -1).all()  # every one of them needs more than one guess
    solved = srd.solve_batch(lazy, threads=1, max_guesses=1)
    equal_arrays(solved, sr.solve_batch(puzzles, threads=1, max_guesses=1))


# ---------------------------------------------------------------- a cluster of processes
# Last in the module: the client stays the current one until the module ends, and with it
# active a local-scheduler compute warns (dask 2024.8, the oldest the extra allows).


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # a free port: never clash with another cluster
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def test_a_worker_error_arrives_as_the_same_class_and_message(client):
    conflict = "11" + "." * 79
    with pytest.raises(sr.InvalidPuzzleError) as raised:
        client.submit(sr.solve, conflict).result()
    assert type(raised.value) is sr.InvalidPuzzleError
    with pytest.raises(sr.InvalidPuzzleError) as local:
        sr.solve(conflict)
    assert str(raised.value) == str(local.value)
    with pytest.raises(sr.NoSolutionError, match=r"^the puzzle has no solution$"):
        client.submit(sr.solve, ref.to_string(NO_SOLUTION)).result()


def test_a_cluster_solves_hundreds_of_thousands_as_in_process(client, shared_data_dir):
    path = shared_data_dir / "gen_easy35"
    easy = sr.read_puzzles(path)
    puzzles = np.concatenate([easy, easy[::-1], easy[::2]])  # 250,000 puzzles
    # The workers read the file themselves: the graph holds a path, not 20 MB of puzzles.
    read = da.from_delayed(dask.delayed(sr.read_puzzles)(path), easy.shape, dtype=easy.dtype)
    lazy = da.concatenate([read, read[::-1], read[::2]]).rechunk((25_000, 81))
    solved = client.compute(srd.solve_batch(lazy, threads=1))
    np.testing.assert_array_equal(solved.result(), sr.solve_batch(puzzles))
    assert len(client.scheduler_info()["workers"]) == 2
