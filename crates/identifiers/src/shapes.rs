//! The token shapes that are regular languages (e-mails, handles, hashtags, snake_case ids,
//! domains and file names, IPv4, UUIDs, dates and year spans, model codes, ordinals), each one
//! anchored regex-lite pattern, compiled once on first use; every pattern runs in time linear in
//! the token's length. In front of each pattern a gate, a byte test that every match passes
//! (an `@`, a first digit, a length), keeps the plain words of chat text off the regex engine:
//! most tokens are decided without it. What is not a regular-expression job stays hand-written:
//! a URL's literal prefix, IPv6 (std's parser), the digit-group count. The name-run heuristics
//! (codes, host names, paths) are in `lib.rs`.

use std::net::Ipv6Addr;
use std::sync::LazyLock;

use regex_lite::Regex;

/// The word characters of a token, as a class body: ASCII letters and digits and every
/// non-ASCII char except `’ € £ ¥`. The tokenizer lets a non-ASCII char into a token only if it
/// is a letter, digit or combining mark, or one of those four, so within a token this is
/// exactly `is_wordish` (regex-lite has no Unicode classes).
const W: &str = r"0-9A-Za-z\x{80}-\x{A2}\x{A4}\x{A6}-\x{2018}\x{201A}-\x{20AB}\x{20AD}-\x{10FFFF}";

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("the pattern is valid")
}

/// `bob.smith+news@globex.co.uk`.
static EMAIL: LazyLock<Regex> =
    LazyLock::new(|| regex(&format!(r"^[{W}._%+\-]+@(?:[{W}\-]+\.)+[{W}]+$")));
/// `@priya_k` (the handle is the longest run of these characters not ending in `.` or `-`):
/// the pattern `handle_len` follows by hand (a unit test compares them).
#[cfg(test)]
static HANDLE: LazyLock<Regex> = LazyLock::new(|| regex(&format!(r"^@[{W}_.\-]*[{W}_]")));
/// `#4821`, `#launch-plan`.
static HASHTAG: LazyLock<Regex> = LazyLock::new(|| regex(&format!(r"^#[{W}_\-]{{2,}}$")));
/// `ent_01HZX3`, `max_retries`: two or more parts joined by underscores.
static SNAKE_CASE_ID: LazyLock<Regex> =
    LazyLock::new(|| regex(&format!(r"^[{W}_\-]*[{W}\-]_+[{W}\-][{W}_\-]*$")));
/// `docs.example.com`, `report.pdf`, `Node.js` (when the lexicon knows the last label).
static DOMAIN_OR_FILE: LazyLock<Regex> =
    LazyLock::new(|| regex(&format!(r"^(?:[{W}_\-]+\.)+(?:[a-z]{{2,}}|[A-Z]{{2,4}})$")));
/// `10.0.0.12`: four octets, leading zeros allowed.
static IPV4: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9]{1,2})\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9]{1,2})$",
    )
});
/// `550e8400-e29b-41d4-a716-446655440000`.
static UUID: LazyLock<Regex> =
    LazyLock::new(|| regex(r"^[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}$"));
/// Hyphenated digit groups that read as a date (`2024-05-01`, `1-5-2024`) or a span of years
/// (`2023-24`, `1999-2000`), not as an account or phone number (`2024-0451` is a document's).
static DATE_OR_YEAR_SPAN: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}|(?:19|20)[0-9]{2}-(?:[0-9]{1,2}|(?:19|20)[0-9]{2}))$",
    )
});
/// A short model designation: one or two capitals and up to four digits, perhaps a lowercase
/// letter (`V11`, `S23`, `M2`, `A7x`); not a period (`Q3`, `H1`).
static MODEL_CODE: LazyLock<Regex> =
    LazyLock::new(|| regex(r"^(?:[A-GI-PR-Z]|[A-Z]{2})[0-9]{1,4}[a-z]?$"));
/// `1st`, `22nd`, `5th`.
static ORDINAL: LazyLock<Regex> = LazyLock::new(|| regex(r"^[0-9]+(?:st|nd|rd|th)$"));

/// The first byte of `w` is an ASCII digit: the gate of the numeric shapes.
fn digit_first(w: &str) -> bool {
    w.as_bytes().first().is_some_and(u8::is_ascii_digit)
}

pub(super) fn is_email(w: &str) -> bool {
    // Gate: an `@`, and a last label of two letters or more after a dot (also required of the
    // match below), before the regex.
    let Some((_, tld)) = w.rsplit_once('.') else {
        return false;
    };
    w.contains('@') && tld.len() >= 2 && tld.chars().all(char::is_alphabetic) && EMAIL.is_match(w)
}

/// The handle's length in bytes, `@` included, when `w` starts with one that names something.
/// By hand, not by the regex: chat pastes many handles, and each one is read again (the
/// regex engine took 5% of the time on chat text).
pub(super) fn handle_len(w: &str) -> Option<usize> {
    let body = w.strip_prefix('@')?;
    // `W` of the pattern: ASCII letters and digits, and every non-ASCII char but `’ € £ ¥`.
    let word = |c: char| {
        c.is_ascii_alphanumeric() || (!c.is_ascii() && !matches!(c, '’' | '€' | '£' | '¥'))
    };
    let run = body
        .find(|c: char| !(word(c) || matches!(c, '_' | '.' | '-')))
        .unwrap_or(body.len());
    let handle = body[..run].trim_end_matches(['.', '-']);
    (!handle.is_empty() && handle.chars().any(char::is_alphanumeric)).then_some(1 + handle.len())
}

pub(super) fn is_hashtag(w: &str) -> bool {
    // Gate: a `#` first and at least two chars after it.
    w.starts_with('#')
        && w.len() >= 3
        && HASHTAG.is_match(w)
        && w.chars().any(char::is_alphanumeric)
}

pub(super) fn is_snake_case_id(w: &str) -> bool {
    // Gate: an underscore, and not at both ends only ("_", "__").
    w.len() >= 3 && w.contains('_') && SNAKE_CASE_ID.is_match(w)
}

/// A dotted name whose labels are word characters, `_` and `-`, and whose last label is 2+
/// lowercase or 2–4 uppercase ASCII letters.
pub(super) fn is_domain_or_file(w: &str) -> bool {
    // Gate: a dot, and a last label of ASCII letters of one case (the pattern's tail asks
    // which), before the regex checks the labels.
    let Some((_, last)) = w.rsplit_once('.') else {
        return false;
    };
    let one_case = last.len() >= 2
        && (last.bytes().all(|c| c.is_ascii_lowercase())
            || last.bytes().all(|c| c.is_ascii_uppercase()));
    one_case && DOMAIN_OR_FILE.is_match(w)
}

/// The length of the prefix (`https://`, `www.`, …) and of the whole URL candidate at the start
/// of `text`, before trailing punctuation is trimmed.
pub(super) fn url_candidate(text: &str) -> Option<(usize, usize)> {
    // Its start, a scheme or `www.` in any case: a literal prefix, not a regex, since this runs
    // at every word starting with h, w or f ("with", "from", …).
    // The first two letters rule out most words before any prefix is compared whole.
    let head = match text.as_bytes() {
        [a, b, ..] => [a.to_ascii_lowercase(), b.to_ascii_lowercase()],
        _ => return None,
    };
    let prefix = [
        "https://", "http://", "ftp://", "sftp://", "ssh://", "git://", "s3://", "gs://", "www.",
    ]
    .iter()
    .find(|p| {
        p.as_bytes()[..2] == head
            && text
                .as_bytes()
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

pub(super) fn is_ipv4(w: &str) -> bool {
    // Gate: a digit first, a dot, and the length of four octets of one to three digits.
    digit_first(w) && (7..=15).contains(&w.len()) && w.contains('.') && IPV4.is_match(w)
}

/// `2001:db8::1`, `fe80::1`. Not a regex: std parses every RFC 4291 text form exactly. A digit
/// is required, so a code path such as `abc::def` (valid hex groups) is not taken for one.
pub(super) fn is_ipv6(w: &str) -> bool {
    w.bytes().any(|b| b.is_ascii_digit()) && w.parse::<Ipv6Addr>().is_ok()
}

pub(super) fn is_uuid(w: &str) -> bool {
    // Gate: 36 bytes with a hyphen after the first eight; most hyphenated words are neither.
    w.len() == 36 && w.as_bytes()[8] == b'-' && UUID.is_match(w)
}

/// Digit groups joined by hyphens that make an account or phone number: six digits or more,
/// and not a date or a span of years.
pub(super) fn digit_groups_are_id(w: &str) -> bool {
    w.bytes().filter(u8::is_ascii_digit).count() >= 6
        && !(digit_first(w) && DATE_OR_YEAR_SPAN.is_match(w))
}

pub(super) fn is_model_code(w: &str) -> bool {
    // Gate: two to seven bytes, an ASCII capital first.
    (2..=7).contains(&w.len()) && w.as_bytes()[0].is_ascii_uppercase() && MODEL_CODE.is_match(w)
}

pub(super) fn is_ordinal(w: &str) -> bool {
    // Gate: a digit first and a lowercase letter last ("5th" has three bytes at least).
    digit_first(w)
        && w.len() >= 3
        && w.as_bytes()[w.len() - 1].is_ascii_lowercase()
        && ORDINAL.is_match(w)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        }
    }

    /// The gates only keep tokens off the regex engine: every shape answers as its bare
    /// pattern does, on every string of up to four chars over an alphabet of the chars the
    /// patterns care about, and on samples.
    #[test]
    fn shapes_gates_change_no_answer() {
        let check = |w: &str| {
            let tld = w.rsplit('.').next().unwrap_or(w);
            let email = EMAIL.is_match(w) && tld.len() >= 2 && tld.chars().all(char::is_alphabetic);
            assert_eq!(is_email(w), email, "email {w:?}");
            let handle = HANDLE
                .find(w)
                .filter(|m| m.as_str().chars().any(char::is_alphanumeric))
                .map(|m| m.end());
            assert_eq!(handle_len(w), handle, "handle {w:?}");
            let hashtag = HASHTAG.is_match(w) && w.chars().any(char::is_alphanumeric);
            assert_eq!(is_hashtag(w), hashtag, "hashtag {w:?}");
            assert_eq!(
                is_snake_case_id(w),
                SNAKE_CASE_ID.is_match(w),
                "snake {w:?}"
            );
            assert_eq!(
                is_domain_or_file(w),
                DOMAIN_OR_FILE.is_match(w),
                "domain {w:?}"
            );
            assert_eq!(is_ipv4(w), IPV4.is_match(w), "ipv4 {w:?}");
            assert_eq!(is_uuid(w), UUID.is_match(w), "uuid {w:?}");
            let groups =
                w.bytes().filter(u8::is_ascii_digit).count() >= 6 && !DATE_OR_YEAR_SPAN.is_match(w);
            assert_eq!(digit_groups_are_id(w), groups, "digit groups {w:?}");
            assert_eq!(is_model_code(w), MODEL_CODE.is_match(w), "model {w:?}");
            assert_eq!(is_ordinal(w), ORDINAL.is_match(w), "ordinal {w:?}");
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
            "x.ABCDE",
            "255.255.255.255",
            "001.02.3.199",
            "256.1.1.1",
            "1.2.3.4.5",
            "550e8400-E29B-41d4-a716-446655440000",
            "550e8400-e29b-41d4-a716-44665544000g",
            "550e84000e29b-41d4-a716-446655440000",
            "2024-05-01",
            "12-1-2024",
            "2023-24",
            "1999-2000",
            "3023-24",
            "1-2-3-4",
            "123456-78",
            "V11",
            "QX12",
            "A7x",
            "AB1234x",
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
        assert!(is_domain_or_file("docs.example.com") && is_domain_or_file("REPORT.PDF"));
        assert!(!is_domain_or_file("a.Com") && !is_domain_or_file("a.PDFXY"));
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
