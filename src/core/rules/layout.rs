//! Rules bound to one grid shape: the tables the variant search, the checks and the generator
//! walk.
//!
//! Every "these cells hold distinct digits" rule (rows, columns, boxes or jigsaw regions,
//! diagonals, windows, disjoint groups, extra regions, cages) is a group; groups of exactly `n` cells also
//! drive hidden singles. Groups, anti-knight and anti-king all forbid equal digits on pairs of
//! cells, so they merge into one peer list per cell: placing a digit strikes it from the peers.

use crate::core::error::Result;
use crate::core::grid::shape::BoxShape;

use super::{Rules, NO_REGION};

/// Grids up to 32x32 keep peer bitsets (16 words a cell, 128 KiB at 32x32).
pub(crate) const MAX_BITSET_CELLS: usize = 1024;

/// A group of cells that hold distinct digits.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    pub cells: Vec<u16>,
}

/// The rules of one grid shape as cell tables.
#[derive(Clone, Debug)]
pub struct Layout {
    pub(crate) shape: BoxShape,
    pub(crate) n: usize,
    /// Groups of exactly `n` cells (rows, columns, boxes or regions, diagonals, windows, full
    /// extra regions and cages): every digit has a place in each.
    pub(crate) full_groups: Vec<Group>,
    /// Per cell, the cells that may not hold the same digit (sorted, no repeats), as
    /// `peers[peer_start[c]..peer_start[c + 1]]`.
    peers: Vec<u16>,
    peer_start: Vec<usize>,
    /// Per cell, its peers again as a bitset of [`Layout::words`] words, so "the cells that see
    /// all of these" is one AND per word; `None` above [`MAX_BITSET_CELLS`] cells, where the
    /// table would outgrow its use.
    pub(crate) peer_bits: Option<Vec<u64>>,
    /// The full groups' cells as bitsets, kept with `peer_bits` when pointing pays (see
    /// `engine::point`): under anti-knight or anti-king, where peers reach past the groups.
    pub(crate) group_bits: Option<Vec<u64>>,
    pub(crate) words: usize,
    /// Per cell, its orthogonal neighbours, when the non-consecutive rule holds.
    pub(crate) orthogonal: Option<Vec<Vec<u16>>>,
}

impl Layout {
    /// Binds `rules` to `shape`, checking that they fit it: the groups the rules state, as the
    /// checks and the conflict marks read them.
    pub fn new(shape: BoxShape, rules: &Rules) -> Result<Layout> {
        Layout::build(shape, rules, false)
    }

    /// [`Layout::new`] plus the groups the rules imply when cells are in no region (see
    /// [`leftover_groups`]), for the search: without them a region a cell short drives no
    /// hidden singles, and a clash only counting shows is found by exhausting the grid.
    pub(crate) fn for_search(shape: BoxShape, rules: &Rules) -> Result<Layout> {
        Layout::build(shape, rules, true)
    }

    fn build(shape: BoxShape, rules: &Rules, implied: bool) -> Result<Layout> {
        rules.check_shape(shape)?;
        let n = shape.size();
        let nc = n * n;
        let index = |row: usize, col: usize| (row * n + col) as u16;
        let mut groups: Vec<Vec<u16>> = Vec::new();
        for i in 0..n {
            groups.push((0..n).map(|c| index(i, c)).collect());
            groups.push((0..n).map(|r| index(r, i)).collect());
        }
        match rules.regions() {
            Some(ids) => {
                let mut regions = vec![Vec::with_capacity(n); n];
                for (cell, &id) in ids.iter().enumerate() {
                    if id != NO_REGION {
                        regions[id as usize].push(cell as u16);
                    }
                }
                if implied {
                    groups.extend(leftover_groups(n, ids, &regions));
                }
                groups.extend(regions.into_iter().filter(|r| r.len() > 1));
            }
            None => {
                let mut boxes = vec![Vec::with_capacity(n); n];
                for r in 0..n {
                    for c in 0..n {
                        boxes[shape.box_index(r, c)].push(index(r, c));
                    }
                }
                groups.extend(boxes);
            }
        }
        if rules.main_diagonal() {
            groups.push((0..n).map(|i| index(i, i)).collect());
        }
        if rules.anti_diagonal() {
            groups.push((0..n).map(|i| index(i, n - 1 - i)).collect());
        }
        if rules.disjoint_groups() {
            groups.extend(disjoint_groups(shape));
        }
        if rules.windows() {
            for (top, left) in windows() {
                groups.push((0..9).map(|k| index(top + k / 3, left + k % 3)).collect());
            }
        }
        for region in rules.extra_regions() {
            groups.push(region.iter().map(|c| index(c.row, c.col)).collect());
        }
        for cage in rules.cages() {
            groups.push(cage.cells.iter().map(|c| index(c.row, c.col)).collect());
        }

        let mut peer_sets: Vec<Vec<u16>> = vec![Vec::new(); nc];
        for group in &groups {
            for &a in group {
                peer_sets[a as usize].extend(group.iter().copied().filter(|&b| b != a));
            }
        }
        let mut moves: Vec<(isize, isize)> = Vec::new();
        if rules.anti_knight() {
            moves.extend([
                (1, 2),
                (2, 1),
                (-1, 2),
                (-2, 1),
                (1, -2),
                (2, -1),
                (-1, -2),
                (-2, -1),
            ]);
        }
        if rules.anti_king() {
            moves.extend([
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
                (0, 1),
                (1, 0),
                (0, -1),
                (-1, 0),
            ]);
        }
        for r in 0..n {
            for c in 0..n {
                for (other_r, other_c) in neighbours(n, r, c, &moves) {
                    peer_sets[r * n + c].push(index(other_r, other_c));
                }
            }
        }
        let mut peers = Vec::new();
        let mut peer_start = Vec::with_capacity(nc + 1);
        for mut set in peer_sets {
            set.sort_unstable();
            set.dedup();
            peer_start.push(peers.len());
            peers.extend(set);
        }
        peer_start.push(peers.len());
        let words = nc.div_ceil(64);
        let peer_bits = (nc <= MAX_BITSET_CELLS).then(|| {
            let mut bits = vec![0u64; nc * words];
            for cell in 0..nc {
                for &p in &peers[peer_start[cell]..peer_start[cell + 1]] {
                    bits[cell * words + p as usize / 64] |= 1 << (p % 64);
                }
            }
            bits
        });

        let pointing = rules.anti_knight() || rules.anti_king();
        let group_bits = (pointing && peer_bits.is_some()).then(|| {
            let full = groups.iter().filter(|g| g.len() == n);
            let mut bits = vec![0u64; full.clone().count() * words];
            for (i, group) in full.enumerate() {
                for &c in group {
                    bits[i * words + c as usize / 64] |= 1 << (c % 64);
                }
            }
            bits
        });
        // Non-consecutive is the negative of white dots: a pair joined by one is exempt.
        let dotted = |a: u16, b: u16| {
            rules.differences().iter().any(|p| {
                let (x, y) = (
                    index(p.cells[0].row, p.cells[0].col),
                    index(p.cells[1].row, p.cells[1].col),
                );
                (x, y) == (a, b) || (y, x) == (a, b)
            })
        };
        let orthogonal = rules.non_consecutive().then(|| {
            let steps = [(0, 1), (1, 0), (0, -1), (-1, 0)];
            (0..nc)
                .map(|cell| {
                    neighbours(n, cell / n, cell % n, &steps)
                        .map(|(r, c)| index(r, c))
                        .filter(|&other| !dotted(cell as u16, other))
                        .collect()
                })
                .collect()
        });
        let full_groups = groups
            .into_iter()
            .filter(|g| g.len() == n)
            .map(|cells| Group { cells })
            .collect();
        Ok(Layout {
            shape,
            n,
            full_groups,
            peers,
            peer_start,
            peer_bits,
            group_bits,
            words,
            orthogonal,
        })
    }

    /// The cells that may not hold the same digit as `cell`.
    #[inline]
    pub fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[self.peer_start[cell]..self.peer_start[cell + 1]]
    }

    /// `cell`'s peers as a bitset, when the layout keeps them.
    #[inline]
    pub(crate) fn peer_bits(&self, cell: usize) -> Option<&[u64]> {
        let bits = self.peer_bits.as_deref()?;
        Some(&bits[cell * self.words..(cell + 1) * self.words])
    }

    pub fn shape(&self) -> BoxShape {
        self.shape
    }
}

/// The groups of `n` cells that counting makes of cells in no region and the regions they leave
/// short (`regions`: each region's cells, from `ids`). Every digit is in every row once, so in
/// rows `a..b` it appears `b - a` times; the full regions lying wholly in those rows hold it once
/// each, and the band's other cells hold it the rest of the times. When that is once and those
/// cells number `n`, they are a group of distinct digits, all `n` present; the same holds for
/// columns. Only groups holding a cell in no region are kept: without such cells every region
/// is full and these would be deductions the rules' regions already drive.
fn leftover_groups(n: usize, ids: &[u8], regions: &[Vec<u16>]) -> Vec<Vec<u16>> {
    if !ids.contains(&NO_REGION) {
        return Vec::new();
    }
    let mut found: Vec<Vec<u16>> = Vec::new();
    for by_row in [true, false] {
        let line = |cell: usize| if by_row { cell / n } else { cell % n };
        let full: Vec<&Vec<u16>> = regions.iter().filter(|r| r.len() == n).collect();
        // One line's leftover is the line itself: a group already.
        for a in 0..n {
            for b in a + 2..=n {
                let inside = |r: &[u16]| r.iter().all(|&c| (a..b).contains(&line(c as usize)));
                if b - a != full.iter().filter(|r| inside(r)).count() + 1 {
                    continue;
                }
                let within = |id: u8| {
                    id != NO_REGION
                        && regions[id as usize].len() == n
                        && inside(&regions[id as usize])
                };
                let rest: Vec<u16> = (0..n * n)
                    .filter(|&cell| (a..b).contains(&line(cell)) && !within(ids[cell]))
                    .map(|cell| cell as u16)
                    .collect();
                let loose = rest.iter().any(|&c| ids[c as usize] == NO_REGION);
                if rest.len() == n && loose && !found.contains(&rest) {
                    found.push(rest);
                }
            }
        }
    }
    found
}

/// Disjoint groups: for each position inside a box, the cells at that position of every box
/// (row-major cell indices).
pub(crate) fn disjoint_groups(shape: BoxShape) -> Vec<Vec<u16>> {
    let n = shape.size();
    let mut groups = vec![Vec::with_capacity(n); n];
    for r in 0..n {
        for c in 0..n {
            groups[(r % shape.rows()) * shape.cols() + c % shape.cols()].push((r * n + c) as u16);
        }
    }
    groups
}

/// The top-left corners of the four windows of a 9x9 windoku.
pub fn windows() -> [(usize, usize); 4] {
    [(1, 1), (1, 5), (5, 1), (5, 5)]
}

/// The cells `moves` away from (r, c) that lie on an `n x n` grid.
pub(crate) fn neighbours(
    n: usize,
    r: usize,
    c: usize,
    moves: &[(isize, isize)],
) -> impl Iterator<Item = (usize, usize)> + '_ {
    moves.iter().filter_map(move |&(dr, dc)| {
        let (nr, nc) = (r as isize + dr, c as isize + dc);
        (nr >= 0 && nc >= 0 && (nr as usize) < n && (nc as usize) < n)
            .then_some((nr as usize, nc as usize))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_loose(loose: &[usize]) -> Vec<u8> {
        let mut ids: Vec<u8> = (0..81).map(|i| (i / 27 * 3 + i % 9 / 3) as u8).collect();
        for &cell in loose {
            ids[cell] = NO_REGION;
        }
        ids
    }

    fn regions_of(ids: &[u8]) -> Vec<Vec<u16>> {
        let mut regions = vec![Vec::new(); 9];
        for (cell, &id) in ids.iter().enumerate() {
            if id != NO_REGION {
                regions[id as usize].push(cell as u16);
            }
        }
        regions
    }

    #[test]
    fn a_loose_cell_completes_its_box() {
        let ids = with_loose(&[0]);
        let groups = leftover_groups(9, &ids, &regions_of(&ids));
        let boxed: Vec<u16> = vec![0, 1, 2, 9, 10, 11, 18, 19, 20];
        // The band and the stack both give box 0 back.
        assert_eq!(groups, [boxed]);
    }

    #[test]
    fn two_loose_cells_of_one_band_come_from_the_stacks() {
        let ids = with_loose(&[0, 4]);
        let groups = leftover_groups(9, &ids, &regions_of(&ids));
        assert_eq!(groups.len(), 2);
        assert!(groups.iter().all(|g| g.len() == 9));
        assert!(groups[0].contains(&0) && groups[1].contains(&4));
    }

    #[test]
    fn full_regions_imply_nothing() {
        let ids = with_loose(&[]);
        assert!(leftover_groups(9, &ids, &regions_of(&ids)).is_empty());
    }
}
