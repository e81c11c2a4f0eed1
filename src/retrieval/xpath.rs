//! Passage XPaths: the `[1]` normalization under which two spellings name
//! one passage, and heading passages. See `docs/retrieval.md`.

/// Appends `xpath` with every `[1]` predicate dropped to `out` (cleared
/// first): `/a[1]/p[1]` and `/a/p` name one passage; `p[10]` stays.
pub fn normalize_xpath(xpath: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let mut rest = xpath;
    while let Some(i) = memchr::memchr(b'[', rest) {
        let (head, tail) = rest.split_at(i);
        out.extend_from_slice(head);
        let after = tail.get(3..).unwrap_or_default();
        if tail.starts_with(b"[1]") && (after.is_empty() || after.first() == Some(&b'/')) {
            rest = after;
        } else {
            out.push(b'[');
            rest = tail.get(1..).unwrap_or_default();
        }
    }
    out.extend_from_slice(rest);
}

/// True when an element step of the XPath is named exactly `heading`
/// (its predicate aside): `/patent-document/description/heading[3]`.
pub fn is_heading(xpath: &[u8]) -> bool {
    xpath.split(|&b| b == b'/').skip(1).any(|step| {
        let name = match memchr::memchr(b'[', step) {
            Some(i) => step.get(..i).unwrap_or_default(),
            None => step,
        };
        name == b"heading"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(x: &str) -> String {
        let mut out = Vec::new();
        normalize_xpath(x.as_bytes(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn xpath_normalization() {
        assert_eq!(
            norm("/patent-document/abstract[1]/p[1]"),
            "/patent-document/abstract/p"
        );
        assert_eq!(norm("/a/p[10]"), "/a/p[10]");
        assert_eq!(norm("/a[1]x/p[11]/q[1]"), "/a[1]x/p[11]/q");
        assert_eq!(norm("/a/p"), "/a/p");
    }

    #[test]
    fn headings() {
        assert!(is_heading(b"/patent-document/description/heading[3]"));
        assert!(is_heading(b"/a/heading"));
        assert!(!is_heading(b"/a/headings[1]"));
        assert!(!is_heading(b"/a/p[2]"));
    }
}
