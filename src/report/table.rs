//! A plain aligned text table for terminals, and the same rows as CSV.

/// Column alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A table of strings: a header row and data rows, rendered with columns
/// padded to their widest cell (counted in characters).
#[derive(Clone, Debug, Default)]
pub struct Table {
    headers: Vec<String>,
    aligns: Vec<Align>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column headers; the first column is left-aligned,
    /// the others right-aligned (names first, numbers after).
    pub fn new<S: Into<String>>(headers: impl IntoIterator<Item = S>) -> Self {
        let headers: Vec<String> = headers.into_iter().map(Into::into).collect();
        let aligns = (0..headers.len())
            .map(|i| if i == 0 { Align::Left } else { Align::Right })
            .collect();
        Table {
            headers,
            aligns,
            rows: Vec::new(),
        }
    }

    pub fn align(mut self, column: usize, align: Align) -> Self {
        if let Some(a) = self.aligns.get_mut(column) {
            *a = align;
        }
        self
    }

    /// Adds a row; missing cells are blank, extra cells are dropped.
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        let mut cells: Vec<String> = cells.into_iter().map(Into::into).collect();
        cells.resize(self.headers.len(), String::new());
        self.rows.push(cells);
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Renders the aligned table, a rule under the header, one line a row.
    pub fn render(&self) -> String {
        let widths: Vec<usize> = (self.headers.iter().enumerate())
            .map(|(c, header)| {
                std::iter::once(header)
                    .chain(self.rows.iter().filter_map(|r| r.get(c)))
                    .map(|s| s.chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        self.render_line(&mut out, &self.headers, &widths);
        let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
        out.push_str(rule.join("  ").as_str());
        out.push('\n');
        for row in &self.rows {
            self.render_line(&mut out, row, &widths);
        }
        out
    }

    fn render_line(&self, out: &mut String, cells: &[String], widths: &[usize]) {
        let mut line = String::new();
        for (c, ((cell, width), align)) in cells.iter().zip(widths).zip(&self.aligns).enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            let pad = width.saturating_sub(cell.chars().count());
            match align {
                Align::Left => {
                    line.push_str(cell);
                    line.extend(std::iter::repeat_n(' ', pad));
                }
                Align::Right => {
                    line.extend(std::iter::repeat_n(' ', pad));
                    line.push_str(cell);
                }
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }

    /// The same header and rows as CSV (RFC 4180 quoting via the `csv` crate).
    pub fn to_csv(&self) -> String {
        let mut writer = csv::Writer::from_writer(Vec::new());
        // Writing into a Vec cannot fail.
        let _ = writer.write_record(&self.headers);
        for row in &self.rows {
            let _ = writer.write_record(row);
        }
        let bytes = writer.into_inner().unwrap_or_default();
        String::from_utf8(bytes).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligns_columns() {
        let mut t = Table::new(["topic", "distance"]);
        t.row(["FC-1", "0.2500"]);
        t.row(["FC-10", "1.0000"]);
        assert_eq!(
            t.render(),
            "topic  distance\n-----  --------\nFC-1     0.2500\nFC-10    1.0000\n"
        );
    }

    #[test]
    fn csv_quotes_fields() {
        let mut t = Table::new(["name", "n"]);
        t.row(["a,b", "1"]);
        assert_eq!(t.to_csv(), "name,n\n\"a,b\",1\n");
    }
}
