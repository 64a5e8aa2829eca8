//! Making and reshaping puzzles: the seeded generator, the rating search, validity-preserving
//! transforms, the canonical form, and the random numbers they share.

pub mod canonical;
pub(crate) mod fill;
pub mod fill_from_solution;
pub mod generate;
pub mod logic_generate;
pub mod random;
pub mod rate;
pub mod transform;

/// A solved grid of any shape, for the tests: the shifted-rows pattern.
#[cfg(test)]
pub(crate) fn pattern(shape: crate::core::grid::shape::BoxShape) -> crate::core::grid::Grid {
    let (n, br, bc) = (shape.size(), shape.rows(), shape.cols());
    let cells = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            ((bc * (r % br) + r / br + c) % n + 1) as u8
        })
        .collect();
    crate::core::grid::Grid::new(shape, cells).unwrap()
}
