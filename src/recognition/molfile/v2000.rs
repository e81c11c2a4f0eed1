//! The V2000 connection table: counts line, fixed-column atom and bond
//! blocks (whitespace-separated fields accepted too), `M  CHG` / `M  ISO`.

use super::{Atom, Bond, BondOrder, BondStereo, Molecule, column};

/// Parses `lines` (the whole record) whose line 4 is a V2000 counts line.
pub(super) fn parse(lines: &[&str]) -> Result<Molecule, String> {
    let counts = lines.get(3).copied().unwrap_or("");
    let (atom_count, bond_count) = match (
        column(counts, 0, 3).parse::<usize>(),
        column(counts, 3, 6).parse::<usize>(),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        _ => {
            return Err(format!(
                "line 4: the counts line {:?} does not start with atom and bond counts",
                counts.trim_end()
            ));
        }
    };
    let block = |first: usize, count: usize, what: &str| -> Result<&[&str], String> {
        let rest = lines.get(first..).unwrap_or(&[]);
        let available = rest.get(..count).unwrap_or(rest);
        if let Some(i) = available.iter().position(|l| l.starts_with("M  END")) {
            return Err(format!(
                "line {}: M  END inside the {what} block (the counts line promises \
                 {atom_count} atoms and {bond_count} bonds)",
                first + i + 1
            ));
        }
        if available.len() < count {
            return Err(format!(
                "line 4: the counts line promises {atom_count} atoms and {bond_count} bonds \
                 but the file ends at line {} inside the {what} block",
                lines.len()
            ));
        }
        Ok(available)
    };
    let atom_lines = block(4, atom_count, "atom")?;
    let bond_lines = block(4 + atom_count, bond_count, "bond")?;
    let mut atoms = atom_lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            atom(line).ok_or_else(|| format!("line {}: cannot read atom {}", i + 5, i + 1))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let first_bond_line = 5 + atom_count;
    let bonds = bond_lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            bond(line, atom_count).map_err(|e| format!("line {}: {e}", first_bond_line + i))
        })
        .collect::<Result<Vec<_>, _>>()?;
    properties(
        lines.get(4 + atom_count + bond_count..).unwrap_or(&[]),
        &mut atoms,
    );
    Ok(Molecule { atoms, bonds })
}

fn atom(line: &str) -> Option<Atom> {
    let fixed = (
        column(line, 0, 10).parse::<f64>(),
        column(line, 10, 20).parse::<f64>(),
        column(line, 31, 34),
    );
    let (x, y, symbol, charge_code) = match fixed {
        (Ok(x), Ok(y), symbol) if !symbol.is_empty() => (x, y, symbol, column(line, 36, 39)),
        _ => {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let x = fields.first()?.parse::<f64>().ok()?;
            let y = fields.get(1)?.parse::<f64>().ok()?;
            let symbol = fields.get(3)?;
            (x, y, *symbol, fields.get(5).copied().unwrap_or("0"))
        }
    };
    if !(x.is_finite() && y.is_finite()) {
        return None;
    }
    let charge = match charge_code {
        "1" => 3,
        "2" => 2,
        "3" => 1,
        "5" => -1,
        "6" => -2,
        "7" => -3,
        _ => 0,
    };
    Some(Atom {
        symbol: symbol.to_owned(),
        x,
        y,
        charge,
        isotope: None,
        alias: None,
    })
}

fn bond(line: &str, atom_count: usize) -> Result<Bond, String> {
    let fixed: Vec<&str> = [(0, 3), (3, 6), (6, 9), (9, 12)]
        .iter()
        .map(|&(a, b)| column(line, a, b))
        .collect();
    let fields: Vec<&str> = if fixed.iter().take(3).all(|f| f.parse::<usize>().is_ok()) {
        fixed
    } else {
        line.split_whitespace().collect()
    };
    let number = |i: usize| fields.get(i).and_then(|f| f.parse::<usize>().ok());
    let (Some(a), Some(b), Some(kind)) = (number(0), number(1), number(2)) else {
        return Err(format!("cannot read the bond line {:?}", line.trim_end()));
    };
    for end in [a, b] {
        if end == 0 || end > atom_count {
            return Err(format!(
                "a bond names atom {end} but there are {atom_count} atoms"
            ));
        }
    }
    let order = match kind {
        1 => BondOrder::Single,
        2 => BondOrder::Double,
        3 => BondOrder::Triple,
        4 => BondOrder::Aromatic,
        _ => BondOrder::Other,
    };
    let stereo = match number(3).unwrap_or(0) {
        1 => BondStereo::Wedge,
        6 => BondStereo::Hash,
        3 | 4 => BondStereo::Either,
        _ => BondStereo::None,
    };
    Ok(Bond {
        from: a - 1,
        to: b - 1,
        order,
        stereo,
    })
}

/// Applies `M  CHG` and `M  ISO` lines and atom aliases (`A  nnn` and the
/// text on the next line) up to `M  END`. As the CTfile format says, any
/// `M  CHG` line voids the charges of the atom block. Entries naming atoms
/// that do not exist are left to the InChI library.
fn properties(lines: &[&str], atoms: &mut [Atom]) {
    let mut charges_reset = false;
    let mut lines = lines.iter();
    while let Some(line) = lines.next() {
        if line.starts_with("M  END") {
            break;
        }
        // Alias and group lines carry free text on the following line.
        if line.starts_with("A  ") || line.starts_with("G  ") {
            let text = lines.next().map(|t| t.trim());
            let atom = column(line, 3, 6)
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| atoms.get_mut(i));
            if let (true, Some(atom), Some(text)) = (line.starts_with("A  "), atom, text) {
                atom.alias = (!text.is_empty()).then(|| text.to_owned());
            }
            continue;
        }
        let is_charge = line.starts_with("M  CHG");
        if !(is_charge || line.starts_with("M  ISO")) {
            continue;
        }
        if is_charge && !charges_reset {
            charges_reset = true;
            atoms.iter_mut().for_each(|a| a.charge = 0);
        }
        let values: Vec<i64> = line
            .get(6..)
            .unwrap_or("")
            .split_whitespace()
            .map_while(|f| f.parse().ok())
            .collect();
        for pair in values.get(1..).unwrap_or(&[]).chunks_exact(2) {
            let &[number, value] = pair else {
                continue;
            };
            let Some(atom) = usize::try_from(number)
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| atoms.get_mut(i))
            else {
                continue;
            };
            if is_charge {
                atom.charge = i32::try_from(value).unwrap_or(0);
            } else {
                atom.isotope = u32::try_from(value).ok();
            }
        }
    }
}
