//! The bit filter of common English words (english.txt): which bits a word sets. Shared by
//! build.rs, which sets them at build time, and the lexicon, which tests them.

/// Bits in the filter: 64 Ki bits (8 KiB) for about 10,000 words, with [`HASHES`] bits a word,
/// let about 1 lowercase name in 25 pass as a word (and so go unnoticed); no word is missed.
pub const BITS: usize = 1 << 16;
/// Bits set per word.
pub const HASHES: usize = 5;

/// The filter's bits for `word` in ASCII lowercase (the filter holds lowercase words):
/// double hashing of a 64-bit FNV-1a hash.
pub fn bits(word: &[u8]) -> impl Iterator<Item = usize> {
    let h = word.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(0x0100_0000_01b3)
    });
    let (h1, h2) = (h as usize, (h >> 32) as usize | 1);
    (0..HASHES).map(move |i| h1.wrapping_add(i.wrapping_mul(h2)) % BITS)
}
