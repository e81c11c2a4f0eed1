//! A molecule drawn as inline SVG from its MOL coordinates: single, double,
//! triple, aromatic (solid + dashed), wedge, hash and wavy bonds; atom labels
//! with isotope and charge; carbons unlabelled unless charged, labelled with
//! an isotope or alone.

use super::escape;
use crate::recognition::molfile::{Atom, BondOrder, BondStereo, Molecule};
use std::fmt::Write;

/// Drawn length of a typical bond, in pixels.
const BOND: f64 = 30.0;
/// Blank border around the drawing.
const MARGIN: f64 = 16.0;
/// Largest width or height of a drawing on the page.
const MAX_SIZE: f64 = 320.0;

/// The SVG element of `molecule` (a small placeholder when it has no atoms).
pub fn svg(molecule: &Molecule) -> String {
    if molecule.atoms.is_empty() {
        return "<svg class=\"mol\" width=\"60\" height=\"30\"></svg>".into();
    }
    let scale = BOND / typical_bond_length(molecule);
    let (min_x, max_x) = bounds(molecule.atoms.iter().map(|a| a.x));
    let (min_y, max_y) = bounds(molecule.atoms.iter().map(|a| a.y));
    let width = (max_x - min_x) * scale + 2.0 * MARGIN;
    let height = (max_y - min_y) * scale + 2.0 * MARGIN;
    let shrink = (MAX_SIZE / width.max(height)).min(1.0);
    // MOL y points up, SVG y points down.
    let points: Vec<(f64, f64)> = molecule
        .atoms
        .iter()
        .map(|a| {
            (
                (a.x - min_x) * scale + MARGIN,
                (max_y - a.y) * scale + MARGIN,
            )
        })
        .collect();
    let mut degree = vec![0usize; molecule.atoms.len()];
    for b in &molecule.bonds {
        for end in [b.from, b.to] {
            if let Some(d) = degree.get_mut(end) {
                *d += 1;
            }
        }
    }
    let labels: Vec<Option<String>> = molecule
        .atoms
        .iter()
        .zip(&degree)
        .map(|(atom, &d)| label(atom, d))
        .collect();
    let mut out = format!(
        "<svg class=\"mol\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{:.0}\" \
         viewBox=\"0 0 {width:.1} {height:.1}\">",
        width * shrink,
        height * shrink
    );
    for bond in &molecule.bonds {
        let (Some(&p), Some(&q)) = (points.get(bond.from), points.get(bond.to)) else {
            continue;
        };
        let labelled = |i: usize| labels.get(i).is_some_and(Option::is_some);
        let (p, q) = trim(p, q, labelled(bond.from), labelled(bond.to));
        draw_bond(&mut out, p, q, bond.order, bond.stereo);
    }
    for (&(x, y), text) in points.iter().zip(&labels) {
        if let Some(text) = text {
            let _ = write!(
                out,
                "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{text}</text>",
                y + 4.5
            );
        }
    }
    out.push_str("</svg>");
    out
}

/// The median bond length (1 when there are no bonds of positive length).
fn typical_bond_length(molecule: &Molecule) -> f64 {
    let mut lengths: Vec<f64> = molecule
        .bonds
        .iter()
        .filter_map(|b| {
            let (p, q) = (molecule.atoms.get(b.from)?, molecule.atoms.get(b.to)?);
            let d = (p.x - q.x).hypot(p.y - q.y);
            (d > 1e-6).then_some(d)
        })
        .collect();
    lengths.sort_by(f64::total_cmp);
    lengths.get(lengths.len() / 2).copied().unwrap_or(1.0)
}

fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    })
}

/// The label of an atom as SVG text content, `None` for a plain carbon.
fn label(atom: &Atom, degree: usize) -> Option<String> {
    let plain_carbon = atom.symbol == "C" && atom.charge == 0 && atom.isotope.is_none();
    if plain_carbon && degree > 0 {
        return None;
    }
    let mut text = String::new();
    if let Some(mass) = atom.isotope {
        let _ = write!(
            text,
            "<tspan class=\"sup\" dy=\"-5\">{mass}</tspan><tspan dy=\"5\">"
        );
    } else {
        text.push_str("<tspan>");
    }
    text.push_str(&escape(&atom.symbol));
    text.push_str("</tspan>");
    if atom.charge != 0 {
        let sign = if atom.charge > 0 { "+" } else { "\u{2212}" };
        let amount = atom.charge.unsigned_abs();
        let amount = if amount == 1 {
            String::new()
        } else {
            amount.to_string()
        };
        let _ = write!(
            text,
            "<tspan class=\"sup\" dy=\"-5\">{amount}{sign}</tspan>"
        );
    }
    Some(text)
}

/// Shortens a bond at the labelled ends so that lines stop short of text.
fn trim(p: (f64, f64), q: (f64, f64), at_p: bool, at_q: bool) -> ((f64, f64), (f64, f64)) {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let length = dx.hypot(dy);
    if length < 1e-6 {
        return (p, q);
    }
    let cut = 8.0_f64.min(length / 3.0);
    let (ux, uy) = (dx / length * cut, dy / length * cut);
    let p = if at_p { (p.0 + ux, p.1 + uy) } else { p };
    let q = if at_q { (q.0 - ux, q.1 - uy) } else { q };
    (p, q)
}

fn line(out: &mut String, p: (f64, f64), q: (f64, f64), class: &str) {
    let _ = write!(
        out,
        "<line class=\"{class}\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
        p.0, p.1, q.0, q.1
    );
}

fn draw_bond(out: &mut String, p: (f64, f64), q: (f64, f64), order: BondOrder, stereo: BondStereo) {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let length = dx.hypot(dy).max(1e-6);
    // Unit normal to the bond.
    let (nx, ny) = (-dy / length, dx / length);
    let shift = |pt: (f64, f64), d: f64| (pt.0 + nx * d, pt.1 + ny * d);
    match (order, stereo) {
        (BondOrder::Single, BondStereo::Wedge) => {
            let (a, b) = (shift(q, 3.5), shift(q, -3.5));
            let _ = write!(
                out,
                "<polygon points=\"{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\"/>",
                p.0, p.1, a.0, a.1, b.0, b.1
            );
        }
        (BondOrder::Single, BondStereo::Hash) => {
            for i in 1..=7 {
                let t = f64::from(i) / 7.0;
                let c = (p.0 + dx * t, p.1 + dy * t);
                line(out, shift(c, 3.5 * t), shift(c, -3.5 * t), "b");
            }
        }
        (BondOrder::Single, BondStereo::Either) => {
            let mut path = format!("<polyline class=\"b\" points=\"{:.1},{:.1}", p.0, p.1);
            for i in 1..=8 {
                let t = f64::from(i) / 8.0;
                let side = if i == 8 {
                    0.0
                } else if i % 2 == 1 {
                    3.0
                } else {
                    -3.0
                };
                let c = shift((p.0 + dx * t, p.1 + dy * t), side);
                let _ = write!(path, " {:.1},{:.1}", c.0, c.1);
            }
            path.push_str("\"/>");
            out.push_str(&path);
        }
        (BondOrder::Double, BondStereo::Either) => {
            line(out, shift(p, 2.5), shift(q, -2.5), "b");
            line(out, shift(p, -2.5), shift(q, 2.5), "b");
        }
        (BondOrder::Double, _) => {
            line(out, shift(p, 2.5), shift(q, 2.5), "b");
            line(out, shift(p, -2.5), shift(q, -2.5), "b");
        }
        (BondOrder::Triple, _) => {
            line(out, p, q, "b");
            line(out, shift(p, 4.0), shift(q, 4.0), "b");
            line(out, shift(p, -4.0), shift(q, -4.0), "b");
        }
        (BondOrder::Aromatic, _) => {
            line(out, shift(p, 2.5), shift(q, 2.5), "b");
            line(out, shift(p, -2.5), shift(q, -2.5), "b dash");
        }
        (BondOrder::Other, _) => line(out, p, q, "b dot"),
        (BondOrder::Single, BondStereo::None) => line(out, p, q, "b"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recognition::molfile::Bond;

    fn atom(symbol: &str, x: f64, y: f64) -> Atom {
        Atom {
            symbol: symbol.into(),
            x,
            y,
            charge: 0,
            isotope: None,
        }
    }

    #[test]
    fn draws_bonds_and_labels() {
        let mut o = atom("O", 2.0, 0.0);
        o.charge = -1;
        let mut c13 = atom("C", 0.0, 0.0);
        c13.isotope = Some(13);
        let molecule = Molecule {
            atoms: vec![c13, atom("C", 1.0, 0.0), o, atom("C", 1.0, 1.0)],
            bonds: vec![
                Bond {
                    from: 0,
                    to: 1,
                    order: BondOrder::Single,
                    stereo: BondStereo::Wedge,
                },
                Bond {
                    from: 1,
                    to: 2,
                    order: BondOrder::Double,
                    stereo: BondStereo::None,
                },
                Bond {
                    from: 1,
                    to: 3,
                    order: BondOrder::Single,
                    stereo: BondStereo::Hash,
                },
            ],
        };
        let svg = svg(&molecule);
        // Bond length 1 -> 30 px; 2 x 1 units plus margins.
        assert!(svg.contains("viewBox=\"0 0 92.0 62.0\""), "{svg}");
        assert_eq!(svg.matches("<polygon").count(), 1);
        assert_eq!(svg.matches("<line").count(), 2 + 7);
        // Labels: 13C and O with a minus; the two plain carbons have none.
        assert_eq!(svg.matches("<text").count(), 2);
        assert!(svg.contains(">13</tspan><tspan dy=\"5\">C</tspan>"));
        assert!(svg.contains("<tspan>O</tspan><tspan class=\"sup\" dy=\"-5\">\u{2212}</tspan>"));
        // MOL y up -> SVG y down: the atom at y=1 is drawn at the top margin.
        assert!(svg.contains("y2=\"16.0\""), "{svg}");
    }

    #[test]
    fn lone_carbon_is_labelled_and_empty_molecule_is_a_placeholder() {
        let svg = svg(&Molecule {
            atoms: vec![atom("C", 0.0, 0.0)],
            bonds: vec![],
        });
        assert!(svg.contains("<tspan>C</tspan>"));
        assert!(super::svg(&Molecule::default()).starts_with("<svg class=\"mol\" width=\"60\""));
    }
}
