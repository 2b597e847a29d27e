//! Scores the default identifier extractor against the labelled development set
//! (`tests/fixtures/identifiers-dev.jsonl`, a copy of the shared eval file) and checks that
//! adversarial 1 MiB inputs complete with a bounded result.
//!
//! Run with `cargo test --test identifiers_eval -- --nocapture` to see the scores and misses.

use std::collections::HashSet;

use neotoma_agent_wasm::protocol::identifiers::extract_identifiers;
use serde_json::{self, Value};

struct Row {
    text: String,
    expected: Vec<String>,
}

fn parse_rows(data: &str) -> Vec<Row> {
    data.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: Value = serde_json::from_str(line).expect("valid JSON line");
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

/// The rows of a JSONL fixture under `tests/fixtures/`.
fn load_fixture(name: &str) -> Vec<Row> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let data = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    parse_rows(&data)
}

/// Scores a fixture file (see [`score`]): a held-out set is one more test calling this.
fn score_file(label: &str, name: &str) -> f64 {
    score(label, &load_fixture(name))
}

/// Scores the extractor over the union of all rows (exact string matching, duplicates in the
/// output counted once), prints the summary line and every miss and false positive, and
/// returns F1.
fn score(label: &str, rows: &[Row]) -> f64 {
    assert!(!rows.is_empty());
    let (mut tp, mut fp, mut fn_) = (0usize, 0usize, 0usize);
    let mut report = Vec::new();
    for row in rows {
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
    println!("{label}: precision {precision:.3} recall {recall:.3} F1 {f1:.3} ({tp}/{fp}/{fn_})");
    for line in &report {
        println!("{line}");
    }
    f1
}

#[test]
fn identifier_extraction_dev_set_f1() {
    let f1 = score_file("identifier extraction", "identifiers-dev.jsonl");
    assert!(f1 >= 0.9, "F1 {f1:.3} is below 0.9");
}

/// Chat text as users paste it (markdown, code, logs, lowercase, emoji, names in every script),
/// written for tuning this extractor; labelled by the rules of `identifiers-dev.jsonl`.
#[test]
fn identifier_extraction_chat_set_f1() {
    let f1 = score_file("identifier extraction (chat set)", "identifiers-chat.jsonl");
    assert!(f1 >= 0.98, "F1 {f1:.3} is below 0.98");
}

/// Chat messages labelled by an independent author (markdown notes, tables, logs, code, git
/// branches, many languages), by the rules of `identifiers-dev.jsonl` plus: dates, times and
/// log levels are not identifiers; nothing inside a larger identifier (a path, a URL) counts
/// separately; honorifics in any language, headings, labels and table header cells are not
/// identifiers; branch names and backticked code identifiers are. Labels fixed by the shared
/// rules (a country or union is a place's name): "EU" and "US" (row 16), "UK" (row 136).
/// Untuned F1 0.869; tuned by rules of shape, context and small word classes, not examples.
#[test]
fn identifier_extraction_chat_tune2_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune2 set)",
        "identifiers-chat-tune2.jsonl",
    );
    assert!(f1 >= 0.97, "F1 {f1:.3} is below 0.97");
}

/// A third independent author's chat messages (Slack-style mentions and emoji codes, tickets,
/// logs, code, many languages), by the same rules as the tune2 set; labels as delivered.
/// Untuned F1 0.856 (P 0.867 R 0.845); 0.912 after rules of shape and context (CSV cells,
/// JSON keys, a folder's trailing backslash, given names that are also words, a shop's
/// possessive after an article or in a table cell) and a department acronym ("IT").
#[test]
fn identifier_extraction_chat_tune3_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune3 set)",
        "identifiers-chat-tune3.jsonl",
    );
    assert!(f1 >= 0.94, "F1 {f1:.3} is below 0.94");
}

/// The held-out set: chat text of the same kinds (177 rows), written by another author apart
/// from the extractor, by the same rules as the tune2 set, and never looked at while tuning.
/// Its score is the estimate of how the extractor does on chat text it has not seen: F1 0.685
/// before the chat rules, 0.872 after the first tuning set, 0.887 after the second, 0.896 after
/// the third, 0.920 after the fourth and fifth, 0.924 after the sixth and seventh, 0.918 after
/// the eighth and ninth, 0.939 after names without capitals or case (names.txt) and the other
/// rules of that session.
#[test]
fn identifier_extraction_chat_heldout_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat held-out set)",
        "identifiers-chat-heldout.jsonl",
    );
    assert!(f1 >= 0.94, "F1 {f1:.3} is below 0.94");
}

/// A fourth independent author's workplace chat (standups, incidents, logs, tables, code review,
/// tickets, colleagues writing in their own scripts), by the same rules as the tune2 set.
/// Untuned F1 0.806; 0.885 (0.893 at the end of the session) after rules of shape and context (table header rows, a log's
/// key=value, titles after a name in any script, given names that are words, "and the" titles)
/// and small word classes of other languages (openers, weekdays, honorifics).
#[test]
fn identifier_extraction_chat_tune4_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune4 set)",
        "identifiers-chat-tune4.jsonl",
    );
    assert!(f1 >= 0.95, "F1 {f1:.3} is below 0.95");
}

/// A fifth independent author's personal-life messages (family, travel, shopping, media,
/// health, money; pasted e-mails and receipts; 16 languages), by the same rules.
/// Untuned F1 0.786; 0.853 after the same rules. What is left is mostly what no rule of shape
/// reaches: names typed in lowercase, unsegmented scripts, titles made of ordinary words
/// ("Gone with the Wind", "Pride and Prejudice").
#[test]
fn identifier_extraction_chat_tune5_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune5 set)",
        "identifiers-chat-tune5.jsonl",
    );
    assert!(f1 >= 0.92, "F1 {f1:.3} is below 0.92");
}

/// A sixth independent author: developers, maintainers and students (issues, repos, CLI output,
/// configs, papers, lowercase group chats, many scripts), by the same rules.
/// Untuned F1 0.820; 0.848 after rules of shape and context (s3:// and git:// URLs, a given
/// name before a colon or a surname and a verb, no "and the" title after an institution).
#[test]
fn identifier_extraction_chat_tune6_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune6 set)",
        "identifiers-chat-tune6.jsonl",
    );
    assert!(f1 >= 0.90, "F1 {f1:.3} is below 0.90");
}

/// A seventh independent author: small businesses and professionals (suppliers, clients,
/// invoices, orders, WhatsApp-style notes) and families writing in 18 languages, same rules.
/// Untuned F1 0.827; 0.859 after a name before an adjective suffix ("NASA-themed"), the
/// honorifics of five more languages and a few openers and generic acronyms.
#[test]
fn identifier_extraction_chat_tune7_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune7 set)",
        "identifiers-chat-tune7.jsonl",
    );
    assert!(f1 >= 0.91, "F1 {f1:.3} is below 0.91");
}

/// An eighth independent author: media, culture and public life (titles of books, films,
/// songs and games; teams, bands, museums, news; itineraries; lowercase fan chat), same rules.
/// Untuned F1 0.794; 0.810 after an ordinary word capitalised inside a sentence opens a title,
/// an elided d'/l' continues a name, and a place keeps its kind ("Kinkaku-ji"). What is left is
/// mostly titles made of ordinary words and names typed in lowercase.
#[test]
fn identifier_extraction_chat_tune8_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune8 set)",
        "identifiers-chat-tune8.jsonl",
    );
    assert!(f1 >= 0.86, "F1 {f1:.3} is below 0.86");
}

/// A ninth independent author: operations and admin (helpdesk, SRE notes, cloud ids, finance,
/// HR, e-mail headers, minutes; colleagues writing in six languages), same rules.
/// Untuned F1 0.810; 0.845 after ARNs, digests and image references as ids, generic IT
/// acronyms, German articles opening a sentence, and a shop's possessive before an amount.
#[test]
fn identifier_extraction_chat_tune9_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune9 set)",
        "identifiers-chat-tune9.jsonl",
    );
    assert!(f1 >= 0.92, "F1 {f1:.3} is below 0.92");
}

/// A fourth held-out set (171 rows, 356 identifiers: a third of it in other scripts, a sixth
/// typed in lowercase), written blind by a helper that saw neither the extractor nor its word
/// lists, after the names without capitals or case (names.txt) were written: it measures
/// whether that gazetteer generalises. Only its summary line is read: F1 0.792 before
/// names.txt, 0.868 with it, 0.904 after the rest of that session.
#[test]
fn identifier_extraction_chat_heldout4_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat held-out set 4)",
        "identifiers-chat-heldout4.jsonl",
    );
    assert!(f1 >= 0.91, "F1 {f1:.3} is below 0.91");
}

/// A tenth author (170 rows, 319 identifiers), written blind after names.txt: lowercase
/// names, Chinese, Japanese and Korean, other scripts, markdown and logs, tricky English.
#[test]
fn identifier_extraction_chat_tune10_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune10 set)",
        "identifiers-chat-tune10.jsonl",
    );
    assert!(f1 >= 0.92, "F1 {f1:.3} is below 0.92");
}

/// A fifth held-out set (180 rows, 371 identifiers: a cross-section, a quarter in other
/// languages and scripts), written blind by a helper at the end of the session that wrote
/// names.txt, after most of that session's rules (not: another language's sentence openings,
/// greetings, labels after a comma, titles of two nouns, listed shops, technical acronyms, nouns
/// by their ending, more listed names): only its summary line is
/// read. F1 0.795 before the session, 0.855 when it arrived, 0.877 after the rest.
#[test]
fn identifier_extraction_chat_heldout5_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat held-out set 5)",
        "identifiers-chat-heldout5.jsonl",
    );
    assert!(f1 >= 0.90, "F1 {f1:.3} is below 0.90");
}

/// An eleventh author (164 rows, 378 identifiers), written blind: work chat (incidents, logs,
/// config, CRM notes, invoices, hiring, minutes in markdown), a few colleagues in other
/// languages; many capitalised words that name nothing.
#[test]
fn identifier_extraction_chat_tune11_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune11 set)",
        "identifiers-chat-tune11.jsonl",
    );
    assert!(f1 >= 0.94, "F1 {f1:.3} is below 0.94");
}

/// A twelfth author (160 rows, 290 identifiers), written blind: personal life in English
/// (a third of it typed in lowercase) and in ten other Latin-script languages.
#[test]
fn identifier_extraction_chat_tune12_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune12 set)",
        "identifiers-chat-tune12.jsonl",
    );
    assert!(f1 >= 0.91, "F1 {f1:.3} is below 0.91");
}

/// A thirteenth author (160 rows), written blind in the fifth session: personal life, half of
/// it typed in lowercase, names of many origins, shops and brands in lowercase. F1 0.729 when
/// it arrived, 0.866 after that session's rules (the English filter for lowercase names).
#[test]
fn identifier_extraction_chat_tune13_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune13 set)",
        "identifiers-chat-tune13.jsonl",
    );
    assert!(f1 >= 0.85, "F1 {f1:.3} is below 0.85");
}

/// A fourteenth author (168 rows), written blind in the fifth session: work chat (markdown
/// notes and tables, Key: Value notes, logs, paths, IPs, tickets, @handles and #channels).
/// F1 0.934 when it arrived, 0.969 after that session's rules.
#[test]
fn identifier_extraction_chat_tune14_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune14 set)",
        "identifiers-chat-tune14.jsonl",
    );
    assert!(f1 >= 0.96, "F1 {f1:.3} is below 0.96");
}

/// A fifteenth author (163 rows), written blind in the fifth session: other languages only
/// (Romance, Dutch and German; scripts without case; Russian, Greek, Polish, Turkish,
/// Vietnamese, Indonesian and mixes with English). F1 0.741 when it arrived, 0.861 after.
#[test]
fn identifier_extraction_chat_tune15_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune15 set)",
        "identifiers-chat-tune15.jsonl",
    );
    assert!(f1 >= 0.85, "F1 {f1:.3} is below 0.85");
}

/// A sixth held-out set (165 rows: an even mix of personal, work and other languages and
/// scripts, and the cases the issue names), written blind at the start of the fifth session;
/// only its summary line is read. F1 0.883 when it arrived, 0.930 after that session's rules.
#[test]
fn identifier_extraction_chat_heldout6_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat held-out set 6)",
        "identifiers-chat-heldout6.jsonl",
    );
    assert!(f1 >= 0.92, "F1 {f1:.3} is below 0.92");
}

/// A sixteenth author (173 rows), written blind in the sixth session: the held-out sets' mix
/// (personal, work, other languages and scripts, the cases the issue names). F1 0.880 when
/// it arrived, 0.918 after that session's rules.
#[test]
fn identifier_extraction_chat_tune16_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune16 set)",
        "identifiers-chat-tune16.jsonl",
    );
    assert!(f1 >= 0.91, "F1 {f1:.3} is below 0.91");
}

/// A seventeenth author (159 rows), written blind in the sixth session: titles of books, films,
/// songs and games, names that are English words at and after a sentence's start, lowercase
/// names as subjects and after "the" or "my", other languages. F1 0.790 when it arrived,
/// 0.826 after that session's rules.
#[test]
fn identifier_extraction_chat_tune17_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune17 set)",
        "identifiers-chat-tune17.jsonl",
    );
    assert!(f1 >= 0.81, "F1 {f1:.3} is below 0.81");
}

/// An eighteenth author (165 rows), written blind in the sixth session after that session's
/// first rules: the held-out sets' mix. F1 0.899 when it arrived (0.887 with the rules of the
/// session's start), 0.906 after the session.
#[test]
fn identifier_extraction_chat_tune18_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune18 set)",
        "identifiers-chat-tune18.jsonl",
    );
    assert!(f1 >= 0.89, "F1 {f1:.3} is below 0.89");
}

/// A nineteenth author (167 rows), written blind in the sixth session after that session's
/// first rules: the same mix, more languages and given names that are words. F1 0.897 when it
/// arrived (0.894 with the rules of the session's start), 0.915 after the session.
#[test]
fn identifier_extraction_chat_tune19_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune19 set)",
        "identifiers-chat-tune19.jsonl",
    );
    assert!(f1 >= 0.90, "F1 {f1:.3} is below 0.90");
}

/// Tune20: written blind at the start of session 7 (0.000 on arrival), then tuned on.
#[test]
fn identifier_extraction_chat_tune20_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune20 set)",
        "identifiers-chat-tune20.jsonl",
    );
    assert!(f1 >= 0.80, "F1 {f1:.3} is below 0.80");
}

/// Tune21 and tune22: two more authors, written blind in the seventh session after its first
/// rules (F1 0.931 and 0.925 on arrival), then tuned on.
#[test]
fn identifier_extraction_chat_tune21_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune21 set)",
        "identifiers-chat-tune21.jsonl",
    );
    assert!(f1 >= 0.80, "F1 {f1:.3} is below 0.80");
}

#[test]
fn identifier_extraction_chat_tune22_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune22 set)",
        "identifiers-chat-tune22.jsonl",
    );
    assert!(f1 >= 0.80, "F1 {f1:.3} is below 0.80");
}

/// Tune23 and tune24: two more authors, written blind at the start of session 8 (F1 0.916 and
/// 0.932 on arrival), then tuned on.
#[test]
fn identifier_extraction_chat_tune23_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune23 set)",
        "identifiers-chat-tune23.jsonl",
    );
    assert!(f1 >= 0.80, "F1 {f1:.3} is below 0.80");
}

#[test]
fn identifier_extraction_chat_tune24_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune24 set)",
        "identifiers-chat-tune24.jsonl",
    );
    assert!(f1 >= 0.80, "F1 {f1:.3} is below 0.80");
}

/// Tune25: written blind in session 8 and scored on arrival after its rules up to the larger
/// gazetteer of names in scripts without case (F1 0.925), then tuned on.
#[test]
fn identifier_extraction_chat_tune25_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune25 set)",
        "identifiers-chat-tune25.jsonl",
    );
    assert!(f1 >= 0.80, "F1 {f1:.3} is below 0.80");
}

/// Tune27 and tune28: written blind in session 8 and scored on arrival after its rules (F1
/// 0.909 and 0.933), then tuned on.
#[test]
fn identifier_extraction_chat_tune27_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune27 set)",
        "identifiers-chat-tune27.jsonl",
    );
    assert!(f1 >= 0.80, "F1 {f1:.3} is below 0.80");
}

#[test]
fn identifier_extraction_chat_tune28_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune28 set)",
        "identifiers-chat-tune28.jsonl",
    );
    assert!(f1 >= 0.80, "F1 {f1:.3} is below 0.80");
}

/// Tune29 and tune30: written blind at the start of session 9 and scored on arrival, after its
/// first two rules (F1 0.945 and 0.925; 0.945 and 0.920 with the session's starting rules),
/// then tuned on.
#[test]
fn identifier_extraction_chat_tune29_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune29 set)",
        "identifiers-chat-tune29.jsonl",
    );
    assert!(f1 >= 0.80, "F1 {f1:.3} is below 0.80");
}

#[test]
fn identifier_extraction_chat_tune30_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune30 set)",
        "identifiers-chat-tune30.jsonl",
    );
    assert!(f1 >= 0.80, "F1 {f1:.3} is below 0.80");
}

/// Tune26: written blind in session 8 and scored on arrival after its first rules (F1 0.933),
/// then tuned on.
#[test]
fn identifier_extraction_chat_tune26_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat tune26 set)",
        "identifiers-chat-tune26.jsonl",
    );
    assert!(f1 >= 0.80, "F1 {f1:.3} is below 0.80");
}

/// A seventh held-out set (165 rows, the mix of the sixth), written blind at the start of the
/// sixth session; only its summary line is read. F1 0.873 when it arrived, 0.884 after that
/// session's rules.
#[test]
fn identifier_extraction_chat_heldout7_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat held-out set 7)",
        "identifiers-chat-heldout7.jsonl",
    );
    assert!(f1 >= 0.87, "F1 {f1:.3} is below 0.87");
}

/// An eighth held-out set (167 rows, the mix of the sixth), written blind at the end of the
/// sixth session, after its last rule; only its summary line is read. F1 0.908 when it
/// arrived: what the extractor scores on text no rule has seen.
#[test]
fn identifier_extraction_chat_heldout8_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat held-out set 8)",
        "identifiers-chat-heldout8.jsonl",
    );
    assert!(f1 >= 0.90, "F1 {f1:.3} is below 0.90");
}

/// A third held-out set (220 rows: a cross-section of personal, work and study messages, a
/// quarter in other languages), written apart from the extractor: F1 0.826 when it arrived
/// (after the tune7 rules), 0.827 after tune8/tune9, 0.825 after the Thai, Hindi and Arabic
/// titles, 0.875 after names without capitals or case (names.txt) and the other rules of that
/// session. Some of its misses were printed once, mixed with tune9's, while tuning (12:2x UTC,
/// 2026-12-02); no rule was written from them.
#[test]
fn identifier_extraction_chat_heldout3_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat held-out set 3)",
        "identifiers-chat-heldout3.jsonl",
    );
    assert!(f1 >= 0.90, "F1 {f1:.3} is below 0.90");
}

/// A second held-out set (176 rows, half work, half personal, 25 languages), written apart from
/// the extractor by the same rules and never looked at while tuning: F1 0.807 before the
/// tune4/tune5 rules, 0.838 after, 0.841 after tune6/tune7 and after tune8/tune9, 0.884 after
/// names without capitals or case and that session's rules. Harder than the first held-out set (more scripts without
/// spaces or case, more lowercase names, more titles), so the two bracket the estimate.
#[test]
fn identifier_extraction_chat_heldout2_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat held-out set 2)",
        "identifiers-chat-heldout2.jsonl",
    );
    assert!(f1 >= 0.90, "F1 {f1:.3} is below 0.90");
}

/// Extra messages written for this extractor (not tuned against the dev set), labelled by
/// the same rules as `identifiers-dev.jsonl`. A check that the rules generalise.
const EXTRA_ROWS: &str = r##"
{"text": "Who was at the Globex offsite in Denver?", "expected": ["Globex", "Denver"]}
{"text": "Remind me to send Priya the Q3 numbers on Friday.", "expected": ["Priya"]}
{"text": "Has Initech paid invoice INV-3310 yet?", "expected": ["Initech", "INV-3310"]}
{"text": "What did Dr. Patel say about my MRI results?", "expected": ["Patel"]}
{"text": "Save the link https://example.com/reports/2024 for later.", "expected": ["https://example.com/reports/2024"]}
{"text": "Email tom.baker@initech.com the signed contract.", "expected": ["tom.baker@initech.com"]}
{"text": "Is the Lisbon apartment still listed on Airbnb?", "expected": ["Lisbon", "Airbnb"]}
{"text": "Thanks! That's perfect.", "expected": []}
{"text": "yes", "expected": []}
{"text": "Can you find my notes on \"Operation Bluebird\"?", "expected": ["Operation Bluebird"]}
{"text": "My Chase card ending 4421 was declined at Target.", "expected": ["Chase", "Target"]}
{"text": "Schedule lunch with Maria Gonzalez and Kenji Watanabe next Thursday.", "expected": ["Maria Gonzalez", "Kenji Watanabe"]}
{"text": "How do I reset my GitHub token?", "expected": ["GitHub"]}
{"text": "The VPN server at 10.0.4.21 keeps dropping.", "expected": ["10.0.4.21"]}
{"text": "Link ent_a81f77c0de to the Phoenix project.", "expected": ["ent_a81f77c0de", "Phoenix"]}
{"text": "Tell Jordan that the Seattle trip is off.", "expected": ["Jordan", "Seattle"]}
{"text": "What's the status of ticket OPS-1187?", "expected": ["OPS-1187"]}
{"text": "Did University of Michigan reply to my application?", "expected": ["University of Michigan"]}
{"text": "Ask @lena_k whether the Figma file is ready.", "expected": ["@lena_k", "Figma"]}
{"text": "Log a $45 expense for Uber on Tuesday.", "expected": ["Uber"]}
{"text": "Where did I put the 'tax returns 2023' folder?", "expected": ["tax returns 2023"]}
{"text": "Compare Notion, Obsidian and Evernote for note taking.", "expected": ["Notion", "Obsidian", "Evernote"]}
{"text": "The confirmation code for the Marriott is 7HQ2KX.", "expected": ["Marriott", "7HQ2KX"]}
{"text": "Move the dentist appointment with Dr. Lee to next week.", "expected": ["Lee"]}
{"text": "Please add Zürich and Genève to the travel list.", "expected": ["Zürich", "Genève"]}
{"text": "Which files did Ahmed share from Dropbox?", "expected": ["Ahmed", "Dropbox"]}
{"text": "Rename `draft_v2` to `final_report`.", "expected": ["draft_v2", "final_report"]}
{"text": "Any news from Goldman Sachs or J.P. Morgan?", "expected": ["Goldman Sachs", "J.P. Morgan"]}
{"text": "I paid 300 euros for the hotel in Rome.", "expected": ["Rome"]}
{"text": "When does my Netflix trial end?", "expected": ["Netflix"]}
{"text": "Delete the reminder about Kevin's party.", "expected": ["Kevin"]}
{"text": "Good morning! What's on my calendar today?", "expected": []}
{"text": "Order #99812 from Best Buy never arrived.", "expected": ["#99812", "Best Buy"]}
{"text": "Does Stanford University have the transcript?", "expected": ["Stanford University"]}
{"text": "Text Carlos the address of the Brooklyn Museum.", "expected": ["Carlos", "Brooklyn Museum"]}
{"text": "The PDF from HMRC is in my downloads.", "expected": ["HMRC"]}
{"text": "Summarize the call with Acme Corp and Wayne Enterprises.", "expected": ["Acme Corp", "Wayne Enterprises"]}
{"text": "Find the receipt for the iPad I bought in April.", "expected": ["iPad"]}
{"text": "Is acme.io still pointing at the old server?", "expected": ["acme.io"]}
{"text": "Ping the team on Slack about the AWS bill.", "expected": ["Slack", "AWS"]}
{"text": "What is Sofia's phone number?", "expected": ["Sofia"]}
{"text": "Our account number at Deutsche Bank is 2290-1187-44.", "expected": ["Deutsche Bank", "2290-1187-44"]}
{"text": "Book a room at the Ritz-Carlton in Kyoto for March.", "expected": ["Ritz-Carlton", "Kyoto"]}
{"text": "Nothing else, thanks.", "expected": []}
{"text": "Show me everything tagged ‘garden ideas’.", "expected": ["garden ideas"]}
{"text": "Who owns the Hudson Yards project at Turner Construction?", "expected": ["Hudson Yards", "Turner Construction"]}
{"text": "Add Mrs. Okafor to the PTA contact list.", "expected": ["Okafor", "PTA"]}
{"text": "Did the shipment 1Z999AA10123456784 arrive?", "expected": ["1Z999AA10123456784"]}
{"text": "I met Lucía and François at the Madrid conference.", "expected": ["Lucía", "François", "Madrid"]}
{"text": "Remind me what LinkedIn said about the Premium refund.", "expected": ["LinkedIn", "Premium"]}
{"text": "Check the Grafana dashboard for prod-db-03.", "expected": ["Grafana", "prod-db-03"]}
{"text": "What was the name of the Italian restaurant Ben liked?", "expected": ["Ben"]}
{"text": "My landlord Mr. Schwartz wants the rent by the 5th.", "expected": ["Schwartz"]}
{"text": "Forward the McKinsey deck to Rachel.", "expected": ["McKinsey", "Rachel"]}
{"text": "Cancel booking ref ZX81KQ with Lufthansa.", "expected": ["ZX81KQ", "Lufthansa"]}
{"text": "How much have we spent with Amazon Web Services this year?", "expected": ["Amazon Web Services"]}
{"text": "The kids' school, Lincoln Elementary, closes early Friday.", "expected": ["Lincoln Elementary"]}
{"text": "Update the address for ent_55c0ffee12 to 42 Elm Street.", "expected": ["ent_55c0ffee12", "42 Elm Street"]}
{"text": "Did Apple approve the TestFlight build?", "expected": ["Apple", "TestFlight"]}
{"text": "Note: Hannah prefers WhatsApp over SMS.", "expected": ["Hannah", "WhatsApp"]}
{"text": "Hey, quick one. Did Marcus ever send the Henderson proposal?", "expected": ["Marcus", "Henderson"]}
{"text": "I'm flying to Tokyo on JAL next month, confirmation JL-77QX.", "expected": ["Tokyo", "JAL", "JL-77QX"]}
{"text": "Where are the photos from Yosemite?", "expected": ["Yosemite"]}
{"text": "Can you remember that Olivia is allergic to peanuts?", "expected": ["Olivia"]}
{"text": "Create a task to renew the SSL cert for api.acme.dev.", "expected": ["api.acme.dev"]}
{"text": "What's the balance on my Wells Fargo checking account?", "expected": ["Wells Fargo"]}
{"text": "Follow up with Prof. Ingrid Larsen about the thesis.", "expected": ["Ingrid Larsen"]}
{"text": "Put 'call the plumber' on tomorrow's list.", "expected": ["call the plumber"]}
{"text": "Who is the account manager at Salesforce?", "expected": ["Salesforce"]}
{"text": "Sam and Alex both want the Sonos speaker.", "expected": ["Sam", "Alex", "Sonos"]}
{"text": "Find anything mentioning ticket #5521 or SUP-881.", "expected": ["#5521", "SUP-881"]}
{"text": "My brother Daniel lives in Porto Alegre now.", "expected": ["Daniel", "Porto Alegre"]}
{"text": "Reply to Emily: sounds good, see you at Café Luna.", "expected": ["Emily", "Café Luna"]}
{"text": "How often does the Peloton subscription bill?", "expected": ["Peloton"]}
{"text": "Archive everything from the old Trello board.", "expected": ["Trello"]}
{"text": "When is the next PTA meeting at Oakwood Middle School?", "expected": ["PTA", "Oakwood Middle School"]}
{"text": "Did HR approve my PTO for the Hawaii trip?", "expected": ["Hawaii"]}
{"text": "Track package 9400111899223344556677 from USPS.", "expected": ["9400111899223344556677", "USPS"]}
{"text": "What's the wifi password at Grandma's house?", "expected": []}
{"text": "Write down that the Subaru needs an oil change at 60,000 miles.", "expected": ["Subaru"]}
{"text": "The meeting with the board of directors moved to 3 PM.", "expected": []}
{"text": "Tell me about Ravi Shankar's startup, Nimbus Labs.", "expected": ["Ravi Shankar", "Nimbus Labs"]}
{"text": "Is my passport number X1234567 saved anywhere?", "expected": ["X1234567"]}
{"text": "Send the minutes to board@nonprofit.org.", "expected": ["board@nonprofit.org"]}
{"text": "Maybe ask Javier if the Barcelona apartment is free in August.", "expected": ["Javier", "Barcelona"]}
{"text": "What did I note about the Tesla recall?", "expected": ["Tesla"]}
{"text": "Please stop reminding me about Duolingo.", "expected": ["Duolingo"]}
{"text": "Did I ever pay back Jess for the Coldplay tickets?", "expected": ["Jess", "Coldplay"]}
{"text": "The router admin page is at 192.168.0.1.", "expected": ["192.168.0.1"]}
{"text": "How's the Kowalski family doing?", "expected": ["Kowalski"]}
{"text": "Store this: garage code 8812, gate code 0447.", "expected": []}
{"text": "Are Anna and Ben still coming to the BBQ on Saturday?", "expected": ["Anna", "Ben"]}
{"text": "Look up the warranty for my Dyson V11.", "expected": ["Dyson V11"]}
{"text": "Meeting notes: Globex wants a 10% discount, Initech is undecided.", "expected": ["Globex", "Initech"]}
{"text": "Who handles the Kraft Heinz account now?", "expected": ["Kraft Heinz"]}
{"text": "List all contacts from Vancouver.", "expected": ["Vancouver"]}
{"text": "Ok cool, and what about the Oslo office?", "expected": ["Oslo"]}
{"text": "Any emails from noreply@github.com today?", "expected": ["noreply@github.com"]}
{"text": "Please update the doc at docs.google.com/document/d/1AbC.", "expected": ["docs.google.com/document/d/1AbC"]}
{"text": "I owe Mike Chen $85 for concert tickets.", "expected": ["Mike Chen"]}
{"text": "hey can u check if priya replied", "expected": ["priya"]}
{"text": "Groceries: milk, eggs, Kerrygold butter.", "expected": ["Kerrygold"]}
{"text": "Need the W-9 from Acme Holdings LLC.", "expected": ["W-9", "Acme Holdings LLC"]}
{"text": "Dinner at Nando's with Chloe 🎉", "expected": ["Nando's", "Chloe"]}
{"text": "What time is Leo's recital?", "expected": ["Leo"]}
{"text": "Vacation plans for Bali are in the shared doc.", "expected": ["Bali"]}
{"text": "Add to my list:\n- Call Verizon\n- Email Dr. Kim\n- Pay the PG&E bill", "expected": ["Verizon", "Kim", "PG&E"]}
{"text": "Hmm, I think Walter mentioned a place called \"The Copper Pot\".", "expected": ["Walter", "The Copper Pot"]}
{"text": "Remind me when the Costco membership expires.", "expected": ["Costco"]}
{"text": "Is Ms. Rivera still our contact at the Denver Post?", "expected": ["Rivera", "Denver Post"]}
{"text": "the cat's vet appointment is with Dr. Alvarez at Paws & Claws", "expected": ["Alvarez", "Paws & Claws"]}
{"text": "Show me notes from last week's standup.", "expected": []}
{"text": "Who's the landlord for 18 Maple Court?", "expected": ["18 Maple Court"]}
{"text": "Anything new from the New York office?", "expected": ["New York"]}
{"text": "Which Airbnb did we stay at in Cape Town?", "expected": ["Airbnb", "Cape Town"]}
{"text": "Please log that I ran 5k with the Hackney Harriers.", "expected": ["Hackney Harriers"]}
{"text": "Honestly I don't remember what Zoe said.", "expected": ["Zoe"]}
{"text": "Get me the PDF of the Wilson lease agreement.", "expected": ["Wilson"]}
{"text": "My Verizon bill says account 882-991-20.", "expected": ["Verizon", "882-991-20"]}
{"text": "Sync with Marta about the H&M campaign.", "expected": ["Marta", "H&M"]}
{"text": "OK. Next: book the Eurostar to Brussels.", "expected": ["Eurostar", "Brussels"]}
{"text": "Did anyone from Microsoft Teams support reach out?", "expected": ["Microsoft Teams"]}
{"text": "The UUID is 3f2504e0-4f89-11d3-9a0c-0305e82c3301.", "expected": ["3f2504e0-4f89-11d3-9a0c-0305e82c3301"]}
{"text": "Was it Hannah or Hana who joined Deloitte?", "expected": ["Hannah", "Hana", "Deloitte"]}
{"text": "Thanks so much, you're the best!", "expected": []}
{"text": "Tag this with 'kitchen remodel' and 'budget'.", "expected": ["kitchen remodel", "budget"]}
{"text": "Where did Noah go to college? Was it Boston University?", "expected": ["Noah", "Boston University"]}
{"text": "Copy the notes from ent_0c1d2e3f4a into the Smith file.", "expected": ["ent_0c1d2e3f4a", "Smith"]}
{"text": "Who at Pfizer did I meet in Basel?", "expected": ["Pfizer", "Basel"]}
{"text": "Remind Rob to bring the HDMI cable.", "expected": ["Rob"]}
"##;

#[test]
fn identifier_extraction_extra_set_f1() {
    let f1 = score("identifier extraction (extra set)", &parse_rows(EXTRA_ROWS));
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
        ("names in unspaced text", fill("张伟和李娜去北京上海深圳，")),
        (
            "listed openings",
            fill("上海上海上海上海上海上海上海上海上"),
        ),
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

/// A ninth held-out set (172 rows, the same mix), written blind at the start of the seventh
/// session and first scored after its last rule; only its summary line is read. F1 0.912 when
/// first scored (0.899 with the rules of the session's start).
#[test]
fn identifier_extraction_chat_heldout9_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat held-out set 9)",
        "identifiers-chat-heldout9.jsonl",
    );
    assert!(f1 >= 0.85, "F1 {f1:.3} is below 0.85");
}

/// A tenth held-out set (175 rows, the same mix), written blind at the start of the eighth
/// session and first scored after its last rule; only its summary line is read. F1 0.904 when
/// first scored (0.897 with the rules of the session's start).
#[test]
fn identifier_extraction_chat_heldout10_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat held-out set 10)",
        "identifiers-chat-heldout10.jsonl",
    );
    assert!(f1 >= 0.85, "F1 {f1:.3} is below 0.85");
}

/// An eleventh held-out set (172 rows, the same mix), written blind in the middle of the
/// eighth session, after held-out 10 was scored, and first scored after the session's last
/// rule; only its summary line is read. F1 0.924 when first scored (0.915 with the rules of the
/// session's start).
#[test]
fn identifier_extraction_chat_heldout11_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat held-out set 11)",
        "identifiers-chat-heldout11.jsonl",
    );
    assert!(f1 >= 0.85, "F1 {f1:.3} is below 0.85");
}

/// A twelfth held-out set (177 rows, the same mix), written blind late in the eighth session,
/// after held-out 11 was scored, and first scored after the session's last rule; only its
/// summary line is read. F1 0.911 when first scored (0.901 with the rules of the session's
/// start).
#[test]
fn identifier_extraction_chat_heldout12_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat held-out set 12)",
        "identifiers-chat-heldout12.jsonl",
    );
    assert!(f1 >= 0.85, "F1 {f1:.3} is below 0.85");
}

/// A thirteenth held-out set (176 rows, the same mix), written blind at the start of the ninth
/// session and first scored after the session's last rule; only its summary line is read. F1
/// 0.932 when first scored (0.925 with the rules of the session's start).
#[test]
fn identifier_extraction_chat_heldout13_set_f1() {
    let f1 = score_file(
        "identifier extraction (chat held-out set 13)",
        "identifiers-chat-heldout13.jsonl",
    );
    assert!(f1 >= 0.85, "F1 {f1:.3} is below 0.85");
}

/// No message cut anywhere panics: windows of 40 chars starting at every fourth char of every
/// fixture's text (a cut leaves labels, quotes, possessives and names half-open, where a slice
/// off a char boundary would panic; one did, in a rule's first version).
#[test]
fn identifier_extraction_survives_messages_cut_anywhere() {
    let dir = format!("{}/tests/fixtures", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("identifiers-") && n.ends_with(".jsonl"))
        .collect();
    names.sort();
    let mut windows = 0;
    for name in names {
        for row in load_fixture(&name) {
            let starts: Vec<usize> = row.text.char_indices().map(|(i, _)| i).collect();
            for (k, &i) in starts.iter().enumerate().step_by(4) {
                let j = starts.get(k + 40).copied().unwrap_or(row.text.len());
                let window = &row.text[i..j];
                // Every span is written in the window, as the extractor promises.
                for found in extract_identifiers(window) {
                    assert!(
                        !found.is_empty() && window.contains(found.as_str()),
                        "{found:?} from {window:?}"
                    );
                }
                windows += 1;
            }
        }
    }
    assert!(windows > 50_000, "{windows} windows");
}
