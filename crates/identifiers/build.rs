//! Builds the bit filter of common English words (src/english.txt) into `english.bits`, so the
//! extractor carries 8 KiB of bits rather than 86 KB of words; and copies the word lists the
//! extractor includes (lexicon, names, TLDs, file extensions) without their comments, which
//! would otherwise ship inside the `.wasm` (about 1 KB gzip).

#[path = "src/bloom.rs"]
mod bloom;

fn main() {
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    for list in ["lexicon.txt", "names.txt", "tlds.txt", "file-exts.txt"] {
        let src = format!("src/{list}");
        println!("cargo::rerun-if-changed={src}");
        let text = std::fs::read_to_string(&src).expect(&src);
        let kept: String = text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .flat_map(|line| [line, "\n"])
            .collect();
        std::fs::write(out_dir.join(list), kept).expect("write a word list");
    }
    println!("cargo::rerun-if-changed=src/english.txt");
    println!("cargo::rerun-if-changed=src/bloom.rs");
    let words = std::fs::read_to_string("src/english.txt").expect("src/english.txt");
    let mut filter = vec![0u8; bloom::BITS / 8];
    for word in words
        .lines()
        .filter(|line| !line.starts_with('#'))
        .flat_map(str::split_whitespace)
    {
        for bit in bloom::bits(word.as_bytes()) {
            filter[bit / 8] |= 1 << (bit % 8);
        }
    }
    std::fs::write(out_dir.join("english.bits"), filter).expect("write english.bits");
}
