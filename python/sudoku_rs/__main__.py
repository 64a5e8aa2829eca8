"""`python -m sudoku_rs` runs the `sudoku-rs` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
