//! The texts of nodes and edges as the diagram formats write them, made
//! plain (docs/formats.md, "Texts"), in this order: a line break (`<br>`
//! in any spelling, and in Mermaid a literal `\n`) becomes one blank; other
//! HTML tags are stripped; entities are decoded once (`&lt;`, `&#60;`,
//! `&#x3C;`, and Mermaid's `#quot;` / `#60;` forms); in Mermaid the
//! surrounding quotes and a Markdown string's backticks are removed. White
//! space is trimmed at both ends.

use std::borrow::Cow;

/// Which format a text comes from: Mermaid has forms of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Mermaid,
    /// DOT, GraphML, draw.io: HTML only.
    Markup,
}

/// The plain text of `raw`, written in `dialect`.
pub fn plain(raw: &str, dialect: Dialect) -> String {
    if is_plain(raw, dialect) {
        return raw.to_string();
    }
    let raw = unbroken(raw);
    let mut text: Cow<str> = Cow::Borrowed(raw.trim());
    if dialect == Dialect::Mermaid {
        text = Cow::Borrowed(unquoted(raw.trim()));
        if has_backslash_n(text.as_bytes()) {
            text = Cow::Owned(text.replace("\\n", " "));
        }
    }
    if memchr::memchr(b'<', text.as_bytes()).is_some() {
        text = Cow::Owned(without_tags(&text));
    }
    if memchr::memchr2(b'&', entity_start(dialect), text.as_bytes()).is_some() {
        text = Cow::Owned(decoded(&text, dialect));
    }
    match text {
        // Decoding made no line break and left nothing to trim: the text is
        // plain already, kept without another copy.
        Cow::Owned(owned) if is_plain(&owned, Dialect::Markup) => owned,
        text => unbroken(&text).trim().to_string(),
    }
}

/// The byte besides `&` that starts an entity in `dialect` (`&` again
/// where none does).
fn entity_start(dialect: Dialect) -> u8 {
    match dialect {
        Dialect::Mermaid => b'#',
        Dialect::Markup => b'&',
    }
}

/// Whether `bytes` hold a backslash followed by `n` (Mermaid's written
/// line break).
fn has_backslash_n(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'\\', bytes).any(|i| bytes.get(i + 1) == Some(&b'n'))
}

/// `text` with its line breaks as blanks and its entities decoded once
/// (`&lt;`, `&#60;`, `&#x3C;`), trimmed, and nothing else changed: a DOT
/// label in quotes, where tags are text.
pub fn entities_decoded(text: &str) -> String {
    let text = unbroken(text);
    let text = if text.contains('&') {
        Cow::Owned(decoded(&text, Dialect::Markup))
    } else {
        text
    };
    unbroken(&text).trim().to_string()
}

/// Whether `raw` is its own plain text: no character that any step of
/// [`plain`] changes, and nothing to trim.
fn is_plain(raw: &str, dialect: Dialect) -> bool {
    let special = |b: &u8| match b {
        b'\n' | b'\r' | b'<' | b'&' => true,
        b'"' | b'`' | b'#' | b'\\' => dialect == Dialect::Mermaid,
        _ => false,
    };
    let bytes = raw.as_bytes();
    // An ASCII byte that `str::trim` keeps (it also trims the vertical tab,
    // which `u8::is_ascii_whitespace` does not count).
    let trimmed =
        |b: Option<&u8>| b.is_none_or(|b| b.is_ascii() && !matches!(b, 0x09..=0x0d | b' '));
    !bytes.iter().any(special) && trimmed(bytes.first()) && trimmed(bytes.last())
}

/// `text` with every line break (`\r\n`, `\n`, `\r`, written in the text
/// itself or as an entity) as one blank.
pub fn unbroken(text: &str) -> Cow<'_, str> {
    if memchr::memchr2(b'\n', b'\r', text.as_bytes()).is_some() {
        Cow::Owned(text.replace("\r\n", " ").replace(['\n', '\r'], " "))
    } else {
        Cow::Borrowed(text)
    }
}

/// `s` for a message: its first 40 characters, then `…` if it goes on.
pub fn cut(s: &str) -> String {
    let shown: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        format!("{shown}…")
    } else {
        shown
    }
}

/// `text` without one pair of surrounding double quotes and, inside them,
/// a Markdown string's backticks (`` "`**bold**`" ``).
fn unquoted(text: &str) -> &str {
    let inner = (text.strip_prefix('"'))
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text);
    (inner.strip_prefix('`'))
        .and_then(|t| t.strip_suffix('`'))
        .unwrap_or(inner)
}

/// `text` with every `<br>` (any case, with or without `/` and blanks) as
/// one blank and every other tag (`<` a letter or `/` … `>`) removed; a
/// `<` that opens no tag stays.
fn without_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        let (before, tail) = rest.split_at(open);
        out.push_str(before);
        let after = tail.get(1..).unwrap_or_default();
        let opens_tag = after
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '/' || c == '!');
        match (opens_tag, after.find('>')) {
            (true, Some(close)) => {
                let tag = after.get(..close).unwrap_or_default();
                let name: String = (tag.trim_start_matches('/').chars())
                    .take_while(char::is_ascii_alphanumeric)
                    .collect();
                if name.eq_ignore_ascii_case("br") {
                    out.push(' ');
                }
                rest = after.get(close + 1..).unwrap_or_default();
            }
            _ => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `text` with its entities decoded once: `&name;` (the XML five and
/// `nbsp`), `&#N;`, `&#xH;`, and in Mermaid `#name;` and `#N;` too. An
/// entity of no known name stays as written.
fn decoded(text: &str, dialect: Dialect) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let second = entity_start(dialect);
    loop {
        // `&` and `#` are ASCII: a byte search never stops inside a character.
        let next = memchr::memchr2(b'&', second, rest.as_bytes());
        let Some(at) = next else {
            out.push_str(rest);
            return out;
        };
        let (before, tail) = rest.split_at(at);
        out.push_str(before);
        let body = tail.get(1..).unwrap_or_default();
        let entity = body
            .find(';')
            .filter(|&end| end > 0 && end <= 10)
            .and_then(|end| Some((end, entity(body.get(..end)?)?)));
        match entity {
            Some((end, c)) => {
                out.push(c);
                rest = body.get(end + 1..).unwrap_or_default();
            }
            None => {
                out.push_str(tail.get(..1).unwrap_or_default());
                rest = body;
            }
        }
    }
}

/// The character an entity's name (between `&` or `#` and `;`) stands for.
fn entity(name: &str) -> Option<char> {
    let number = name.strip_prefix('#').unwrap_or(name);
    let code = match number
        .strip_prefix('x')
        .or_else(|| number.strip_prefix('X'))
    {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None if number.chars().all(|c| c.is_ascii_digit()) => number.parse().ok(),
        None => None,
    };
    if let Some(code) = code {
        // NUL, as HTML decodes it: U+FFFD (a NUL would make the text binary).
        return char::from_u32(code).map(|c| if c == '\0' { '\u{fffd}' } else { c });
    }
    Some(match name {
        "lt" => '<',
        "gt" => '>',
        "amp" => '&',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vertical_tab_is_trimmed_as_any_blank() {
        // Written raw or as an entity, at either end.
        for raw in ["\u{b}a", "a\u{b}", "&#11;a", "a&#11;", "a&#x0B;"] {
            assert_eq!(plain(raw, Dialect::Markup), "a", "{raw:?}");
            assert_eq!(plain(raw, Dialect::Mermaid), "a", "{raw:?}");
        }
        assert_eq!(plain("&#11;", Dialect::Markup), "");
    }

    #[test]
    fn a_nul_entity_is_the_replacement_character() {
        // Found by fuzzing dot_read: `&#00;` in a DOT label gave a text with
        // a NUL, which no CLEF-IP file can hold.
        for raw in ["a&#00;b", "a&#0;b", "a&#x0;b", "a&#X00;b"] {
            assert_eq!(plain(raw, Dialect::Markup), "a\u{fffd}b", "{raw}");
            assert_eq!(entities_decoded(raw), "a\u{fffd}b", "{raw}");
        }
        assert_eq!(plain("a#0;b", Dialect::Mermaid), "a\u{fffd}b");
    }

    #[test]
    fn breaks_tags_entities_and_quotes() {
        use Dialect::{Markup, Mermaid};
        let cases = [
            (Mermaid, "\"Check<br>stock\"", "Check stock"),
            (Markup, "Check<BR />stock", "Check stock"),
            (Mermaid, "line\\nbreak", "line break"),
            (Markup, "line\\nbreak", "line\\nbreak"),
            (Markup, "<b>Bold</b> &amp; <i>it</i>", "Bold & it"),
            (Markup, "a &lt; b &#60; c &#x3C; d", "a < b < c < d"),
            (Mermaid, "#quot;hi#quot; #60;3", "\"hi\" <3"),
            (Markup, "#quot;hi#quot;", "#quot;hi#quot;"),
            // Decoded once: `&amp;lt;` is `&lt;`, not `<`.
            (Markup, "&amp;lt;", "&lt;"),
            // A `<` that opens no tag, an unknown entity, a lone `&`.
            (Markup, "a < b && c &bogus; d", "a < b && c &bogus; d"),
            (Mermaid, "\"`**Markdown** string`\"", "**Markdown** string"),
            (Mermaid, "  spaced  ", "spaced"),
            (
                Markup,
                "two\r\nlines\nand&#10;three&#xD;",
                "two lines and three",
            ),
        ];
        for (dialect, raw, want) in cases {
            assert_eq!(plain(raw, dialect), want, "{raw}");
        }
    }
}
