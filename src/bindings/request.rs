//! One grid request per call: `box=` and `rules=` resolved once, into the box grids are read
//! with and the rules they are searched under, and used by every single and batch entry point
//! alike. The region policy (jigsaw regions replace the boxes) is the core's
//! ([`Rules::box_for`]); the box shape of a grid side is made here and nowhere else in the
//! binding ([`Request::shape`]).

use std::sync::Arc;

use pyo3::prelude::*;

use crate::core::grid::marks::restrict;
use crate::core::{BoxShape, Error, Rules};

use super::args::BoxArg;
use super::input::{self, Input};
use super::rules::RulesArg;

pub struct Request {
    /// `box=` as the caller gave it.
    given: Option<(usize, usize)>,
    /// The box grids are read with: `given`, or the one jigsaw regions choose.
    boxed: Option<(usize, usize)>,
    /// Variant rules; `None` for classic rules, however given.
    rules: Option<Arc<Rules>>,
}

impl Request {
    /// A request under `rules=` (`None` or classic `Rules`: classic rules).
    #[inline]
    pub fn new(r#box: Option<BoxArg>, rules: Option<RulesArg>) -> PyResult<Self> {
        Self::under(r#box, RulesArg::core(rules))
    }

    /// A request for classic rules.
    #[inline]
    pub fn classic(r#box: Option<BoxArg>) -> PyResult<Self> {
        Self::under(r#box, None)
    }

    /// A request under rules already read.
    #[inline]
    pub fn under(r#box: Option<BoxArg>, rules: Option<Arc<Rules>>) -> PyResult<Self> {
        let given = BoxArg::request(r#box)?;
        let boxed = match &rules {
            Some(rules) => rules.box_for(given)?,
            None => given,
        };
        Ok(Request {
            given,
            boxed,
            rules,
        })
    }

    /// A classic request for grids of exactly `shape` (a second batch that pairs up with a
    /// first one).
    pub fn of_shape(shape: BoxShape) -> Self {
        let boxed = Some((shape.rows(), shape.cols()));
        Request {
            given: boxed,
            boxed,
            rules: None,
        }
    }

    /// The rules to search under, taken out of the request.
    #[inline]
    pub fn into_rules(self) -> Option<Arc<Rules>> {
        self.rules
    }

    /// The box grids are read with, if any.
    #[inline]
    pub fn boxed(&self) -> Option<(usize, usize)> {
        self.boxed
    }

    /// The rules to search under; `None` for classic rules.
    #[inline]
    pub fn rules(&self) -> Option<&Arc<Rules>> {
        self.rules.as_ref()
    }

    /// The box shape of grids of side `n` under this request.
    #[inline]
    pub fn shape(&self, n: usize) -> PyResult<BoxShape> {
        Ok(BoxShape::for_size(n, self.boxed)?)
    }

    /// Checks that the rules fit grids of `shape`.
    #[inline]
    pub fn check(&self, shape: BoxShape) -> PyResult<()> {
        if let Some(rules) = &self.rules {
            rules.check_shape(shape)?;
        }
        Ok(())
    }

    /// Reads one puzzle that may carry pencil marks: a grid, a string of marks (a sukaku), or
    /// a grid with `candidates=` (marks text, or a bool array (n, n, n)). Returns the grid and
    /// the candidates the marks leave each cell (checked against the grid: see
    /// [`restrict`]), `None` without marks. Marks go with classic rules only.
    pub fn read_marked<'py>(
        &self,
        grid: &Bound<'py, PyAny>,
        candidates: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Input<'py>, Option<Vec<u64>>)> {
        let candidates = candidates.filter(|c| !c.is_none());
        if self.rules.is_some() {
            if candidates.is_some() {
                return Err(Error::Rules(
                    "candidates= goes with classic rules only: pencil marks under variant \
                     rules are not searched"
                        .into(),
                )
                .into());
            }
            return Ok((self.read(grid)?, None));
        }
        let (input, in_text) = input::read_marked(grid, self)?;
        let given = match candidates {
            Some(c) => Some(super::logic::marks_arg(c, input.grid.size())?),
            None => None,
        };
        let marks = match (in_text, given) {
            (Some(_), Some(_)) => {
                return Err(Error::Candidates(
                    "the puzzle is pencil marks already (a sukaku string); candidates= goes \
                     with a grid of digits"
                        .into(),
                )
                .into())
            }
            (Some(marks), None) | (None, Some(marks)) => Some(restrict(&input.grid, &marks)?),
            (None, None) => None,
        };
        Ok((input, marks))
    }

    /// Reads one grid and checks that the rules fit it.
    pub fn read<'py>(&self, grid: &Bound<'py, PyAny>) -> PyResult<Input<'py>> {
        let input = match input::read(grid, self) {
            Ok(input) => input,
            // The box the regions chose does not fit this grid: the grid's side is not the
            // regions'. Say that (it is read once more, as it is, only on this error path)
            // rather than blame a box nobody passed.
            Err(err) if self.boxed != self.given => {
                let plain = input::read(grid, &Request::classic(None)?).map_err(|_| err)?;
                self.check(plain.grid.shape())?;
                plain
            }
            Err(err) => return Err(err),
        };
        self.check(input.grid.shape())?;
        Ok(input)
    }
}
