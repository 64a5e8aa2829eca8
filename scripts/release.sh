#!/usr/bin/env bash
# Release artifacts for Linux x86-64 into dist/: the sdist, then the two abi3 manylinux wheels
# built from the *unpacked sdist* (so a wheel exists only if the sdist builds on its own), then
# the checks a package index makes (scripts/check_dist.py). Needs Rust, Python 3 and pip, and
# CPython 3.9 and 3.10 to build against (pyenv or PATH, scripts/find_python.sh); the
# build tools (maturin, ziglang for --zig, twine) go into their own venv, .venv-release.
#
# Two wheels, because the stable ABI of 3.10 calls functions without a tuple and a dict per
# call (up to about 0.3 µs, benches/results/2026-11-24-abi.md): cp39-abi3 serves
# CPython 3.9, cp310-abi3 serves 3.10 and newer, and pip picks the newer tag wherever it
# installs.
#
#   bash scripts/release.sh          # then: bash scripts/compat.sh  (install-and-run matrix)
#
# --zig links against glibc 2.17 through zig's own sysroot, whatever glibc this machine has,
# so the wheel can carry the manylinux2014 tag honestly; check_dist.py verifies that from the
# symbol versions the extension actually needs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
source scripts/find_python.sh

venv=.venv-release
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
# Pinned so that a release is rebuilt with the tools it was checked with.
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "maturin==1.16.0" "ziglang==0.15.2" "twine==7.0.0"
# cargo-zigbuild finds zig as `python3 -m ziglang`, so the venv's python comes first.
export PATH="$root/$venv/bin:$PATH"

rm -rf dist
mkdir dist
start=$(date +%s)

echo "== sdist"
maturin sdist --out dist
sdist=$(ls dist/*.tar.gz)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$sdist" -C "$work"
src=$(ls -d "$work"/*/)
# The sdist dates every file 2006 (a reproducible archive), older than any cached build, so
# cargo would take the cached extension as fresh and ship it stale: date them now.
find "$src" -exec touch {} +
for abi in 3.9 3.10; do
    echo "== wheel for the $abi stable ABI, built from the unpacked sdist"
    # Cargo's cache lives outside the temporary tree so a second release reuses compiled
    # crates; one per ABI, as the two builds configure pyo3 differently.
    (cd "$src" && CARGO_TARGET_DIR="$root/target/release-wheel-$abi" \
        maturin build --release --locked --zig --compatibility manylinux2014 \
        --interpreter "$(find_python "$abi")" --out "$root/dist")
done

echo "== build took $(( $(date +%s) - start )) s"
echo "== checks"
python scripts/check_dist.py dist
ls -l dist
