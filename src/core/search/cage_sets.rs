//! The digits a killer cage may still hold.
//!
//! A cage of `k` cells with total `t` holds one of the `k`-digit sets that add up to `t`. For
//! cages with few such sets (every cage up to 16x16 but the rare middle-sized one) the sets are
//! listed once, and the search keeps those that contain the digits placed and fit the open
//! cells' candidates: their union is what the open cells may hold, and a digit every set needs
//! must go somewhere. Cages with too many sets to list use sum bounds instead.

/// Sets listed per cage at most; past this the cage is pruned by bounds only.
const MAX_SETS: usize = 4096;

#[derive(Clone, Debug)]
pub(crate) struct CageTable {
    /// The digit sets (bit d-1 for digit d) of the cage's size that add up to its total,
    /// or `None` when there are more than [`MAX_SETS`].
    sets: Option<Vec<u64>>,
}

/// What the cage allows its open cells, given what is placed.
pub(crate) struct Allowed {
    /// Digits some open cell may hold.
    pub any: u64,
    /// Digits every remaining set needs (each must go in some open cell).
    pub needed: u64,
}

impl CageTable {
    pub(crate) fn new(k: usize, total: u32, n: usize) -> Self {
        let mut sets = Vec::new();
        let complete = list_sets(n as u32, k as u32, total, 1, 0, &mut sets);
        CageTable {
            sets: complete.then_some(sets),
        }
    }

    /// The digit sets adding up to the total, when they are listed.
    pub(crate) fn sets(&self) -> Option<&[u64]> {
        self.sets.as_deref()
    }

    /// The digits the open cells may hold, given `placed` (the digits placed in the cage,
    /// adding up to `sum`), `open` open cells and `avail` (the union of their candidates);
    /// `None` when no completion exists.
    pub(crate) fn allowed(
        &self,
        total: u32,
        placed: u64,
        sum: u32,
        open: u32,
        avail: u64,
    ) -> Option<Allowed> {
        if sum > total {
            return None;
        }
        match &self.sets {
            Some(sets) => {
                let (mut any, mut needed) = (0u64, u64::MAX);
                for &set in sets {
                    let rest = set & !placed;
                    if set & placed == placed && rest & !avail == 0 {
                        any |= rest;
                        needed &= rest;
                    }
                }
                (any != 0 || open == 0 && sets.contains(&placed)).then_some(Allowed {
                    any,
                    needed: if any == 0 { 0 } else { needed },
                })
            }
            None => by_bounds(total - sum, open, avail & !placed),
        }
    }
}

/// Lists the `k`-digit sets of digits `from..=n` adding up to `total` into `out` (with
/// `chosen` already in each); `false` when there are more than [`MAX_SETS`].
fn list_sets(n: u32, k: u32, total: u32, from: u32, chosen: u64, out: &mut Vec<u64>) -> bool {
    if k == 0 {
        if total == 0 {
            if out.len() == MAX_SETS {
                return false;
            }
            out.push(chosen);
        }
        return true;
    }
    for d in from..=n {
        // The k smallest digits from d on, and the k largest up to n, bound what is reachable.
        let least = k * d + k * (k - 1) / 2;
        if least > total {
            break;
        }
        if d + k - 1 > n {
            break;
        }
        let most = k * n - k * (k - 1) / 2;
        if most < total {
            break;
        }
        if !list_sets(n, k - 1, total - d, d + 1, chosen | 1 << (d - 1), out) {
            return false;
        }
    }
    true
}

/// Digit `d` may go in an open cell when `open - 1` other distinct available digits can make
/// up the rest: between the sum of the smallest and of the largest of them.
fn by_bounds(rest: u32, open: u32, avail: u64) -> Option<Allowed> {
    if open == 0 {
        return (rest == 0).then_some(Allowed { any: 0, needed: 0 });
    }
    if avail.count_ones() < open {
        return None;
    }
    let digits: Vec<u32> = (0..64)
        .filter(|b| avail >> b & 1 == 1)
        .map(|b| b + 1)
        .collect();
    let mut any = 0u64;
    for &d in &digits {
        if d > rest {
            break;
        }
        let others = digits.iter().copied().filter(|&o| o != d);
        let m = (open - 1) as usize;
        let least: u32 = others.clone().take(m).sum();
        let most: u32 = others.clone().rev().take(m).sum();
        // With one other cell the bound is exact: it must hold the difference itself.
        let fits = if m == 1 {
            others.clone().any(|o| o == rest - d)
        } else {
            (least..=most).contains(&(rest - d))
        };
        if fits {
            any |= 1 << (d - 1);
        }
    }
    (any != 0).then_some(Allowed { any, needed: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digits(mask: u64) -> Vec<u32> {
        (0..64)
            .filter(|b| mask >> b & 1 == 1)
            .map(|b| b + 1)
            .collect()
    }

    #[test]
    fn lists_the_classic_combinations() {
        // 3 cells adding to 7 in 9x9: only {1, 2, 4}.
        let t = CageTable::new(3, 7, 9);
        assert_eq!(t.sets.as_ref().unwrap(), &vec![0b1011]);
        // 2 cells adding to 10: 1+9, 2+8, 3+7, 4+6.
        assert_eq!(CageTable::new(2, 10, 9).sets.unwrap().len(), 4);
        assert_eq!(CageTable::new(9, 45, 9).sets.unwrap().len(), 1);
        assert!(CageTable::new(2, 18, 9).sets.unwrap().is_empty());
    }

    #[test]
    fn allowed_digits_follow_what_is_placed() {
        let t = CageTable::new(2, 10, 9);
        let all = (1u64 << 9) - 1;
        let a = t.allowed(10, 0, 0, 2, all).unwrap();
        assert_eq!(digits(a.any), vec![1, 2, 3, 4, 6, 7, 8, 9]);
        let a = t.allowed(10, 1 << 2, 3, 1, all).unwrap();
        assert_eq!(digits(a.any), vec![7]);
        assert_eq!(digits(a.needed), vec![7]);
        assert!(t.allowed(10, 1 << 4, 5, 1, all).is_none()); // 5 + 5 repeats a digit
    }

    #[test]
    fn bounds_allow_what_the_listed_sets_allow() {
        for (k, total) in [(2, 10), (3, 15), (4, 20), (5, 30), (3, 7), (4, 29)] {
            let t = CageTable::new(k, total, 9);
            let all = (1u64 << 9) - 1;
            let listed = t.allowed(total, 0, 0, k as u32, all).unwrap().any;
            let bounded = by_bounds(total, k as u32, all).unwrap().any;
            assert_eq!(listed & !bounded, 0, "{k} cells, total {total}");
            if k == 2 {
                assert_eq!(listed, bounded, "exact for two cells");
            }
        }
        assert!(by_bounds(3, 0, 0).is_none());
    }
}
