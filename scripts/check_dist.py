"""Check release artifacts the way a package index and pip would, before anyone uploads them.

    python scripts/check_dist.py dist/            # every .whl and .tar.gz in dist/
    python scripts/check_dist.py dist/x.tar.gz    # one file

For every artifact: `twine check --strict` (metadata and README render) and a version that
agrees with Cargo.toml and the top entry of CHANGELOG.md. For a wheel: the tags in its name and
in its WHEEL file agree, it is abi3 for CPython >= 3.9 or >= 3.10 (a directory of wheels must
hold exactly one of each), its RECORD hashes match, it holds the package and nothing else, and
its extension needs no glibc (or libgcc) symbol newer than the manylinux tag it claims and
links only libraries that policy allows. For an sdist: it holds every tracked file the build reads, and nothing
large or generated. Exits 1 on any failure.
Needs Python 3.11+ (tomllib), twine, and readelf (binutils) for wheels.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent

# manylinux_X_Y allows glibc symbols up to X.Y (PEP 600); the libgcc symbol limit and the
# libraries an extension may link without bundling them are manylinux2014's (PEP 599).
GCC_MAX = (4, 8, 0)
ALLOWED_LIBS = {
    "libc.so.6",
    "libm.so.6",
    "libdl.so.2",
    "librt.so.1",
    "libpthread.so.0",
    "libgcc_s.so.1",
    "libutil.so.1",
    "ld-linux-x86-64.so.2",
}
# What may sit in the sdist at the top level besides Markdown files, and the file size nothing
# in it should exceed.
SDIST_TOP = {
    "PKG-INFO",
    "pyproject.toml",
    "Cargo.toml",
    "Cargo.lock",
    "build.rs",
    "README.md",
    "CHANGELOG.md",
    "LICENSE",
    "mkdocs.yml",
    "src",
    "python",
    "tests",
    "benches",
    "examples",
    "docs",
    "scripts",
}
# The whole is about 3.9 MB unpacked (a quarter of it the print fonts); the limits leave room
# to grow and still catch a data set or a binary slipping in.
SDIST_MAX_FILE = 128 * 1024
SDIST_MAX_TOTAL = 5 * 1024 * 1024
# The fonts PDF text is set in (scripts/build_print_fonts.py makes them) are binary and bigger
# than any source file; they are named here with their own limit rather than lifting the one
# above.
SDIST_FONTS = "python/sudoku_rs/_print/fonts/"
SDIST_MAX_FONT = 1024 * 1024


def _size_limit(name: str) -> int:
    return (
        SDIST_MAX_FONT if name.startswith(SDIST_FONTS) and name.endswith(".ttf") else SDIST_MAX_FILE
    )


# Files that must be in the sdist though git does not list them under src/ or python/.
SDIST_NEEDS = [
    "PKG-INFO",
    "pyproject.toml",
    "Cargo.toml",
    "Cargo.lock",
    "build.rs",
    "README.md",
    "CHANGELOG.md",
]


class Failures:
    def __init__(self) -> None:
        self.messages: list[str] = []

    def check(self, ok: bool, message: str) -> None:
        if not ok:
            self.messages.append(message)


def cargo_version() -> str:
    with open(ROOT / "Cargo.toml", "rb") as f:
        return tomllib.load(f)["package"]["version"]


def changelog_version() -> str:
    """The version of CHANGELOG.md's first `## X.Y.Z ...` heading."""
    for line in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"## (\S+)", line)
        if m:
            return m.group(1)
    raise SystemExit("CHANGELOG.md has no '## <version>' heading")


def tracked_files(*dirs: str) -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "--", *dirs], cwd=ROOT, check=True, capture_output=True, text=True
    )
    return [p for p in out.stdout.splitlines() if (ROOT / p).is_file()]


def version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split("."))


def dotted(version: tuple[int, ...]) -> str:
    return ".".join(map(str, version))


def symbol_versions(elf: bytes) -> tuple[set[str], list[str]]:
    """(the shared libraries an ELF file needs, the versioned symbols it needs: 'GLIBC_2.14')."""
    tmp = ROOT / "target" / "check_dist.so"
    tmp.parent.mkdir(exist_ok=True)
    tmp.write_bytes(elf)
    try:
        dynamic = subprocess.run(
            ["readelf", "-d", str(tmp)], check=True, capture_output=True, text=True
        ).stdout
        needs = subprocess.run(
            ["readelf", "-V", str(tmp)], check=True, capture_output=True, text=True
        ).stdout
    finally:
        tmp.unlink()
    libs = set(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic))
    # Only the "Version needs" section names what the file requires from others.
    needs = needs.split(".gnu.version_r", 1)[-1]
    versions = re.findall(r"Name: ((?:GLIBC|GCC|GLIBCXX|CXXABI)_[0-9.]+)", needs)
    return libs, versions


def check_wheel(path: Path, version: str, fail: Failures) -> None:
    # name-version-python-abi-platform.whl; the platform part may join several tags with '.'.
    name, wheel_version, py_tag, abi_tag, plat = path.stem.split("-")
    fail.check(wheel_version == version, f"{path.name}: version {wheel_version} != {version}")
    fail.check(
        py_tag in ("cp39", "cp310") and abi_tag == "abi3",
        f"{path.name}: not a cp39-abi3 or cp310-abi3 wheel",
    )
    plats = plat.split(".")
    manylinux = [p for p in plats if p.startswith("manylinux_") and p.endswith("_x86_64")]
    fail.check(bool(manylinux), f"{path.name}: no manylinux_X_Y_x86_64 tag (has {plat})")
    claimed = min((version_tuple(".".join(p.split("_")[1:3])) for p in manylinux), default=(0, 0))

    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        info = f"{name}-{wheel_version}.dist-info"
        wheel_meta = zf.read(f"{info}/WHEEL").decode()
        tags = set(re.findall(r"^Tag: (\S+)$", wheel_meta, re.M))
        expected = {f"{py_tag}-{abi_tag}-{p}" for p in plats}
        fail.check(tags == expected, f"{path.name}: WHEEL tags {sorted(tags)} != file name's")
        fail.check("Root-Is-Purelib: false" in wheel_meta, f"{path.name}: marked pure-Python")

        # RECORD: every file listed once with its sha256 (pip refuses a wheel that lies).
        record = zf.read(f"{info}/RECORD").decode()
        listed = {}
        for row in record.splitlines():
            file, digest, _size = row.rsplit(",", 2)
            listed[file] = digest
        fail.check(
            set(listed) == set(names), f"{path.name}: RECORD does not list exactly its files"
        )
        for file, digest in listed.items():
            if not digest:
                continue
            raw = hashlib.sha256(zf.read(file)).digest()
            ours = "sha256=" + base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
            fail.check(ours == digest, f"{path.name}: RECORD hash of {file} is wrong")

        # Contents: the package's tracked files, one extension module, the metadata; no more.
        package = {p.removeprefix("python/") for p in tracked_files("python/sudoku_rs")}
        ext = [n for n in names if re.fullmatch(r"sudoku_rs/_sudoku_rs\.abi3\.so", n)]
        fail.check(len(ext) == 1, f"{path.name}: expected sudoku_rs/_sudoku_rs.abi3.so")
        rest = {n for n in names if not n.startswith(f"{info}/")} - set(ext)
        fail.check(
            rest == package,
            f"{path.name}: files differ from python/sudoku_rs: "
            f"extra {sorted(rest - package)}, missing {sorted(package - rest)}",
        )
        metadata = zf.read(f"{info}/METADATA").decode()
        fail.check("Requires-Python: >=3.9" in metadata, f"{path.name}: Requires-Python changed")
        entry_points = zf.read(f"{info}/entry_points.txt").decode()
        fail.check(
            re.search(r"^sudoku-rs\s*=\s*sudoku_rs\.cli:main$", entry_points, re.M) is not None,
            f"{path.name}: the sudoku-rs command is not in entry_points.txt",
        )

        if ext:
            libs, versions = symbol_versions(zf.read(ext[0]))
            fail.check(libs <= ALLOWED_LIBS, f"{ext[0]} links {sorted(libs - ALLOWED_LIBS)}")
            glibc = [version_tuple(v[6:]) for v in versions if v.startswith("GLIBC_")]
            gcc = [version_tuple(v[4:]) for v in versions if v.startswith("GCC_")]
            top, top_gcc = max(glibc, default=(0,)), max(gcc, default=(0,))
            fail.check(
                top <= claimed,
                f"{ext[0]} needs GLIBC_{dotted(top)}, the tag claims glibc {dotted(claimed)}",
            )
            fail.check(top_gcc <= GCC_MAX, f"{ext[0]} needs GCC_{dotted(top_gcc)}")
            fail.check(
                not any(v.startswith(("GLIBCXX_", "CXXABI_")) for v in versions),
                f"{ext[0]} needs libstdc++",
            )
            print(
                f"{path.name}: {path.stat().st_size} bytes; links {', '.join(sorted(libs))}; "
                f"newest glibc symbol GLIBC_{dotted(top)}"
            )


def check_sdist(path: Path, version: str, fail: Failures) -> None:
    prefix = f"sudoku_rs-{version}/"
    fail.check(path.name == f"sudoku_rs-{version}.tar.gz", f"{path.name}: wrong name or version")
    with tarfile.open(path) as tf:
        members = [m for m in tf.getmembers() if m.isfile()]
        files = {m.name.removeprefix(prefix): m.size for m in members}
        fail.check(
            all(m.name.startswith(prefix) for m in members), f"{path.name}: not all under {prefix}"
        )
        pkg_info = tf.extractfile(prefix + "PKG-INFO")
        assert pkg_info is not None
        meta = io.TextIOWrapper(pkg_info, encoding="utf-8").read()
    fail.check(f"\nVersion: {version}\n" in meta, f"{path.name}: PKG-INFO version != {version}")

    # Every file the build reads: the tracked Rust and Python sources plus the manifests.
    needed = set(tracked_files("src", "python")) | set(SDIST_NEEDS)
    missing = sorted(needed - set(files))
    fail.check(not missing, f"{path.name}: missing {missing}")
    # Top-level Markdown (README, CHANGELOG, ARCHITECTURE, ...) is welcome; anything else new at
    # the top is a surprise worth a look, such as a stray directory.
    tops = {f.split("/", 1)[0] for f in files if not re.fullmatch(r"[A-Z_]+\.md", f)}
    fail.check(tops <= SDIST_TOP, f"{path.name}: unexpected {sorted(tops - SDIST_TOP)}")
    generated = [f for f in files if re.search(r"(\.so|\.pyc|\.png)$|__pycache__|/target/", f)]
    fail.check(not generated, f"{path.name}: generated or binary files {generated}")
    big = {f: s for f, s in files.items() if s > _size_limit(f)}
    fail.check(not big, f"{path.name}: files over their size limit: {big}")
    total = sum(files.values())
    fail.check(total <= SDIST_MAX_TOTAL, f"{path.name}: {total} bytes unpacked")
    print(f"{path.name}: {path.stat().st_size} bytes, {len(files)} files, {total} unpacked")


def main(argv: list[str]) -> int:
    paths: list[Path] = []
    for arg in argv or ["dist"]:
        p = Path(arg)
        paths += sorted(p.glob("*.whl")) + sorted(p.glob("*.tar.gz")) if p.is_dir() else [p]
    if not paths:
        print("no artifacts to check", file=sys.stderr)
        return 1
    version = cargo_version()
    fail = Failures()
    fail.check(
        changelog_version() == version,
        f"CHANGELOG.md's top entry is {changelog_version()}, Cargo.toml says {version}",
    )
    twine = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, paths)], check=False
    )
    fail.check(twine.returncode == 0, "twine check failed")
    for p in paths:
        if p.suffix == ".whl":
            check_wheel(p, version, fail)
        else:
            check_sdist(p, version, fail)
    # A directory of wheels is a release: one wheel per stable ABI, no more, no fewer.
    for arg in argv or ["dist"]:
        wheels = sorted(Path(arg).glob("*.whl")) if Path(arg).is_dir() else []
        tags = sorted(w.stem.split("-")[2] for w in wheels)
        fail.check(
            not wheels or tags == ["cp310", "cp39"],
            f"{arg}: expected one cp39-abi3 and one cp310-abi3 wheel, found {tags}",
        )
    for message in fail.messages:
        print("FAIL:", message, file=sys.stderr)
    if not fail.messages:
        print(f"all checks passed: {', '.join(p.name for p in paths)}")
    return 1 if fail.messages else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
