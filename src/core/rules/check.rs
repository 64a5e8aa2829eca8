//! The first rule a grid's clues break, as an error that names the rule and the cells.
//!
//! Rows, columns and boxes keep the classic `Conflict` error; every variant rule is a
//! `RuleConflict` whose message starts with the rule's name ("anti-knight: ..."). Like the
//! classic check, this says nothing about solvability: only clues that already break a rule.

use crate::core::error::{Cell, Error, Unit};
use crate::core::grid::shape::BoxShape;
use crate::core::grid::{cell_at, find_conflict as classic_conflict};

use super::layout::{disjoint_groups, neighbours, windows, Layout};
use super::Rules;

const FROM_ZERO: &str = "(row, column, counted from 0)";

/// Which clues break a rule with another clue, one flag per cell (row-major, `cells` 0 =
/// blank): an equal clue among the cell's peers (a group of distinct digits, a knight's or a
/// king's move), or, under non-consecutive, a consecutive orthogonal neighbour. Every such
/// relation is symmetric, so both clues of a pair are flagged. Cage sums involve whole cages
/// and are left to [`find_conflict`].
pub fn conflicting_cells(layout: &Layout, cells: &[u8]) -> Vec<bool> {
    (0..cells.len())
        .map(|i| {
            let v = cells[i];
            let equal = || layout.peers(i).iter().any(|&p| cells[p as usize] == v);
            let consecutive = || {
                layout.orthogonal.as_ref().is_some_and(|near| {
                    near[i].iter().any(|&p| {
                        let w = cells[p as usize];
                        w != 0 && w.abs_diff(v) == 1
                    })
                })
            };
            v != 0 && (equal() || consecutive())
        })
        .collect()
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
    if rules.non_consecutive() {
        for i in 0..n * n {
            let v = cells[i];
            if v == 0 {
                continue;
            }
            for (r, c) in neighbours(n, i / n, i % n, &[(0, 1), (1, 0)]) {
                let w = cells[r * n + c];
                if w != 0 && v.abs_diff(w) == 1 {
                    return Some(Error::RuleConflict {
                        rule: "non-consecutive",
                        detail: format!(
                            "neighbours {} and {} hold {v} and {w} {FROM_ZERO}",
                            at(i),
                            cell_at(r * n + c, n)
                        ),
                    });
                }
            }
        }
    }
    None
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
}
