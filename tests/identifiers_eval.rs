//! Scores the default identifier extractor against the labelled development set
//! (`tests/fixtures/identifiers-dev.jsonl`, a copy of the shared eval file) and checks that
//! adversarial 1 MiB inputs complete with a bounded result.
//!
//! Run with `cargo test --test identifiers_eval -- --nocapture` to see the scores and misses.

use std::collections::HashSet;

use neotoma_agent_wasm::protocol::identifiers::extract_identifiers;

struct Row {
    text: String,
    expected: Vec<String>,
}

fn load_rows() -> Vec<Row> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/identifiers-dev.jsonl"
    );
    let data = std::fs::read_to_string(path).expect("read identifiers-dev.jsonl");
    data.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("valid JSON line");
            let text = v["text"].as_str().expect("text").to_string();
            let expected = v["expected"]
                .as_array()
                .expect("expected array")
                .iter()
                .map(|e| e.as_str().expect("string identifier").to_string())
                .collect();
            Row { text, expected }
        })
        .collect()
}

#[test]
fn identifier_extraction_dev_set_f1() {
    let rows = load_rows();
    assert!(!rows.is_empty());
    let (mut tp, mut fp, mut fn_) = (0usize, 0usize, 0usize);
    let mut report = Vec::new();
    for row in &rows {
        // Duplicates in the output count once.
        let got: Vec<String> = {
            let mut seen = HashSet::new();
            extract_identifiers(&row.text)
                .into_iter()
                .filter(|g| seen.insert(g.clone()))
                .collect()
        };
        let expected: HashSet<&str> = row.expected.iter().map(String::as_str).collect();
        let got_set: HashSet<&str> = got.iter().map(String::as_str).collect();
        for g in &got {
            if expected.contains(g.as_str()) {
                tp += 1;
            } else {
                fp += 1;
                report.push(format!("  false positive {g:?} in {:?}", row.text));
            }
        }
        for e in &row.expected {
            if !got_set.contains(e.as_str()) {
                fn_ += 1;
                report.push(format!("  miss {e:?} in {:?} (got {got:?})", row.text));
            }
        }
    }
    let precision = if tp + fp == 0 {
        1.0
    } else {
        tp as f64 / (tp + fp) as f64
    };
    let recall = if tp + fn_ == 0 {
        1.0
    } else {
        tp as f64 / (tp + fn_) as f64
    };
    let f1 = if precision + recall == 0.0 {
        0.0
    } else {
        2.0 * precision * recall / (precision + recall)
    };
    println!(
        "identifier extraction: precision {precision:.3} recall {recall:.3} F1 {f1:.3} ({tp}/{fp}/{fn_})"
    );
    for line in &report {
        println!("{line}");
    }
    assert!(f1 >= 0.9, "F1 {f1:.3} is below 0.9");
}

fn adversarial_inputs() -> Vec<(&'static str, String)> {
    const MIB: usize = 1 << 20;
    let fill = |unit: &str| -> String {
        let mut s = String::with_capacity(MIB + unit.len());
        while s.len() < MIB {
            s.push_str(unit);
        }
        s
    };
    // A deterministic pseudo-random word salad.
    let words = [
        "the", "Globex", "meeting", "of", "Bank", "INV-2041", "\"open", "'quote", "São", "x", "&",
        "Dr.", "ok.", "@h", "#12", "a.b.c", "‘", "“", "`", "de", "Maria's", "1234",
    ];
    let mut salad = String::with_capacity(MIB + 16);
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    while salad.len() < MIB {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        salad.push_str(words[(state % words.len() as u64) as usize]);
        salad.push(' ');
    }
    vec![
        ("1 MiB of 'x'", "x".repeat(MIB)),
        ("capitalised words", fill("Alpha Beta ")),
        ("unclosed double quotes", fill("\"a ")),
        ("unclosed single quotes", fill("'a ")),
        ("unclosed curly quotes", fill("“a ")),
        ("unclosed backticks", fill("`a ")),
        ("one long line of quotes", "\"".repeat(MIB)),
        ("apostrophes", "'".repeat(MIB)),
        ("connectors", fill("Bank of ")),
        ("dots", fill("a.")),
        ("hyphens", fill("A-1-")),
        ("at signs", "@".repeat(MIB)),
        ("multibyte", fill("é")),
        ("combining marks", fill("e\u{301}")),
        ("url", format!("https://{}", "a".repeat(MIB))),
        ("word salad", salad),
    ]
}

#[test]
fn identifier_extraction_adversarial_inputs_are_bounded() {
    for (name, text) in adversarial_inputs() {
        let out = extract_identifiers(&text);
        assert!(out.len() <= 64, "{name}: {} identifiers", out.len());
        for id in &out {
            assert!(
                id.chars().count() <= 200,
                "{name}: identifier of {} chars",
                id.chars().count()
            );
        }
    }
}
