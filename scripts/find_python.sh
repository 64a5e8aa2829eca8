# Sourced by release.sh, compat.sh and test.sh: `find_python X.Y` prints the path of a CPython
# X.Y, pyenv's newest X.Y.* first (~/.pyenv/versions), else pythonX.Y on PATH; fails when there
# is none.
find_python() {
    local v=$1 p
    for p in $(ls -d "$HOME"/.pyenv/versions/"$v".*/bin/python 2>/dev/null | sort -V -r); do
        echo "$p"
        return
    done
    command -v "python$v" || { echo "no Python $v (pyenv or PATH)" >&2; return 1; }
}
