//! A small seeded random source for transforms: SplitMix64, unbiased bounded draws and a
//! Fisher-Yates shuffle. Written here rather than taken from a crate so that a seed gives the
//! same transforms on every machine and every version of every dependency.

/// Steele, Lea and Flood's SplitMix64: one 64-bit word of state, a Weyl step and a mixer.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function: a bijective avalanche of one word.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The stream of item `index` of a seeded batch. It depends only on (seed, index), so a
    /// batch gives the same result however it is split over threads.
    pub fn for_item(seed: u64, index: u64) -> Self {
        SplitMix64::new(mix(seed ^ mix(index.wrapping_add(GOLDEN_GAMMA))))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        mix(self.state)
    }

    /// A uniform draw from `0..bound` (`bound > 0`), without modulo bias: multiply-shift,
    /// rejecting the few low products that would favour small results.
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "an empty range has no draw");
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let product = u128::from(self.next_u64()) * u128::from(bound);
            if product as u64 >= threshold {
                return (product >> 64) as u64;
            }
        }
    }

    /// Shuffles `items` uniformly (Fisher-Yates, from the back).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_splitmix64_sequence() {
        // The reference implementation's first outputs for seed 0.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn draws_stay_in_range_and_cover_it() {
        let mut rng = SplitMix64::new(7);
        let mut seen = [0usize; 6];
        for _ in 0..6000 {
            seen[rng.below(6) as usize] += 1;
        }
        // Each face about 1000 times; a broken draw would leave one far off or empty.
        assert!(seen.iter().all(|&k| (800..1200).contains(&k)), "{seen:?}");
    }

    #[test]
    fn shuffles_are_permutations_and_items_get_their_own_stream() {
        let mut items: Vec<u8> = (0..20).collect();
        SplitMix64::for_item(1, 0).shuffle(&mut items);
        let mut sorted = items.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..20).collect::<Vec<u8>>());
        assert_ne!(items, sorted);
        let mut again: Vec<u8> = (0..20).collect();
        SplitMix64::for_item(1, 0).shuffle(&mut again);
        assert_eq!(items, again);
        let mut other: Vec<u8> = (0..20).collect();
        SplitMix64::for_item(1, 1).shuffle(&mut other);
        assert_ne!(items, other);
    }
}
