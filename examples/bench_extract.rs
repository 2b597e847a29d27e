//! Times the default identifier extractor on 1 KB, 100 KB and 1 MiB of typical chat text and
//! of adversarial text (runs of capitals, quotes, separators, unclosed quotes, long tokens…).
//!
//! `cargo run --release --example bench_extract` prints a table; `-- --json` prints one JSON
//! object instead (for `make bench`); `-- --only NAME` runs the inputs whose name contains NAME
//! and `-- --size SIZE` those of one size (for a profiler: `valgrind --tool=callgrind
//! target/release/examples/bench_extract --only chat --size "1 MiB"`; at 1 KB the first sight of
//! each token, which the extractor remembers within a text, weighs far more). `scripts/bench/extraction.mjs` (`node scripts/bench/part.mjs extraction`) times the wasm build on
//! the same inputs (the chat lines are read by both; the generators below are mirrored there: keep
//! them in step).

use std::time::Instant;

use neotoma_agent_wasm::protocol::identifiers::extract_identifiers;

const SIZES: [(&str, usize); 3] = [("1 KB", 1_000), ("100 KB", 100_000), ("1 MiB", 1 << 20)];

/// Messages as users write them (prose, markdown, code, logs, lowercase, emoji, other scripts):
/// one JSON string a line, shared with `scripts/bench/extraction.mjs`.
fn chat_lines() -> Vec<String> {
    include_str!("../tests/fixtures/bench-chat.jsonl")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON string"))
        .collect()
}

/// `unit` repeated up to `size` bytes (at least once).
fn fill(unit: &str, size: usize) -> String {
    let mut s = String::with_capacity(size + unit.len());
    while s.len() < size {
        s.push_str(unit);
    }
    s
}

/// Chat messages, one a line, in a fixed shuffled order, up to `size` bytes.
fn chat(size: usize) -> String {
    let lines = chat_lines();
    let mut s = String::with_capacity(size + 256);
    let mut k = 0;
    while s.len() < size {
        s.push_str(&lines[(k * 7) % lines.len()]);
        s.push('\n');
        k += 1;
    }
    s
}

/// `unit` with `{k}` replaced by a counter (0, 1, 2, …), repeated until the text has `size` bytes.
fn counted(unit: &str, size: usize) -> String {
    let mut s = String::with_capacity(size + 64);
    let mut k = 0;
    while s.len() < size {
        s.push_str(&unit.replace("{k}", &k.to_string()));
        k += 1;
    }
    s
}

/// Makes an input of (about) the given size in bytes.
type Make = Box<dyn Fn(usize) -> String>;

/// The inputs by name.
fn kinds() -> Vec<(&'static str, Make)> {
    vec![
        ("typical chat", Box::new(chat)),
        // Tokens that reach a regex and are no identifier, none twice: the extractor
        // remembers its regexes' answers within a text, and stops at 64 identifiers.
        (
            "distinct near-miss e-mails",
            Box::new(|n| counted("user{k}@host ", n)),
        ),
        ("capitalised words", Box::new(|n| fill("Alpha Beta ", n))),
        ("capitals run", Box::new(|n| fill("ABCDEFGH ", n))),
        ("connector chains", Box::new(|n| fill("Bank of ", n))),
        ("unclosed double quotes", Box::new(|n| fill("\"a ", n))),
        ("unclosed single quotes", Box::new(|n| fill("'a ", n))),
        ("unclosed curly quotes", Box::new(|n| fill("“a ", n))),
        ("unclosed backticks", Box::new(|n| fill("`a ", n))),
        ("quote characters", Box::new(|n| "\"".repeat(n))),
        ("separators", Box::new(|n| fill("a-b.c/d:e_", n))),
        ("digit groups", Box::new(|n| fill("1234 ", n))),
        ("possessives", Box::new(|n| fill("Joe's ", n))),
        ("one long token", Box::new(|n| "x".repeat(n))),
        // Just under the length at which a token is skipped unclassified.
        (
            "long mixed tokens",
            Box::new(|n| fill(&format!("{} ", "a1B-".repeat(60)), n)),
        ),
        (
            "one long URL",
            Box::new(|n| format!("https://{}", "a".repeat(n))),
        ),
        ("caseless script", Box::new(|n| fill("東京 ", n))),
        // Chinese without spaces: family names, particles and listed places.
        (
            "unspaced names",
            Box::new(|n| fill("张伟和李娜去北京上海深圳，", n)),
        ),
        // One line of short sentences (each word opens one) and of lowercase names after cue
        // words: what reads a line's start or asks the English filter.
        ("short sentences", Box::new(|n| fill("Milk. ", n))),
        (
            "lowercase names",
            Box::new(|n| fill("dinner at zorbaz with funmi ", n)),
        ),
    ]
}

struct Row {
    name: &'static str,
    size: &'static str,
    bytes: usize,
    ms: f64,
    identifiers: usize,
}

/// Best time of several runs (more for small inputs), after one warm-up run.
fn time(text: &str) -> (f64, usize) {
    let count = extract_identifiers(text).len();
    let runs = (2_000_000 / text.len().max(1)).clamp(15, 2_000);
    let mut best = f64::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        let out = extract_identifiers(text);
        best = best.min(t.elapsed().as_secs_f64() * 1000.0);
        std::hint::black_box(out);
    }
    (best, count)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let json = args.iter().any(|a| a == "--json");
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let (only, only_size) = (arg("--only"), arg("--size"));
    let mut rows = Vec::new();
    for (name, make) in kinds() {
        if only.is_some_and(|o| !name.contains(o.as_str())) {
            continue;
        }
        for (size, bytes) in SIZES {
            if only_size.is_some_and(|o| o != size) {
                continue;
            }
            let text = make(bytes);
            let (ms, identifiers) = time(&text);
            rows.push(Row {
                name,
                size,
                bytes: text.len(),
                ms,
                identifiers,
            });
        }
    }
    if json {
        let rows: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    r#"{{"input":"{}","size":"{}","bytes":{},"ms":{:.4},"identifiers":{}}}"#,
                    r.name, r.size, r.bytes, r.ms, r.identifiers
                )
            })
            .collect();
        println!(
            r#"{{"bench":"extract_identifiers","build":"native","rows":[{}]}}"#,
            rows.join(",")
        );
        return;
    }
    println!(
        "{:<24} {:>7} {:>9} {:>10} {:>4}",
        "input", "size", "bytes", "ms", "ids"
    );
    for r in &rows {
        println!(
            "{:<24} {:>7} {:>9} {:>10.4} {:>4}",
            r.name, r.size, r.bytes, r.ms, r.identifiers
        );
    }
}
