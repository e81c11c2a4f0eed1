//! The SMILES syntax (OpenSMILES, with RDKit's extensions `%(nnn)` ring
//! numbers and `$` quadruple bonds) read into atoms and bonds, each atom
//! with its neighbours in the order the string gives them (the order its
//! `@`/`@@` refers to). Every error names the character position (1-based).

use super::elements::ELEMENTS;

/// A SMILES that cannot be read: what is wrong, at which character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// 1-based character position in the SMILES.
    pub position: usize,
    pub message: String,
}

/// Tetrahedral configuration as written: `@` (anticlockwise seen from the
/// first neighbour) or `@@` (clockwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chirality {
    Anticlockwise,
    Clockwise,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    /// Atomic number; 0 for `*`.
    pub element: u8,
    pub aromatic: bool,
    /// Written in brackets: its hydrogens are the ones written, no others.
    pub bracket: bool,
    pub isotope: Option<u16>,
    pub charge: i32,
    /// Hydrogens written in the bracket (`[CH3]`: 3).
    pub hydrogens: u32,
    /// `@`, `@@`, `@TH1`, `@TH2`; other classes (`@SP`, `@TB`, `@OH`,
    /// `@AL`) are read and ignored.
    pub chirality: Option<Chirality>,
    /// 1-based character position of the atom.
    pub position: usize,
    /// Neighbours in the order written: bond indices, and where the
    /// bracket's hydrogens stand (`None`).
    pub order: Vec<Option<usize>>,
}

/// A bond as written: `-`, `=`, `#`, `$`, `:`, `/`, `\`, or nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    Unspecified,
    Single,
    Double,
    Triple,
    Quadruple,
    Aromatic,
    /// `/` or `\`: a single bond with a direction.
    Up,
    Down,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bond {
    /// The atom written before the bond symbol, and the one after (for a
    /// ring closure: the atom carrying the digit with the symbol, then its
    /// partner).
    pub from: usize,
    pub to: usize,
    pub written: Written,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    pub atoms: Vec<Atom>,
    pub bonds: Vec<Bond>,
}

/// The most atoms one SMILES may hold: far above any drawn structure, and
/// the InChI library takes at most 1024.
pub const MAX_ATOMS: usize = 1024;

struct OpenRing {
    atom: usize,
    /// The place reserved in the opening atom's neighbour order.
    slot: usize,
    written: Written,
    position: usize,
}

struct Reader {
    chars: Vec<char>,
    at: usize,
    parsed: Parsed,
    /// Open ring closures by number.
    rings: std::collections::BTreeMap<u32, OpenRing>,
}

/// Reads one SMILES (no name, no white space).
pub fn parse(text: &str) -> Result<Parsed, SyntaxError> {
    let mut reader = Reader {
        chars: text.chars().collect(),
        at: 0,
        parsed: Parsed::default(),
        rings: std::collections::BTreeMap::new(),
    };
    reader.read()?;
    Ok(reader.parsed)
}

fn error<T>(position: usize, message: impl Into<String>) -> Result<T, SyntaxError> {
    Err(SyntaxError {
        position,
        message: message.into(),
    })
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.at + k).copied()
    }

    /// 1-based position of the character at `self.at`.
    fn position(&self) -> usize {
        self.at + 1
    }

    fn read(&mut self) -> Result<(), SyntaxError> {
        if self.chars.is_empty() {
            return error(1, "empty SMILES");
        }
        // The atom bonds attach to, and the enclosing ones of open branches.
        let mut previous: Option<usize> = None;
        let mut branches: Vec<(usize, usize)> = Vec::new();
        let mut bond: Option<(Written, usize)> = None;
        // A `.` was read: the next atom starts a new component.
        let mut dot: Option<usize> = None;
        while let Some(c) = self.peek() {
            let position = self.position();
            match c {
                '-' | '=' | '#' | '$' | ':' | '/' | '\\' => {
                    if previous.is_none() || dot.is_some() {
                        return error(position, format!("`{c}` with no atom before it"));
                    }
                    if bond.is_some() {
                        return error(position, format!("`{c}` after another bond symbol"));
                    }
                    if c == '-' && self.peek_at(1) == Some('>') {
                        return error(position, "dative bonds (`->`) are not read");
                    }
                    self.at += 1;
                    bond = Some((written(c), position));
                }
                '<' => return error(position, "dative bonds (`<-`) are not read"),
                '(' => {
                    let Some(atom) = previous.filter(|_| dot.is_none()) else {
                        return error(position, "`(` with no atom before it");
                    };
                    if let Some((_, at)) = bond {
                        return error(at, "a bond symbol before `(`");
                    }
                    self.at += 1;
                    branches.push((atom, position));
                    if self.peek() == Some(')') {
                        return error(position, "empty branch `()`");
                    }
                }
                ')' => {
                    let Some((atom, _)) = branches.pop() else {
                        return error(position, "`)` with no `(` open");
                    };
                    if let Some((_, at)) = bond {
                        return error(at, "a bond symbol with no atom after it");
                    }
                    if let Some(at) = dot {
                        return error(at, "`.` with no atom after it");
                    }
                    self.at += 1;
                    previous = Some(atom);
                }
                '.' => {
                    if !branches.is_empty() {
                        return error(position, "`.` inside a branch");
                    }
                    if previous.is_none() || dot.is_some() {
                        return error(position, "`.` with no atom before it");
                    }
                    if let Some((_, at)) = bond {
                        return error(at, "a bond symbol before `.`");
                    }
                    self.at += 1;
                    dot = Some(position);
                }
                '0'..='9' | '%' => {
                    let Some(atom) = previous.filter(|_| dot.is_none()) else {
                        return error(position, "a ring-closure number with no atom before it");
                    };
                    let number = self.ring_number()?;
                    let written = bond.take().map_or(Written::Unspecified, |(w, _)| w);
                    self.ring(atom, number, written, position)?;
                }
                c if c.is_whitespace() => {
                    return error(position, "white space inside a SMILES");
                }
                _ => {
                    let atom = self.atom()?;
                    if let (Some(from), None) = (previous, dot) {
                        let written = bond.take().map_or(Written::Unspecified, |(w, _)| w);
                        self.bond(from, atom, written);
                    }
                    dot = None;
                    previous = Some(atom);
                    self.hydrogens_in_order(atom);
                }
            }
        }
        if let Some((_, at)) = bond {
            return error(at, "a bond symbol with no atom after it");
        }
        if let Some(at) = dot {
            return error(at, "`.` with no atom after it");
        }
        if let Some((_, at)) = branches.last() {
            return error(*at, "`(` never closed");
        }
        if let Some((number, ring)) = self.rings.iter().next() {
            return error(ring.position, format!("ring bond {number} never closed"));
        }
        Ok(())
    }

    /// Places a bracket atom's hydrogens in its neighbour order: right
    /// after the atom it is bonded from, or first when it starts a
    /// component.
    fn hydrogens_in_order(&mut self, atom: usize) {
        if let Some(a) = self.parsed.atoms.get_mut(atom)
            && a.bracket
            && a.hydrogens > 0
        {
            let slot = a.order.len().min(1);
            a.order.insert(slot, None);
        }
    }

    fn bond(&mut self, from: usize, to: usize, written: Written) {
        let index = self.parsed.bonds.len();
        self.parsed.bonds.push(Bond { from, to, written });
        if let Some(a) = self.parsed.atoms.get_mut(from) {
            a.order.push(Some(index));
        }
        if let Some(a) = self.parsed.atoms.get_mut(to) {
            a.order.push(Some(index));
        }
    }

    /// A ring-closure digit, `%nn` or `%(n…)`, the cursor on it.
    fn ring_number(&mut self) -> Result<u32, SyntaxError> {
        let position = self.position();
        match self.peek() {
            Some(d @ '0'..='9') => {
                self.at += 1;
                Ok(d.to_digit(10).unwrap_or(0))
            }
            Some('%') => {
                self.at += 1;
                if self.peek() == Some('(') {
                    self.at += 1;
                    let digits = self.digits(5);
                    if digits.is_empty() || self.peek() != Some(')') {
                        return error(position, "`%(` must hold a ring number and `)`");
                    }
                    self.at += 1;
                    return digits
                        .parse()
                        .or_else(|_| error(position, "ring number out of range"));
                }
                let (Some(a), Some(b)) = (
                    self.peek().and_then(|c| c.to_digit(10)),
                    self.peek_at(1).and_then(|c| c.to_digit(10)),
                ) else {
                    return error(position, "`%` must be followed by two digits");
                };
                self.at += 2;
                Ok(a * 10 + b)
            }
            _ => error(position, "expected a ring-closure number"),
        }
    }

    /// Opens or closes ring bond `number` at `atom`.
    fn ring(
        &mut self,
        atom: usize,
        number: u32,
        written: Written,
        position: usize,
    ) -> Result<(), SyntaxError> {
        let Some(open) = self.rings.remove(&number) else {
            let slot = self.parsed.atoms.get(atom).map_or(0, |a| a.order.len());
            if let Some(a) = self.parsed.atoms.get_mut(atom) {
                a.order.push(None);
            }
            self.rings.insert(
                number,
                OpenRing {
                    atom,
                    slot,
                    written,
                    position,
                },
            );
            return Ok(());
        };
        if open.atom == atom {
            return error(
                position,
                format!("ring bond {number} closes on its own atom"),
            );
        }
        let bonded = self.parsed.bonds.iter().any(|b| {
            (b.from == atom && b.to == open.atom) || (b.from == open.atom && b.to == atom)
        });
        if bonded {
            return error(position, format!("ring bond {number} doubles a bond"));
        }
        // The symbol may stand at either digit; where both give one, the
        // opening digit's wins unless it is `:` (RDKit's reading).
        let (written, from, to) = match (open.written, written) {
            (Written::Unspecified | Written::Aromatic, w) if w != Written::Unspecified => {
                (w, atom, open.atom)
            }
            (w, _) => (w, open.atom, atom),
        };
        let index = self.parsed.bonds.len();
        self.parsed.bonds.push(Bond { from, to, written });
        if let Some(slot) = self
            .parsed
            .atoms
            .get_mut(open.atom)
            .and_then(|a| a.order.get_mut(open.slot))
        {
            *slot = Some(index);
        }
        if let Some(a) = self.parsed.atoms.get_mut(atom) {
            a.order.push(Some(index));
        }
        Ok(())
    }

    fn digits(&mut self, most: usize) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek().filter(char::is_ascii_digit) {
            if s.len() == most {
                break;
            }
            s.push(c);
            self.at += 1;
        }
        s
    }

    /// An atom: organic subset, aromatic organic, `*` or a bracket atom.
    fn atom(&mut self) -> Result<usize, SyntaxError> {
        let position = self.position();
        if self.parsed.atoms.len() >= MAX_ATOMS {
            return error(position, format!("more than {MAX_ATOMS} atoms"));
        }
        let atom = match self.peek() {
            Some('[') => self.bracket()?,
            Some(c) => {
                let two: String = [c, self.peek_at(1).unwrap_or(' ')].iter().collect();
                let (element, aromatic, length) = match (c, two.as_str()) {
                    (_, "Cl") => (17, false, 2),
                    (_, "Br") => (35, false, 2),
                    ('B', _) => (5, false, 1),
                    ('C', _) => (6, false, 1),
                    ('N', _) => (7, false, 1),
                    ('O', _) => (8, false, 1),
                    ('P', _) => (15, false, 1),
                    ('S', _) => (16, false, 1),
                    ('F', _) => (9, false, 1),
                    ('I', _) => (53, false, 1),
                    ('b', _) => (5, true, 1),
                    ('c', _) => (6, true, 1),
                    ('n', _) => (7, true, 1),
                    ('o', _) => (8, true, 1),
                    ('p', _) => (15, true, 1),
                    ('s', _) => (16, true, 1),
                    ('*', _) => (0, false, 1),
                    _ => return error(position, format!("unexpected character `{c}`")),
                };
                self.at += length;
                Atom {
                    element,
                    aromatic,
                    bracket: false,
                    isotope: None,
                    charge: 0,
                    hydrogens: 0,
                    chirality: None,
                    position,
                    order: Vec::new(),
                }
            }
            None => return error(position, "expected an atom"),
        };
        self.parsed.atoms.push(atom);
        Ok(self.parsed.atoms.len() - 1)
    }

    /// `[` isotope? symbol chirality? hydrogens? charge? class? `]`.
    fn bracket(&mut self) -> Result<Atom, SyntaxError> {
        let position = self.position();
        self.at += 1;
        let isotope = match self.digits(4) {
            d if d.is_empty() => None,
            d => Some(d.parse::<u16>().unwrap_or(0)),
        };
        let (element, aromatic) = self.symbol(position)?;
        let chirality = self.chirality()?;
        let mut hydrogens = 0;
        if self.peek() == Some('H') {
            self.at += 1;
            hydrogens = self.digits(1).parse().unwrap_or(1);
        }
        let charge = self.charge()?;
        if self.peek() == Some(':') {
            self.at += 1;
            if self.digits(9).is_empty() {
                return error(
                    self.position(),
                    "`:` in a bracket must be followed by a number",
                );
            }
        }
        match self.peek() {
            Some(']') => self.at += 1,
            Some(c) => {
                return error(
                    self.position(),
                    format!("unexpected `{c}` in a bracket atom"),
                );
            }
            None => return error(position, "`[` never closed"),
        }
        Ok(Atom {
            element,
            aromatic,
            bracket: true,
            // Mass number 0 is no isotope, as RDKit reads it.
            isotope: isotope.filter(|&m| m > 0),
            charge,
            hydrogens,
            chirality,
            position,
            order: Vec::new(),
        })
    }

    /// An element symbol in a bracket: `C`, `Cl`, `*`, or an aromatic one
    /// (`c`, `n`, `se`, `as`, `te`, …).
    fn symbol(&mut self, bracket: usize) -> Result<(u8, bool), SyntaxError> {
        let position = self.position();
        let Some(first) = self.peek() else {
            return error(bracket, "`[` never closed");
        };
        if first == '*' {
            self.at += 1;
            return Ok((0, false));
        }
        let second = self.peek_at(1).filter(char::is_ascii_lowercase);
        if first.is_ascii_lowercase() {
            for (symbol, element) in [("se", 34), ("as", 33), ("te", 52)] {
                if second.is_some_and(|s| [first, s].iter().collect::<String>() == symbol) {
                    self.at += 2;
                    return Ok((element, true));
                }
            }
            let element = match first {
                'b' => 5,
                'c' => 6,
                'n' => 7,
                'o' => 8,
                'p' => 15,
                's' => 16,
                _ => return error(position, format!("`{first}` is no aromatic element")),
            };
            self.at += 1;
            return Ok((element, true));
        }
        if !first.is_ascii_uppercase() {
            return error(
                position,
                format!("expected an element symbol, found `{first}`"),
            );
        }
        // The former systematic names of elements 110-118 (`Uuo`), which
        // RDKit still reads.
        let three: String = self.chars.iter().skip(self.at).take(3).collect();
        if let Some(k) = [
            "Uun", "Uuu", "Uub", "Uut", "Uuq", "Uup", "Uuh", "Uus", "Uuo",
        ]
        .iter()
        .position(|&name| name == three)
        {
            self.at += 3;
            return Ok((110 + k as u8, false));
        }
        // The two-letter symbol when there is one, else the one-letter.
        if let Some(second) = second {
            let two: String = [first, second].iter().collect();
            if let Some(z) = find(&two) {
                self.at += 2;
                return Ok((z, false));
            }
        }
        let one = first.to_string();
        match find(&one) {
            Some(z) => {
                self.at += 1;
                Ok((z, false))
            }
            None => error(position, format!("`{one}` is no element")),
        }
    }

    fn chirality(&mut self) -> Result<Option<Chirality>, SyntaxError> {
        if self.peek() != Some('@') {
            return Ok(None);
        }
        let position = self.position();
        self.at += 1;
        if self.peek() == Some('@') {
            self.at += 1;
            if self.peek() == Some('@') {
                return error(position, "`@@@` is no chirality");
            }
            return Ok(Some(Chirality::Clockwise));
        }
        for (class, most) in [("TH", 2), ("AL", 2), ("SP", 3), ("TB", 20), ("OH", 30)] {
            let mut it = class.chars();
            if self.peek() == it.next() && self.peek_at(1) == it.next() {
                self.at += 2;
                let number: u32 = self.digits(2).parse().unwrap_or(0);
                if number == 0 || number > most {
                    return error(
                        position,
                        format!("`@{class}` needs a number from 1 to {most}"),
                    );
                }
                return Ok(match (class, number) {
                    ("TH", 1) => Some(Chirality::Anticlockwise),
                    ("TH", _) => Some(Chirality::Clockwise),
                    _ => None,
                });
            }
        }
        Ok(Some(Chirality::Anticlockwise))
    }

    /// `+`, `++`, `+2`, `-`, `--`, `-3`, or nothing.
    fn charge(&mut self) -> Result<i32, SyntaxError> {
        let Some(sign @ ('+' | '-')) = self.peek() else {
            return Ok(0);
        };
        let position = self.position();
        let unit = if sign == '+' { 1 } else { -1 };
        self.at += 1;
        let digits = self.digits(2);
        if !digits.is_empty() {
            let n: i32 = digits.parse().unwrap_or(0);
            if n > 15 {
                return error(position, "a charge beyond ±15");
            }
            return Ok(unit * n);
        }
        let mut n = 1;
        while self.peek() == Some(sign) {
            self.at += 1;
            n += 1;
        }
        if n > 2 {
            return error(
                position,
                format!("`{}` is no charge", sign.to_string().repeat(n as usize)),
            );
        }
        Ok(unit * n)
    }
}

fn written(c: char) -> Written {
    match c {
        '-' => Written::Single,
        '=' => Written::Double,
        '#' => Written::Triple,
        '$' => Written::Quadruple,
        ':' => Written::Aromatic,
        '/' => Written::Up,
        _ => Written::Down,
    }
}

/// The atomic number of an element symbol.
fn find(symbol: &str) -> Option<u8> {
    (1..ELEMENTS.len())
        .find(|&z| ELEMENTS.get(z).is_some_and(|e| e.symbol == symbol))
        .and_then(|z| u8::try_from(z).ok())
}
