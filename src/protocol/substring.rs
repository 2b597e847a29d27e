//! `str::contains`/`str::replace` with a `&str` pattern, as a plain byte search. core's searcher
//! (two-way) links str slicing's panic message and `char`'s `Debug` (about 2.5 KB of gzipped
//! wasm); the needles here are names, ids and a token, a few bytes long. A byte match of valid
//! UTF-8 in valid UTF-8 is always on char boundaries, so results are the same.

/// Byte offset of the first `needle` in `haystack` (`Some(0)` for an empty needle).
pub fn find(haystack: &str, needle: &str) -> Option<usize> {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = n.split_first() else {
        return Some(0);
    };
    h.iter()
        .enumerate()
        .find(|&(i, &b)| b == first && h.get(i + 1..i + n.len()) == Some(rest))
        .map(|(i, _)| i)
}

/// `haystack.contains(needle)`.
pub fn contains(haystack: &str, needle: &str) -> bool {
    find(haystack, needle).is_some()
}

/// `text.replace(from, to)` for a non-empty `from`.
pub fn replace(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = find(rest, from).filter(|_| !from.is_empty()) {
        out.push_str(rest.get(..i).unwrap_or_default());
        out.push_str(to);
        rest = rest.get(i + from.len()..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_as_str_methods() {
        let texts = [
            "",
            "a",
            "aaa",
            "abcabd",
            "naïve café σς",
            "xx token xx tokentoken",
        ];
        let needles = [
            "",
            "a",
            "aa",
            "abd",
            "é",
            "café",
            "ς",
            "token",
            "zzz",
            "xx token xx tokentokenx",
        ];
        for t in texts {
            for n in needles {
                assert_eq!(find(t, n), t.find(n), "{t:?} {n:?}");
                assert_eq!(contains(t, n), t.contains(n));
                if !n.is_empty() {
                    assert_eq!(replace(t, n, "[r]"), t.replace(n, "[r]"));
                }
            }
        }
    }
}
