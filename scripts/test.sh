#!/usr/bin/env bash
# The whole test suite, from a fresh clone: Rust format, lint and unit tests, then the package
# built and installed into a private venv (./.venv) exactly as `pip install .` does for a user,
# then ruff, mypy, the stub check and pytest, then a short release check on CPython 3.9. Needs
# only Rust, Python 3 and pip, and a CPython 3.9 (pyenv or PATH) for that check; installs the rest.
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${SUDOKU_RS_VENV:-.venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
py="$venv/bin/python"
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

echo "== cargo fmt / clippy / test"
cargo fmt --check
# The core with its tests, examples and benches (no Python), then the binding layer.
cargo clippy --quiet --all-targets -- -D warnings
cargo clippy --quiet --all-targets --features python -- -D warnings
cargo test --quiet

echo "== build and install the package"
# --no-build-isolation: build with the venv's maturin instead of fetching one per run.
"$py" -m pip install --quiet --no-build-isolation --force-reinstall --no-deps .

echo "== ruff / mypy / stubtest"
"$venv/bin/ruff" check python tests benches examples scripts
"$venv/bin/ruff" format --check python tests benches examples scripts
# The package's types (pyproject.toml's [tool.mypy] says what and how strictly).
"$py" -m mypy
# stubtest compares the hand-written stubs with the compiled module; run it outside the
# source tree so it inspects the installed package, not python/.
(cd "$venv" && bin/python -m mypy.stubtest sudoku_rs --ignore-missing-stub)

echo "== pytest"
"$py" -m pytest "$@"

echo "== release (short): the sdist as an index checks it; the wheel and the whole suite on the"
echo "   oldest Python + numpy"
# The full matrix and the manylinux build are scripts/release.sh and scripts/compat.sh.
rm -rf target/ci-dist
"$venv/bin/maturin" sdist --out target/ci-dist
"$py" scripts/check_dist.py target/ci-dist
# The install above built for this venv's Python; the oldest promised one needs a build of
# its own stable ABI (pyo3 is configured per ABI), in its own target directory so that the
# next run reuses it.
source scripts/find_python.sh
CARGO_TARGET_DIR=target/ci-wheel-3.9 "$venv/bin/maturin" build --quiet --release \
    --interpreter "$(find_python 3.9)" --out target/ci-dist
# The promise is Python 3.9 and numpy 1.21: the smoke test and every test there (about 80 s),
# since some behaviour differs under that stable ABI (how ints are read, for one).
bash scripts/compat.sh --tests target/ci-dist/*.whl
