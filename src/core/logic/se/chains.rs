//! SE's chaining techniques: X- and Y-cycles and chains, forcing chains, Nishio, cell and
//! region forcing chains, dynamic, dynamic plus and nested forcing chains.

use super::{Hint, State};

/// One family of SE chain techniques, tried in this order by the driver.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Family {
    /// X- and Y-cycles and chains.
    Cycles,
}

/// Every hint of `family` in `state`, appended to `out`.
// sechains: the finders land here; until then no chain hint is found.
pub(crate) fn hints(state: &State, family: Family, out: &mut Vec<Hint>) {
    let _ = (state, family, out);
}
