//! Grid geometry: the box shape, and the unit tables the solver walks.

use crate::core::error::{Error, Result};

/// The largest side supported: candidates are one bit per digit in a `u64`.
pub const MAX_SIZE: usize = 64;

/// A box of `rows x cols` cells; the grid is `n x n` with `n = rows * cols`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoxShape {
    rows: usize,
    cols: usize,
}

impl BoxShape {
    /// The classic 9x9 grid.
    pub const CLASSIC: BoxShape = BoxShape { rows: 3, cols: 3 };

    /// A box of `rows x cols` cells. Both are at least 2, except that a side with no such
    /// box (a prime: 3, 5, 7, 11, 13, ...) may have `1 x n` boxes, its rows: f-puzzles'
    /// default regions for those sides, under which a grid is a Latin square.
    pub fn new(rows: usize, cols: usize) -> Result<Self> {
        if rows == 1 && (3..=MAX_SIZE).contains(&cols) && suggest_box(cols).is_none() {
            return Ok(BoxShape { rows, cols });
        }
        if rows < 2 || cols < 2 {
            return Err(Error::BoxShape(format!(
                "box=({rows}, {cols}) is not a box shape: rows and columns must each be at least 2 \
                 (or rows 1 on a prime side, where the boxes are the rows)"
            )));
        }
        let size = rows.saturating_mul(cols);
        if size > MAX_SIZE {
            return Err(Error::BoxShape(format!(
                "box=({rows}, {cols}) makes a {size}x{size} grid; the largest supported is \
                 {MAX_SIZE}x{MAX_SIZE}"
            )));
        }
        Ok(BoxShape { rows, cols })
    }

    /// The box shape for a grid of side `size`: the requested one, checked against the size,
    /// or the square one when `size` is a perfect square. A non-square size needs an explicit
    /// box, because guessing 2x3 against 3x2 would silently solve a different puzzle.
    pub fn for_size(size: usize, requested: Option<(usize, usize)>) -> Result<Self> {
        if let Some((rows, cols)) = requested {
            let shape = BoxShape::new(rows, cols)?;
            if shape.size() != size {
                return Err(Error::BoxShape(format!(
                    "box=({rows}, {cols}) fits a {0}x{0} grid, but the grid is {size}x{size}",
                    shape.size()
                )));
            }
            return Ok(shape);
        }
        let root = isqrt(size);
        if root * root == size && root >= 2 {
            return BoxShape::new(root, root);
        }
        if let Some((rows, cols)) = suggest_box(size) {
            return Err(Error::BoxShape(format!(
                "a {size}x{size} grid has no square box: pass box=(rows, cols), \
                 for example box=({rows}, {cols})"
            )));
        }
        if (3..=MAX_SIZE).contains(&size) {
            return Err(Error::BoxShape(format!(
                "a {size}x{size} grid has no box shape (the side is prime): pass \
                 box=(1, {size}) for rows as boxes (a Latin square), or jigsaw regions"
            )));
        }
        Err(Error::BoxShape(format!(
            "a {size}x{size} grid has no box shape: the side must be rows*cols with both at \
             least 2 (4, 6, 8, 9, 12, 16, 25, ...)"
        )))
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The side `n` of the grid, which is also the number of digits.
    pub fn size(&self) -> usize {
        self.rows * self.cols
    }

    pub fn cell_count(&self) -> usize {
        self.size() * self.size()
    }

    /// Whether the boxes are the rows (`1 x n`, on a prime side).
    pub fn rows_as_boxes(&self) -> bool {
        self.rows == 1
    }

    /// The index of the box holding (row, col), boxes numbered row-major.
    pub fn box_index(&self, row: usize, col: usize) -> usize {
        let boxes_per_band = self.size() / self.cols;
        (row / self.rows) * boxes_per_band + col / self.cols
    }
}

/// Integer square root, exact for every size we meet.
pub fn isqrt(x: usize) -> usize {
    // Sides and cell counts up to 64x64 from a table: the float square root below takes
    // longer than reading a 9x9 string's 81 characters.
    if let Some(&r) = SMALL_ROOTS.get(x) {
        return usize::from(r);
    }
    let mut r = (x as f64).sqrt() as usize;
    while r * r > x {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= x {
        r += 1;
    }
    r
}

/// [`isqrt`] of 0..=4096 (64 * 64 cells).
static SMALL_ROOTS: [u8; MAX_SIZE * MAX_SIZE + 1] = {
    let mut table = [0u8; MAX_SIZE * MAX_SIZE + 1];
    let mut r = 0;
    while r <= MAX_SIZE {
        let mut x = r * r;
        while x < (r + 1) * (r + 1) && x < table.len() {
            table[x] = r as u8;
            x += 1;
        }
        r += 1;
    }
    table
};

/// The most square factorisation rows*cols = size with rows <= cols, both >= 2: the box a
/// message suggests, and the one a grid is read with when jigsaw regions replace its boxes.
/// `None` for a side with no box shape (a prime, or below 4).
pub(crate) fn suggest_box(size: usize) -> Option<(usize, usize)> {
    (2..=isqrt(size))
        .rev()
        .find(|r| size % r == 0 && size / r >= 2)
        .map(|r| (r, size / r))
}

/// Per-cell unit indices and per-unit cell lists, shared by every search on one shape.
/// Units are numbered rows `0..n`, columns `n..2n`, boxes `2n..3n`.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub shape: BoxShape,
    pub size: usize,
    pub cells: usize,
    pub cell_units: Vec<[u16; 3]>,
    /// `3n` units of `n` cell indices each, flattened.
    pub unit_cells: Vec<u16>,
}

impl Geometry {
    pub fn new(shape: BoxShape) -> Self {
        let n = shape.size();
        let mut cell_units = Vec::with_capacity(n * n);
        let mut unit_cells = vec![0u16; 3 * n * n];
        let mut filled = vec![0usize; 3 * n];
        for row in 0..n {
            for col in 0..n {
                let index = (row * n + col) as u16;
                let units = [row, n + col, 2 * n + shape.box_index(row, col)];
                for &u in &units {
                    unit_cells[u * n + filled[u]] = index;
                    filled[u] += 1;
                }
                cell_units.push(units.map(|u| u as u16));
            }
        }
        Geometry {
            shape,
            size: n,
            cells: n * n,
            cell_units,
            unit_cells,
        }
    }

    pub fn unit(&self, u: usize) -> &[u16] {
        &self.unit_cells[u * self.size..(u + 1) * self.size]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isqrt_is_the_floor_square_root() {
        let by_search = |x: usize| (0..=x).take_while(|r: &usize| r * r <= x).last().unwrap();
        for x in (0..5000).chain([1 << 20, (1 << 20) - 1, usize::MAX >> 20]) {
            let r = isqrt(x);
            assert!(r * r <= x && (r + 1) * (r + 1) > x, "{x}");
            if x < 5000 {
                assert_eq!(r, by_search(x), "{x}");
            }
        }
    }

    #[test]
    fn square_sizes_need_no_box() {
        for (size, root) in [(4, 2), (9, 3), (16, 4), (25, 5), (36, 6), (64, 8)] {
            let shape = BoxShape::for_size(size, None).unwrap();
            assert_eq!((shape.rows(), shape.cols()), (root, root));
        }
    }

    #[test]
    fn non_square_sizes_need_a_box_and_say_which() {
        let err = BoxShape::for_size(6, None).unwrap_err().to_string();
        assert!(err.contains("box=(2, 3)"), "{err}");
        let err = BoxShape::for_size(12, None).unwrap_err().to_string();
        assert!(err.contains("box=(3, 4)"), "{err}");
        assert!(BoxShape::for_size(7, None).is_err());
        assert_eq!(suggest_box(9), Some((3, 3)));
        assert_eq!(suggest_box(10), Some((2, 5)));
        assert_eq!(suggest_box(7), None);
        assert_eq!(suggest_box(3), None);
        assert!(BoxShape::for_size(1, None).is_err());
        assert!(BoxShape::for_size(6, Some((3, 3))).is_err());
        assert!(BoxShape::for_size(6, Some((1, 6))).is_err());
        assert_eq!(BoxShape::for_size(6, Some((3, 2))).unwrap().rows(), 3);
    }

    #[test]
    fn geometry_units_partition_the_grid() {
        for shape in [BoxShape::new(2, 3).unwrap(), BoxShape::CLASSIC] {
            let geo = Geometry::new(shape);
            let n = geo.size;
            for u in 0..3 * n {
                let mut seen = geo.unit(u).to_vec();
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), n, "unit {u} repeats a cell");
                for &c in geo.unit(u) {
                    assert!(geo.cell_units[c as usize].contains(&(u as u16)));
                }
            }
        }
    }

    #[test]
    fn rectangular_boxes_are_rows_by_cols() {
        let shape = BoxShape::new(2, 3).unwrap();
        // Box 0 covers rows 0-1 and columns 0-2; box 1 columns 3-5; box 2 starts at row 2.
        assert_eq!(shape.box_index(1, 2), 0);
        assert_eq!(shape.box_index(0, 3), 1);
        assert_eq!(shape.box_index(2, 0), 2);
    }
}
