//! The V3000 connection table: `M  V30` lines (with `-` continuations),
//! the COUNTS line and the ATOM and BOND blocks.

use super::{Atom, Bond, BondOrder, BondStereo, Molecule};
use std::collections::HashMap;

/// Parses `lines` (the whole record) whose line 4 announces V3000.
pub(super) fn parse(lines: &[&str]) -> Result<Molecule, String> {
    let mut counts: Option<(usize, usize, usize)> = None;
    let mut block = Block::None;
    let mut atoms = Vec::new();
    let mut numbers: HashMap<String, usize> = HashMap::new();
    let mut bonds = Vec::new();
    for (line_no, content) in logical_lines(lines) {
        let tokens = tokenize(&content);
        match (block, tokens.as_slice()) {
            (_, ["BEGIN", "ATOM", ..]) => block = Block::Atom,
            (_, ["BEGIN", "BOND", ..]) => block = Block::Bond,
            (_, ["END", ..]) => block = Block::None,
            (_, ["COUNTS", na, nb, ..]) => match (na.parse(), nb.parse()) {
                (Ok(a), Ok(b)) => counts = Some((a, b, line_no)),
                _ => return Err(format!("line {line_no}: cannot read the COUNTS line")),
            },
            (Block::Atom, [number, symbol, x, y, _z, rest @ ..]) => {
                let (Ok(x), Ok(y)) = (x.parse::<f64>(), y.parse::<f64>()) else {
                    return Err(format!("line {line_no}: cannot read the atom coordinates"));
                };
                if !(x.is_finite() && y.is_finite()) {
                    return Err(format!("line {line_no}: atom coordinates are not finite"));
                }
                if numbers.insert((*number).to_owned(), atoms.len()).is_some() {
                    return Err(format!(
                        "line {line_no}: atom number {number} appears twice"
                    ));
                }
                atoms.push(Atom {
                    symbol: symbol.trim_matches('"').to_owned(),
                    x,
                    y,
                    charge: property(rest, "CHG").unwrap_or(0),
                    isotope: property(rest, "MASS"),
                    alias: None,
                });
            }
            (Block::Bond, [_, kind, a, b, rest @ ..]) => {
                let end = |n: &str| {
                    numbers.get(n).copied().ok_or_else(|| {
                        format!("line {line_no}: a bond names atom {n}, which is not defined")
                    })
                };
                let (from, to) = (end(a)?, end(b)?);
                let order = match *kind {
                    "1" => BondOrder::Single,
                    "2" => BondOrder::Double,
                    "3" => BondOrder::Triple,
                    "4" => BondOrder::Aromatic,
                    _ => BondOrder::Other,
                };
                let stereo = match property::<u32>(rest, "CFG") {
                    Some(1) => BondStereo::Wedge,
                    Some(2) => BondStereo::Either,
                    Some(3) => BondStereo::Hash,
                    _ => BondStereo::None,
                };
                bonds.push(Bond {
                    from,
                    to,
                    order,
                    stereo,
                });
            }
            (Block::Atom | Block::Bond, _) => {
                return Err(format!("line {line_no}: cannot read {content:?}"));
            }
            _ => {}
        }
    }
    let Some((atom_count, bond_count, counts_line)) = counts else {
        return Err("a V3000 record without an M  V30 COUNTS line".into());
    };
    if atoms.len() != atom_count || bonds.len() != bond_count {
        return Err(format!(
            "line {counts_line}: COUNTS promises {atom_count} atoms and {bond_count} bonds \
             but the record has {} atoms and {} bonds",
            atoms.len(),
            bonds.len()
        ));
    }
    Ok(Molecule { atoms, bonds })
}

#[derive(Clone, Copy)]
enum Block {
    None,
    Atom,
    Bond,
}

/// The `M  V30` lines after the counts line up to `M  END`, continuations
/// (a trailing `-`) joined, each with the number of its first line.
fn logical_lines(lines: &[&str]) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut continued = false;
    for (i, line) in lines.iter().enumerate().skip(4) {
        if line.starts_with("M  END") {
            break;
        }
        let Some(content) = line.strip_prefix("M  V30 ") else {
            continued = false;
            continue;
        };
        let (content, next_continues) = match content.trim_end().strip_suffix('-') {
            Some(head) => (head, true),
            None => (content.trim_end(), false),
        };
        match out.last_mut() {
            Some((_, text)) if continued => text.push_str(content),
            _ => out.push((i + 1, content.to_owned())),
        }
        continued = next_continues;
    }
    out
}

/// Splits a V3000 line on blanks, keeping `(...)` lists and `"..."` strings
/// whole.
fn tokenize(content: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut start = None;
    let mut depth = 0usize;
    let mut quoted = false;
    for (i, c) in content.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' if !quoted => depth += 1,
            ')' if !quoted => depth = depth.saturating_sub(1),
            c if c.is_whitespace() && !quoted && depth == 0 => {
                if let Some(s) = start.take() {
                    tokens.push(&content[s..i]);
                }
                continue;
            }
            _ => {}
        }
        start.get_or_insert(i);
    }
    if let Some(s) = start {
        tokens.push(&content[s..]);
    }
    tokens
}

/// The value of `KEY=value` among the optional fields of a line.
fn property<T: std::str::FromStr>(fields: &[&str], key: &str) -> Option<T> {
    fields.iter().find_map(|f| {
        f.strip_prefix(key)
            .and_then(|v| v.strip_prefix('='))
            .and_then(|v| v.parse().ok())
    })
}
