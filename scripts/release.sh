#!/usr/bin/env bash
# Release artifacts for Linux x86-64 into dist/: the sdist, then the abi3 manylinux wheel built
# from the *unpacked sdist* (so a wheel exists only if the sdist builds on its own), then the
# checks a package index makes (scripts/check_dist.py). Needs Rust, Python 3 and pip; the
# build tools (maturin, ziglang for --zig, twine) go into their own venv, .venv-release.
#
#   bash scripts/release.sh          # then: bash scripts/compat.sh  (install-and-run matrix)
#
# --zig links against glibc 2.17 through zig's own sysroot, whatever glibc this machine has,
# so the wheel can carry the manylinux2014 tag honestly; check_dist.py verifies that from the
# symbol versions the extension actually needs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

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

echo "== wheel, built from the unpacked sdist"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$sdist" -C "$work"
src=$(ls -d "$work"/*/)
# Cargo's cache lives outside the temporary tree so a second release reuses compiled crates.
(cd "$src" && CARGO_TARGET_DIR="$root/target/release-wheel" \
    maturin build --release --locked --zig --compatibility manylinux2014 --out "$root/dist")

echo "== build took $(( $(date +%s) - start )) s"
echo "== checks"
python scripts/check_dist.py dist
ls -l dist
