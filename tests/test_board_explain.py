"""Board.hint() and Board.explain(): steps drawn on the board (SVG layers checked as XML)."""

import xml.etree.ElementTree as ET

import sudoku_rs as sr

SVG = "{http://www.w3.org/2000/svg}"
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
# Needs a finned X-wing and more: eliminations to strike out.
HARDER = "..6..4..59......16..1.7...3...3....91.758....84........5...........6...2...9..53."


def layer(root, name):
    found = [g for g in root.iter(f"{SVG}g") if g.get(name) == "1"]
    assert len(found) == 1, name
    return found[0]


def test_a_hint_draws_itself():
    board = sr.Board(PUZZLE)
    drawn = board.hint()
    step = sr.hint(PUZZLE)
    assert drawn.step == step and drawn.technique == step.technique and str(drawn) == step.text
    assert drawn.board == board and drawn.candidates.tolist() == sr.candidates(PUZZLE).tolist()
    root = ET.fromstring(drawn.svg())
    assert len(layer(root, "data-cell")) == len(step.cells)
    placed = [t.text for t in layer(root, "data-placed")]
    assert placed == [str(d) for _, _, d in step.placements]
    html = drawn._repr_html_()
    assert step.technique in html and "<svg" in html
    r, c, d = step.placements[0]
    assert drawn.after.to_numpy()[r, c] == d and board.to_numpy()[r, c] == 0


def test_an_explanation_pages_through_and_strikes_out():
    board = sr.Board(HARDER)
    walk = board.explain()
    explanation = sr.explain(HARDER)
    assert len(walk) == len(explanation.steps) and walk.explanation.solved
    assert [d.step for d in walk] == explanation.steps
    assert walk[-1].after == sr.Board(sr.solve(HARDER))
    # Each step is drawn on the marks it was found in: they hold what it eliminates.
    for i, drawn in enumerate(walk):
        for r, c, d in drawn.eliminations:
            assert drawn.candidates[r, c, d - 1]
        if i:
            assert drawn.board == walk[i - 1].after
    first = next(d for d in walk if d.eliminations)
    root = ET.fromstring(first.svg())
    assert len(list(layer(root, "data-struck"))) == len(first.eliminations)
    small = ET.fromstring(first.svg(cell=18))
    assert small.get("width") == str(9 * 18)
    html = walk._repr_html_()
    assert html.count("<svg") == len(walk) and "level" in html
    ET.fromstring(html.replace("<b>", "").replace("</b>", ""))  # well-formed


def test_boards_of_other_shapes_and_the_end():
    six = sr.generate(size=6, box=(2, 3), seed=2)
    walk = sr.Board(six, box=(2, 3)).explain()
    assert walk[-1].after.is_valid() and 0 not in walk[-1].after.to_numpy()
    assert sr.Board(sr.solve(PUZZLE)).hint() is None
    assert len(sr.Board(sr.solve(PUZZLE)).explain()) == 0
