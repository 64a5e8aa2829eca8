//! Single-digit patterns of two strong links: skyscraper, two-string kite, turbot fish.
//!
//! Two conjugate pairs on one digit, `x = p` and `q = y`, where `p` and `q` see each other:
//! if `x` is not the digit then `p` is, so `q` is not, so `y` is. Either way `x` or `y` holds
//! the digit, and it leaves every cell that sees both. The names say where the links lie:
//! a skyscraper's are two parallel lines whose near ends share a line, a two-string kite's a
//! row and a column whose near ends share a box, and a turbot fish is any such pair (a box
//! link included). Nothing here depends on the box shape.

use super::engine::Context;
use super::links::{add_unit, cell_name, eliminate_seeing, finish, strong_links, Link};
use super::step::{elimination_cells, Step, Technique, UnitRef};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Skyscraper,
    Kite,
    Turbot,
}

/// What kind of pattern links `i` and `j` make, with `p` and `q` the ends that see each other.
fn kind(ctx: &Context<'_>, i: &Link, j: &Link, [x, p, q, y]: [usize; 4]) -> Kind {
    let n = ctx.n();
    let (ki, kj) = (i.unit / n, j.unit / n);
    let layout = ctx.cands.layout();
    let [pr, pc, pb] = layout.units_of(p);
    let [qr, qc, qb] = layout.units_of(q);
    if ki == kj && ki < 2 {
        // Both rows (or both columns): the near ends must share the crossing line, and the far
        // ends must not (that would be an X-wing).
        let [xr, xc, _] = layout.units_of(x);
        let [yr, yc, _] = layout.units_of(y);
        let (near, far) = if ki == 0 {
            (pc == qc, xc == yc)
        } else {
            (pr == qr, xr == yr)
        };
        if near && !far {
            return Kind::Skyscraper;
        }
    }
    if ki < 2 && kj < 2 && ki != kj && pb == qb {
        return Kind::Kite;
    }
    Kind::Turbot
}

fn find(ctx: &Context<'_>, want: Kind) -> Option<Step> {
    let n = ctx.n();
    let layout = ctx.cands.layout();
    for digit in 1..=n as u8 {
        let links = strong_links(ctx, digit);
        for (a, i) in links.iter().enumerate() {
            for j in &links[a + 1..] {
                for (x, p) in [(i.a, i.b), (i.b, i.a)] {
                    for (q, y) in [(j.a, j.b), (j.b, j.a)] {
                        if p == q || x == y || x == q || y == p || !layout.sees(p, q) {
                            continue;
                        }
                        let k = kind(ctx, i, j, [x, p, q, y]);
                        if want != Kind::Turbot && k != want {
                            continue;
                        }
                        let mut step = Step::new(match want {
                            Kind::Skyscraper => Technique::Skyscraper,
                            Kind::Kite => Technique::TwoStringKite,
                            Kind::Turbot => Technique::TurbotFish,
                        });
                        if eliminate_seeing(ctx, &mut step, digit, &[x, y]) == 0 {
                            continue;
                        }
                        finish(ctx, &mut step, &[x, p, q, y], 1 << (digit - 1));
                        add_unit(ctx, &mut step, i.unit);
                        add_unit(ctx, &mut step, j.unit);
                        let title = match want {
                            Kind::Skyscraper => "Skyscraper",
                            Kind::Kite => "Two-string kite",
                            Kind::Turbot => "Turbot fish",
                        };
                        let (ui, uj) = (ctx.unit_ref(i.unit), ctx.unit_ref(j.unit));
                        step.text = ctx.say(format_args!(
                            "{title}: {digit} in {} is in {} or {}, and in {} in {} or {}; {} \
                             and {} see each other, so {} or {} is {digit}, and {digit} is \
                             removed from {}",
                            UnitRef(ui.0, ui.1),
                            cell_name(ctx, x),
                            cell_name(ctx, p),
                            UnitRef(uj.0, uj.1),
                            cell_name(ctx, q),
                            cell_name(ctx, y),
                            cell_name(ctx, p),
                            cell_name(ctx, q),
                            cell_name(ctx, x),
                            cell_name(ctx, y),
                            elimination_cells(&step.eliminations)
                        ));
                        return Some(step);
                    }
                }
            }
        }
    }
    None
}

pub fn skyscraper(ctx: &Context<'_>) -> Option<Step> {
    find(ctx, Kind::Skyscraper)
}

pub fn two_string_kite(ctx: &Context<'_>) -> Option<Step> {
    find(ctx, Kind::Kite)
}

/// Any two strong links joined by a weak one (skyscrapers and kites included).
pub fn turbot_fish(ctx: &Context<'_>) -> Option<Step> {
    find(ctx, Kind::Turbot)
}
