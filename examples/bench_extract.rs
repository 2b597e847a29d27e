//! Times the default identifier extractor on several 1 MiB inputs.
//!
//! `cargo run --release --example bench_extract`

use std::time::Instant;

use neotoma_agent_wasm::protocol::identifiers::extract_identifiers;

const MIB: usize = 1 << 20;

fn fill(unit: &str) -> String {
    let mut s = String::with_capacity(MIB + unit.len());
    while s.len() < MIB {
        s.push_str(unit);
    }
    s
}

fn salad(words: &[&str]) -> String {
    let mut s = String::with_capacity(MIB + 32);
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    while s.len() < MIB {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        s.push_str(words[(state % words.len() as u64) as usize]);
        s.push(' ');
    }
    s
}

fn main() {
    let lower = [
        "the", "meeting", "with", "about", "and", "notes", "from", "moved", "to", "a", "project",
        "ok.", "is", "on", "for", "we", "decided",
    ];
    let mixed = [
        "the",
        "Globex",
        "meeting",
        "of",
        "Bank",
        "INV-2041",
        "\"open",
        "'quote",
        "São",
        "x",
        "&",
        "Dr.",
        "ok.",
        "@h",
        "#12",
        "a.b.c",
        "‘",
        "“",
        "`",
        "de",
        "Maria's",
        "1234",
        "Paulo",
        "https://a.io/x",
        "jane@acme.com",
        "QX7P2M",
        "What",
        "Tell",
    ];
    let inputs: Vec<(&str, String)> = vec![
        ("1 MiB of 'x'", "x".repeat(MIB)),
        ("random lowercase words", salad(&lower)),
        ("random mixed tokens", salad(&mixed)),
        ("capitalised words", fill("Alpha Beta ")),
        ("unclosed double quotes", fill("\"a ")),
        ("unclosed single quotes", fill("'a ")),
        ("unclosed curly quotes", fill("“a ")),
        ("quote characters only", "\"".repeat(MIB)),
        ("apostrophes only", "'".repeat(MIB)),
        ("connector chains", fill("Bank of ")),
        (
            "repeated identifiers",
            fill("Globex paid INV-2041 to \"Acme\" via jane@acme.com. "),
        ),
        (
            "sentences of names",
            fill("Tell Sarah Chen about Bank of America. "),
        ),
        ("multibyte letters", fill("é")),
        ("one 1 MiB URL", format!("https://{}", "a".repeat(MIB))),
    ];
    for (name, text) in &inputs {
        // Warm up once, then take the best of three.
        let _ = extract_identifiers(text);
        let mut best = f64::MAX;
        let mut count = 0;
        for _ in 0..3 {
            let t = Instant::now();
            let out = extract_identifiers(text);
            best = best.min(t.elapsed().as_secs_f64() * 1000.0);
            count = out.len();
        }
        println!(
            "{name:<26} {:>8} bytes  {best:>8.2} ms  {count:>2} identifiers",
            text.len()
        );
    }
}
