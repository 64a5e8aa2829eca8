#!/usr/bin/env bash
# The whole test suite, from a fresh clone: Rust format, lint and unit tests, then the package
# built and installed into a private venv (./.venv) exactly as `pip install .` does for a user,
# then ruff, mypy, the stub check and pytest, then the sdist check; beside all of that, in the
# background, a wheel for CPython 3.9 and the whole suite there with numpy 1.21. Needs only Rust,
# Python 3 and pip, and a CPython 3.9 (pyenv or PATH) for that check; installs the rest.
set -euo pipefail
cd "$(dirname "$0")/.."

# Stage times: each stage's wall time and the CPU time of the commands it ran, listed at the
# end (after a failure too), so that a slow CI run says where its time went; on a machine
# shared with other work the CPU time is the steadier of the two.
stage_times=() stage_name="" stage_start=$SECONDS stage_cpu=0
stage_times_file=$(mktemp)
# children_cpu: sets cpu to the user + system seconds of every command this shell has waited
# for (`times`, second line). `times` must run in this shell, not in a $(...) subshell.
children_cpu() {
    times >"$stage_times_file"
    cpu=$(awk 'NR == 2 {
        n = split($0, t, /[ ms]+/); total = 0
        for (i = 1; i + 1 <= n; i += 2) total += t[i] * 60 + t[i + 1]
        printf "%d", total
    }' "$stage_times_file")
}
stage() {
    local cpu
    children_cpu
    if [ -n "$stage_name" ]; then
        stage_times+=("$(printf '%6d s %7d s  %s' $((SECONDS - stage_start)) \
            $((cpu - stage_cpu)) "$stage_name")")
    fi
    stage_name=$1 stage_start=$SECONDS stage_cpu=$cpu
    [ -z "$1" ] || echo "== $1"
}
compat_pid=""
finish() {
    local rc=$?
    stage ""
    # A failure in the foreground stops the CPython 3.9 run in the background too.
    [ -z "$compat_pid" ] || kill -- "-$compat_pid" 2>/dev/null || true
    local cpu
    children_cpu
    rm -f "$stage_times_file"
    printf '%s\n' "== stage times (the 3.9 run overlaps every stage after the test tools; its" \
        "   CPU time is counted in its own stage, when it has been waited for)" \
        "  wall      CPU" "${stage_times[@]}" "$(printf '%6d s %7d s  total' "$SECONDS" "$cpu")"
    exit $rc
}
trap finish EXIT

venv="${SUDOKU_RS_VENV:-.venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
py="$venv/bin/python"
stage "test tools"
"$py" -m pip install --quiet --upgrade pip
# Test tools; nbclient/ipykernel run the example notebook; the dask extra lets
# tests/test_dask.py run (the package itself is installed with --no-deps below); reportlab and
# pypdfium2 are the print extra (PDF, PNG), pypdf reads the PDFs tests/test_print.py writes and
# fonttools reads the shipped fonts' metrics (and rebuilds them: scripts/build_print_fonts.py);
# the docs extra's tools (pyproject.toml) let tests/test_docs.py build the site; gymnasium is the
# rl extra (tests/test_env.py and the training loop of docs/env.md); pyarrow is the arrow extra,
# and Hugging Face datasets runs the recipe on docs/datasets.md (tests/test_arrow.py); mcp is
# the mcp extra (tests/test_mcp.py, `sudoku-rs mcp`).
"$py" -m pip install --quiet "maturin>=1.9.4,<2" numpy pytest hypothesis tqdm ruff mypy twine \
    nbclient nbformat ipykernel "dask[array,dataframe]>=2024.8.0" "distributed>=2024.8.0" \
    "reportlab>=4.0" "pypdfium2>=4.20" pypdf fonttools \
    "mkdocs>=1.6,<2" "mkdocs-material>=9.5,<10" "mkdocstrings[python]>=0.26" "gymnasium>=1.1" \
    "pyarrow>=14" datasets "mcp>=2,<3"

# The oldest promise, Python 3.9 and numpy 1.21, runs beside everything below, in the
# background: its own wheel (pyo3 is configured per stable ABI, so the install below, built
# for this venv's Python, cannot stand in), built in its own target directory so that the next
# run reuses it, then the smoke test and every test there (scripts/compat.sh), since some
# behaviour differs under that stable ABI (how ints are read, for one). Much of both runs is
# one process at a time (the fat-LTO build, pytest), so side by side they keep both cores
# busy. Its output is printed when it is waited for, at the end.
source scripts/find_python.sh
python39=$(find_python 3.9)
rm -rf target/ci-wheel
mkdir -p target
compat_log=target/ci-compat-3.9.log
# setsid: a process group of its own, so that a failure here stops all of it (see finish).
setsid bash -c '
    set -euo pipefail
    start=$SECONDS
    CARGO_TARGET_DIR=target/ci-wheel-3.9 "$1/bin/maturin" build --quiet --release \
        --interpreter "$2" --out target/ci-wheel
    echo "   (the 3.9 wheel built in $((SECONDS - start)) s)"
    start=$SECONDS
    bash scripts/compat.sh --tests target/ci-wheel/*.whl
    echo "   (the 3.9 venv, smoke test and pytest in $((SECONDS - start)) s)"
' compat "$venv" "$python39" >"$compat_log" 2>&1 </dev/null &
compat_pid=$!

stage "cargo fmt"
cargo fmt --check
# The core with its tests, examples and benches (no Python), then the binding layer.
stage "cargo clippy (core)"
cargo clippy --quiet --all-targets -- -D warnings
stage "cargo clippy (python feature)"
cargo clippy --quiet --all-targets --features python -- -D warnings
stage "cargo test"
cargo test --quiet

stage "build and install the package"
# --no-build-isolation: build with the venv's maturin instead of fetching one per run.
"$py" -m pip install --quiet --no-build-isolation --force-reinstall --no-deps .

stage "ruff / mypy / stubtest"
"$venv/bin/ruff" check python tests benches examples scripts
"$venv/bin/ruff" format --check python tests benches examples scripts
# The package's types (pyproject.toml's [tool.mypy] says what and how strictly).
"$py" -m mypy
# stubtest compares the hand-written stubs with the compiled module; run it outside the
# source tree so it inspects the installed package, not python/.
(cd "$venv" && bin/python -m mypy.stubtest sudoku_rs --ignore-missing-stub)

stage "pytest"
"$py" -m pytest "$@"

stage "sdist check"
# The sdist as an index checks it. The full matrix and the manylinux build are
# scripts/release.sh and scripts/compat.sh.
rm -rf target/ci-dist
"$venv/bin/maturin" sdist --out target/ci-dist
"$py" scripts/check_dist.py target/ci-dist

stage "CPython 3.9 + numpy 1.21 (wheel, smoke test, pytest; started after the test tools)"
compat_status=0
wait "$compat_pid" || compat_status=$?
compat_pid=""
cat "$compat_log"
[ "$compat_status" -eq 0 ] || { echo "FAILED: the CPython 3.9 run (above)" >&2; exit "$compat_status"; }
