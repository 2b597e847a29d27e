//! The token shapes that are regular languages (e-mails, handles, domains, IPv4, UUIDs, dates,
//! model codes…), each matched by hand in one pass over the token. They were regular
//! expressions (regex-lite): matching them by hand is several times faster per token and
//! leaves the regex engine out of the wasm. The tests below check every function against
//! its regular expression, which stays the specification. The name-run heuristics (codes,
//! host names, paths) stay in `identifiers.rs`.

use std::net::Ipv6Addr;

/// A word character of a token: ASCII letters and digits and every non-ASCII char except
/// `’ € £ ¥`. The tokenizer lets a non-ASCII char into a token only if it is a letter, digit or
/// combining mark, or one of those four, so within a token this is exactly `is_wordish`.
fn is_w(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric()
    } else {
        !matches!(c, '’' | '€' | '£' | '¥')
    }
}

/// `[W._%+-]+@(?:[W-]+\.)+[W]+`: `bob.smith+news@globex.co.uk`.
fn email_shape(w: &str) -> bool {
    let Some((local, domain)) = w.split_once('@') else {
        return false;
    };
    let Some((labels, last)) = domain.rsplit_once('.') else {
        return false;
    };
    !local.is_empty()
        && local
            .chars()
            .all(|c| is_w(c) || matches!(c, '.' | '_' | '%' | '+' | '-'))
        && labels
            .split('.')
            .all(|l| !l.is_empty() && l.chars().all(|c| is_w(c) || c == '-'))
        && !last.is_empty()
        && last.chars().all(is_w)
}

pub(super) fn is_email(w: &str) -> bool {
    let tld = w.rsplit('.').next().unwrap_or(w);
    email_shape(w) && tld.len() >= 2 && tld.chars().all(char::is_alphabetic)
}

/// The handle's length in bytes, `@` included, when `w` starts with one that names something.
/// `@priya_k`: the longest run of `[W_.-]` after the `@` not ending in `.` or `-`.
pub(super) fn handle_len(w: &str) -> Option<usize> {
    let rest = w.strip_prefix('@')?;
    let mut end = None;
    let mut alnum = false;
    for (i, c) in rest.char_indices() {
        if is_w(c) || c == '_' {
            end = Some(1 + i + c.len_utf8());
        } else if !matches!(c, '.' | '-') {
            break;
        }
    }
    let end = end?;
    for c in w.get(..end)?.chars() {
        alnum |= c.is_alphanumeric();
    }
    alnum.then_some(end)
}

/// `#4821`, `#launch-plan`: `#[W_-]{2,}`.
pub(super) fn is_hashtag(w: &str) -> bool {
    let Some(rest) = w.strip_prefix('#') else {
        return false;
    };
    rest.chars().nth(1).is_some()
        && rest.chars().all(|c| is_w(c) || matches!(c, '_' | '-'))
        && w.chars().any(char::is_alphanumeric)
}

/// `ent_01HZX3`, `max_retries`: two or more parts of `[W-]` joined by underscores
/// (`[W_-]*[W-]_+[W-][W_-]*`).
pub(super) fn is_snake_case_id(w: &str) -> bool {
    // `joined`: an underscore run follows a `[W-]` char; `found`: and a `[W-]` char follows it.
    let (mut prev_part, mut joined, mut found) = (false, false, false);
    for c in w.chars() {
        if c == '_' {
            joined |= prev_part;
            prev_part = false;
        } else if is_w(c) || c == '-' {
            found |= joined;
            joined = false;
            prev_part = true;
        } else {
            return false;
        }
    }
    found
}

/// The last label of a dotted name whose labels are word characters, `_` and `-`, and whose
/// last label is 2+ lowercase or 2–4 uppercase ASCII letters.
pub(super) fn domain_or_file_suffix(w: &str) -> Option<&str> {
    let (labels, last) = w.rsplit_once('.')?;
    let labels_ok = labels
        .split('.')
        .all(|l| !l.is_empty() && l.chars().all(|c| is_w(c) || matches!(c, '_' | '-')));
    let n = last.len();
    let last_ok = (n >= 2 && last.bytes().all(|c| c.is_ascii_lowercase()))
        || ((2..=4).contains(&n) && last.bytes().all(|c| c.is_ascii_uppercase()));
    (labels_ok && last_ok).then_some(last)
}

/// The length of the prefix (`https://`, `www.`, …) and of the whole URL candidate at the start
/// of `text`, before trailing punctuation is trimmed.
pub(super) fn url_candidate(text: &str) -> Option<(usize, usize)> {
    // Its start, a scheme or `www.` in any case: a literal prefix, not a regex, since this runs
    // at every word starting with h, w or f ("with", "from", …).
    let prefix = ["https://", "http://", "ftp://", "www."]
        .iter()
        .find(|p| {
            text.as_bytes()
                .get(..p.len())
                .is_some_and(|b| b.eq_ignore_ascii_case(p.as_bytes()))
        })?
        .len();
    // The body up to the first space, quote or angle bracket, by `str::find`: as a regex
    // (`[^…]*`) a 1 MiB URL took five times as long in regex-lite's PikeVM.
    let body = text.get(prefix..)?;
    let ends_url =
        |c: char| c.is_whitespace() || matches!(c, '"' | '“' | '”' | '<' | '>' | '`' | '«' | '»');
    Some((prefix, prefix + body.find(ends_url).unwrap_or(body.len())))
}

/// `10.0.0.12`: four octets of one to three digits up to 255, leading zeros allowed.
pub(super) fn is_ipv4(w: &str) -> bool {
    let mut octets = 0;
    for part in w.split('.') {
        let digits =
            !part.is_empty() && part.len() <= 3 && part.bytes().all(|c| c.is_ascii_digit());
        if !digits || part.parse::<u16>().map_or(true, |v| v > 255) {
            return false;
        }
        octets += 1;
    }
    octets == 4
}

/// `2001:db8::1`, `fe80::1`. Not a regex: std parses every RFC 4291 text form exactly. A digit
/// is required, so a code path such as `abc::def` (valid hex groups) is not taken for one.
pub(super) fn is_ipv6(w: &str) -> bool {
    w.bytes().any(|b| b.is_ascii_digit()) && w.parse::<Ipv6Addr>().is_ok()
}

/// `550e8400-e29b-41d4-a716-446655440000`.
pub(super) fn is_uuid(w: &str) -> bool {
    w.len() == 36
        && w.bytes().enumerate().all(|(i, c)| {
            if matches!(i, 8 | 13 | 18 | 23) {
                c == b'-'
            } else {
                c.is_ascii_hexdigit()
            }
        })
}

/// Digit groups joined by hyphens that make an account or phone number: six digits or more,
/// and not a date or a span of years.
pub(super) fn digit_groups_are_id(w: &str) -> bool {
    w.bytes().filter(u8::is_ascii_digit).count() >= 6 && !is_date_or_year_span(w)
}

/// Hyphenated digit groups that read as a date (`2024-05-01`, `1-5-2024`) or a span of years
/// (`2023-24`, `1999-2000`), not as an account or phone number.
fn is_date_or_year_span(w: &str) -> bool {
    let mut lens = [0usize; 4];
    let mut parts = 0;
    for part in w.split('-') {
        if part.is_empty() || !part.bytes().all(|c| c.is_ascii_digit()) || parts == lens.len() {
            return false;
        }
        lens[parts] = part.len();
        parts += 1;
    }
    let year_first = w.starts_with("19") || w.starts_with("20");
    match &lens[..parts] {
        [4, 2, 2] => true,
        [1..=2, 1..=2, 4] => true,
        [4, 1 | 2 | 4] => year_first,
        _ => false,
    }
}

/// A short model designation: one or two capitals and up to four digits, perhaps a lowercase
/// letter (`V11`, `S23`, `M2`, `A7x`); not a period (`Q3`, `H1`).
pub(super) fn is_model_code(w: &str) -> bool {
    let b = w.as_bytes();
    let letters = b.iter().take_while(|c| c.is_ascii_uppercase()).count();
    let digits = b[letters..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    let tail = &b[letters + digits..];
    let lead_ok = letters == 2 || (letters == 1 && !matches!(b[0], b'H' | b'Q'));
    lead_ok
        && (1..=4).contains(&digits)
        && (tail.is_empty() || (tail.len() == 1 && tail[0].is_ascii_lowercase()))
}

/// `1st`, `22nd`, `5th`.
pub(super) fn is_ordinal(w: &str) -> bool {
    let digits = w.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && matches!(&w.as_bytes()[digits..], b"st" | b"nd" | b"rd" | b"th")
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_lite::Regex;

    /// The word class as a regex class body: ASCII letters and digits and every non-ASCII
    /// char except `’ € £ ¥`.
    const W: &str =
        r"0-9A-Za-z\x{80}-\x{A2}\x{A4}\x{A6}-\x{2018}\x{201A}-\x{20AB}\x{20AD}-\x{10FFFF}";

    fn regex(pattern: &str) -> Regex {
        Regex::new(pattern).expect("the pattern is valid")
    }

    #[test]
    fn shapes_word_class_is_what_the_scanner_means() {
        let word = regex(&format!("^[{W}]$"));
        for c in (0..=0x10_ffff).filter_map(char::from_u32) {
            let s = c.to_string();
            let in_token_word = if c.is_ascii() {
                c.is_ascii_alphanumeric()
            } else {
                !matches!(c, '’' | '€' | '£' | '¥')
            };
            assert_eq!(word.is_match(&s), in_token_word, "U+{:04X}", c as u32);
            assert_eq!(is_w(c), in_token_word, "U+{:04X}", c as u32);
        }
    }

    /// Every hand-written shape against the regular expression it replaced, on every string
    /// of up to five chars over an alphabet of the chars they care about, and on samples.
    #[test]
    fn shapes_match_their_regular_expressions() {
        let email = regex(&format!(r"^[{W}._%+\-]+@(?:[{W}\-]+\.)+[{W}]+$"));
        let handle = regex(&format!(r"^@[{W}_.\-]*[{W}_]"));
        let hashtag = regex(&format!(r"^#[{W}_\-]{{2,}}$"));
        let snake = regex(&format!(r"^[{W}_\-]*[{W}\-]_+[{W}\-][{W}_\-]*$"));
        let domain = regex(&format!(r"^(?:[{W}_\-]+\.)+(?:[a-z]{{2,}}|[A-Z]{{2,4}})$"));
        let ipv4 = regex(
            r"^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9]{1,2})\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9]{1,2})$",
        );
        let uuid = regex(r"^[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}$");
        let date = regex(
            r"^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}|(?:19|20)[0-9]{2}-(?:[0-9]{1,2}|[0-9]{4}))$",
        );
        let model = regex(r"^(?:[A-GI-PR-Z]|[A-Z]{2})[0-9]{1,4}[a-z]?$");
        let ordinal = regex(r"^[0-9]+(?:st|nd|rd|th)$");
        let check = |w: &str| {
            let tld = w.rsplit('.').next().unwrap_or(w);
            let email_rx =
                email.is_match(w) && tld.len() >= 2 && tld.chars().all(char::is_alphabetic);
            assert_eq!(is_email(w), email_rx, "email {w:?}");
            let handle_rx = handle
                .find(w)
                .filter(|m| m.as_str().chars().any(char::is_alphanumeric))
                .map(|m| m.end());
            assert_eq!(handle_len(w), handle_rx, "handle {w:?}");
            let hashtag_rx = hashtag.is_match(w) && w.chars().any(char::is_alphanumeric);
            assert_eq!(is_hashtag(w), hashtag_rx, "hashtag {w:?}");
            assert_eq!(is_snake_case_id(w), snake.is_match(w), "snake {w:?}");
            let domain_rx = domain
                .is_match(w)
                .then(|| w.rsplit('.').next().unwrap_or(w));
            assert_eq!(domain_or_file_suffix(w), domain_rx, "domain {w:?}");
            assert_eq!(is_ipv4(w), ipv4.is_match(w), "ipv4 {w:?}");
            assert_eq!(is_uuid(w), w.len() == 36 && uuid.is_match(w), "uuid {w:?}");
            assert_eq!(is_date_or_year_span(w), date.is_match(w), "date {w:?}");
            assert_eq!(is_model_code(w), model.is_match(w), "model {w:?}");
            assert_eq!(is_ordinal(w), ordinal.is_match(w), "ordinal {w:?}");
        };
        let alphabet = [
            'a', 'Z', 'H', 's', 't', '1', '2', '0', '5', '.', '-', '_', '@', '#', '%', '+', 'é',
            '’', '€',
        ];
        let mut word = Vec::new();
        fn all(alphabet: &[char], word: &mut Vec<char>, left: usize, check: &dyn Fn(&str)) {
            check(&word.iter().collect::<String>());
            if left == 0 {
                return;
            }
            for &c in alphabet {
                word.push(c);
                all(alphabet, word, left - 1, check);
                word.pop();
            }
        }
        all(&alphabet, &mut word, 4, &check);
        for w in [
            "bob.smith+news@globex.co.uk",
            "josé@correo.es",
            "a@b.c0m",
            "a@-.x-y",
            "@priya.k.-",
            "@priya_k",
            "#launch-plan",
            "ent_01HZX3",
            "a-_-b",
            "docs.example.com",
            "REPORT.PDF",
            "a.Com",
            "255.255.255.255",
            "001.02.3.199",
            "256.1.1.1",
            "1.2.3.4.5",
            "550e8400-E29B-41d4-a716-446655440000",
            "550e8400-e29b-41d4-a716-44665544000g",
            "2024-05-01",
            "12-1-2024",
            "2023-24",
            "1999-2000",
            "3023-24",
            "1-2-3-4",
            "V11",
            "QX12",
            "A7x",
            "Q3",
            "H1",
            "ABC1",
            "X12345",
            "22nd",
            "2ND",
            "1st",
            "x.y.abcdefg",
            "a.b.ABCDE",
            "www.acme.io",
            "0.0.0.0",
            "00.000.0.1",
        ] {
            check(w);
        }
    }

    #[test]
    fn shapes_accept_and_refuse() {
        assert!(is_email("bob.smith+news@globex.co.uk"));
        assert!(is_email("josé@correo.es"));
        for w in [
            "a@b",
            "@b.com",
            "a@b.c",
            "a@b..com",
            "a@b.c0m",
            "a@-.x-y",
            "a@b@c.com",
        ] {
            assert!(!is_email(w), "{w}");
        }
        assert_eq!(handle_len("@priya_k"), Some(8));
        assert_eq!(handle_len("@priya.k.-"), Some(8));
        assert_eq!(handle_len("@_"), None);
        assert_eq!(handle_len("@.-"), None);
        assert!(is_hashtag("#4821") && is_hashtag("#launch-plan"));
        assert!(!is_hashtag("#a") && !is_hashtag("#__") && !is_hashtag("#a.b"));
        assert!(is_snake_case_id("ent_01HZX3") && is_snake_case_id("a-_-b"));
        assert!(!is_snake_case_id("__init") && !is_snake_case_id("_") && !is_snake_case_id("a+_b"));
        assert_eq!(domain_or_file_suffix("docs.example.com"), Some("com"));
        assert_eq!(domain_or_file_suffix("REPORT.PDF"), Some("PDF"));
        assert_eq!(domain_or_file_suffix("a.Com"), None);
        assert_eq!(url_candidate("www.acme.io/x “y"), Some((4, 13)));
        assert_eq!(url_candidate("www.acme.io/x“y"), Some((4, 13)));
        assert_eq!(url_candidate("HTTPS://a\u{3000}b"), Some((8, 9)));
        assert_eq!(url_candidate("http:/a"), None);
        assert!(is_ipv4("10.0.0.12") && is_ipv4("255.255.255.255") && is_ipv4("001.02.3.199"));
        assert!(!is_ipv4("256.1.1.1") && !is_ipv4("1.2.3") && !is_ipv4("1.2.3.4.5"));
        assert!(is_ipv6("2001:db8::1") && is_ipv6("1:2:3:4:5:6:7:8") && is_ipv6("::ffff:1.2.3.4"));
        assert!(!is_ipv6("dead:beef") && !is_ipv6("Re:Acme") && !is_ipv6("1:2:3:4:5:6:7:8:9"));
        assert!(!is_ipv6("abc::def"));
        assert!(is_uuid("550e8400-E29B-41d4-a716-446655440000"));
        assert!(!is_uuid("550e8400-e29b-41d4-a716-44665544000g"));
        assert!(digit_groups_are_id("4417-2290") && digit_groups_are_id("1-2-3-4-5-6"));
        for w in ["2024-05-01", "12-1-2024", "2023-24", "1999-2000", "123-45"] {
            assert!(!digit_groups_are_id(w), "{w}");
        }
        assert!(digit_groups_are_id("3023-24"));
        assert!(is_model_code("V11") && is_model_code("QX12") && is_model_code("A7x"));
        assert!(!is_model_code("Q3") && !is_model_code("H1") && !is_model_code("ABC1"));
        assert!(is_ordinal("22nd") && !is_ordinal("nd") && !is_ordinal("2ND"));
    }
}
