//! The extractor's word lists (lexicon, top-level domains, file extensions) and their lookup:
//! one hash table from each word to its flags, built on first use, and a cache of the last
//! short words looked up in front of it.

use std::cell::Cell;
use std::sync::LazyLock;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::bloom;

/// Opens sentences as an ordinary word (verbs, pronouns, greetings): dropped there.
pub(super) const F_STARTER: u32 = 1 << 0;
/// A common noun or adjective: not a name on its own at the start of a sentence.
pub(super) const F_COMMON: u32 = 1 << 1;
/// A function word: never a name, wherever it is capitalised.
pub(super) const F_MID_DROP: u32 = 1 << 2;
/// Never a name on its own ("Mom", "Internet", "Thai").
pub(super) const F_ALWAYS_DROP: u32 = 1 << 3;
/// A weekday, month or holiday: not an identifier.
pub(super) const F_TIME: u32 = 1 << 4;
/// A generic acronym ("FYI", "CEO", "PDF"): not an identifier.
pub(super) const F_ACRONYM_STOP: u32 = 1 << 5;
/// A title before a name ("Dr", "Mrs"): not part of the name.
pub(super) const F_HONORIFIC: u32 = 1 << 6;
/// An abbreviation whose period does not end the sentence ("St. Pancras").
pub(super) const F_ABBREV_JOIN: u32 = 1 << 7;
/// Joins name words ("Bank of America", "Rio de Janeiro").
pub(super) const F_CONNECTOR: u32 = 1 << 8;
/// A number right after this word is a record id ("order 48213").
pub(super) const F_ID_CUE: u32 = 1 << 9;
/// Follows an imperative verb ("Wire the money").
pub(super) const F_OBJECT: u32 = 1 << 10;
/// A number right before this word is a count ("3 times"), not part of a name.
pub(super) const F_UNIT: u32 = 1 << 11;
/// A company or name suffix that keeps its period ("Acme Inc.").
pub(super) const F_SUFFIX_DOT: u32 = 1 << 12;
/// Ends a street name, which a house number may precede ("42 Elm Street").
pub(super) const F_STREET: u32 = 1 << 13;

/// Lowercase words and what they are (`word flag flag…` a line). Text rather than a Rust table
/// of `(&str, u32)` pairs: the same words, and no pointer table in the wasm's data. The lists
/// are included as build.rs copies them, without comments.
const LEXICON: &str = include_str!(concat!(env!("OUT_DIR"), "/lexicon.txt"));
/// Top-level domains, whitespace-separated.
const TLDS: &str = include_str!(concat!(env!("OUT_DIR"), "/tlds.txt"));
/// File extensions, whitespace-separated.
const FILE_EXTS: &str = include_str!(concat!(env!("OUT_DIR"), "/file-exts.txt"));
/// Names that stand without a capital or in a script without case, whitespace-separated.
const NAMES: &str = include_str!(concat!(env!("OUT_DIR"), "/names.txt"));

/// The words of a list file: its lines without `#` comments.
pub(super) fn lines(list: &'static str) -> impl Iterator<Item = &'static str> {
    list.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
}

/// `(word, flags)` of every lexicon line.
pub(super) fn lexicon() -> impl Iterator<Item = (&'static str, u32)> {
    lines(LEXICON).map(|line| {
        let mut parts = line.split_whitespace();
        let word = parts.next().unwrap_or_default();
        (word, parts.map(flag_named).fold(0, |all, flag| all | flag))
    })
}

/// The words of the TLD, file-extension and name lists, with their flag.
pub(super) fn word_lists() -> [(Vec<&'static str>, u32); 3] {
    let words = |list| lines(list).flat_map(str::split_whitespace).collect();
    [
        (words(TLDS), F_TLD),
        (words(FILE_EXTS), F_FILE_EXT),
        (words(NAMES), F_NAME),
    ]
}

/// Every listed word with its flag: the lexicon's lines, then the words of the other lists.
pub(super) fn listed_words() -> impl Iterator<Item = (&'static str, u32)> {
    let lists = word_lists()
        .into_iter()
        .flat_map(|(words, flag)| words.into_iter().map(move |w| (w, flag)));
    lexicon().chain(lists)
}

pub(super) fn flag_named(name: &str) -> u32 {
    match name {
        "starter" => F_STARTER,
        "common" => F_COMMON,
        "mid-drop" => F_MID_DROP,
        "always-drop" => F_ALWAYS_DROP,
        "time" => F_TIME,
        "acronym-stop" => F_ACRONYM_STOP,
        "honorific" => F_HONORIFIC,
        "abbrev-join" => F_ABBREV_JOIN,
        "connector" => F_CONNECTOR,
        "id-cue" => F_ID_CUE,
        "object" => F_OBJECT,
        "unit" => F_UNIT,
        "suffix-dot" => F_SUFFIX_DOT,
        "street" => F_STREET,
        "given" => F_GIVEN,
        "role" => F_ROLE,
        "relation" => F_RELATION,
        "request" => F_REQUEST,
        "says" => F_SAYS,
        "place-noun" => F_PLACE_NOUN,
        "counted" => F_COUNTED,
        // a unit test checks every line's flags are known
        _ => 0,
    }
}

/// A top-level domain ("com", "io").
pub(super) const F_TLD: u32 = 1 << 14;
/// A file extension ("pdf", "rs").
pub(super) const F_FILE_EXT: u32 = 1 << 15;
/// A given name or a brand that is also an English word ("Will", "Mark", "Hope", "Notion",
/// "Target"): at the start of a sentence, right before a capitalised surname, it is the name's
/// first word, and capitalised it is no common word.
pub(super) const F_GIVEN: u32 = 1 << 16;
/// A name even in lowercase or in a script without case ("priya", "lisbon", "北京"): names.txt.
pub(super) const F_NAME: u32 = 1 << 17;
/// The first chars (two or more) of a longer name of names.txt in a script without case
/// ("ソフト" of "ソフトバンク"), or its first words ("new" of "new york"): a search for names
/// goes on past it.
pub(super) const F_NAME_PREFIX: u32 = 1 << 18;

/// The bit filter of common English words (english.txt), built by build.rs.
static ENGLISH: &[u8; bloom::BITS / 8] = include_bytes!(concat!(env!("OUT_DIR"), "/english.bits"));

/// Whether `word` (in any ASCII case) is a common English word; about 1 unknown word in 25
/// passes too.
pub(super) fn is_english_word(word: &str) -> bool {
    bloom::bits(word.as_bytes()).all(|bit| ENGLISH[bit / 8] & (1 << (bit % 8)) != 0)
}

/// A job title's or a department's word ("Head of Sales", "Staff Engineer", "Legal"): a run
/// of nothing else names no one.
pub(super) const F_ROLE: u32 = 1 << 19;
/// A person (or a pet) by their relation to someone: a name typed in lowercase right after
/// it is theirs ("my flatmate wojtek", "our dog biscuit").
pub(super) const F_RELATION: u32 = 1 << 20;
/// A verb that asks for something done to what follows ("Play", "Read", "Add"): before a
/// capitalised word, not the first word of a title ("Play Bohemian Rhapsody").
pub(super) const F_REQUEST: u32 = 1 << 21;
/// What a person does or says ("said", "grew", "keeps"): after an unknown lowercase word it
/// makes the word someone ("kasia recommended…").
pub(super) const F_SAYS: u32 = 1 << 22;
/// A place's noun that ends a name typed in lowercase ("… house", "… clinic", "… gym").
pub(super) const F_PLACE_NOUN: u32 = 1 << 23;
/// A word that a number after it counts ("Sprint 41", "Week 3", "Gate 12", "Flat 3"): the two
/// name a slot in a series, not a record.
pub(super) const F_COUNTED: u32 = 1 << 24;
/// The first words of a listed name written with an apostrophe ("sainsbury" and "trader" of
/// "sainsbury's" and "trader_joe's"): a possessive after them is worth a phrase lookup.
pub(super) const F_SHOP_PREFIX: u32 = 1 << 25;
/// Never in the lexicon: set by the scanner on a capitalised contraction it keeps as a run's
/// word ("is Don't Stop Me Now"), which opens a title.
pub(super) const F_CONTRACTION: u32 = 1 << 31;

/// The lexicon's hash: eight bytes a step (FNV takes one, and a lookup runs at most words of
/// a message), in 64-bit arithmetic that wasm has natively (no 128-bit products). The table
/// is fixed and built from our own lists, so no seed is needed.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        let mix = |h: u64, x: u64| (h.rotate_left(5) ^ x).wrapping_mul(K);
        for chunk in &mut chunks {
            self.0 = mix(
                self.0,
                u64::from_le_bytes(chunk.try_into().unwrap_or_default()),
            );
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.0 = mix(self.0, u64::from_le_bytes(last));
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.write(&(n as u64).to_le_bytes());
    }

    fn finish(&self) -> u64 {
        // The table's index takes the low bits, which a product mixes least: fold the high ones in.
        self.0 ^ (self.0 >> 29)
    }
}

type WordMap<V> = HashMap<&'static [u8], V, BuildHasherDefault<WordHasher>>;

/// Every listed word (lowercase) with its flags: a word in several lists has the flags of each.
static FLAGS: LazyLock<WordMap<u32>> = LazyLock::new(|| {
    let mut flags = WordMap::default();
    for (word, flag) in listed_words() {
        *flags.entry(word.as_bytes()).or_insert(0) |= flag;
        if flag == F_NAME {
            // "ソフト" of "ソフトバンク" (unspaced text is searched char by char); "new",
            // "rio_de" and "sainsbury" of "new_york", "rio_de_janeiro" and "sainsbury's".
            let chars = word.char_indices().skip(2).filter(|_| !word.is_ascii());
            let words = word.match_indices(['_', '\'']);
            // "sainsbury", "trader" of "trader_joe's": a shop's name with its 's.
            let shop = if word.contains('\'') {
                F_SHOP_PREFIX
            } else {
                0
            };
            for end in chars.map(|(i, _)| i).chain(words.map(|(i, _)| i)) {
                *flags.entry(&word.as_bytes()[..end]).or_insert(0) |= F_NAME_PREFIX | shop;
            }
        }
    }
    flags
});

/// A set of keys that may hold false positives and never false negatives: one bit a key.
struct BitFilter(Box<[u64; BIT_FILTER_WORDS]>);

const BIT_FILTER_WORDS: usize = 1024;

impl BitFilter {
    /// The number of keys it tells apart; a key is taken modulo it.
    const KEYS: usize = BIT_FILTER_WORDS * 64;

    fn new(keys: impl Iterator<Item = usize>) -> Self {
        let mut bits = Box::new([0; BIT_FILTER_WORDS]);
        for key in keys {
            bits[key / 64] |= 1 << (key % 64);
        }
        BitFilter(bits)
    }

    fn may_hold(&self, key: usize) -> bool {
        self.0[key / 64] & (1 << (key % 64)) != 0
    }
}

/// The ASCII names of names.txt (and the first words of those of several words), keyed by
/// their length and their first two and last two letters: 1 in 64 plain words or so passes
/// it without being a name, so most lowercase words are ruled out without hashing them whole.
static NAME_FILTER: LazyLock<BitFilter> = LazyLock::new(|| {
    BitFilter::new(FLAGS.iter().filter_map(|(word, flags)| {
        filter_key(word).filter(|_| flags & (F_NAME | F_NAME_PREFIX) != 0)
    }))
});

/// The bit of a lowercase ASCII word of 3 to 31 letters in [`NAME_FILTER`].
fn filter_key(word: &[u8]) -> Option<usize> {
    let n = word.len();
    if !(3..=31).contains(&n) || !word.iter().all(u8::is_ascii_lowercase) {
        return None;
    }
    let key = [word[0], word[1], word[n - 2], word[n - 1], n as u8]
        .iter()
        .fold(0x811c_9dc5u32, |h, &x| {
            (h ^ u32::from(x)).wrapping_mul(0x0100_0193)
        });
    Some(key as usize % BitFilter::KEYS)
}

/// Whether a lowercase word may be in names.txt: false rules it out without a lookup. Words
/// that are not plain lowercase ASCII ("joão") are always worth the lookup.
pub(super) fn may_be_name(word: &str) -> bool {
    match filter_key(word.as_bytes()) {
        Some(key) => NAME_FILTER.may_hold(key),
        None => !word.is_ascii(),
    }
}

/// The flags of a word of a script without case, looked up as it is.
pub(super) fn lookup_caseless(word: &str) -> u32 {
    let bytes = word.as_bytes();
    if bytes.len() <= 8 {
        // "東京", "서울": two or three chars of Han, kana or Hangul.
        return lookup_short(short_key(bytes.iter().copied()), bytes.len());
    }
    listed_flags(bytes)
}

/// The flags of a word exactly as written (lowercase), 0 when it is in no list. Inlined: as a
/// function of its own it made the package 0.3 KB bigger.
#[inline(always)]
fn listed_flags(word: &[u8]) -> u32 {
    FLAGS.get(word).copied().unwrap_or(0)
}

/// The first two chars of the names of names.txt that are not ASCII: most places in unspaced
/// text (Chinese, Japanese, Thai) are ruled out without a lookup.
static NAME_OPENINGS: LazyLock<BitFilter> = LazyLock::new(|| {
    BitFilter::new(FLAGS.iter().filter_map(|(word, flags)| {
        let mut chars = std::str::from_utf8(word).into_iter().flat_map(str::chars);
        let (a, b) = (chars.next()?, chars.next()?);
        (flags & F_NAME != 0 && !a.is_ascii()).then(|| opening_key(a, b))
    }))
});

fn opening_key(a: char, b: char) -> usize {
    (u32::from(a).wrapping_mul(0x9e37_79b9) ^ u32::from(b)).wrapping_mul(0x0100_0193) as usize
        % BitFilter::KEYS
}

/// Whether a listed name may open with the chars `a`, `b` (`a` not ASCII): false rules the
/// place out.
pub(super) fn may_open_name(a: char, b: char) -> bool {
    NAME_OPENINGS.may_hold(opening_key(a, b))
}

/// The longest word worth looking up: no listed word is longer (a Cyrillic or Greek word takes
/// two bytes a letter, a Thai one three: "ธนาคารกสิกรไทย" is 42).
pub(super) const MAX_LOOKUP_BYTES: usize = 48;

thread_local! {
    /// The flags of short words looked up lately, by their key's hash (512 slots, 8 KiB): text
    /// repeats its words ("the", "to", "and"), and a slot answers without probing [`FLAGS`],
    /// whose table is too big to stay in the processor's cache and whose keys wasm compares
    /// one byte at a time. A slot holds a word's key, its length and its flags; key 0 of
    /// length 0 is the empty word, whose flags are 0.
    static RECENT_WORDS: [Cell<(u64, usize, u32)>; 512] =
        const { [const { Cell::new((0, 0, 0)) }; 512] };
}

/// The bytes of a word of at most eight bytes as one integer, its first byte lowest. Shifted
/// in byte by byte: a copy into an array, of a length known only at run time, is a
/// `memory.copy`, which V8 runs as a call out of the module.
fn short_key(bytes: impl DoubleEndedIterator<Item = u8>) -> u64 {
    bytes.rev().fold(0, |key, b| (key << 8) | u64::from(b))
}

/// The flags of the word of `len` bytes (at most eight) whose [`short_key`] is `key`, through
/// [`RECENT_WORDS`].
fn lookup_short(key: u64, len: usize) -> u32 {
    RECENT_WORDS.with(|recent| {
        let slot = &recent[(key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 55) as usize];
        match slot.get() {
            // The key and the length are the word ("a" and "a\0" share a key).
            (k, n, flags) if k == key && n == len => flags,
            _ => {
                let bytes = key.to_le_bytes();
                let flags = listed_flags(&bytes[..len]);
                slot.set((key, len, flags));
                flags
            }
        }
    })
}

/// The flags of a word, compared case-insensitively, 0 when it is in no list. The word is
/// lowercased into a buffer on the stack, so a lookup allocates nothing; ASCII is lowercased
/// byte by byte, other letters ("Кто", "Τρίτη", "Mañana") by `char::to_lowercase`.
pub(super) fn lookup(word: &str) -> u32 {
    let bytes = word.as_bytes();
    if bytes.len() <= 8 && bytes.is_ascii() {
        // Most words: lowercased into their key.
        let key = short_key(bytes.iter().map(u8::to_ascii_lowercase));
        return lookup_short(key, bytes.len());
    }
    let mut buf = [0u8; MAX_LOOKUP_BYTES];
    let Some(lower) = buf.get_mut(..word.len()) else {
        return 0;
    };
    if word.is_ascii() {
        lower.copy_from_slice(bytes);
        lower.make_ascii_lowercase();
        return listed_flags(lower);
    }
    let mut len = 0;
    for c in word.chars().flat_map(char::to_lowercase) {
        let Some(slot) = buf.get_mut(len..len + c.len_utf8()) else {
            return 0;
        };
        len += c.encode_utf8(slot).len();
    }
    listed_flags(&buf[..len])
}

/// The flags of words joined by single spaces ("new york", "תל אביב", "trader joe’s"), looked
/// up as names.txt writes them: joined by `_`, with a straight apostrophe.
pub(super) fn lookup_phrase(words: &str) -> u32 {
    let mut buf = [0u8; MAX_LOOKUP_BYTES];
    if words.is_ascii() {
        // Most phrases: byte by byte, no char decoding nor UTF-8 check.
        let Some(key) = buf.get_mut(..words.len()) else {
            return 0;
        };
        for (k, &c) in key.iter_mut().zip(words.as_bytes()) {
            *k = if c == b' ' {
                b'_'
            } else {
                c.to_ascii_lowercase()
            };
        }
        return listed_flags(key);
    }
    let mut len = 0;
    for c in words.chars() {
        let c = match c {
            ' ' => '_',
            '’' => '\'',
            c => c,
        };
        let Some(slot) = buf.get_mut(len..len + c.len_utf8()) else {
            return 0;
        };
        c.encode_utf8(slot);
        len += c.len_utf8();
    }
    std::str::from_utf8(&buf[..len]).map_or(0, lookup)
}
