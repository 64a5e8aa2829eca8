//! The line kinds of [`LineKind`] as propagators over candidate masks: equal sums (zipper and
//! region sum lines), digit classes by position (entropic and modular lines), slow
//! thermometers and lockout lines; double arrows are a [`Sum`]. Like every propagator each is
//! sound (it removes only digits no completion of its own cells can use).

use super::propagators::{bounds, range_mask, Board, Propagator, Sum};
use crate::core::grid::shape::BoxShape;
use crate::core::rules::{region_stretches, IndexerKind, LineKind, Rules};

/// One line constraint.
#[derive(Clone, Debug)]
pub(crate) enum LinePropagator {
    EqualSums(EqualSums),
    Classes(Classes),
    SlowThermo(SlowThermo),
    Lockout(Lockout),
    Indexer(Indexer),
}

impl LinePropagator {
    #[inline]
    pub fn propagate(&self, b: &mut Board<'_>) -> Option<bool> {
        match self {
            LinePropagator::EqualSums(p) => p.propagate(b),
            LinePropagator::Classes(p) => p.propagate(b),
            LinePropagator::SlowThermo(p) => p.propagate(b),
            LinePropagator::Lockout(p) => p.propagate(b),
            LinePropagator::Indexer(p) => p.propagate(b),
        }
    }

    /// The cells it reads (see [`Propagator::cells`]).
    pub fn cells(&self) -> Vec<u16> {
        match self {
            LinePropagator::EqualSums(p) => p.groups.concat(),
            LinePropagator::Classes(p) => p.cells.clone(),
            LinePropagator::SlowThermo(p) => p.cells.clone(),
            LinePropagator::Lockout(p) => [p.ends.0, p.ends.1]
                .into_iter()
                .chain(p.inner.iter().copied())
                .collect(),
            LinePropagator::Indexer(p) => std::iter::once(p.cell)
                .chain(p.line.iter().copied())
                .collect(),
        }
    }

    pub fn holds(&self, value: &[u8]) -> bool {
        match self {
            LinePropagator::EqualSums(p) => p.holds(value),
            LinePropagator::Classes(p) => p.holds(value),
            LinePropagator::SlowThermo(p) => p.holds(value),
            LinePropagator::Lockout(p) => p.holds(value),
            LinePropagator::Indexer(p) => p.holds(value),
        }
    }
}

/// Groups of cells whose digits add up to one common total (zipper lines: the pairs the same
/// distance from the middle, and the middle cell; region sum lines: the stretches in one
/// region). By bounds: the total lies in every group's range, and each cell keeps the digits
/// its group's other cells leave room for.
#[derive(Clone, Debug)]
pub(crate) struct EqualSums {
    pub groups: Vec<Vec<u16>>,
}

impl EqualSums {
    fn holds(&self, value: &[u8]) -> bool {
        let mut totals = self
            .groups
            .iter()
            .map(|g| g.iter().map(|&c| u32::from(value[c as usize])).sum::<u32>());
        let first = totals.next();
        totals.all(|t| Some(t) == first)
    }

    #[inline]
    fn propagate(&self, b: &mut Board<'_>) -> Option<bool> {
        let (mut low, mut high) = (i64::MIN, i64::MAX);
        for g in &self.groups {
            let (mut lo, mut hi) = (0, 0);
            for &c in g {
                let (l, h) = bounds(b.cand[c as usize]);
                lo += l;
                hi += h;
            }
            low = low.max(lo);
            high = high.min(hi);
        }
        if low > high {
            return None;
        }
        let mut changed = false;
        for g in &self.groups {
            let (mut lo, mut hi) = (0, 0);
            for &c in g {
                let (l, h) = bounds(b.cand[c as usize]);
                lo += l;
                hi += h;
            }
            for &c in g {
                let (l, h) = bounds(b.cand[c as usize]);
                let keep = range_mask(low - (hi - h), high - (lo - l));
                changed |= b.narrow(c as usize, keep)?;
            }
        }
        Some(changed)
    }
}

/// Cells whose position along a line fixes a class: positions a multiple of three apart share
/// one of three digit classes and the three positions take different ones (entropic: low,
/// middle, high; modular: residues modulo 3). Each position keeps the classes of the
/// assignments of classes to positions that every one of its cells can meet.
#[derive(Clone, Debug)]
pub(crate) struct Classes {
    pub cells: Vec<u16>,
    pub classes: [u64; 3],
}

/// Every way to give three positions three different classes.
const ORDERS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

impl Classes {
    fn class(&self, d: u8) -> Option<usize> {
        self.classes.iter().position(|m| m >> (d - 1) & 1 == 1)
    }

    fn holds(&self, value: &[u8]) -> bool {
        let classes: Vec<Option<usize>> = self
            .cells
            .iter()
            .map(|&c| self.class(value[c as usize]))
            .collect();
        let k = classes.len();
        (0..k).all(|i| {
            (i + 1..k.min(i + 3)).all(|j| classes[i] != classes[j])
                && (i + 3 >= k || classes[i] == classes[i + 3])
        })
    }

    #[inline]
    fn propagate(&self, b: &mut Board<'_>) -> Option<bool> {
        let positions = self.cells.len().min(3);
        if positions < 2 {
            return Some(false);
        }
        // Which classes each position's cells can all still take.
        let mut fits = [0u8; 3];
        for (p, fit) in fits.iter_mut().enumerate().take(positions) {
            for (k, &class) in self.classes.iter().enumerate() {
                if self
                    .cells
                    .iter()
                    .skip(p)
                    .step_by(3)
                    .all(|&c| b.cand[c as usize] & class != 0)
                {
                    *fit |= 1 << k;
                }
            }
        }
        let mut keep = [0u64; 3];
        for order in ORDERS {
            if (0..positions).all(|p| fits[p] >> order[p] & 1 == 1) {
                for p in 0..positions {
                    keep[p] |= self.classes[order[p]];
                }
            }
        }
        let mut changed = false;
        for (i, &c) in self.cells.iter().enumerate() {
            changed |= b.narrow(c as usize, keep[i % 3])?;
        }
        Some(changed)
    }
}

/// Digits never decreasing from the bulb: each cell at least the least its predecessor may
/// hold, at most the greatest its successor may hold.
#[derive(Clone, Debug)]
pub(crate) struct SlowThermo {
    pub cells: Vec<u16>,
}

impl SlowThermo {
    fn holds(&self, value: &[u8]) -> bool {
        self.cells
            .windows(2)
            .all(|w| value[w[0] as usize] <= value[w[1] as usize])
    }

    #[inline]
    fn propagate(&self, b: &mut Board<'_>) -> Option<bool> {
        let cells = &self.cells;
        let mut changed = false;
        for i in 1..cells.len() {
            let (low, _) = bounds(b.cand[cells[i - 1] as usize]);
            changed |= b.narrow(cells[i] as usize, range_mask(low, 64))?;
        }
        for i in (0..cells.len().saturating_sub(1)).rev() {
            let (_, high) = bounds(b.cand[cells[i + 1] as usize]);
            changed |= b.narrow(cells[i] as usize, range_mask(1, high))?;
        }
        Some(changed)
    }
}

/// A lockout line: ends at least `least` apart, every inner digit below both or above both.
/// Every pair of end digits is tried: a pair stands when each inner cell keeps a digit outside
/// it, and the ends and inner cells keep what some standing pair allows.
#[derive(Clone, Debug)]
pub(crate) struct Lockout {
    pub ends: (u16, u16),
    pub inner: Vec<u16>,
    pub least: u32,
}

impl Lockout {
    fn holds(&self, value: &[u8]) -> bool {
        let (a, z) = (value[self.ends.0 as usize], value[self.ends.1 as usize]);
        let (lo, hi) = (a.min(z), a.max(z));
        u32::from(hi - lo) >= self.least
            && self
                .inner
                .iter()
                .all(|&c| !(lo..=hi).contains(&value[c as usize]))
    }

    #[inline]
    fn propagate(&self, b: &mut Board<'_>) -> Option<bool> {
        let (ea, ez) = (self.ends.0 as usize, self.ends.1 as usize);
        let (ma, mz) = (b.cand[ea], b.cand[ez]);
        let (mut keep_a, mut keep_z, mut keep_inner) = (0u64, 0u64, 0u64);
        let mut xs = ma;
        while xs != 0 {
            let x = i64::from(xs.trailing_zeros()) + 1;
            xs &= xs - 1;
            let mut ys = mz;
            while ys != 0 {
                let y = i64::from(ys.trailing_zeros()) + 1;
                ys &= ys - 1;
                if x.abs_diff(y) < u64::from(self.least) {
                    continue;
                }
                let outside = !range_mask(x.min(y), x.max(y));
                if self
                    .inner
                    .iter()
                    .all(|&c| b.cand[c as usize] & outside != 0)
                {
                    keep_a |= 1 << (x - 1);
                    keep_z |= 1 << (y - 1);
                    keep_inner |= outside;
                }
            }
        }
        let mut changed = b.narrow(ea, keep_a)?;
        changed |= b.narrow(ez, keep_z)?;
        for &c in &self.inner {
            changed |= b.narrow(c as usize, keep_inner)?;
        }
        Some(changed)
    }
}

/// An indexing cell: holding digit v, the cell at place v of `line` holds `place` (both from
/// 1). Its line holds distinct digits (a row, column or region), so the reverse holds too: the
/// cell at place v holds the indexer's place only if the indexer holds v.
#[derive(Clone, Debug)]
pub(crate) struct Indexer {
    pub cell: u16,
    /// The row, column or region it indexes, in index order.
    pub line: Vec<u16>,
    /// The digit its target holds: its own place in `line`, as a bit.
    pub place: u64,
}

impl Indexer {
    fn holds(&self, value: &[u8]) -> bool {
        let v = value[self.cell as usize];
        let target = self.line[usize::from(v) - 1];
        value[target as usize] == self.place.trailing_zeros() as u8 + 1
    }

    #[inline]
    fn propagate(&self, b: &mut Board<'_>) -> Option<bool> {
        let mut keep = 0u64;
        let mut m = b.cand[self.cell as usize];
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            if b.cand[self.line[d] as usize] & self.place != 0 {
                keep |= 1 << d;
            }
        }
        let mut changed = b.narrow(self.cell as usize, keep)?;
        let own = b.cand[self.cell as usize];
        for (d, &target) in self.line.iter().enumerate() {
            if own >> d & 1 == 0 && target != self.cell {
                changed |= b.narrow(target as usize, !self.place)?;
            }
        }
        Some(changed)
    }
}

/// The propagators of `rules`' line kinds and indexing cells on a grid of `shape`.
pub(crate) fn line_propagators(rules: &Rules, shape: BoxShape) -> Vec<Propagator> {
    let n = shape.size();
    let at = |c: &crate::core::error::Cell| (c.row * n + c.col) as u16;
    let mut out = Vec::new();
    let mut push = |p: LinePropagator| out.push(Propagator::Line(p));
    for line in rules.lines(LineKind::Zipper) {
        let k = line.len();
        let mut groups: Vec<Vec<u16>> = (0..k / 2)
            .map(|i| vec![at(&line[i]), at(&line[k - 1 - i])])
            .collect();
        if k % 2 == 1 {
            groups.push(vec![at(&line[k / 2])]);
        }
        if groups.len() > 1 {
            push(LinePropagator::EqualSums(EqualSums { groups }));
        }
    }
    let regions = rules.cell_regions(shape);
    for line in rules.lines(LineKind::RegionSum) {
        let own: Vec<Option<u8>> = line.iter().map(|c| regions[at(c) as usize]).collect();
        let groups: Vec<Vec<u16>> = region_stretches(&own)
            .iter()
            .map(|s| s.iter().map(|&i| at(&line[i])).collect())
            .collect();
        if groups.len() > 1 {
            push(LinePropagator::EqualSums(EqualSums { groups }));
        }
    }
    for kind in [LineKind::Entropic, LineKind::Modular] {
        let classes = kind.classes(n).expect("classed kinds");
        for line in rules.lines(kind) {
            push(LinePropagator::Classes(Classes {
                cells: line.iter().map(at).collect(),
                classes,
            }));
        }
    }
    for line in rules.lines(LineKind::SlowThermo) {
        if line.len() > 1 {
            push(LinePropagator::SlowThermo(SlowThermo {
                cells: line.iter().map(at).collect(),
            }));
        }
    }
    for line in rules.lines(LineKind::Lockout) {
        push(LinePropagator::Lockout(Lockout {
            ends: (at(&line[0]), at(&line[line.len() - 1])),
            inner: line[1..line.len() - 1].iter().map(at).collect(),
            least: LineKind::lockout_difference(n),
        }));
    }
    for kind in IndexerKind::ALL {
        for &cell in rules.indexers(kind) {
            if let Some((line, place)) = kind.target_line(cell, n, &regions) {
                push(LinePropagator::Indexer(Indexer {
                    cell: at(&cell),
                    line: line.iter().map(|&i| i as u16).collect(),
                    place: 1 << place,
                }));
            }
        }
    }
    for line in rules.lines(LineKind::DoubleArrow) {
        let k = line.len();
        let terms = line
            .iter()
            .enumerate()
            .map(|(i, c)| (at(c), if i == 0 || i == k - 1 { -1 } else { 1 }))
            .collect();
        out.push(Propagator::Sum(Sum { terms, total: 0 }));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::core::error::Cell;
    use crate::core::rules::{find_conflict, Spec};
    use crate::core::search::{Solver, Unbounded};

    /// Completions by plain backtracking, every rule checked by `find_conflict`.
    fn brute_count(shape: BoxShape, rules: &Rules, cells: &mut Vec<u8>) -> u64 {
        let Some(blank) = cells.iter().position(|&v| v == 0) else {
            return 1;
        };
        let mut count = 0;
        for v in 1..=shape.size() as u8 {
            cells[blank] = v;
            if find_conflict(shape, rules, cells).is_none() {
                count += brute_count(shape, rules, cells);
            }
        }
        cells[blank] = 0;
        count
    }

    #[test]
    fn counts_match_plain_backtracking_for_every_line_kind() {
        let cell = |row, col| Cell { row, col };
        let lines: [Vec<Cell>; 4] = [
            vec![cell(0, 0), cell(0, 1), cell(1, 1)],
            vec![cell(1, 0), cell(2, 0), cell(2, 1), cell(2, 2)],
            vec![cell(0, 2), cell(1, 3), cell(2, 3), cell(3, 3)],
            vec![cell(3, 0), cell(3, 1), cell(3, 2)],
        ];
        let mut counted = [0usize; 2];
        for (s, shape) in [BoxShape::new(2, 2).unwrap(), BoxShape::new(2, 3).unwrap()]
            .into_iter()
            .enumerate()
        {
            for kind in LineKind::ALL {
                for (i, line) in lines.iter().enumerate() {
                    let mut spec = Spec::default();
                    spec.lines[kind as usize].push(line.clone());
                    if i % 2 == 1 {
                        spec.lines[kind as usize].push(lines[i - 1].clone());
                    }
                    let rules = Arc::new(Rules::new(spec).unwrap());
                    let nc = shape.cell_count();
                    let mut cells = vec![0u8; nc];
                    // A few clues on a 6x6 keep the plain count small.
                    if shape.size() == 6 {
                        for (k, v) in [(7, 2), (16, 5), (21, 1), (30, 6), (35, 3)] {
                            cells[k] = v;
                        }
                    }
                    if find_conflict(shape, &rules, &cells).is_some() {
                        continue;
                    }
                    let want = brute_count(shape, &rules, &mut cells.clone());
                    let mut solver = Solver::with_rules(shape, rules.clone()).unwrap();
                    let got = solver.count(&cells, None, &mut Unbounded).unwrap();
                    assert_eq!(got, want, "{kind:?} {line:?} on {shape:?}");
                    counted[s] += usize::from(want > 0);
                }
            }
        }
        assert!(counted[0] >= 20 && counted[1] >= 10, "{counted:?}");
    }

    #[test]
    fn indexer_counts_match_plain_backtracking() {
        let cell = |row, col| Cell { row, col };
        let shape = BoxShape::new(2, 2).unwrap();
        let regions = Spec {
            regions: Some(
                [[0, 0, 0, 1], [0, 2, 1, 1], [2, 2, 3, 1], [2, 3, 3, 3]]
                    .map(|row| row.map(Some).to_vec())
                    .to_vec(),
            ),
            ..Spec::default()
        };
        let mut counted = 0;
        for kind in IndexerKind::ALL {
            for (cells, base) in [
                (vec![cell(0, 0)], Spec::default()),
                (vec![cell(1, 2), cell(2, 1)], Spec::default()),
                (vec![cell(0, 1), cell(3, 3), cell(2, 0)], regions.clone()),
            ] {
                let mut spec = base;
                spec.indexers[kind as usize] = cells.clone();
                let rules = Arc::new(Rules::new(spec).unwrap());
                let want = brute_count(shape, &rules, &mut vec![0u8; 16]);
                let mut solver = Solver::with_rules(shape, rules.clone()).unwrap();
                let got = solver.count(&[0u8; 16], None, &mut Unbounded).unwrap();
                assert_eq!(got, want, "{kind:?} {cells:?}");
                counted += usize::from(want > 0 && want < 288);
            }
        }
        assert!(counted >= 5, "{counted}");
    }

    #[test]
    fn classes_split_as_the_extensions_say() {
        assert_eq!(
            LineKind::Entropic.classes(9),
            Some([0b111, 0b11_1000, 0b1_1100_0000])
        );
        // The middle rank takes the odd size out: 1 | 2 3 | 4 and 1 2 3 | 4 5 | 6 7 8.
        assert_eq!(LineKind::Entropic.classes(4), Some([0b1, 0b110, 0b1000]));
        assert_eq!(
            LineKind::Entropic.classes(8),
            Some([0b111, 0b1_1000, 0b1110_0000])
        );
        assert_eq!(
            LineKind::Modular.classes(6),
            Some([0b1001, 0b1_0010, 0b10_0100])
        );
    }
}
