//! A molecule drawn as inline SVG from its MOL coordinates: single, double,
//! triple, aromatic (solid + dashed), wedge, hash and wavy bonds; atom labels
//! with isotope and charge; carbons unlabelled unless charged, labelled with
//! an isotope or alone.

use super::escape;
use crate::recognition::molfile::{Atom, BondOrder, BondStereo, Molecule};
use std::fmt::Write;

/// Drawn length of a typical bond, in pixels.
const BOND: f64 = 30.0;
/// Blank border around the drawing: wider left and right, where labels
/// such as `NH2` or `SO3H` extend past their atom.
const MARGIN_X: f64 = 26.0;
const MARGIN_Y: f64 = 16.0;
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
    let width = (max_x - min_x) * scale + 2.0 * MARGIN_X;
    let height = (max_y - min_y) * scale + 2.0 * MARGIN_Y;
    let shrink = (MAX_SIZE / width.max(height)).min(1.0);
    // MOL y points up, SVG y points down.
    let points: Vec<(f64, f64)> = molecule
        .atoms
        .iter()
        .map(|a| {
            (
                (a.x - min_x) * scale + MARGIN_X,
                (max_y - a.y) * scale + MARGIN_Y,
            )
        })
        .collect();
    let mut bonding = vec![Bonding::default(); molecule.atoms.len()];
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); molecule.atoms.len()];
    for b in &molecule.bonds {
        for (end, other) in [(b.from, b.to), (b.to, b.from)] {
            if let Some(list) = neighbours.get_mut(end) {
                list.push(other);
            }
        }
        for end in [b.from, b.to] {
            if let Some(x) = bonding.get_mut(end) {
                x.degree += 1;
                match b.order {
                    BondOrder::Single => x.valence += 1,
                    BondOrder::Double => x.valence += 2,
                    BondOrder::Triple => x.valence += 3,
                    BondOrder::Aromatic | BondOrder::Other => x.ambiguous = true,
                }
            }
        }
    }
    let labels: Vec<Option<String>> = molecule
        .atoms
        .iter()
        .zip(&bonding)
        .map(|(atom, b)| label(atom, b))
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
        let side = match bond.order {
            BondOrder::Double | BondOrder::Aromatic => {
                ring_side(&neighbours, &points, bond.from, bond.to)
            }
            _ => 0.0,
        };
        let labelled = |i: usize| labels.get(i).is_some_and(Option::is_some);
        let (p, q) = trim(p, q, labelled(bond.from), labelled(bond.to));
        draw_bond(&mut out, p, q, bond.order, bond.stereo, side);
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

/// The bonds at one atom.
#[derive(Clone, Copy, Default)]
struct Bonding {
    degree: usize,
    /// Sum of single, double and triple bond orders.
    valence: u32,
    /// An aromatic or query bond makes the valence unknown.
    ambiguous: bool,
}

/// The label of an atom as SVG text content (isotope, symbol, implicit
/// hydrogens, charge), `None` for a plain carbon.
fn label(atom: &Atom, bonding: &Bonding) -> Option<String> {
    if let Some(alias) = &atom.alias {
        return Some(format!("<tspan>{}</tspan>", escape(alias)));
    }
    let plain_carbon = atom.symbol == "C" && atom.charge == 0 && atom.isotope.is_none();
    if plain_carbon && bonding.degree > 0 {
        return None;
    }
    // Baseline offsets: superscripts 5 px up, subscripts 3 px down.
    let mut text = String::new();
    let mut baseline = 0;
    let mut span = |text: &mut String, to: i32, class: &str, content: &str| {
        let _ = write!(text, "<tspan{class}");
        if to != baseline {
            let _ = write!(text, " dy=\"{}\"", to - baseline);
            baseline = to;
        }
        let _ = write!(text, ">{content}</tspan>");
    };
    if let Some(mass) = atom.isotope {
        span(&mut text, -5, " class=\"sup\"", &mass.to_string());
    }
    span(&mut text, 0, "", &escape(&atom.symbol));
    match hydrogens(atom, bonding) {
        0 => {}
        1 => span(&mut text, 0, "", "H"),
        n => {
            span(&mut text, 0, "", "H");
            span(&mut text, 3, " class=\"sub\"", &n.to_string());
        }
    }
    if atom.charge != 0 {
        let sign = if atom.charge > 0 { "+" } else { "\u{2212}" };
        let amount = atom.charge.unsigned_abs();
        let amount = if amount == 1 {
            String::new()
        } else {
            amount.to_string()
        };
        span(&mut text, -5, " class=\"sup\"", &format!("{amount}{sign}"));
    }
    Some(text)
}

/// Implicit hydrogens of an atom from the usual valences of the common
/// organic elements (a charge shifts them as for the isoelectronic
/// element: N+ like C, O- like F); 0 for other elements and for atoms with
/// aromatic or query bonds, whose valence the drawing cannot know.
fn hydrogens(atom: &Atom, bonding: &Bonding) -> u32 {
    if bonding.ambiguous {
        return 0;
    }
    let (valences, shift): (&[i32], i32) = match atom.symbol.as_str() {
        "C" | "Si" => (&[4], -atom.charge.abs()),
        "B" => (&[3], -atom.charge),
        "N" | "P" => (&[3, 5], atom.charge),
        "O" => (&[2], atom.charge),
        "S" | "Se" => (&[2, 4, 6], atom.charge),
        "F" => (&[1], atom.charge),
        "Cl" | "Br" | "I" => (&[1, 3, 5, 7], atom.charge),
        _ => return 0,
    };
    let used = i32::try_from(bonding.valence).unwrap_or(i32::MAX);
    valences
        .iter()
        .map(|v| v + shift)
        .find(|&v| v >= used)
        .map_or(0, |v| u32::try_from(v - used).unwrap_or(0))
}

/// The side of bond a-b (sign along its normal, see [`draw_bond`]) where
/// most of the other neighbours of a and b lie, e.g. the inside of a ring;
/// 0 when balanced. A second line of a double bond goes there.
fn ring_side(neighbours: &[Vec<usize>], points: &[(f64, f64)], a: usize, b: usize) -> f64 {
    let (Some(&p), Some(&q)) = (points.get(a), points.get(b)) else {
        return 0.0;
    };
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let ends = [a, b];
    let balance: f64 = ends
        .iter()
        .filter_map(|&end| neighbours.get(end))
        .flatten()
        .filter(|&&other| other != a && other != b)
        .filter_map(|&other| points.get(other))
        .map(|m| sign(dx * (m.1 - p.1) - dy * (m.0 - p.0)))
        .sum();
    sign(balance)
}

/// -1, 0 or 1 (`f64::signum` gives 1 for 0).
fn sign(x: f64) -> f64 {
    if x > 1e-9 {
        1.0
    } else if x < -1e-9 {
        -1.0
    } else {
        0.0
    }
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

/// Draws one bond from p to q; `side` (-1, 0 or 1 along the normal) is
/// where the inner line of a double or aromatic bond goes (0: centred pair).
fn draw_bond(
    out: &mut String,
    p: (f64, f64),
    q: (f64, f64),
    order: BondOrder,
    stereo: BondStereo,
    side: f64,
) {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let length = dx.hypot(dy).max(1e-6);
    // Unit normal to the bond.
    let (nx, ny) = (-dy / length, dx / length);
    let shift = |pt: (f64, f64), d: f64| (pt.0 + nx * d, pt.1 + ny * d);
    // The inner line: offset toward `side`, 15 % shorter at each end.
    let inner = |class: &str, out: &mut String| {
        let (ix, iy) = (dx * 0.15, dy * 0.15);
        line(
            out,
            shift((p.0 + ix, p.1 + iy), 5.0 * side),
            shift((q.0 - ix, q.1 - iy), 5.0 * side),
            class,
        );
    };
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
        (BondOrder::Double, _) if side != 0.0 => {
            line(out, p, q, "b");
            inner("b", out);
        }
        (BondOrder::Aromatic, _) if side != 0.0 => {
            line(out, p, q, "b");
            inner("b dash", out);
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
            alias: None,
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
        // Bond length 1 -> 30 px; 2 x 1 units plus margins (26, 16).
        assert!(svg.contains("viewBox=\"0 0 112.0 62.0\""), "{svg}");
        assert_eq!(svg.matches("<polygon").count(), 1);
        assert_eq!(svg.matches("<line").count(), 2 + 7);
        // Labels: 13C and O with a minus; the two plain carbons have none.
        assert_eq!(svg.matches("<text").count(), 2);
        assert!(svg.contains(">13</tspan><tspan dy=\"5\">C</tspan>"));
        assert!(svg.contains("<tspan>O</tspan><tspan class=\"sup\" dy=\"-5\">\u{2212}</tspan>"));
        // MOL y up -> SVG y down: the atom at y=1 is drawn at the top margin.
        assert!(svg.contains("y2=\"16.0\""), "{svg}");
    }

    /// Coordinates of every `<line>` of an SVG: (x1, y1, x2, y2).
    fn lines(svg: &str) -> Vec<[f64; 4]> {
        svg.split("<line ")
            .skip(1)
            .map(|l| {
                let value = |key: &str| -> f64 {
                    let start = l.find(&format!("{key}=\"")).unwrap() + key.len() + 2;
                    let end = start + l[start..].find('"').unwrap();
                    l[start..end].parse().unwrap()
                };
                [value("x1"), value("y1"), value("x2"), value("y2")]
            })
            .collect()
    }

    #[test]
    fn ring_double_bonds_have_their_second_line_inside() {
        let atoms: Vec<Atom> = (0..6)
            .map(|k| {
                let a = std::f64::consts::PI / 3.0 * f64::from(k);
                atom("C", a.cos(), a.sin())
            })
            .collect();
        let bonds = (0..6)
            .map(|k| Bond {
                from: k,
                to: (k + 1) % 6,
                order: if k % 2 == 0 {
                    BondOrder::Double
                } else {
                    BondOrder::Single
                },
                stereo: BondStereo::None,
            })
            .collect();
        let svg = svg(&Molecule { atoms, bonds });
        let lines = lines(&svg);
        assert_eq!(lines.len(), 9);
        // Ring centre in SVG coordinates: 1 unit = 30 px, margins 26, 16.
        let centre = (26.0 + 30.0, 16.0 + 30.0 * 3f64.sqrt() / 2.0);
        let distance =
            |l: &[f64; 4]| ((l[0] + l[2]) / 2.0 - centre.0).hypot((l[1] + l[3]) / 2.0 - centre.1);
        let mut d: Vec<f64> = lines.iter().map(distance).collect();
        d.sort_by(f64::total_cmp);
        // Six bond lines at the apothem (26 px), three inner lines 5 px in.
        let apothem = 30.0 * 3f64.sqrt() / 2.0;
        for x in &d[..3] {
            assert!((x - (apothem - 5.0)).abs() < 0.2, "{d:?}");
        }
        for x in &d[3..] {
            assert!((x - apothem).abs() < 0.2, "{d:?}");
        }
    }

    #[test]
    fn implicit_hydrogens_from_usual_valences() {
        let with = |symbol: &str, charge: i32, valence: u32, ambiguous: bool| {
            let mut a = atom(symbol, 0.0, 0.0);
            a.charge = charge;
            let bonding = Bonding {
                degree: 1,
                valence,
                ambiguous,
            };
            hydrogens(&a, &bonding)
        };
        assert_eq!(with("O", 0, 1, false), 1); // OH
        assert_eq!(with("O", -1, 1, false), 0); // O-
        assert_eq!(with("N", 0, 1, false), 2); // NH2
        assert_eq!(with("N", 1, 0, false), 4); // NH4+
        assert_eq!(with("N", 1, 4, false), 0); // quaternary N+
        assert_eq!(with("N", 0, 5, false), 0); // pentavalent nitro N
        assert_eq!(with("S", 0, 6, false), 0); // sulfonyl S
        assert_eq!(with("S", 0, 1, false), 1); // SH
        assert_eq!(with("C", 0, 0, false), 4); // lone C: CH4
        assert_eq!(with("C", 1, 2, false), 1); // carbocation
        assert_eq!(with("Cl", 0, 1, false), 0);
        assert_eq!(with("N", 0, 1, true), 0); // aromatic: unknown
        assert_eq!(with("Na", 1, 0, false), 0);
        let svg = svg(&Molecule {
            atoms: vec![atom("C", 0.0, 0.0), atom("N", 1.0, 0.0)],
            bonds: vec![Bond {
                from: 0,
                to: 1,
                order: BondOrder::Single,
                stereo: BondStereo::None,
            }],
        });
        assert!(
            svg.contains("<tspan>N</tspan><tspan>H</tspan><tspan class=\"sub\" dy=\"3\">2</tspan>"),
            "{svg}"
        );
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
