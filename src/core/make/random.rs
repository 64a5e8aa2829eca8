//! Seeded random numbers for the generator and the transforms: SplitMix64 (Steele, Lea and
//! Flood, 2014), implemented here and fixed forever.
//!
//! Seeded puzzles and transforms are a contract: the same seed gives the same result on every
//! machine, thread count and future version. So the stream must not come from a crate that may change, and
//! every derived quantity ([`Rng::below`], [`Rng::shuffle`], [`stream_seed`]) is defined here
//! bit for bit. Changing anything in this file changes every seeded puzzle: don't.

/// The SplitMix64 increment (the golden ratio in 64-bit fixed point).
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: a bijective 64-bit mix.
pub fn mix64(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of item `index` of a seeded batch: item i depends only on (seed, i), so a batch
/// comes out the same on any number of threads. Item 0's seed is not `seed` itself; a single
/// puzzle (or transform) made with `seed` is item 0 of the batch made with `seed`.
pub fn stream_seed(seed: u64, index: u64) -> u64 {
    mix64(seed ^ mix64(index.wrapping_add(1).wrapping_mul(GAMMA)))
}

/// A SplitMix64 generator: a 64-bit state that advances by [`GAMMA`] per draw.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix64(self.state)
    }

    /// A uniform integer in `0..bound` (`bound >= 1`), by Lemire's multiply-and-reject, which
    /// is exact (no modulo bias) and usually takes one draw.
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "an empty range");
        let mut product = u128::from(self.next_u64()) * u128::from(bound);
        // The threshold (2^64 mod bound) is below bound, so the division that finds it is
        // needed only when the low half falls below bound, rarely for small bounds.
        if (product as u64) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (product as u64) < threshold {
                product = u128::from(self.next_u64()) * u128::from(bound);
            }
        }
        (product >> 64) as u64
    }

    /// Fisher-Yates, from the last position down: position i swaps with `below(i + 1)`.
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
    fn matches_the_published_splitmix64_stream() {
        // The reference C implementation (Vigna's splitmix64.c) seeded with 1234567.
        let mut rng = Rng::new(1_234_567);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            first,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423
            ]
        );
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Rng::new(7);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[rng.below(6) as usize] += 1;
        }
        assert!(seen.iter().all(|&k| (800..1200).contains(&k)), "{seen:?}");
        assert_eq!(rng.below(1), 0);
    }

    #[test]
    fn shuffle_is_a_permutation_and_seeded() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        Rng::new(99).shuffle(&mut a);
        Rng::new(99).shuffle(&mut b);
        assert_eq!(a, b);
        assert_ne!(a, (0..50).collect::<Vec<_>>());
        a.sort_unstable();
        assert_eq!(a, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn stream_seeds_differ_per_index() {
        let seeds: Vec<u64> = (0..100).map(|i| stream_seed(42, i)).collect();
        let mut unique = seeds.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), seeds.len());
        assert_ne!(stream_seed(42, 0), stream_seed(43, 0));
    }
}
