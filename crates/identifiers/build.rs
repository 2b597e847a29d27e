//! Builds the bit filter of common English words (src/english.txt) into `english.bits`, so the
//! extractor carries 8 KiB of bits rather than 86 KB of words.

#[path = "src/bloom.rs"]
mod bloom;

fn main() {
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
    let out =
        std::path::Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("english.bits");
    std::fs::write(out, filter).expect("write english.bits");
}
