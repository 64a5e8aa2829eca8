//! The first rule a grid's clues break, as an error that names the rule and the cells.
//!
//! Rows, columns and boxes keep the classic `Conflict` error; every variant rule is a
//! `RuleConflict` whose message starts with the rule's name ("anti-knight: ..."). Like the
//! classic check, this says nothing about solvability: only clues that already break a rule.

use crate::core::error::{Cell, Error, Unit};
use crate::core::grid::shape::BoxShape;
use crate::core::grid::{cell_at, find_conflict as classic_conflict};

use super::layout::{disjoint_groups, neighbours, windows, Layout};
use super::{region_stretches, IndexerKind, LineKind, Pair, Rules, V_SUM, X_SUM};

const FROM_ZERO: &str = "(row, column, counted from 0)";

/// Which clues break a rule with another clue or on their own, one flag per cell (row-major,
/// `cells` 0 = blank): an equal clue among the cell's peers (a group of distinct digits, a
/// knight's or a king's move), a pair relation both of whose clues are placed and which they
/// break (non-consecutive, dots, XV and their negatives, whispers, palindromes, clones, two
/// cells of a thermometer, a minimum or maximum cell and its neighbour), or a clue an odd/even
/// mark or its pencil marks forbid. Every pair relation flags both clues. Rules about whole
/// lines or cages (sums, arrows, renban, between lines, quadruples, clues outside the grid) are
/// left to [`find_conflict`].
pub fn conflicting_cells(layout: &Layout, rules: &Rules, cells: &[u8]) -> Vec<bool> {
    let n = layout.n;
    let mut flags: Vec<bool> = (0..cells.len())
        .map(|i| {
            let v = cells[i];
            v != 0 && layout.peers(i).iter().any(|&p| cells[p as usize] == v)
        })
        .collect();
    for (a, b) in broken_pairs(layout.shape, rules, cells) {
        flags[a] = true;
        flags[b] = true;
    }
    for (i, flag) in flags.iter_mut().enumerate() {
        if cells[i] != 0 && broken_alone(n, rules, i, cells[i]) {
            *flag = true;
        }
    }
    flags
}

/// Whether digit `v` in cell `i` breaks a rule on its own (parity, pencil marks).
fn broken_alone(n: usize, rules: &Rules, i: usize, v: u8) -> bool {
    let cell = cell_at(i, n);
    (v % 2 == 0 && rules.odd_cells().contains(&cell))
        || (v % 2 == 1 && rules.even_cells().contains(&cell))
        || rules
            .pencil_marks()
            .iter()
            .any(|m| m.cell == cell && !m.digits.contains(&v))
}

/// The orthogonal neighbour pairs (a < b, row-major indices) of an `n x n` grid.
fn orthogonal_pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n * n).flat_map(move |i| {
        let (r, c) = (i / n, i % n);
        let right = (c + 1 < n).then_some((i, i + 1));
        let down = (r + 1 < n).then_some((i, i + n));
        right.into_iter().chain(down)
    })
}

/// Every pair of placed clues that breaks a pair relation, with the rule's name and why,
/// in a fixed order.
fn broken_pairs(shape: BoxShape, rules: &Rules, cells: &[u8]) -> Vec<(usize, usize)> {
    pair_breaks(shape, rules, cells)
        .into_iter()
        .map(|(a, b, _, _)| (a, b))
        .collect()
}

fn same_pair(pair: &Pair, a: usize, b: usize, n: usize) -> bool {
    let [x, y] = pair.cells.map(|c| c.row * n + c.col);
    (x, y) == (a, b) || (y, x) == (a, b)
}

/// Pair relations broken by placed clues: (first cell, second cell, rule, detail).
fn pair_breaks(
    shape: BoxShape,
    rules: &Rules,
    cells: &[u8],
) -> Vec<(usize, usize, &'static str, String)> {
    let n = shape.size();
    let mut out = Vec::new();
    let at = |i: usize| cell_at(i, n);
    let index = |c: &Cell| c.row * n + c.col;
    let placed = |a: usize, b: usize| cells[a] != 0 && cells[b] != 0;
    if rules.non_consecutive() {
        for (a, b) in orthogonal_pairs(n) {
            let exempt = rules.differences().iter().any(|p| same_pair(p, a, b, n));
            if placed(a, b) && !exempt && cells[a].abs_diff(cells[b]) == 1 {
                let detail = format!(
                    "neighbours {} and {} hold {} and {} {FROM_ZERO}",
                    at(a),
                    at(b),
                    cells[a],
                    cells[b]
                );
                out.push((a, b, "non-consecutive", detail));
            }
        }
    }
    for (kind, pairs) in [
        ("XV", rules.xv()),
        ("white dot", rules.differences()),
        ("black dot", rules.ratios()),
    ] {
        for pair in pairs {
            let [a, b] = pair.cells.map(|c| index(&c));
            if !placed(a, b) {
                continue;
            }
            let (x, y) = (u32::from(cells[a]), u32::from(cells[b]));
            let (ok, what) = match kind {
                "XV" => (x + y == pair.value, format!("add up to {}", pair.value)),
                "white dot" => (
                    x.abs_diff(y) == pair.value,
                    format!("differ by {}", pair.value),
                ),
                _ => (
                    x.max(y) == pair.value * x.min(y),
                    format!("have ratio {}", pair.value),
                ),
            };
            if !ok {
                let detail = format!(
                    "{} and {} hold {x} and {y}, which do not {what} {FROM_ZERO}",
                    at(a),
                    at(b)
                );
                out.push((a, b, kind, detail));
            }
        }
    }
    if rules.negative_xv() || rules.negative_ratio() {
        let mut ratios: Vec<u32> = rules.ratios().iter().map(|p| p.value).collect();
        ratios.push(2);
        ratios.sort_unstable();
        ratios.dedup();
        for (a, b) in orthogonal_pairs(n) {
            if !placed(a, b) {
                continue;
            }
            let (x, y) = (u32::from(cells[a]), u32::from(cells[b]));
            let pair_text = || format!("{} and {} hold {x} and {y}", at(a), at(b));
            if rules.negative_xv()
                && (x + y == X_SUM || x + y == V_SUM)
                && !rules.xv().iter().any(|p| same_pair(p, a, b, n))
            {
                let detail = format!(
                    "{}, adding up to {} without an X or V {FROM_ZERO}",
                    pair_text(),
                    x + y
                );
                out.push((a, b, "negative XV", detail));
            }
            if rules.negative_ratio()
                && ratios.iter().any(|&k| x.max(y) == k * x.min(y))
                && !rules.ratios().iter().any(|p| same_pair(p, a, b, n))
            {
                let detail = format!(
                    "{}, a black dot's ratio without a black dot {FROM_ZERO}",
                    pair_text()
                );
                out.push((a, b, "negative black dots", detail));
            }
        }
    }
    for w in rules.whispers() {
        let d = w.difference_for(n);
        for step in w.cells.windows(2) {
            let (a, b) = (index(&step[0]), index(&step[1]));
            if placed(a, b) && u32::from(cells[a].abs_diff(cells[b])) < d {
                let detail = format!(
                    "{} and {} hold {} and {}, closer than {d} {FROM_ZERO}",
                    at(a),
                    at(b),
                    cells[a],
                    cells[b]
                );
                out.push((a, b, "whispers", detail));
            }
        }
    }
    for line in rules.palindromes() {
        let k = line.len();
        for i in 0..k / 2 {
            let (a, b) = (index(&line[i]), index(&line[k - 1 - i]));
            if placed(a, b) && cells[a] != cells[b] {
                let detail = format!(
                    "{} and {} mirror each other but hold {} and {} {FROM_ZERO}",
                    at(a),
                    at(b),
                    cells[a],
                    cells[b]
                );
                out.push((a, b, "palindrome", detail));
            }
        }
    }
    for clone in rules.clones() {
        for (x, y) in clone.cells.iter().zip(&clone.clone_cells) {
            let (a, b) = (index(x), index(y));
            if placed(a, b) && cells[a] != cells[b] {
                let detail = format!(
                    "{} and {} are clones but hold {} and {} {FROM_ZERO}",
                    at(a),
                    at(b),
                    cells[a],
                    cells[b]
                );
                out.push((a, b, "clone", detail));
            }
        }
    }
    for line in rules.thermometers() {
        for i in 0..line.len() {
            for j in i + 1..line.len() {
                let (a, b) = (index(&line[i]), index(&line[j]));
                // Each step up the line rises by at least 1.
                if placed(a, b) && i32::from(cells[b]) - i32::from(cells[a]) < (j - i) as i32 {
                    let detail = format!(
                        "{} holds {} and {}, {} steps further up, holds {} {FROM_ZERO}",
                        at(a),
                        cells[a],
                        at(b),
                        j - i,
                        cells[b]
                    );
                    out.push((a, b, "thermometer", detail));
                }
            }
        }
    }
    for (kind, marked, lower) in [
        ("minimum", rules.minimum_cells(), true),
        ("maximum", rules.maximum_cells(), false),
    ] {
        for cell in marked {
            let a = index(cell);
            for (r, c) in neighbours(n, cell.row, cell.col, &[(0, 1), (1, 0), (0, -1), (-1, 0)]) {
                let b = r * n + c;
                if marked.contains(&cell_at(b, n)) || !placed(a, b) {
                    continue;
                }
                let wrong = if lower {
                    cells[a] >= cells[b]
                } else {
                    cells[a] <= cells[b]
                };
                if wrong {
                    let detail = format!(
                        "{} holds {} beside {} holding {} {FROM_ZERO}",
                        at(a),
                        cells[a],
                        at(b),
                        cells[b]
                    );
                    out.push((a.min(b), a.max(b), kind, detail));
                }
            }
        }
    }
    line_pair_breaks(n, rules, cells, &mut out);
    indexer_breaks(shape, rules, cells, &mut out);
    out
}

/// Indexing cells whose digit names a cell holding another digit than the indexer's place.
fn indexer_breaks(
    shape: BoxShape,
    rules: &Rules,
    cells: &[u8],
    out: &mut Vec<(usize, usize, &'static str, String)>,
) {
    let n = shape.size();
    if IndexerKind::ALL
        .iter()
        .all(|&k| rules.indexers(k).is_empty())
    {
        return;
    }
    let regions = rules.cell_regions(shape);
    for kind in IndexerKind::ALL {
        for &cell in rules.indexers(kind) {
            let a = cell.row * n + cell.col;
            let Some((line, place)) = kind.target_line(cell, n, &regions) else {
                continue;
            };
            let v = cells[a];
            if v == 0 {
                continue;
            }
            let b = line[usize::from(v) - 1];
            if cells[b] != 0 && usize::from(cells[b]) != place + 1 {
                let detail = format!(
                    "{} holds {v}, so {} holds {}, not {} {FROM_ZERO}",
                    cell_at(a, n),
                    cell_at(b, n),
                    place + 1,
                    cells[b]
                );
                out.push((a.min(b), a.max(b), kind.name(), detail));
            }
        }
    }
}

/// The pair relations of the line kinds, broken by placed clues: entropic and modular lines
/// (cells a multiple of three apart share a class, others differ), slow thermometers (no step
/// down), nabner lines (no two digits equal or consecutive) and a lockout line's ends (far
/// enough apart).
fn line_pair_breaks(
    n: usize,
    rules: &Rules,
    cells: &[u8],
    out: &mut Vec<(usize, usize, &'static str, String)>,
) {
    let at = |i: usize| cell_at(i, n);
    let index = |c: &Cell| c.row * n + c.col;
    for kind in [
        LineKind::Entropic,
        LineKind::Modular,
        LineKind::SlowThermo,
        LineKind::Nabner,
    ] {
        let classes = kind.classes(n);
        let class = |d: u8| classes.and_then(|m| m.iter().position(|m| m >> (d - 1) & 1 == 1));
        for line in rules.lines(kind) {
            for i in 0..line.len() {
                for j in i + 1..line.len() {
                    let (a, b) = (index(&line[i]), index(&line[j]));
                    let (x, y) = (cells[a], cells[b]);
                    if x == 0 || y == 0 {
                        continue;
                    }
                    let why = match kind {
                        LineKind::SlowThermo if x > y => "goes down from",
                        LineKind::SlowThermo => continue,
                        LineKind::Nabner if x.abs_diff(y) < 2 => "is equal or consecutive to",
                        LineKind::Nabner => continue,
                        _ if (j - i) % 3 == 0 && class(x) != class(y) => {
                            "is three cells on, so in the same class as"
                        }
                        _ if (j - i) % 3 != 0 && class(x) == class(y) => "is in the same class as",
                        _ => continue,
                    };
                    let detail = format!(
                        "{} holding {y} {why} {} holding {x} {FROM_ZERO}",
                        at(b),
                        at(a)
                    );
                    out.push((a.min(b), a.max(b), kind.name(), detail));
                }
            }
        }
    }
    let least = LineKind::lockout_difference(n);
    for line in rules.lines(LineKind::Lockout) {
        let (a, b) = (index(&line[0]), index(&line[line.len() - 1]));
        let (x, y) = (cells[a], cells[b]);
        if x != 0 && y != 0 && u32::from(x.abs_diff(y)) < least {
            let detail = format!(
                "the ends {} and {} hold {x} and {y}, closer than {least} {FROM_ZERO}",
                at(a),
                at(b)
            );
            out.push((a.min(b), a.max(b), LineKind::Lockout.name(), detail));
        }
    }
}

/// The first broken rule among the clues of `cells` (row-major, 0 = blank) under `rules` on a
/// grid of `shape`, which the rules must fit ([`Rules::check_shape`]).
pub fn find_conflict(shape: BoxShape, rules: &Rules, cells: &[u8]) -> Option<Error> {
    let n = shape.size();
    let at = |i: usize| cell_at(i, n);
    let index = |c: &Cell| c.row * n + c.col;
    if rules.regions().is_none() {
        if let Some(err) = classic_conflict(shape, cells) {
            return Some(err);
        }
    } else {
        for (unit, line) in (0..n).flat_map(|i| {
            [
                (Unit::Row, (0..n).map(|c| i * n + c).collect::<Vec<_>>()),
                (Unit::Column, (0..n).map(|r| r * n + i).collect()),
            ]
        }) {
            if let Some((first, second, value)) = repeat(cells, line) {
                return Some(Error::Conflict {
                    value,
                    unit,
                    first: at(first),
                    second: at(second),
                });
            }
        }
    }
    let twice = |rule: &'static str, place: String, found: (usize, usize, u8)| {
        let (first, second, value) = found;
        Some(Error::RuleConflict {
            rule,
            detail: format!(
                "{value} appears twice {place}, at {} and {} {FROM_ZERO}",
                at(first),
                at(second)
            ),
        })
    };
    if let Some(ids) = rules.regions() {
        for region in 0..n as u8 {
            let members = (0..n * n).filter(|&i| ids[i] == region);
            if let Some(found) = repeat(cells, members) {
                let first = at(found.0);
                let place = format!("in the region of cell {first}");
                return twice("jigsaw region", place, found);
            }
        }
    }
    if rules.main_diagonal() {
        if let Some(found) = repeat(cells, (0..n).map(|i| i * n + i)) {
            return twice("diagonal", "on the main diagonal".into(), found);
        }
    }
    if rules.anti_diagonal() {
        if let Some(found) = repeat(cells, (0..n).map(|i| i * n + n - 1 - i)) {
            return twice("diagonal", "on the anti-diagonal".into(), found);
        }
    }
    if rules.disjoint_groups() {
        for group in disjoint_groups(shape) {
            if let Some(found) = repeat(cells, group.iter().map(|&c| c as usize)) {
                let first = at(found.0);
                let place = format!("in the disjoint group of cell {first}");
                return twice("disjoint groups", place, found);
            }
        }
    }
    if rules.windows() {
        for (top, left) in windows() {
            let members = (0..9).map(|k| (top + k / 3) * n + left + k % 3);
            if let Some(found) = repeat(cells, members) {
                let place = format!(
                    "in the window of rows {top}-{} and columns {left}-{}",
                    top + 2,
                    left + 2
                );
                return twice("window", place, found);
            }
        }
    }
    for (i, region) in rules.extra_regions().iter().enumerate() {
        if let Some(found) = repeat(cells, region.iter().map(index)) {
            return twice("extra region", format!("in extra region {i}"), found);
        }
    }
    for (i, cage) in rules.cages().iter().enumerate() {
        let members = cage.cells.iter().map(index);
        if let Some(found) = repeat(cells, members.clone()) {
            return twice("killer cage", format!("in cage {i}"), found);
        }
        let Some(total) = cage.total else { continue };
        let sum: u32 = members.clone().map(|c| u32::from(cells[c])).sum();
        let full = members.clone().all(|c| cells[c] != 0);
        if full && sum != total || sum > total {
            let detail = if full {
                format!("cage {i} adds up to {sum}, not its total {total}")
            } else {
                format!("the clues of cage {i} add up to {sum}, more than its total {total}")
            };
            return Some(Error::RuleConflict {
                rule: "killer cage",
                detail,
            });
        }
    }
    let moves = |rule: &'static str, steps: &[(isize, isize)], what: &str| {
        for i in 0..n * n {
            let v = cells[i];
            if v == 0 {
                continue;
            }
            for (r, c) in neighbours(n, i / n, i % n, steps) {
                let j = r * n + c;
                if j > i && cells[j] == v {
                    return Some(Error::RuleConflict {
                        rule,
                        detail: format!(
                            "{} and {} both hold {v}, {what} apart {FROM_ZERO}",
                            at(i),
                            at(j)
                        ),
                    });
                }
            }
        }
        None
    };
    if rules.anti_knight() {
        let steps = [(1, 2), (2, 1), (1, -2), (2, -1)];
        if let Some(err) = moves("anti-knight", &steps, "a knight's move") {
            return Some(err);
        }
    }
    if rules.anti_king() {
        let steps = [(1, 1), (1, -1), (0, 1), (1, 0)];
        if let Some(err) = moves("anti-king", &steps, "a king's move") {
            return Some(err);
        }
    }
    if let Some((_, _, rule, detail)) = pair_breaks(shape, rules, cells).into_iter().next() {
        return Some(Error::RuleConflict { rule, detail });
    }
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 && broken_alone(n, rules, i, v) {
            let cell = at(i);
            let rule = if rules.pencil_marks().iter().any(|m| m.cell == cell) {
                "pencil marks"
            } else {
                "odd/even"
            };
            let detail = format!(
                "{cell} holds {}, which its mark forbids {FROM_ZERO}",
                cells[i]
            );
            return Some(Error::RuleConflict { rule, detail });
        }
    }
    whole_conflict(n, rules, cells).or_else(|| line_conflict(shape, rules, cells))
}

/// Rules of the line kinds about more than a pair of cells, broken by placed clues: zipper
/// and region sum lines whose complete groups disagree, double arrows whose sums cannot meet,
/// lockout lines with a digit on or between the placed ends.
fn line_conflict(shape: BoxShape, rules: &Rules, cells: &[u8]) -> Option<Error> {
    let n = shape.size();
    let value = |c: &Cell| cells[c.row * n + c.col];
    let broke = |kind: LineKind, i: usize, why: String| {
        Some(Error::RuleConflict {
            rule: kind.name(),
            detail: format!("{} {i} {why}", kind.name()),
        })
    };
    // The totals of the groups whose cells are all placed.
    let disagree = |groups: Vec<Vec<u8>>| {
        let totals: Vec<u32> = groups
            .iter()
            .filter(|g| !g.contains(&0))
            .map(|g| g.iter().map(|&d| u32::from(d)).sum())
            .collect();
        totals
            .windows(2)
            .find(|w| w[0] != w[1])
            .map(|w| format!("has groups adding up to {} and {}", w[0], w[1]))
    };
    for (i, line) in rules.lines(LineKind::Zipper).iter().enumerate() {
        let digits: Vec<u8> = line.iter().map(value).collect();
        let k = digits.len();
        let mut groups: Vec<Vec<u8>> = (0..k / 2)
            .map(|j| vec![digits[j], digits[k - 1 - j]])
            .collect();
        if k % 2 == 1 {
            groups.push(vec![digits[k / 2]]);
        }
        if let Some(why) = disagree(groups) {
            return broke(LineKind::Zipper, i, why);
        }
    }
    let regions = rules.cell_regions(shape);
    for (i, line) in rules.lines(LineKind::RegionSum).iter().enumerate() {
        let digits: Vec<u8> = line.iter().map(value).collect();
        let own: Vec<Option<u8>> = line.iter().map(|c| regions[c.row * n + c.col]).collect();
        let groups = region_stretches(&own)
            .iter()
            .map(|s| s.iter().map(|&j| digits[j]).collect())
            .collect();
        if let Some(why) = disagree(groups) {
            return broke(LineKind::RegionSum, i, why);
        }
    }
    for (i, line) in rules.lines(LineKind::DoubleArrow).iter().enumerate() {
        let digits: Vec<u32> = line.iter().map(|c| u32::from(value(c))).collect();
        let k = digits.len();
        let (a, z) = (digits[0], digits[k - 1]);
        let middle = &digits[1..k - 1];
        let sum: u32 = middle.iter().sum();
        let open = middle.iter().filter(|&&d| d == 0).count() as u32;
        // Open middle cells hold 1 to n each; an open end 1 to n.
        let least = sum + open;
        let most = sum + open * n as u32;
        let (ends_least, ends_most) = match (a, z) {
            (0, 0) => (2, 2 * n as u32),
            (0, e) | (e, 0) => (e + 1, e + n as u32),
            (a, z) => (a + z, a + z),
        };
        if least > ends_most || most < ends_least {
            return broke(
                LineKind::DoubleArrow,
                i,
                format!(
                    "cannot balance: its ends add up to {ends_least}..{ends_most} and the                      cells between them to {least}..{most}"
                ),
            );
        }
    }
    for (i, line) in rules.lines(LineKind::Lockout).iter().enumerate() {
        let (a, z) = (value(&line[0]), value(&line[line.len() - 1]));
        if a == 0 || z == 0 {
            continue;
        }
        let (lo, hi) = (a.min(z), a.max(z));
        if let Some(d) = line[1..line.len() - 1]
            .iter()
            .map(value)
            .find(|&d| d != 0 && (lo..=hi).contains(&d))
        {
            return broke(
                LineKind::Lockout,
                i,
                format!("has ends {a} and {z} and {d} on the line, which they lock out"),
            );
        }
    }
    None
}

/// Rules about whole lines, cages and clues outside the grid, broken by placed clues: what no
/// completion can mend.
fn whole_conflict(n: usize, rules: &Rules, cells: &[u8]) -> Option<Error> {
    let value = |c: &Cell| cells[c.row * n + c.col];
    let broke = |rule: &'static str, detail: String| Some(Error::RuleConflict { rule, detail });
    for (i, k) in rules.little_killers().iter().enumerate() {
        let line = k.cells(n);
        if let Some(why) = sum_broken(line.iter().map(value), k.total) {
            return broke("little killer", format!("little killer {i}: {why}"));
        }
    }
    for (i, arrow) in rules.arrows().iter().enumerate() {
        // The circle reads its digits in row-major order, whatever order its cells were given
        // in, as the engine reads them (fuzz/regressions/rules/arrow-circle-order).
        let mut circle_cells = arrow.circle.clone();
        circle_cells.sort_by_key(|c| (c.row, c.col));
        let circle: Vec<u8> = circle_cells.iter().map(value).collect();
        if circle.contains(&0) {
            continue;
        }
        let number = circle.iter().fold(0u64, |acc, &d| acc * 10 + u64::from(d));
        let shaft: Vec<u8> = arrow.shaft.iter().map(value).collect();
        let sum: u64 = shaft.iter().map(|&d| u64::from(d)).sum();
        let full = !shaft.contains(&0);
        if sum > number || full && sum != number {
            return broke(
                "arrow",
                format!(
                    "the shaft of arrow {i} adds up to {sum}{}, but its circle reads {number}",
                    if full { "" } else { " so far" }
                ),
            );
        }
    }
    for (i, clue) in rules.sandwiches().iter().enumerate() {
        let line: Vec<u8> = clue.cells(n).iter().map(value).collect();
        let ends = (
            line.iter().position(|&d| d == 1),
            line.iter().position(|&d| d as usize == n),
        );
        let (Some(x), Some(y)) = ends else { continue };
        let inner = &line[x.min(y) + 1..x.max(y)];
        if let Some(why) = sum_broken(inner.iter().copied(), clue.value) {
            return broke(
                "sandwich",
                format!("sandwich clue {i} at {}: {why}", clue.clue),
            );
        }
    }
    for (i, clue) in rules.x_sums().iter().enumerate() {
        let line: Vec<u8> = clue.cells(n).iter().map(value).collect();
        let first = line[0] as usize;
        if first == 0 {
            continue;
        }
        if let Some(why) = sum_broken(line[..first].iter().copied(), clue.value) {
            return broke("X-sum", format!("X-sum clue {i} at {}: {why}", clue.clue));
        }
    }
    for (i, clue) in rules.skyscrapers().iter().enumerate() {
        let line: Vec<u8> = clue.cells(n).iter().map(value).collect();
        let prefix: Vec<u8> = line.iter().copied().take_while(|&d| d != 0).collect();
        let (mut seen, mut tallest) = (0u32, 0u8);
        for &d in &prefix {
            if d > tallest {
                seen += 1;
                tallest = d;
            }
        }
        // Past the tallest digit nothing more is seen.
        let settled = tallest as usize == n || prefix.len() == line.len();
        if seen > clue.value || settled && seen != clue.value {
            return broke(
                "skyscraper",
                format!(
                    "skyscraper clue {i} at {} sees {seen}{}, not {}",
                    clue.clue,
                    if settled { "" } else { " already" },
                    clue.value
                ),
            );
        }
    }
    for (i, line) in rules.renbans().iter().enumerate() {
        let digits: Vec<u8> = line.iter().map(value).filter(|&d| d != 0).collect();
        let repeat = digits
            .iter()
            .enumerate()
            .any(|(k, d)| digits[..k].contains(d));
        let spread = match (digits.iter().min(), digits.iter().max()) {
            (Some(&lo), Some(&hi)) => usize::from(hi - lo),
            _ => 0,
        };
        if repeat || spread >= line.len() {
            return broke(
                "renban",
                format!("renban line {i} holds {digits:?}, not distinct consecutive digits"),
            );
        }
    }
    for (i, line) in rules.between_lines().iter().enumerate() {
        let (a, b) = (value(&line[0]), value(&line[line.len() - 1]));
        if a == 0 || b == 0 {
            continue;
        }
        let (lo, hi) = (a.min(b), a.max(b));
        let inner = &line[1..line.len() - 1];
        let outside = inner
            .iter()
            .map(value)
            .find(|&d| d != 0 && (d <= lo || d >= hi));
        if outside.is_some() || !inner.is_empty() && hi - lo < 2 {
            return broke(
                "between line",
                format!("between line {i} has ends {a} and {b}, and no digit fits between them as placed"),
            );
        }
    }
    for (i, q) in rules.quadruples().iter().enumerate() {
        let digits: Vec<u8> = q.cells().iter().map(value).collect();
        let open = digits.iter().filter(|&&d| d == 0).count();
        let mut missing = 0;
        let mut wanted = q.digits.clone();
        wanted.sort_unstable();
        wanted.dedup();
        for d in wanted {
            let need = q.digits.iter().filter(|&&x| x == d).count();
            let have = digits.iter().filter(|&&x| x == d).count();
            missing += need.saturating_sub(have);
        }
        if missing > open {
            return broke(
                "quadruple",
                format!(
                    "quadruple {i} at {} needs {:?}, which its cells {digits:?} cannot hold",
                    q.corner, q.digits
                ),
            );
        }
    }
    None
}

/// Why digits (0 = open) cannot add up to `total`: the placed ones already pass it, or all are
/// placed and miss it.
fn sum_broken(digits: impl Iterator<Item = u8>, total: u32) -> Option<String> {
    let (mut sum, mut full) = (0u32, true);
    for d in digits {
        sum += u32::from(d);
        full &= d != 0;
    }
    if full && sum != total {
        Some(format!("adds up to {sum}, not {total}"))
    } else if sum > total {
        Some(format!(
            "the placed digits add up to {sum}, more than {total}"
        ))
    } else {
        None
    }
}

/// The first digit seen twice among `members`: (first index, second index, digit).
fn repeat(cells: &[u8], members: impl IntoIterator<Item = usize>) -> Option<(usize, usize, u8)> {
    let mut seen: Vec<(u8, usize)> = Vec::new();
    for i in members {
        let v = cells[i];
        if v == 0 {
            continue;
        }
        if let Some(&(_, first)) = seen.iter().find(|(d, _)| *d == v) {
            return Some((first, i, v));
        }
        seen.push((v, i));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::{Cage, Spec};
    use super::*;

    fn grid(placed: &[(usize, usize, u8)]) -> Vec<u8> {
        let mut cells = vec![0u8; 81];
        for &(r, c, v) in placed {
            cells[r * 9 + c] = v;
        }
        cells
    }

    fn message(spec: Spec, placed: &[(usize, usize, u8)]) -> Option<String> {
        let rules = Rules::new(spec).unwrap();
        find_conflict(BoxShape::CLASSIC, &rules, &grid(placed)).map(|e| e.to_string())
    }

    #[test]
    fn names_the_broken_rule() {
        let knight = Spec {
            anti_knight: true,
            ..Spec::default()
        };
        let msg = message(knight.clone(), &[(0, 2, 5), (1, 4, 5)]).unwrap();
        assert_eq!(
            msg,
            "anti-knight: (0, 2) and (1, 4) both hold 5, a knight's move apart (row, column, \
             counted from 0)"
        );
        assert!(message(knight, &[(0, 2, 5), (2, 4, 5)]).is_none());
        let x = Spec {
            diagonals: true,
            ..Spec::default()
        };
        let msg = message(x, &[(0, 8, 3), (8, 0, 3)]).unwrap();
        assert!(
            msg.starts_with("diagonal: 3 appears twice on the anti-diagonal"),
            "{msg}"
        );
        let nc = Spec {
            non_consecutive: true,
            ..Spec::default()
        };
        let msg = message(nc, &[(4, 4, 3), (5, 4, 4)]).unwrap();
        assert!(
            msg.starts_with("non-consecutive: neighbours (4, 4) and (5, 4)"),
            "{msg}"
        );
        let killer = Spec {
            cages: vec![Cage {
                total: Some(10),
                cells: vec![Cell { row: 0, col: 0 }, Cell { row: 0, col: 1 }],
            }],
            ..Spec::default()
        };
        assert!(message(killer.clone(), &[(0, 0, 9)]).is_none());
        let msg = message(killer.clone(), &[(0, 0, 9), (0, 1, 2)]).unwrap();
        assert!(msg.contains("adds up to 11"), "{msg}");
        // Classic conflicts keep their classic error.
        let err = find_conflict(
            BoxShape::CLASSIC,
            &Rules::new(killer).unwrap(),
            &grid(&[(0, 0, 1), (0, 5, 1)]),
        )
        .unwrap();
        assert!(matches!(
            err,
            Error::Conflict {
                unit: Unit::Row,
                ..
            }
        ));
    }

    type Case = (Spec, Vec<(usize, usize, u8)>, &'static str);

    #[test]
    fn each_kind_names_itself() {
        use super::super::{Arrow, Direction, LineClue, LittleKiller, Outside, Pair};
        let cell = |row, col| Cell { row, col };
        let cases: Vec<Case> = vec![
            (
                Spec {
                    thermometers: vec![vec![cell(0, 0), cell(0, 1), cell(0, 2)]],
                    ..Spec::default()
                },
                vec![(0, 0, 4), (0, 2, 5)],
                "thermometer: (0, 0) holds 4 and (0, 2), 2 steps further up, holds 5",
            ),
            (
                Spec {
                    arrows: vec![Arrow {
                        circle: vec![cell(0, 0)],
                        shaft: vec![cell(0, 1), cell(0, 2)],
                    }],
                    ..Spec::default()
                },
                vec![(0, 0, 5), (0, 1, 6)],
                "arrow: the shaft of arrow 0 adds up to 6 so far, but its circle reads 5",
            ),
            (
                Spec {
                    ratios: vec![Pair {
                        cells: [cell(0, 0), cell(0, 1)],
                        value: 2,
                    }],
                    ..Spec::default()
                },
                vec![(0, 0, 3), (0, 1, 5)],
                "black dot: (0, 0) and (0, 1) hold 3 and 5, which do not have ratio 2",
            ),
            (
                Spec {
                    little_killers: vec![LittleKiller {
                        total: 3,
                        clue: Outside { row: -1, col: -1 },
                        direction: Direction::DownRight,
                    }],
                    ..Spec::default()
                },
                vec![(0, 0, 2), (1, 1, 3)],
                "little killer: little killer 0: the placed digits add up to 5, more than 3",
            ),
            (
                Spec {
                    skyscrapers: vec![LineClue {
                        value: 2,
                        clue: Outside { row: 3, col: -1 },
                    }],
                    ..Spec::default()
                },
                vec![(3, 0, 1), (3, 1, 2), (3, 2, 3)],
                "skyscraper: skyscraper clue 0 at (3, -1) sees 3 already, not 2",
            ),
            (
                Spec {
                    non_consecutive: true,
                    differences: vec![Pair {
                        cells: [cell(0, 0), cell(0, 1)],
                        value: 1,
                    }],
                    ..Spec::default()
                },
                vec![(0, 0, 3), (0, 1, 4)],
                "",
            ),
        ];
        for (spec, placed, says) in cases {
            let got = message(spec, &placed).unwrap_or_default();
            assert!(
                got.starts_with(says),
                "{got:?} does not start with {says:?}"
            );
            assert_eq!(got.is_empty(), says.is_empty(), "{got}");
        }
    }
}
