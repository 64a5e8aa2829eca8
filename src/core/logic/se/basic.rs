//! SE's techniques that are not chains, each written to find its hints in SE's scan order
//! (regions blocks, then columns, then rows; tuples in increasing bit order), because SE applies
//! the first hint its first producing technique finds and the path it takes decides the rating.

// Regions, cells and positions are numbers in SE's scans; indexing the tables by them reads as
// SE does.
#![allow(clippy::needless_range_loop)]

use super::{Hint, View, CELL_DIRTY, CELL_REGION, PEER_SETS, REGIONS};

/// The set bits of `mask`, ascending, one bit scan each.
fn bits(mut mask: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        let b = mask.trailing_zeros() as u8;
        mask &= mask.wrapping_sub(1);
        (b < 16).then_some(b)
    })
}

/// The digits (1..=9) of a candidate mask (bit d-1 for digit d).
fn digits(mask: u16) -> impl Iterator<Item = u8> {
    bits(mask).map(|b| b + 1)
}

/// The mask bit of digit `d`.
fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// The cells of a cell set, ascending, one bit scan each.
fn cells_of(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let c = set.trailing_zeros() as usize;
        set &= set.wrapping_sub(1);
        (c < 128).then_some(c)
    })
}

/// Every `k`-subset of `0..n` as a bit mask, in increasing numeric order (SE's order).
fn combos(k: u32, n: u32) -> impl Iterator<Item = u16> {
    (0u16..1 << n).filter(move |m| m.count_ones() == k)
}

/// Every `k`-subset of `set` as a bit mask, in increasing numeric order: [`combos`]' order,
/// less the subsets with a member outside `set`.
fn subsets(k: u32, set: u16) -> impl Iterator<Item = u16> {
    let mut sub = 0u16;
    std::iter::from_fn(move || loop {
        // The next submask of `set` above `sub`; 0 after the last.
        sub = sub.wrapping_sub(set) & set;
        if sub == 0 {
            return None;
        }
        if sub.count_ones() == k {
            return Some(sub);
        }
    })
}

/// The part of a state a technique looks at: the regions (bit `9 * t + index`) and the
/// digits (bit d-1) whose candidates changed since it last found nothing; a technique that
/// looks only at those finds every hint the others could not have held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scope {
    pub regions: u32,
    pub digits: u16,
}

impl Scope {
    /// The whole state.
    pub(crate) const ALL: Scope = Scope {
        regions: (1 << 27) - 1,
        digits: 0x1ff,
    };
    /// Nothing.
    pub(crate) const NONE: Scope = Scope {
        regions: 0,
        digits: 0,
    };

    fn region(self, t: usize, r: usize) -> bool {
        self.regions >> (9 * t + r) & 1 == 1
    }

    fn digit(self, d: u8) -> bool {
        self.digits >> (d - 1) & 1 == 1
    }
}

fn hint(tenths: u16, technique: &'static str) -> Hint {
    Hint {
        tenths,
        technique,
        placements: Vec::new(),
        eliminations: Vec::new(),
    }
}

/// Full houses (1.0), then hidden singles in blocks (1.2) and in lines (1.5).
#[inline(always)]
pub(super) fn hidden_single(s: &View<'_>) -> Option<Hint> {
    for alone in [true, false] {
        for t in [0, 2, 1] {
            for r in 0..9 {
                for d in 1..=9u8 {
                    let pos = s.positions(t, r, d);
                    if pos.count_ones() != 1 {
                        continue;
                    }
                    if (s.empty_count(t, r) == 1) != alone {
                        continue;
                    }
                    let cell = REGIONS[t][r][pos.trailing_zeros() as usize];
                    let (tenths, name) = match (alone, t) {
                        (true, _) => (10, "full_house"),
                        (false, 0) => (12, "hidden_single_block"),
                        _ => (15, "hidden_single_line"),
                    };
                    let mut h = hint(tenths, name);
                    h.placements.push((cell, d));
                    return Some(h);
                }
            }
        }
    }
    None
}

/// The easiest kind of hidden single present (10 a full house, 12 a hidden single in a block,
/// 15 one in a line, as [`hidden_single`] rates them), or `None` when [`hidden_single`] finds
/// nothing; pushed on `out` (cell, digit): every single of that kind, and of every other kind
/// no harder than `free` or that one.
#[inline(always)]
pub(super) fn singles(s: &View<'_>, out: &mut Vec<(u8, u8)>, free: u16) -> Option<u16> {
    // A region with one empty cell holds full houses, any other hidden singles; the tables
    // keep both as region bits, so no region is visited that has none.
    const BLOCKS: u32 = 0x1ff;
    let (with_ones, one_empty) = s.single_regions();
    let (houses, others) = (with_ones & one_empty, with_ones & !one_empty);
    let tenths = if houses != 0 {
        10
    } else if others & BLOCKS != 0 {
        12
    } else if others != 0 {
        15
    } else {
        return None;
    };
    let free = free.max(tenths);
    let others = others & if free >= 15 { u32::MAX } else { BLOCKS };
    let regions = houses | if free >= 12 { others } else { 0 };
    // The regions in SE's scan order: blocks, then columns, then rows.
    let scans = [regions & BLOCKS, regions >> 18, regions >> 9 & BLOCKS];
    for (t, mut regions) in [0, 2, 1].into_iter().zip(scans) {
        while regions != 0 {
            let r = regions.trailing_zeros() as usize;
            regions &= regions - 1;
            let mut one = s.single_digits(t, r);
            while one != 0 {
                let d = one.trailing_zeros() as u8 + 1;
                let pos = s.positions(t, r, d);
                out.push((REGIONS[t][r][pos.trailing_zeros() as usize], d));
                one &= one - 1;
            }
        }
    }
    Some(tenths)
}

/// The digits (bit d-1 for digit d) that have exactly one position in a region, given the
/// positions of each digit; without a branch, as it runs on every changed region between two
/// steps of singles.
#[inline(always)]
#[allow(clippy::needless_bitwise_bool)]
pub(super) fn single_digits(pos: &[u16; 9]) -> u16 {
    pos.iter().enumerate().fold(0u16, |out, (d, &p)| {
        out | u16::from((p != 0) & (p & p.wrapping_sub(1) == 0)) << d
    })
}

/// A cell with one candidate (2.3).
#[inline(always)]
pub(super) fn naked_single(s: &View<'_>) -> Option<Hint> {
    (0..81)
        .find(|&c| s.values[c] == 0 && s.cands[c].count_ones() == 1)
        .map(|c| {
            let mut h = hint(23, "naked_single");
            h.placements
                .push((c as u8, s.cands[c].trailing_zeros() as u8 + 1));
            h
        })
}

/// `INSIDE[ta][ia][tb][ib]`: the positions of region `ia` of type `ta` whose cells lie in
/// region `ib` of type `tb` (0 when the two do not cross).
const INSIDE: [[[[u16; 9]; 3]; 9]; 3] = inside();

const fn inside() -> [[[[u16; 9]; 3]; 9]; 3] {
    let mut out = [[[[0u16; 9]; 3]; 9]; 3];
    let mut ta = 0;
    while ta < 3 {
        let mut ia = 0;
        while ia < 9 {
            let mut p = 0;
            while p < 9 {
                let c = REGIONS[ta][ia][p] as usize;
                let mut tb = 0;
                while tb < 3 {
                    out[ta][ia][tb][CELL_REGION[c][tb] as usize] |= 1 << p;
                    tb += 1;
                }
                p += 1;
            }
            ia += 1;
        }
        ta += 1;
    }
    out
}

/// What [`CONFINED`] says of positions that are fewer than two or in more than one group.
const NOT_CONFINED: usize = 3;

/// `CONFINED[kind][positions]`: the group holding every one of two or more positions, or
/// [`NOT_CONFINED`]; kind 0 groups positions in triples (0-2, 3-5, 6-8), kind 1 as
/// `j, j + 3, j + 6`.
const CONFINED: [[u8; 512]; 2] = {
    let mut out = [[NOT_CONFINED as u8; 512]; 2];
    let mut pos = 0;
    while pos < 512 {
        let mut g = 0;
        while g < 3 {
            let groups = [0o7u16 << (3 * g), 0o111 << g];
            let mut kind = 0;
            while kind < 2 {
                if (pos as u16).count_ones() >= 2 && pos as u16 & !groups[kind] == 0 {
                    out[kind][pos] = g as u8;
                }
                kind += 1;
            }
            g += 1;
        }
        pos += 1;
    }
    out
};

/// Pointing and claiming; `direct`: only those that leave a hidden single in a region of the
/// first region's type (1.7 pointing, 1.9 claiming), else every one (2.6, 2.8).
#[inline(always)]
pub(super) fn locking(s: &View<'_>, direct: bool, scope: Scope) -> Option<Hint> {
    for (t1, t2) in [(0, 2), (0, 1), (2, 0), (1, 0)] {
        // A block's positions meet a column in positions j, j + 3, j + 6, anything else
        // meets a region of the other type in a triple.
        let confined = &CONFINED[usize::from(t1 == 0 && t2 == 2)];
        for d in 1..=9u8 {
            // A digit's pointing and claiming depend on its positions alone.
            if !scope.digit(d) {
                continue;
            }
            for i1 in 0..9 {
                let pos = s.positions(t1, i1, d);
                // One table look-up rejects the many regions whose positions are not two or
                // more in one region of type t2.
                let g = confined[pos as usize] as usize;
                if g == NOT_CONFINED {
                    continue;
                }
                let i2 = match (t1, t2) {
                    (0, 2) => 3 * (i1 % 3) + g,
                    (2, 0) => 3 * g + i1 / 3,
                    _ => 3 * (i1 / 3) + g,
                };
                debug_assert_eq!(pos & !INSIDE[t1][i1][t2][i2], 0);
                // The cells of region i2 outside region i1 that hold d lose it.
                let outside = s.positions(t2, i2, d) & !INSIDE[t2][i2][t1][i1];
                if outside == 0 {
                    continue;
                }
                if direct {
                    for i3 in 0..9 {
                        let crossing = INSIDE[t1][i3][t2][i2];
                        if i3 == i1 || crossing == 0 {
                            continue;
                        }
                        let pos3 = s.positions(t1, i3, d);
                        if pos3.count_ones() <= 1 {
                            continue;
                        }
                        let left = pos3 & !crossing;
                        if left.count_ones() == 1 {
                            let (tenths, name) = if t1 == 0 {
                                (17, "direct_pointing")
                            } else {
                                (19, "direct_claiming")
                            };
                            // SE applies a direct hint's placement only.
                            let mut h = hint(tenths, name);
                            h.placements
                                .push((REGIONS[t1][i3][left.trailing_zeros() as usize], d));
                            return Some(h);
                        }
                    }
                } else {
                    let (tenths, name) = if t2 != 0 {
                        (26, "pointing")
                    } else {
                        (28, "claiming")
                    };
                    let mut h = hint(tenths, name);
                    h.eliminations = bits(outside)
                        .map(|p| (REGIONS[t2][i2][p as usize], d))
                        .collect();
                    return Some(h);
                }
            }
        }
    }
    None
}

/// Hidden pairs, triples, quads; `direct`: only those whose eliminations leave a hidden single
/// in the same region (2.0, 2.5), else every one (3.4, 4.0, 5.4).
#[inline(always)]
pub(super) fn hidden_set(s: &View<'_>, degree: u32, direct: bool, scope: Scope) -> Option<Hint> {
    for t in [0, 2, 1] {
        for r in 0..9 {
            // A region's sets depend on its cells' candidates alone.
            if !scope.region(t, r) {
                continue;
            }
            let empty = s.empty_count(t, r);
            if !(empty > degree * 2 || (direct && empty > degree)) {
                continue;
            }
            // A digit of the set has 2 to `degree` positions (else the set fails below).
            let mut eligible = 0u16;
            for (d, &p) in s.region_positions(t, r).iter().enumerate() {
                // Without a branch: which digits qualify is data the processor cannot predict.
                let n = p.count_ones();
                eligible |= u16::from((2..=degree).contains(&n)) << d;
            }
            for values in subsets(degree, eligible) {
                let mut union = 0u16;
                let mut ok = true;
                for d in bits(values) {
                    let p = s.positions(t, r, d + 1);
                    if p.count_ones() <= 1 {
                        ok = false;
                        break;
                    }
                    union |= p;
                }
                if !ok || union.count_ones() != degree {
                    continue;
                }
                // The set removes the other digits of its cells: none, no hint.
                if bits(union).all(|p| s.cands[REGIONS[t][r][p as usize] as usize] & !values == 0) {
                    continue;
                }
                if direct {
                    let mut found = None;
                    for d in 1..=9u8 {
                        if values & bit(d) != 0 {
                            continue;
                        }
                        let p = s.positions(t, r, d);
                        if p.count_ones() > 1 && (p & !union).count_ones() == 1 {
                            found =
                                Some((REGIONS[t][r][(p & !union).trailing_zeros() as usize], d));
                            break;
                        }
                    }
                    let Some(place) = found else { continue };
                    let (tenths, name) = if degree == 2 {
                        (20, "direct_hidden_pair")
                    } else {
                        (25, "direct_hidden_triple")
                    };
                    // SE applies a direct hint's placement only.
                    let mut h = hint(tenths, name);
                    h.placements.push(place);
                    return Some(h);
                }
                let mut elims = Vec::new();
                for p in bits(union) {
                    let c = REGIONS[t][r][p as usize];
                    for d in digits(s.cands[c as usize] & !values) {
                        elims.push((c, d));
                    }
                }
                let (tenths, name) = match degree {
                    2 => (34, "hidden_pair"),
                    3 => (40, "hidden_triple"),
                    _ => (54, "hidden_quad"),
                };
                let mut h = hint(tenths, name);
                h.eliminations = elims;
                return Some(h);
            }
        }
    }
    None
}

/// Naked pairs, triples, quads (3.0, 3.6, 5.0).
#[inline(always)]
pub(super) fn naked_set(s: &View<'_>, degree: u32, scope: Scope) -> Option<Hint> {
    for t in [0, 2, 1] {
        for r in 0..9 {
            if !scope.region(t, r) {
                continue;
            }
            if s.empty_count(t, r) < degree * 2 {
                continue;
            }
            // A cell of the set has 2 to `degree` candidates (else the set fails below).
            let mut eligible = 0u16;
            for (p, &c) in REGIONS[t][r].iter().enumerate() {
                if (2..=degree).contains(&s.cands[c as usize].count_ones()) {
                    eligible |= 1 << p;
                }
            }
            for positions in subsets(degree, eligible) {
                let mut union = 0u16;
                let mut ok = true;
                for p in bits(positions) {
                    let m = s.cands[REGIONS[t][r][p as usize] as usize];
                    if m.count_ones() <= 1 {
                        ok = false;
                        break;
                    }
                    union |= m;
                }
                if !ok || union.count_ones() != degree {
                    continue;
                }
                let mut elims = Vec::new();
                for p in 0..9 {
                    if positions >> p & 1 == 1 {
                        continue;
                    }
                    let c = REGIONS[t][r][p];
                    for d in digits(s.cands[c as usize] & union) {
                        elims.push((c, d));
                    }
                }
                if elims.is_empty() {
                    continue;
                }
                let (tenths, name) = match degree {
                    2 => (30, "naked_pair"),
                    3 => (36, "naked_triple"),
                    _ => (50, "naked_quad"),
                };
                let mut h = hint(tenths, name);
                h.eliminations = elims;
                return Some(h);
            }
        }
    }
    None
}

/// X-wing, swordfish, jellyfish (3.2, 3.8, 5.2): columns as base first, then rows.
#[inline(always)]
pub(super) fn fish(s: &View<'_>, degree: u32, scope: Scope) -> Option<Hint> {
    let mut placed = [0u32; 10];
    for c in 0..81 {
        placed[s.values[c] as usize] += 1;
    }
    for (base, cover) in [(2, 1), (1, 2)] {
        // Per digit, the base lines with 2 to `degree` positions of it (a line of the fish has
        // such, else it fails below), and the lines any digit can use.
        let mut eligible = [0u16; 10];
        let mut any = 0u16;
        for d in 1..=9u8 {
            // A digit's fish depend on its positions alone.
            if placed[d as usize] + degree * 2 > 9 || !scope.digit(d) {
                continue;
            }
            for l in 0..9 {
                if (2..=degree).contains(&s.positions(base, l, d).count_ones()) {
                    eligible[d as usize] |= 1 << l;
                }
            }
            any |= eligible[d as usize];
        }
        for lines in subsets(degree, any) {
            for d in 1..=9u8 {
                if lines & !eligible[d as usize] != 0 {
                    continue;
                }
                let mut union = 0u16;
                let mut ok = true;
                for l in bits(lines) {
                    let p = s.positions(base, l as usize, d);
                    if p.count_ones() <= 1 {
                        ok = false;
                        break;
                    }
                    union |= p;
                }
                if !ok || union.count_ones() != degree {
                    continue;
                }
                let mut elims = Vec::new();
                for i in bits(union) {
                    for p in bits(s.positions(cover, i as usize, d) & !lines) {
                        elims.push((REGIONS[cover][i as usize][p as usize], d));
                    }
                }
                if elims.is_empty() {
                    continue;
                }
                let (tenths, name) = match degree {
                    2 => (32, "x_wing"),
                    3 => (38, "swordfish"),
                    _ => (52, "jellyfish"),
                };
                let mut h = hint(tenths, name);
                h.eliminations = elims;
                return Some(h);
            }
        }
    }
    None
}

/// XY-wing (4.2) or XYZ-wing (4.4).
#[inline(always)]
pub(super) fn xy_wing(s: &View<'_>, xyz: bool, scope: Scope) -> Option<Hint> {
    let target = if xyz { 3 } else { 2 };
    // The pincers are cells of two candidates: only those peers are looked at, in the same
    // ascending order as the peers.
    let mut bivalue = 0u128;
    for c in 0..81 {
        bivalue |= u128::from(s.cands[c].count_ones() == 2) << c;
    }
    for i in 0..81 {
        let xy = s.cands[i];
        // A wing's pivot and pincers lie in the pivot's regions; its victims losing
        // candidates takes hints away, never adds one.
        if xy.count_ones() != target || scope.regions & CELL_DIRTY[i] == 0 {
            continue;
        }
        let pincers = PEER_SETS[i] & bivalue;
        for xz_cell in cells_of(pincers) {
            let xz = s.cands[xz_cell];
            if (xy & !xz).count_ones() != 1 {
                continue;
            }
            for yz_cell in cells_of(pincers) {
                let yz = s.cands[yz_cell];
                if (xy | xz | yz).count_ones() != 3 {
                    continue;
                }
                let inter = (xy & xz & yz).count_ones();
                if inter != u32::from(xyz) {
                    continue;
                }
                let z = (xz & yz).trailing_zeros() as u8 + 1;
                let mut victims = PEER_SETS[xz_cell] & PEER_SETS[yz_cell];
                if xyz {
                    victims &= PEER_SETS[i];
                }
                victims &= !(1u128 << i | 1u128 << xz_cell | 1u128 << yz_cell);
                let elims: Vec<(u8, u8)> = cells_of(victims)
                    .filter(|&c| s.has(c, z))
                    .map(|c| (c as u8, z))
                    .collect();
                if elims.is_empty() {
                    continue;
                }
                let mut h = if xyz {
                    hint(44, "xyz_wing")
                } else {
                    hint(42, "xy_wing")
                };
                h.eliminations = elims;
                return Some(h);
            }
        }
    }
    None
}

/// The region ids (type * 9 + index) of a cell.
fn region_ids(c: usize) -> [u8; 3] {
    [
        CELL_REGION[c][0],
        9 + CELL_REGION[c][1],
        18 + CELL_REGION[c][2],
    ]
}

/// Unique rectangles and loops, types 1 to 4 (4.5 for a rectangle, more for longer loops and
/// larger type-3 sets): the easiest hint, types in order among equals.
#[inline(always)]
pub(super) fn unique_loops(s: &View<'_>) -> Option<Hint> {
    let mut found: Vec<(u16, u8, Hint)> = Vec::new();
    for i in 0..81 {
        if s.cands[i].count_ones() != 2 {
            continue;
        }
        let pair = s.cands[i];
        let mut loops = Vec::new();
        let mut path = Vec::new();
        loop_search(s, i, pair, &mut path, 0, 2, 0, 3, &mut loops);
        for lp in loops {
            if !valid_loop(&lp) {
                continue;
            }
            // SE 1.2.1: 4.5 a rectangle, 4.6 a loop of 6, 4.7 of 8, 5.0 of 10 or more.
            let base = match lp.len() {
                4 => 45,
                6 => 46,
                8 => 47,
                _ => 50,
            };
            let extra: Vec<usize> = lp
                .iter()
                .copied()
                .filter(|&c| s.cands[c].count_ones() > 2)
                .collect();
            let v: Vec<u8> = digits(pair).collect();
            if extra.len() == 1 {
                let mut h = hint(base, "unique_loop_1");
                h.eliminations = v.iter().map(|&d| (extra[0] as u8, d)).collect();
                found.push((base, 1, h));
            } else if extra.len() > 2
                || (extra.len() == 2
                    && ((s.cands[extra[0]] | s.cands[extra[1]]) & !pair).count_ones() == 1)
            {
                let value = (s.cands[extra[0]] & !pair).trailing_zeros() as u8 + 1;
                let mut common = !0u128;
                for &c in &extra {
                    common &= PEER_SETS[c];
                }
                let elims: Vec<(u8, u8)> = cells_of(common)
                    .filter(|c| !extra.contains(c) && s.has(*c, value))
                    .map(|c| (c as u8, value))
                    .collect();
                if !elims.is_empty() {
                    let mut h = hint(base, "unique_loop_2");
                    h.eliminations = elims;
                    found.push((base, 2, h));
                }
            }
            if extra.len() == 2 {
                let (c1, c2) = (extra[0], extra[1]);
                let others = (s.cands[c1] | s.cands[c2]) & !pair;
                if others.count_ones() >= 2 {
                    loop_type3(s, base, pair, c1, c2, others, &mut found);
                }
                if let Some(h) = loop_type4(s, base, &v, c1, c2) {
                    found.push((base, 4, h));
                }
            }
        }
    }
    // SE sorts by difficulty, then type, keeping the finding order among equals.
    let best = (0..found.len()).min_by_key(|&i| (found[i].0, found[i].1, i))?;
    Some(found.swap_remove(best).2)
}

#[allow(clippy::too_many_arguments)]
fn loop_search(
    s: &View<'_>,
    cell: usize,
    pair: u16,
    path: &mut Vec<usize>,
    on_path: u128,
    allowed: i32,
    ex: u16,
    last: usize,
    out: &mut Vec<Vec<usize>>,
) {
    path.push(cell);
    // The path's cells as a set too: a bit test where a scan of the path would run for every
    // cell of every region the search looks at.
    let on_path = on_path | (1u128 << cell);
    for t in 0..3 {
        if t == last {
            continue;
        }
        let r = CELL_REGION[cell][t] as usize;
        // Only the cells holding both digits of the pair can continue the loop (the first
        // cell among them), in position order as SE visits the region.
        let (a, b) = (
            pair.trailing_zeros() as u8 + 1,
            (pair & (pair - 1)).trailing_zeros() as u8 + 1,
        );
        let mut with_pair = s.positions(t, r, a) & s.positions(t, r, b);
        while with_pair != 0 {
            let p = with_pair.trailing_zeros() as usize;
            with_pair &= with_pair - 1;
            let next = REGIONS[t][r][p] as usize;
            if next == path[0] && path.len() >= 4 {
                out.push(path.clone());
            } else if on_path & (1u128 << next) == 0 {
                let m = s.cands[next];
                if m & pair == pair {
                    let new_ex = (ex | m) & !pair;
                    let card = m.count_ones();
                    if card == 2 || new_ex.count_ones() == 1 || allowed > 0 {
                        let a = if card > 2 { allowed - 1 } else { allowed };
                        loop_search(s, next, pair, path, on_path, a, new_ex, t, out);
                    }
                }
            }
        }
    }
    path.pop();
}

fn valid_loop(lp: &[usize]) -> bool {
    let mut seen = [0u32; 2];
    for (k, &c) in lp.iter().enumerate() {
        for id in region_ids(c) {
            let bit = 1u32 << id;
            if seen[k % 2] & bit != 0 {
                return false;
            }
            seen[k % 2] |= bit;
        }
    }
    seen[0] == seen[1]
}

fn loop_type3(
    s: &View<'_>,
    base: u16,
    pair: u16,
    c1: usize,
    c2: usize,
    extra: u16,
    found: &mut Vec<(u16, u8, Hint)>,
) {
    for degree in 2..=7u32 {
        for t in 0..3 {
            let r = CELL_REGION[c1][t] as usize;
            if r != CELL_REGION[c2][t] as usize {
                continue;
            }
            let empty = s.empty_count(t, r);
            let index1 = REGIONS[t][r]
                .iter()
                .position(|&c| c as usize == c1)
                .unwrap_or(0);
            let index2 = REGIONS[t][r]
                .iter()
                .position(|&c| c as usize == c2)
                .unwrap_or(0);
            if degree * 2 <= empty && degree >= extra.count_ones() {
                // The sets hold position index1 and not index2, and fail with a cell of
                // fewer than two candidates: the others are taken from the rest, in
                // increasing masks as `combos` gives them (one bit added to masks without it
                // keeps their order).
                let mut rest = 0u16;
                for (p, &c) in REGIONS[t][r].iter().enumerate() {
                    let many = s.cands[c as usize].count_ones() >= 2;
                    rest |= u16::from(many && p != index1 && p != index2) << p;
                }
                for others in subsets(degree - 1, rest) {
                    let idx = others | 1 << index1;
                    let mut naked = extra & s.cands[c1] & s.cands[c2];
                    let mut union = extra;
                    for p in bits(others) {
                        let m = s.cands[REGIONS[t][r][p as usize] as usize];
                        naked |= m;
                        union |= m;
                    }
                    if naked.count_ones() != degree
                        || extra.count_ones() <= 1
                        || union.count_ones() != degree
                    {
                        continue;
                    }
                    let cells: Vec<usize> = bits(idx)
                        .filter(|&p| p as usize != index1)
                        .map(|p| REGIONS[t][r][p as usize] as usize)
                        .collect();
                    let mut elims = Vec::new();
                    for d in digits(union) {
                        let mut victims = !0u128;
                        for &c in cells.iter().chain([c1, c2].iter()) {
                            if s.has(c, d) {
                                victims &= PEER_SETS[c];
                            }
                        }
                        for c in cells_of(victims) {
                            if s.has(c, d) {
                                elims.push((c as u8, d));
                            }
                        }
                    }
                    if !elims.is_empty() {
                        let tenths = base + (degree as u16 - 1);
                        let mut h = hint(tenths, "unique_loop_3_naked");
                        h.eliminations = elims;
                        found.push((tenths, 3, h));
                    }
                }
            }
            if degree * 2 < empty {
                let rem: Vec<u8> = (1..=9u8)
                    .filter(|&d| (pair | extra) & bit(d) == 0)
                    .collect();
                if degree as usize - 2 > rem.len() {
                    continue;
                }
                for pick in combos(degree - 2, rem.len() as u32) {
                    let mut values = pair;
                    for k in bits(pick) {
                        values |= bit(rem[k as usize]);
                    }
                    let mut union = 0u16;
                    let mut ok = true;
                    for d in digits(values) {
                        let p = s.positions(t, r, d) & !(1 << index2);
                        if p == 0 {
                            ok = false;
                        }
                        union |= p;
                    }
                    if !ok || union.count_ones() != degree {
                        continue;
                    }
                    let mut elims = Vec::new();
                    for p in bits(union & !(1 << index1)) {
                        let c = REGIONS[t][r][p as usize];
                        for d in digits(s.cands[c as usize] & !values) {
                            elims.push((c, d));
                        }
                    }
                    if !elims.is_empty() {
                        let tenths = base + (degree as u16 - 2);
                        let mut h = hint(tenths, "unique_loop_3_hidden");
                        h.eliminations = elims;
                        found.push((tenths, 3, h));
                    }
                }
            }
        }
    }
}

fn loop_type4(s: &View<'_>, base: u16, v: &[u8], c1: usize, c2: usize) -> Option<Hint> {
    let (mut r1, mut r2) = (false, false);
    for t in 0..3 {
        let r = CELL_REGION[c1][t] as usize;
        if r != CELL_REGION[c2][t] as usize {
            continue;
        }
        let rest = REGIONS[t][r]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| c != c1 && c != c2);
        let (mut has1, mut has2) = (false, false);
        for c in rest {
            has1 |= s.has(c, v[0]);
            has2 |= s.has(c, v[1]);
        }
        r1 |= !has1;
        r2 |= !has2;
    }
    let remove = if r1 {
        v[1]
    } else if r2 {
        v[0]
    } else {
        return None;
    };
    let elims: Vec<(u8, u8)> = [c1, c2]
        .iter()
        .filter(|&&c| s.has(c, remove))
        .map(|&c| (c as u8, remove))
        .collect();
    if elims.is_empty() {
        return None;
    }
    let mut h = hint(base, "unique_loop_4");
    h.eliminations = elims;
    Some(h)
}

/// Bivalue universal grave, types 1, 2 and 4 (5.6, 5.7).
#[inline(always)]
pub(super) fn bug(s: &View<'_>) -> Option<Hint> {
    let mut temp = s.cands;
    let mut bug_cells: Vec<usize> = Vec::new();
    let mut bug_values = [0u16; 81];
    let mut all_bug = 0u16;
    let mut common: Option<u128> = None;
    let mut all_extra: Option<u128> = None;
    let mut only_value = 0u8;
    let mut one_value = true;
    let remove_from_common = |common: &mut Option<u128>, c: usize, bug_cells: &[usize]| {
        let mut set = common.unwrap_or(PEER_SETS[c]);
        set &= PEER_SETS[c];
        for &b in bug_cells {
            set &= !(1u128 << b);
        }
        *common = Some(set);
    };
    for t in 0..3 {
        for r in 0..9 {
            for d in 1..=9u8 {
                let pos = s.positions(t, r, d);
                let card = pos.count_ones();
                if card == 0 || card == 2 {
                    continue;
                }
                let new: Vec<usize> = bits(pos)
                    .map(|p| REGIONS[t][r][p as usize] as usize)
                    .filter(|&c| s.cands[c].count_ones() >= 3)
                    .collect();
                let newset = new.iter().fold(0u128, |a, &c| a | 1u128 << c);
                match all_extra {
                    None => {
                        all_extra = Some(newset);
                        only_value = d;
                    }
                    Some(ref mut set) if one_value => {
                        if only_value == d {
                            *set |= newset;
                        } else {
                            one_value = false;
                        }
                    }
                    _ => {}
                }
                if new.len() == 1 {
                    let c = new[0];
                    if !bug_cells.contains(&c) {
                        bug_cells.push(c);
                    }
                    bug_values[c] |= bit(d);
                    all_bug |= bit(d);
                    temp[c] &= !bit(d);
                    remove_from_common(&mut common, c, &bug_cells);
                    if bug_cells.len() > 1 && all_bug.count_ones() > 1 && common == Some(0) {
                        return None;
                    }
                }
                if new.is_empty() {
                    return None;
                }
            }
        }
    }
    if let Some(extra) = all_extra {
        if one_value && extra.count_ones() as usize > bug_cells.len() {
            for c in cells_of(extra) {
                if bug_cells.contains(&c) {
                    continue;
                }
                bug_cells.push(c);
                bug_values[c] = bit(only_value);
                temp[c] &= !bit(only_value);
                remove_from_common(&mut common, c, &bug_cells);
                if bug_cells.len() > 1 && all_bug.count_ones() > 1 && common == Some(0) {
                    return None;
                }
            }
        }
    }
    if (0..81).any(|c| s.values[c] == 0 && temp[c].count_ones() != 2) {
        return None;
    }
    for t in 0..3 {
        for r in 0..9 {
            for d in 1..=9u8 {
                let n = REGIONS[t][r]
                    .iter()
                    .filter(|&&c| temp[c as usize] & bit(d) != 0)
                    .count();
                if n != 0 && n != 2 {
                    return None;
                }
            }
        }
    }
    if bug_cells.len() == 1 {
        let c = bug_cells[0];
        let mut h = hint(56, "bug_1");
        h.eliminations = digits(s.cands[c] & !all_bug)
            .map(|d| (c as u8, d))
            .collect();
        return (!h.eliminations.is_empty()).then_some(h);
    }
    if all_bug.count_ones() == 1 {
        let value = all_bug.trailing_zeros() as u8 + 1;
        if let Some(set) = common {
            let elims: Vec<(u8, u8)> = cells_of(set)
                .filter(|&c| s.has(c, value))
                .map(|c| (c as u8, value))
                .collect();
            if !elims.is_empty() {
                let mut h = hint(57, "bug_2");
                h.eliminations = elims;
                return Some(h);
            }
        }
        if bug_cells.len() == 2 {
            return bug4(s, &bug_cells, &bug_values, all_bug);
        }
    } else if let Some(set) = common.filter(|&c| c != 0) {
        if bug_cells.len() == 2 {
            if let Some(h) = bug4(s, &bug_cells, &bug_values, all_bug) {
                return Some(h);
            }
        }
        return bug3(s, &bug_cells, all_bug, set);
    }
    None
}

/// BUG type 3: the bug cells' extra digits form a naked set with other cells of a region they
/// share (5.7 plus 0.1 per digit past two).
fn bug3(s: &View<'_>, bug_cells: &[usize], all: u16, common: u128) -> Option<Hint> {
    for degree in 2..=6u32 {
        for t in 0..3 {
            let r = CELL_REGION[bug_cells[0]][t];
            if bug_cells.iter().any(|&c| CELL_REGION[c][t] != r) {
                continue;
            }
            let region: Vec<usize> = cells_of(common)
                .filter(|&c| CELL_REGION[c][t] == r)
                .collect();
            if region.len() < degree as usize {
                continue;
            }
            for pick in combos(degree - 1, region.len() as u32) {
                let naked: Vec<usize> = bits(pick).map(|k| region[k as usize]).collect();
                let union = naked.iter().fold(0u16, |u, &c| u | s.cands[c]);
                if union.count_ones() != degree
                    || (union | all).count_ones() != degree
                    || all.count_ones() < 2
                    || naked.iter().any(|&c| s.cands[c].count_ones() < 2)
                {
                    continue;
                }
                let mut h = hint(57 + degree as u16 - 1, "bug_3");
                for d in digits(union | all) {
                    let mut victims = !0u128;
                    for &c in naked.iter().chain(bug_cells.iter()) {
                        if s.has(c, d) {
                            victims &= PEER_SETS[c];
                        }
                    }
                    for c in cells_of(victims) {
                        if s.has(c, d) {
                            h.eliminations.push((c as u8, d));
                        }
                    }
                }
                if !h.eliminations.is_empty() {
                    return Some(h);
                }
            }
        }
    }
    None
}

fn bug4(s: &View<'_>, cells: &[usize], values: &[u16; 81], all: u16) -> Option<Hint> {
    let (c1, c2) = (cells[0], cells[1]);
    let common = s.cands[c1] & s.cands[c2] & !all;
    if common.count_ones() != 1 {
        return None;
    }
    for t in 0..3 {
        if CELL_REGION[c1][t] != CELL_REGION[c2][t] {
            continue;
        }
        let mut h = hint(57, "bug_4");
        for c in [c1, c2] {
            for d in digits(s.cands[c] & !values[c] & !common) {
                h.eliminations.push((c as u8, d));
            }
        }
        if !h.eliminations.is_empty() {
            return Some(h);
        }
    }
    None
}

/// The base cells of an aligned exclusion, as SE takes them: every unsolved cell that sees no
/// cell of one candidate, with the peers it sees holding 2 to `most` candidates (its
/// excluders, a cell set), when it has any. The cells come in ascending order; `excluders` is
/// indexed by cell (0 for a cell that is no base).
fn exclusion_bases(s: &View<'_>, most: u32, excluders: &mut [u128; 81]) -> Vec<usize> {
    let mut bases = Vec::with_capacity(81);
    let (mut singles, mut few) = (0u128, 0u128);
    for c in 0..81 {
        match s.cands[c].count_ones() {
            1 => singles |= 1 << c,
            k if (2..=most).contains(&k) => few |= 1 << c,
            _ => {}
        }
    }
    for c in 0..81 {
        excluders[c] = 0;
        if s.cands[c].count_ones() < 2 {
            continue;
        }
        let peers = PEER_SETS[c];
        if peers & singles != 0 || peers & few == 0 {
            continue;
        }
        excluders[c] = peers & few;
        bases.push(c);
    }
    bases
}

/// The candidate sets of the excluder cells in `common`, one bit per 9-bit mask, so that a
/// combination's test is one lookup.
#[inline]
fn excluder_masks(s: &View<'_>, mut common: u128) -> [u64; 8] {
    let mut bad = [0u64; 8];
    while common != 0 {
        let e = common.trailing_zeros() as usize;
        common &= common - 1;
        let c = s.cands[e] as usize;
        bad[c >> 6] |= 1 << (c & 63);
    }
    bad
}

/// Whether `mask` is one of the candidate sets in `bad` (see [`excluder_masks`]).
#[inline(always)]
fn is_bad(bad: &[u64; 8], mask: u16) -> bool {
    bad[mask as usize >> 6] >> (mask & 63) & 1 == 1
}

/// Aligned pair exclusion (6.2): two cells (any two, as SE pairs them) and the bivalue cells
/// both see.
#[inline(always)]
pub(super) fn aligned_pair_exclusion(s: &View<'_>) -> Option<Hint> {
    let mut excluders = [0u128; 81];
    let bases = exclusion_bases(s, 2, &mut excluders);
    for n2 in 1..bases.len() {
        for n1 in 0..n2 {
            let (a, b) = (bases[n1], bases[n2]);
            let common = excluders[a] & excluders[b];
            if common.count_ones() < 2 {
                continue;
            }
            // The excluders are bivalue: one excludes a combination exactly when its two
            // candidates are the combination's two digits.
            let bad = excluder_masks(s, common);
            let see = PEER_SETS[a] >> b & 1 == 1;
            let (mask_a, mask_b) = (s.cands[a], s.cands[b]);
            let (mut ok_a, mut ok_b) = (0u16, 0u16);
            // Only a combination with a digit not yet allowed can change the outcome, and once
            // every candidate of both cells is allowed this pair removes nothing.
            let mut ma = mask_a;
            'pairs: while ma != 0 {
                let ba = ma & ma.wrapping_neg();
                ma &= ma - 1;
                let mut mb = if ok_a & ba != 0 {
                    mask_b & !ok_b
                } else {
                    mask_b
                };
                while mb != 0 {
                    let bb = mb & mb.wrapping_neg();
                    mb &= mb - 1;
                    if (ba == bb && see) || is_bad(&bad, ba | bb) {
                        continue;
                    }
                    ok_a |= ba;
                    ok_b |= bb;
                    if ok_a == mask_a && ok_b == mask_b {
                        break 'pairs;
                    }
                    mb &= !ok_b;
                }
            }
            let mut h = hint(62, "aligned_pair_exclusion");
            for (cell, ok) in [(a, ok_a), (b, ok_b)] {
                for d in digits(s.cands[cell] & !ok) {
                    h.eliminations.push((cell as u8, d));
                }
            }
            if !h.eliminations.is_empty() {
                return Some(h);
            }
        }
    }
    None
}

/// Aligned triple exclusion (7.5): SE pairs two base cells, takes the third among the cells of
/// two or three candidates either one sees (those of the first, then the second's others,
/// each in ascending order), and excludes the candidates no allowed combination of the three
/// uses.
#[inline(always)]
pub(super) fn aligned_triple_exclusion(s: &View<'_>) -> Option<Hint> {
    let mut excluders = [0u128; 81];
    let bases = exclusion_bases(s, 3, &mut excluders);
    if bases.len() < 3 {
        return None;
    }
    let is_base = bases.iter().fold(0u128, |m, &c| m | 1 << c);
    for n2 in 1..bases.len() {
        for n1 in 0..n2 {
            let (c0, c1) = (bases[n1], bases[n2]);
            let (e0, e1) = (excluders[c0], excluders[c1]);
            let both = e0 & e1;
            if both.count_ones() < 2 {
                continue;
            }
            let others = is_base & !(1u128 << c0 | 1u128 << c1);
            let (first, second) = (e0 & others, e1 & !e0 & others);
            for twins in [first, second] {
                let mut twins = twins;
                while twins != 0 {
                    let c2 = twins.trailing_zeros() as usize;
                    twins &= twins - 1;
                    let common = both & excluders[c2];
                    if common.count_ones() < 2 || tried(&excluders, c0, c1, c2) {
                        continue;
                    }
                    if let Some(h) = triple(s, [c0, c1, c2], common) {
                        return Some(h);
                    }
                }
            }
        }
    }
    None
}

/// Whether the loop of [`aligned_triple_exclusion`] met the cells `c0 < c1` and `c2` as one set
/// before (as another pair and third): the set's outcome does not depend on the order, and it
/// removed nothing then. A set is met at its two lowest cells first (the pairs come by their
/// higher cell, then their lower), then at the lowest and highest, then at the two highest; at
/// each, when the remaining cell is an excluder of either.
#[inline(always)]
fn tried(excluders: &[u128; 81], c0: usize, c1: usize, c2: usize) -> bool {
    if c2 > c1 {
        return false;
    }
    let (lo, mid) = (c0.min(c2), c0.max(c2));
    (excluders[lo] | excluders[mid]) >> c1 & 1 == 1
        || (c2 < c0 && (excluders[c2] | excluders[c1]) >> c0 & 1 == 1)
}

/// The aligned triple exclusion of three cells and their common excluders, if it removes any.
fn triple(s: &View<'_>, cells: [usize; 3], common: u128) -> Option<Hint> {
    // A combination is excluded when an excluder's candidates are among its digits: with
    // excluders of two or three candidates, when the combination's digits, or two of them,
    // are an excluder's candidates exactly.
    let bad = excluder_masks(s, common);
    let peers = |a: usize, b: usize| PEER_SETS[cells[a]] >> cells[b] & 1 == 1;
    let see = [peers(0, 1), peers(0, 2), peers(1, 2)];
    let masks = [s.cands[cells[0]], s.cands[cells[1]], s.cands[cells[2]]];
    // `ok` gathers the digits some allowed combination uses. Only a combination with a digit
    // not yet in `ok` can change it, and once `ok` holds every candidate the cells remove
    // nothing.
    let mut ok = [0u16; 3];
    let mut m0 = masks[0];
    while m0 != 0 {
        let b0 = m0 & m0.wrapping_neg();
        m0 &= m0 - 1;
        let mut m1 = if ok[0] & b0 != 0 && ok[2] == masks[2] {
            masks[1] & !ok[1]
        } else {
            masks[1]
        };
        while m1 != 0 {
            let b1 = m1 & m1.wrapping_neg();
            m1 &= m1 - 1;
            if (b0 == b1 && see[0]) || is_bad(&bad, b0 | b1) {
                continue;
            }
            let mut m2 = if ok[0] & b0 != 0 && ok[1] & b1 != 0 {
                masks[2] & !ok[2]
            } else {
                masks[2]
            };
            while m2 != 0 {
                let b2 = m2 & m2.wrapping_neg();
                m2 &= m2 - 1;
                if (b0 == b2 && see[1]) || (b1 == b2 && see[2]) {
                    continue;
                }
                if is_bad(&bad, b0 | b1 | b2) || is_bad(&bad, b0 | b2) || is_bad(&bad, b1 | b2) {
                    continue;
                }
                ok[0] |= b0;
                ok[1] |= b1;
                ok[2] |= b2;
                if ok == masks {
                    return None;
                }
                m2 &= !ok[2];
            }
        }
    }
    let mut h = hint(75, "aligned_triple_exclusion");
    for k in 0..3 {
        for d in digits(masks[k] & !ok[k]) {
            h.eliminations.push((cells[k] as u8, d));
        }
    }
    (!h.eliminations.is_empty()).then_some(h)
}
