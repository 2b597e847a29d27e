//! Properties of the identifier extractor on arbitrary and adversarial text: it never panics
//! (a panic is a trap in wasm), returns trimmed substrings of its input within the documented
//! caps, without case-insensitive duplicates, the same way every time; a line's identifiers do
//! not depend on the lines around it; and its running time grows linearly with the input.
//!
//! Seeded, so `cargo test` is reproducible; explore further with e.g.
//! `PROPTEST_RNG_SEED=$RANDOM PROPTEST_CASES=20000 cargo test --test prop_identifiers`.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashSet;
use std::hint::black_box;
use std::sync::{PoisonError, RwLock};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError};

use neotoma_agent_wasm::protocol::identifiers::{
    extract_identifiers, MAX_IDENTIFIERS, MAX_IDENTIFIER_CHARS, MAX_QUOTE_CHARS,
};

mod common;

/// `cases` per property (see `common::proptest_config`), with this file's own seed.
fn config(cases: u32) -> Config {
    common::proptest_config(cases, 0x6e65_6f74_6f6d_6101)
}

/// Pieces the scanner treats specially: quotes of every kind, URL prefixes, e-mail and handle
/// markers, connectors, honorifics, possessives, codes, line and paragraph breaks, control
/// characters, combining marks, bidi controls, characters next to the surrogate gap, case
/// oddities (İ, ß, ǅ) and scripts without case.
#[rustfmt::skip]
const FRAGMENTS: &[&str] = &[
    " ", " ", " ", "\n", "\r\n", "\r", "\t", "\u{2029}", "\u{2028}", "\u{a0}", "\u{3000}", "\"",
    "“", "”", "„", "‘", "’", "'", "`", "```", "«", "»", "@", ".", "..", ",", ";", ":", "!", "?",
    "…", "。", "(", ")", "[", "]", "#", "&", "-", "_", "/", "~/", "./", "+", "=", "%", "$", "€", "*",
    "^", "\\", "http://", "https://", "ftp://", "www.", "HTTP://", "WWW.", "mailto:", ".com", ".io",
    ".pdf", "'s", "’s", "'S", "s'", "of", "de", "the", "and", "van", "Bank", "America", "Acme",
    "Corp", "Inc.", "Jr.", "St.", "Dr.", "Mr", "Mrs.", "Prof.", "J.", "J.R.R.", "e.g.", "i.e.", "I",
    "OK", "FYI", "NASA", "AT&T", "OpenAI", "iPhone", "McKinsey", "O'Brien", "Jean-Luc", "Hi",
    "Please", "Monday", "March", "Windows", "11", "V11", "5th", "42", "2024", "1,200", "10:30",
    "10.0.0.12", "INV-", "INV-2041", "JIRA-4512", "ent_", "ent_01HZX3", "__init__",
    "550e8400-e29b-41d4-a716-446655440000", "4417-2290", "#4821", "QX7P2M", "order", "invoice",
    "account", "times", "Street", "Avenue", "São", "Zürich", "İstanbul", "ß", "ẞ", "ǅ", "Ω", "日本語",
    "東京", "مرحبا", "שלום", "🎉", "👩‍👩‍👧", "\u{0}", "\u{1}", "\u{7f}", "\u{85}", "\u{301}",
    "\u{20dd}", "\u{fe20}", "\u{200b}", "\u{200d}", "\u{200e}", "\u{200f}", "\u{202e}", "\u{2066}",
    "\u{feff}", "\u{fffd}", "\u{d7ff}", "\u{e000}", "\u{ffff}", "\u{10ffff}",
];

/// Characters repeated into long runs: many quotes, many `@`s, many dots.
#[rustfmt::skip]
const RUN_UNITS: &[&str] = &[
    "\"", "'", "`", "“", "«", "@", ".", "a@", "'a", "\"a", "a.", "-", "A", "b", "é", "e\u{301}",
    "http://", "#", "&", "1,", "Ab ",
];

fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::sample::select(FRAGMENTS).prop_map(str::to_owned),
        3 => any::<char>().prop_map(String::from),
        2 => "[A-Z][a-z]{0,9}",
        2 => "[a-z0-9]{1,8}",
        1 => "[A-Z0-9]{2,8}",
        // Runs around the token, quote and identifier limits.
        1 => (prop::sample::select(RUN_UNITS), 1usize..300).prop_map(|(u, n)| u.repeat(n)),
        1 => (250usize..262).prop_map(|n| format!("A{}", "b".repeat(n))),
        // Names straddling the identifier cap, split by any kind of space.
        1 => (MAX_IDENTIFIER_CHARS - 4..MAX_IDENTIFIER_CHARS + 4, prop::sample::select(&[" ", "\u{a0}", "\u{b}", "\u{2028}", "\u{3000}"][..]))
            .prop_map(|(n, space)| format!("A{}{space}Name", "b".repeat(n - 1))),
        1 => (MAX_QUOTE_CHARS - 3..MAX_QUOTE_CHARS + 3, prop::sample::select(&["\"", "“", "`", "«", "‘"][..]))
            .prop_map(|(n, q)| format!("{q}{}", "q ".repeat(n / 2))),
    ]
}

/// Text made of scanner-relevant fragments.
fn message() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..80).prop_map(|parts| parts.concat())
}

/// Any Unicode scalar values at all.
fn any_chars() -> impl Strategy<Value = String> {
    prop::collection::vec(any::<char>(), 0..400).prop_map(String::from_iter)
}

/// What every output must satisfy, whatever the input.
fn check_output(text: &str, out: &[String]) -> Result<(), TestCaseError> {
    prop_assert!(out.len() <= MAX_IDENTIFIERS, "{} identifiers", out.len());
    let mut seen = HashSet::new();
    for id in out {
        prop_assert!(!id.is_empty(), "an empty identifier");
        prop_assert_eq!(id.trim(), id.as_str(), "an identifier is returned trimmed");
        prop_assert!(
            id.chars().count() <= MAX_IDENTIFIER_CHARS,
            "identifier of {} chars",
            id.chars().count()
        );
        // Spans are returned as written: quotes, honorifics and a possessive 's are cut off
        // the ends, nothing is rewritten inside.
        prop_assert!(text.contains(id.as_str()), "{id:?} is not in the input");
        prop_assert!(
            seen.insert(id.to_lowercase()),
            "{id:?} is returned twice (case-insensitively)"
        );
    }
    Ok(())
}

/// Held shared by the property tests and exclusively by the timing test.
static EXCLUSIVE: RwLock<()> = RwLock::new(());

fn check(text: &str) -> Result<(), TestCaseError> {
    let out = extract_identifiers(text);
    check_output(text, &out)?;
    prop_assert_eq!(&extract_identifiers(text), &out, "not deterministic");
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn identifiers_of_fragment_text_are_trimmed_capped_unique_substrings(text in message()) {
        let _shared = EXCLUSIVE.read().unwrap_or_else(PoisonError::into_inner);
        check(&text)?;
    }

    #[test]
    fn identifiers_of_arbitrary_unicode_are_trimmed_capped_unique_substrings(text in any_chars()) {
        let _shared = EXCLUSIVE.read().unwrap_or_else(PoisonError::into_inner);
        check(&text)?;
    }

    /// A line set off by line breaks (and a `$`, which ends an "order 4821" cue) yields its
    /// identifiers whatever surrounds it: no quote, URL, name or cached quote search crosses
    /// the break. Only the output cap or an earlier spelling of the same identifier can hide one.
    #[test]
    fn a_lines_identifiers_do_not_depend_on_other_lines(
        before in message(),
        line in message(),
        after in message(),
    ) {
        let _shared = EXCLUSIVE.read().unwrap_or_else(PoisonError::into_inner);
        let alone = extract_identifiers(&format!("{line}\n"));
        let text = format!("{before}\n$\n{line}\n{after}");
        let out = extract_identifiers(&text);
        check_output(&text, &out)?;
        if out.len() < MAX_IDENTIFIERS {
            let found: HashSet<String> = out.iter().map(|s| s.to_lowercase()).collect();
            for id in &alone {
                prop_assert!(
                    found.contains(&id.to_lowercase()),
                    "{id:?} found in the line alone, not with other lines: {out:?}"
                );
            }
        }
    }
}

/// Inputs that would be quadratic for a naive scanner (re-scanning for quote closers, URL ends,
/// token ends or run ends) and that keep the output small, so the scan runs to the end.
const SCALING_PATTERNS: &[(&str, &str)] = &[
    (
        "capitalised words",
        "Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa ",
    ),
    ("connectors", "Bank of the of de "),
    ("unclosed double quotes", "\"a "),
    ("unclosed curly quotes", "“a "),
    ("unclosed single quotes", "'a "),
    ("unclosed backticks", "`a "),
    ("a run of double quotes", "\""),
    ("apostrophes in words", "'a"),
    ("at signs between letters", "a@"),
    ("repeated http://", "http://"),
    ("http:// between spaces", "http:// "),
    ("a failed www. before URLs", "www.x(https://x("),
    ("digit commas", "1,"),
    ("combining marks", "e\u{301}"),
    ("initials", "J.R.R. "),
    ("possessives", "Joe's "),
    ("quotes across line breaks", "\"a\r\n"),
];

fn repeat_to(unit: &str, bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + unit.len());
    while s.len() < bytes {
        s.push_str(unit);
    }
    s
}

/// The fastest of three interleaved runs of each text.
fn best_times(small: &str, large: &str) -> (Duration, Duration) {
    let (mut t_small, mut t_large) = (Duration::MAX, Duration::MAX);
    for _ in 0..3 {
        for (text, best) in [(small, &mut t_small), (large, &mut t_large)] {
            let start = Instant::now();
            black_box(extract_identifiers(black_box(text)));
            *best = (*best).min(start.elapsed());
        }
    }
    (t_small, t_large)
}

/// Quadrupling the input must not multiply the time by much more than four: the bound is 12x
/// (a quadratic scan takes 16x) plus 5 ms of slack, from 64 KiB to 256 KiB. A first check from
/// 4 KiB to 16 KiB makes a quadratic scan fail in seconds, not after minutes at 256 KiB. No
/// absolute limit, and noise is kept out: the property tests of this file wait while it runs,
/// each size is timed three times, interleaved, keeping the fastest run, and a pattern fails
/// only when three such measurements in a row exceed the bound (a quadratic scan always does).
#[test]
fn identifier_extraction_time_grows_linearly() {
    const KIB: usize = 1024;
    let _alone = EXCLUSIVE.write().unwrap_or_else(PoisonError::into_inner);
    for (name, unit) in SCALING_PATTERNS {
        for (small_size, large_size) in [(4 * KIB, 16 * KIB), (64 * KIB, 256 * KIB)] {
            let small = repeat_to(unit, small_size);
            let large = repeat_to(unit, large_size);
            assert!(
                extract_identifiers(&large).len() < MAX_IDENTIFIERS,
                "{name}: the output filled up, so the scan stopped early"
            );
            let mut attempts = Vec::new();
            let linear = (0..3).any(|_| {
                let (t_small, t_large) = best_times(&small, &large);
                attempts.push(format!(
                    "{} KiB in {t_small:?}, {} KiB in {t_large:?}",
                    small_size / KIB,
                    large_size / KIB
                ));
                t_large < t_small * 12 + Duration::from_millis(5)
            });
            eprintln!("{name}: {}", attempts.join("; "));
            assert!(linear, "{name}: not linear: {}", attempts.join("; "));
        }
    }
}
