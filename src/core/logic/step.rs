//! What one logical step is: the technique (from the technique table below), what it places and
//! removes, what a person must look at, and a sentence saying it.

use std::fmt::{self, Write};

use crate::core::Unit;

use super::engine::Context;

/// How hard a technique is for a person; a puzzle's level is its hardest technique's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Easy,
    Medium,
    Hard,
    Expert,
    Extreme,
}

impl Level {
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Expert,
        Level::Extreme,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Extreme => "extreme",
        }
    }
}

/// The technique table: declares [`Technique`] with its stable name, weight, level and finder.
macro_rules! techniques {
    ($($(#[$doc:meta])* $variant:ident = $name:literal, $weight:literal, $level:ident, $find:path;)*) => {
        /// A human solving technique. Names are stable snake_case identifiers (the trace format).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Technique {
            $($(#[$doc])* $variant,)*
        }

        impl Technique {
            /// Every technique, in the order [`hint`](super::hint) tries them.
            pub const ALL: &'static [Technique] = &[$(Technique::$variant,)*];

            /// The stable snake_case name, as in traces and `techniques=` lists.
            pub fn name(self) -> &'static str {
                match self {
                    $(Technique::$variant => $name,)*
                }
            }

            /// The weight of one use; a grade's score is the sum over the steps.
            pub fn weight(self) -> u32 {
                match self {
                    $(Technique::$variant => $weight,)*
                }
            }

            pub fn level(self) -> Level {
                match self {
                    $(Technique::$variant => Level::$level,)*
                }
            }

            /// The first step of this technique in the current candidates, if any.
            pub(crate) fn find(self, ctx: &Context<'_>) -> Option<Step> {
                match self {
                    $(Technique::$variant => $find(ctx),)*
                }
            }
        }
    };
}

// The technique table. Order = the order `hint` tries them, cheapest first: keep it sorted by
// weight (a test checks). Weights are our own scale, in the spirit of HoDoKu's step scores;
// levels group them like HoDoKu's easy / medium / hard / unfair (our "expert") / extreme.
techniques! {
    /// The last empty cell of a row, column or box.
    FullHouse = "full_house", 4, Easy, super::singles::full_house;
    /// A digit with one place left in a row, column or box.
    HiddenSingle = "hidden_single", 12, Easy, super::singles::hidden_single;
    /// A cell with one candidate left.
    NakedSingle = "naked_single", 16, Easy, super::singles::naked_single;
    /// A digit's places in a box all lie in one row or column: it leaves the rest of that line.
    Pointing = "pointing", 50, Medium, super::locked::pointing;
    /// A digit's places in a row or column all lie in one box: it leaves the rest of the box.
    Claiming = "claiming", 52, Medium, super::locked::claiming;
    /// Two cells of a unit with the same two candidates.
    NakedPair = "naked_pair", 60, Medium, super::subsets::naked_pair;
    /// Two digits with the same two places in a unit.
    HiddenPair = "hidden_pair", 70, Medium, super::subsets::hidden_pair;
    /// Three cells of a unit whose candidates are three digits.
    NakedTriple = "naked_triple", 80, Medium, super::subsets::naked_triple;
    /// Three digits whose places in a unit are three cells.
    HiddenTriple = "hidden_triple", 100, Medium, super::subsets::hidden_triple;
    /// Four cells of a unit whose candidates are four digits.
    NakedQuad = "naked_quad", 120, Hard, super::subsets::naked_quad;
    /// Two parallel conjugate pairs whose near ends share a line.
    Skyscraper = "skyscraper", 130, Hard, super::single_digit::skyscraper;
    /// A digit in two rows (columns) confined to two columns (rows).
    XWing = "x_wing", 140, Hard, super::fish::x_wing;
    /// Four digits whose places in a unit are four cells.
    HiddenQuad = "hidden_quad", 150, Hard, super::subsets::hidden_quad;
    /// A digit in three rows (columns) confined to three columns (rows).
    Swordfish = "swordfish", 150, Hard, super::fish::swordfish;
    /// A row and a column conjugate pair whose near ends share a box.
    TwoStringKite = "two_string_kite", 150, Hard, super::single_digit::two_string_kite;
    /// An X-wing with extra candidates (fins) in one box.
    FinnedXWing = "finned_x_wing", 160, Hard, super::fish::finned_x_wing;
    /// A pivot {x,y} seeing pincers {x,z} and {y,z}.
    XyWing = "xy_wing", 160, Hard, super::wings::xy_wing;
    /// Two conjugate pairs on one digit joined by a weak link.
    TurbotFish = "turbot_fish", 165, Hard, super::single_digit::turbot_fish;
    /// A pivot {x,y,z} seeing pincers {x,z} and {y,z}.
    XyzWing = "xyz_wing", 170, Hard, super::wings::xyz_wing;
    /// Unique rectangle: three corners hold only the pair (uniqueness).
    UniqueRectangle1 = "unique_rectangle_1", 175, Hard, super::uniqueness::unique_rectangle_1;
    /// Bivalue universal grave plus one cell (uniqueness).
    BugPlusOne = "bug_plus_one", 175, Hard, super::uniqueness::bug_plus_one;
    /// Two equal bivalue cells joined by a strong link on one of their digits.
    WWing = "w_wing", 180, Hard, super::wings::w_wing;
    /// Unique rectangle: the two other corners share one extra digit (uniqueness).
    UniqueRectangle2 = "unique_rectangle_2", 185, Hard, super::uniqueness::unique_rectangle_2;
    /// Unique rectangle: one of two corners holds the pair's partner digit (uniqueness).
    UniqueRectangle4 = "unique_rectangle_4", 185, Hard, super::uniqueness::unique_rectangle_4;
    /// Unique rectangle: the extra digits make a naked subset (uniqueness).
    UniqueRectangle3 = "unique_rectangle_3", 190, Hard, super::uniqueness::unique_rectangle_3;
    /// Two-coloured clusters of conjugate pairs on one digit.
    SimpleColouring = "simple_colouring", 195, Hard, super::colouring::simple_colouring;
    /// A digit in four rows (columns) confined to four columns (rows).
    Jellyfish = "jellyfish", 200, Expert, super::fish::jellyfish;
    /// A swordfish with fins in one box.
    FinnedSwordfish = "finned_swordfish", 200, Expert, super::fish::finned_swordfish;
    /// A jellyfish with fins in one box.
    FinnedJellyfish = "finned_jellyfish", 250, Expert, super::fish::finned_jellyfish;
    /// An alternating chain of conjugate pairs on one digit.
    XChain = "x_chain", 260, Expert, super::chains::x_chain;
    /// A chain of bivalue cells.
    XyChain = "xy_chain", 270, Expert, super::chains::xy_chain;
    /// Two almost locked sets with a restricted common digit.
    AlsXz = "als_xz", 300, Expert, super::als::als_xz;
    /// An alternating inference chain of any strong and weak links.
    Aic = "aic", 320, Expert, super::chains::aic;
    /// Assumptions followed by singles: a contradiction, or agreement over a cell or a unit.
    ForcingChain = "forcing_chain", 500, Extreme, super::forcing::forcing_chain;
    /// Forcing chains whose follow-up also uses contradictions found by singles.
    NestedForcingChain = "nested_forcing_chain", 800, Extreme, super::forcing::nested_forcing_chain;
}

impl Technique {
    /// The technique with this name.
    pub fn from_name(name: &str) -> Option<Technique> {
        Technique::ALL.iter().copied().find(|t| t.name() == name)
    }

    /// Its place in [`Technique::ALL`], for sets of techniques.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether it runs only on puzzles known to have one solution: the unique rectangles and
    /// BUG+1 rest on it, and nested forcing chains are there only to finish such puzzles.
    pub fn needs_unique(self) -> bool {
        matches!(
            self,
            Technique::UniqueRectangle1
                | Technique::UniqueRectangle2
                | Technique::UniqueRectangle3
                | Technique::UniqueRectangle4
                | Technique::BugPlusOne
                | Technique::NestedForcingChain
        )
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of techniques (which ones `hint` may use).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Techniques(u128);

impl Techniques {
    pub fn all() -> Techniques {
        Techniques(u128::MAX >> (128 - Technique::ALL.len()))
    }

    pub fn none() -> Techniques {
        Techniques(0)
    }

    #[must_use]
    pub fn with(self, t: Technique) -> Techniques {
        Techniques(self.0 | 1 << t.index())
    }

    pub fn contains(self, t: Technique) -> bool {
        self.0 >> t.index() & 1 != 0
    }

    /// The techniques with these names; an unknown name is `Err` with the name.
    pub fn from_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<Techniques, String> {
        names.into_iter().try_fold(Techniques::none(), |set, name| {
            Technique::from_name(name)
                .map(|t| set.with(t))
                .ok_or_else(|| name.to_string())
        })
    }
}

impl Default for Techniques {
    fn default() -> Self {
        Techniques::all()
    }
}

/// A cell, 0-based, and a digit, 1-based: one placement or elimination.
pub type CellDigit = (usize, usize, u8);

/// One logical step. Rows and columns count from 0, digits from 1; `text` uses the usual
/// 1-based `r4c6` notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub technique: Technique,
    /// Digits put into cells.
    pub placements: Vec<CellDigit>,
    /// Candidates removed (sorted by row, column, digit).
    pub eliminations: Vec<CellDigit>,
    /// The cells whose candidates make the deduction (not the ones it changes).
    pub cells: Vec<(usize, usize)>,
    /// The units the deduction is about.
    pub units: Vec<(Unit, usize)>,
    /// The digits the pattern is made of (bit `d-1` for digit `d`).
    pub digits: u64,
    /// One plain English sentence; empty when the engine was asked for no text (grading).
    pub text: String,
}

impl Step {
    pub fn new(technique: Technique) -> Step {
        Step {
            technique,
            placements: Vec::new(),
            eliminations: Vec::new(),
            cells: Vec::new(),
            units: Vec::new(),
            digits: 0,
            text: String::new(),
        }
    }

    /// The technique's weight: what this step adds to a grade's score.
    pub fn weight(&self) -> u32 {
        self.technique.weight()
    }
}

/// `r4c6`.
#[derive(Debug)]
pub struct CellRef(pub usize, pub usize);

impl fmt::Display for CellRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.0 + 1, self.1 + 1)
    }
}

/// `box 5`, `row 4`, `column 6` (1-based).
#[derive(Debug)]
pub struct UnitRef(pub Unit, pub usize);

impl fmt::Display for UnitRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.0, self.1 + 1)
    }
}

/// A list in English: `a`, `a and b`, `a, b and c`.
pub fn and_list<T: fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = items.into_iter().map(|i| i.to_string()).collect();
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The digits of a mask in English: `3`, `3 and 8`, `1, 4 and 7`.
pub fn digit_list(mask: u64) -> String {
    and_list(bits(mask).map(|d| d + 1))
}

/// The set bits of a mask, low to high.
pub fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let b = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(b)
        }
    })
}

/// `r4c1, r4c2` for the cells of eliminations (each cell once).
pub fn elimination_cells(elims: &[CellDigit]) -> String {
    let mut out = String::new();
    let mut last = None;
    for &(r, c, _) in elims {
        if last == Some((r, c)) {
            continue;
        }
        if last.is_some() {
            out.push_str(", ");
        }
        let _ = write!(out, "{}", CellRef(r, c));
        last = Some((r, c));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_by_weight_and_names_are_unique() {
        for pair in Technique::ALL.windows(2) {
            assert!(pair[0].weight() <= pair[1].weight(), "{pair:?}");
        }
        for (i, t) in Technique::ALL.iter().enumerate() {
            assert_eq!(t.index(), i);
            assert_eq!(Technique::from_name(t.name()), Some(*t));
            assert!(t
                .name()
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'));
        }
        assert!(Technique::ALL.len() <= 128);
    }

    #[test]
    fn technique_sets() {
        let set = Techniques::from_names(["x_wing", "naked_single"]).unwrap();
        assert!(set.contains(Technique::XWing) && !set.contains(Technique::HiddenSingle));
        assert_eq!(Techniques::from_names(["nope"]), Err("nope".to_string()));
        assert!(Technique::ALL
            .iter()
            .all(|&t| Techniques::all().contains(t)));
    }

    #[test]
    fn english_lists() {
        assert_eq!(digit_list(0b1), "1");
        assert_eq!(digit_list(0b101), "1 and 3");
        assert_eq!(digit_list(0b1011), "1, 2 and 4");
        assert_eq!(
            elimination_cells(&[(0, 0, 1), (0, 0, 2), (3, 4, 1)]),
            "r1c1, r4c5"
        );
    }
}
