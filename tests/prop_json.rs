//! The crate's own JSON (src/json) against serde_json, which the crate used before: on any
//! JSON value serde_json writes, compact or pretty, ours reads it and writes back the very
//! same compact text; on text near JSON (valid text cut, spliced or sprinkled with tricky
//! bytes), ours accepts exactly what serde_json accepts and reads the same value.
//!
//! Seeded, so `cargo test` is reproducible; explore further with e.g.
//! `PROPTEST_RNG_SEED=$RANDOM PROPTEST_CASES=20000 cargo test --test prop_json`.
#![cfg(not(target_arch = "wasm32"))]

use neotoma_agent_wasm::json;
use proptest::prelude::*;
use proptest::test_runner::Config;

mod common;

fn config(cases: u32) -> Config {
    common::proptest_config(cases, 0x6e65_6f74_6f6d_6a73)
}

/// Strings with what escaping is about: quotes, backslashes, every control character, DEL,
/// non-ASCII and astral characters.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{0,8}",
        "[\"\\\\/\\x00-\\x1f\\x7f a-zé€😀\u{2028}]{0,12}",
        any::<String>(),
    ]
}

/// Any serde_json value: integers of every size, floats of every magnitude, nesting.
fn serde_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop_oneof![
            Just(f64::MAX),
            Just(f64::MIN_POSITIVE),
            Just(5e-324),
            Just(-0.0),
            Just(1e21),
            Just(0.1),
            any::<f64>(),
        ]
        .prop_filter_map("finite", serde_json::Number::from_f64)
        .prop_map(Value::Number),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((text(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Bytes that make or break JSON.
const TRICKY: &[&str] = &[
    ",",
    ":",
    "[",
    "]",
    "{",
    "}",
    "\"",
    "\\",
    "\\u",
    "\\ud800",
    "\\udc00",
    "\\ud83d\\ude00",
    "\\x",
    "0",
    "01",
    "-",
    ".",
    "e",
    "E+",
    "1e400",
    "-1e309",
    "1.7976931348623157e308",
    "tru",
    "null",
    " ",
    "\n",
    "\u{0}",
    "\u{1f}",
    "é",
    ",]",
    ",}",
];

/// Text near JSON: a serde_json text cut short, or with a tricky piece spliced in.
fn near_json() -> impl Strategy<Value = String> {
    let spliced = (
        serde_value(),
        any::<prop::sample::Index>(),
        prop::sample::select(TRICKY),
    )
        .prop_map(|(v, at, piece)| {
            let text = v.to_string();
            let cut = char_boundary(&text, at.index(text.len() + 1));
            format!("{}{piece}{}", &text[..cut], &text[cut..])
        });
    let cut = (serde_value(), any::<prop::sample::Index>()).prop_map(|(v, at)| {
        let text = v.to_string();
        text[..char_boundary(&text, at.index(text.len() + 1))].to_owned()
    });
    let pieces =
        prop::collection::vec(prop::sample::select(TRICKY), 0..12).prop_map(|p| p.concat());
    prop_oneof![spliced, cut, pieces]
}

/// Whether every number in `v` reads as a finite float (Rust's parsing is correctly rounded).
fn all_numbers_finite(v: &json::Value) -> bool {
    match v {
        json::Value::Number(n) => n.as_str().parse::<f64>().is_ok_and(f64::is_finite),
        json::Value::Array(items) => items.iter().all(all_numbers_finite),
        json::Value::Object(map) => map.values().all(all_numbers_finite),
        _ => true,
    }
}

fn char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

proptest! {
    #![proptest_config(config(1024))]

    #[test]
    fn reads_and_writes_what_serde_json_writes(v in serde_value()) {
        let compact = serde_json::to_string(&v).expect("serde_json writes any value");
        let ours = json::from_str(&compact).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(json::to_string(&ours), compact.clone());
        let pretty = serde_json::to_string_pretty(&v).expect("serde_json writes any value");
        let ours = json::from_str(&pretty).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(json::to_string(&ours), compact);
    }

    #[test]
    fn accepts_what_serde_json_accepts(text in near_json()) {
        let theirs = serde_json::from_str::<serde_json::Value>(&text);
        let ours = json::from_str(&text);
        match (&theirs, &ours) {
            (Ok(theirs), Ok(ours)) => {
                // Ours keeps number text as it was (`1.0e2`): compare what serde_json reads
                // back from our text.
                let back: serde_json::Value = serde_json::from_str(&ours.to_string())
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(&back, theirs);
            }
            (Err(_), Err(_)) => {}
            // serde_json's default float parsing is not correctly rounded: close to f64::MAX it
            // may overflow where the exact value rounds to a finite float.
            (Err(e), Ok(ours)) if e.to_string().starts_with("number out of range") => {
                prop_assert!(all_numbers_finite(ours), "ours: {ours:?}");
            }
            _ => prop_assert!(false, "serde_json: {theirs:?}, ours: {ours:?}"),
        }
    }
}

/// Nesting: serde_json refuses the 128th level, and so does ours.
#[test]
fn depth_limit_is_serde_jsons() {
    for depth in [126, 127, 128, 129, 100_000] {
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let text = format!("{}1{}", open.repeat(depth), close.repeat(depth));
            assert_eq!(
                json::from_str(&text).is_ok(),
                serde_json::from_str::<serde_json::Value>(&text).is_ok(),
                "depth {depth} of {open}"
            );
        }
    }
}
