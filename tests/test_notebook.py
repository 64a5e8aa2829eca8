"""The example notebook runs from top to bottom in a fresh kernel, and shows boards as SVG."""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="scripts/test.sh installs nbformat")
nbclient = pytest.importorskip("nbclient", reason="scripts/test.sh installs nbclient")

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "quickstart.ipynb"


def test_quickstart_notebook_runs():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    # Runs in examples/, as Jupyter would; any cell error raises CellExecutionError.
    client = nbclient.NotebookClient(
        notebook,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()
    outputs = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs]
    assert not [out for out in outputs if out.output_type == "error"]
    drawings = [out for out in outputs if "<svg" in out.get("data", {}).get("text/html", "")]
    assert len(drawings) >= 5  # the puzzle, its solution, the typo, the 6x6, the batch board
    printed = "".join(out.get("text", "") for out in outputs if out.output_type == "stream")
    assert "------+-------+------" in printed and "cannot solve: conflicting clues" in printed
