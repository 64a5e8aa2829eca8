#!/usr/bin/env bash
# Do the built wheels install and work where users have no Rust? Installs them into fresh venvs,
# with cargo and rustc off PATH and pip allowed only binary wheels (so nothing can be compiled),
# and runs scripts/smoke.py on each Python / numpy pair below. Each Python gets the wheel pip
# would pick for it: the newest cpXY-abi3 tag it satisfies (cp39 on 3.9, cp310 from 3.10 on).
#
#   bash scripts/compat.sh [WHEEL...]        # the matrix (default: dist/*manylinux*.whl)
#   bash scripts/compat.sh --quick WHEEL...  # CI: oldest Python with the oldest numpy only
#   bash scripts/compat.sh --tests [WHEEL...] [PYTEST ARGS]   # --quick, then the whole
#                                            # pytest suite in the same venv
#
# Pythons come from pyenv (~/.pyenv/versions/X.Y.*) or PATH (pythonX.Y); a missing one fails
# the run rather than being skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

mode=matrix
case "${1:-}" in
--quick | --tests) mode=${1#--}; shift ;;
esac
wheels=()
while [[ "${1:-}" == *.whl ]]; do
    [ -f "$1" ] || { echo "no such wheel: $1" >&2; exit 1; }
    wheels+=("$(cd "$(dirname "$1")" && pwd)/$(basename "$1")")
    shift
done
if [ ${#wheels[@]} -eq 0 ]; then
    for w in dist/*manylinux*.whl; do
        [ -f "$w" ] && wheels+=("$root/$w")
    done
fi
[ ${#wheels[@]} -gt 0 ] || { echo "no wheel: run scripts/release.sh or pass one" >&2; exit 1; }

# wheel_for X.Y: of the wheels given, the one with the newest cpXY-abi3 tag at or below X.Y.
wheel_for() {
    local want=${1/./} w tag best="" best_tag=0
    for w in "${wheels[@]}"; do
        tag=$(basename "$w" | sed -E 's/^[^-]+-[^-]+-cp([0-9]+)-abi3-.*/\1/')
        if [[ "$tag" =~ ^[0-9]+$ ]] && [ "$tag" -le "$want" ] && [ "$tag" -gt "$best_tag" ]; then
            best=$w best_tag=$tag
        fi
    done
    [ -n "$best" ] || { echo "no wheel for Python $1 among: ${wheels[*]}" >&2; return 1; }
    echo "$best"
}

# Each pair: a Python version and a numpy requirement, the oldest and the newest numpy on each
# Python. numpy 1.21.0 is the oldest we promise (pyproject.toml) and has wheels only up to
# CPython 3.9; on a newer Python the oldest numpy with wheels for it stands in (pip would never
# pick an older one there without compiling it). "numpy" alone is the newest pip finds.
quick=("3.9 numpy==1.21.0")
matrix=(
    "3.9 numpy==1.21.0"
    "3.9 numpy"
    "3.10 numpy==1.21.2"
    "3.10 numpy"
    "3.11 numpy==1.23.2"
    "3.11 numpy"
    "3.12 numpy==1.26.0"
    "3.12 numpy"
    "3.13 numpy==2.1.0"
    "3.13 numpy"
)

source scripts/find_python.sh

# PATH without any directory that holds cargo or rustc.
no_rust_path=$(printf '%s' "$PATH" | tr ':' '\n' | while read -r d; do
    [ -e "$d/cargo" ] || [ -e "$d/rustc" ] || printf '%s\n' "$d"
done | paste -sd: -)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# setup VERSION NUMPY: a fresh venv in $work/venv-VERSION with the wheel and that numpy.
# Called inside $(...), where `set -e` does not hold: every step checks its own status.
setup() {
    local python wheel venv=$work/venv-$1
    python=$(find_python "$1") || return 1
    wheel=$(wheel_for "$1") || return 1
    rm -rf "$venv"
    "$python" -m venv "$venv" || return 1
    PATH=$no_rust_path "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        --only-binary=:all: "$wheel" "$2" || return 1
    echo "$venv"
}

if [ "$mode" = tests ]; then
    # What scripts/test.sh installs for the tests (the test tools, the notebook runner, the
    # Dask extra, the print extra and a PDF reader), as pip resolves it for Python 3.9 with
    # numpy held at 1.21.0.
    venv=$(setup 3.9 numpy==1.21.0) || exit 1
    # The smoke test first, before the test tools are installed beside the package.
    (cd "$work" && PATH=$no_rust_path "$venv/bin/python" "$root/scripts/smoke.py")
    echo "numpy==1.21.0" > "$work/constraints.txt"
    PATH=$no_rust_path "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        --only-binary=:all: -c "$work/constraints.txt" pytest hypothesis tqdm \
        nbclient nbformat ipykernel "dask[array,dataframe]>=2024.8.0" "distributed>=2024.8.0" \
        "reportlab>=4.0,<5" "pypdfium2>=4.20" pypdf fonttools
    "$venv/bin/python" -m pip list --disable-pip-version-check 2>/dev/null |
        grep -Ei '^(numpy|pytest|hypothesis|tqdm|dask|distributed|pandas|pyarrow|reportlab|pypdfium2|pypdf|fonttools) ' |
        tr -s ' ' | paste -sd, -
    # From the repository root: tests/ imports the installed package (python/ is not on sys.path).
    PATH=$no_rust_path "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
    exit
fi

[ "$mode" = quick ] && pairs=("${quick[@]}") || pairs=("${matrix[@]}")
failed=0
for pair in "${pairs[@]}"; do
    read -r version numpy <<<"$pair"
    start=$(date +%s)
    if venv=$(setup "$version" "$numpy") &&
        (cd "$work" && PATH=$no_rust_path "$venv/bin/python" "$root/scripts/smoke.py"); then
        echo "   ($version, $numpy: $(($(date +%s) - start)) s)"
    else
        echo "FAILED: Python $version with $numpy" >&2
        failed=1
    fi
done
exit $failed
