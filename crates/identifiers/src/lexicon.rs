//! The extractor's word lists (lexicon, top-level domains, file extensions) and their lookup:
//! one hash table from each word to its flags, built on first use.

use std::sync::LazyLock;

use fnv::FnvHashMap;

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
/// of `(&str, u32)` pairs: the same words, and no pointer table in the wasm's data.
const LEXICON: &str = include_str!("lexicon.txt");
/// Top-level domains, whitespace-separated.
const TLDS: &str = include_str!("tlds.txt");
/// File extensions, whitespace-separated.
const FILE_EXTS: &str = include_str!("file-exts.txt");
/// Names that stand without a capital or in a script without case, whitespace-separated.
const NAMES: &str = include_str!("names.txt");

/// The words of a list file: its lines without `#` comments.
fn lines(list: &'static str) -> impl Iterator<Item = &'static str> {
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
        // a unit test checks every line's flags are known
        _ => 0,
    }
}

/// A top-level domain ("com", "io").
pub(super) const F_TLD: u32 = 1 << 14;
/// A file extension ("pdf", "rs").
pub(super) const F_FILE_EXT: u32 = 1 << 15;
/// A given name that is also an English word ("Will", "Mark", "Hope"): at the start of a
/// sentence, right before a capitalised surname, it is the name's first word.
pub(super) const F_GIVEN: u32 = 1 << 16;
/// A name even in lowercase or in a script without case ("priya", "lisbon", "北京"): names.txt.
pub(super) const F_NAME: u32 = 1 << 17;

/// Every listed word (lowercase) with its flags: a word in several lists has the flags of each.
static FLAGS: LazyLock<FnvHashMap<&'static [u8], u32>> = LazyLock::new(|| {
    let suffixes = word_lists()
        .into_iter()
        .flat_map(|(words, flag)| words.into_iter().map(move |w| (w, flag)));
    let mut flags = FnvHashMap::default();
    for (word, flag) in lexicon().chain(suffixes) {
        *flags.entry(word.as_bytes()).or_insert(0) |= flag;
    }
    flags
});

/// For each first and last letter of the ASCII names in names.txt, the lengths (bit n for n
/// bytes, up to 31) they come in: most lowercase words are ruled out by it without hashing them.
static NAME_SHAPES: LazyLock<Box<[u32; 26 * 26]>> = LazyLock::new(|| {
    let mut shapes = Box::new([0; 26 * 26]);
    for (word, flags) in FLAGS.iter() {
        if let Some(slot) = shape_slot(word).filter(|_| flags & F_NAME != 0) {
            shapes[slot.0] |= slot.1;
        }
    }
    shapes
});

/// The slot and length bit of a lowercase ASCII word in [`NAME_SHAPES`].
fn shape_slot(word: &[u8]) -> Option<(usize, u32)> {
    let (&first, &last) = (word.first()?, word.last()?);
    let letter = |b: u8| b.is_ascii_lowercase().then(|| usize::from(b - b'a'));
    let bit = 1u32.checked_shl(word.len().try_into().ok()?)?;
    Some((letter(first)? * 26 + letter(last)?, bit))
}

/// Whether a lowercase word may be in names.txt: false rules it out without a lookup. Words
/// that are not plain lowercase ASCII ("joão") are always worth the lookup.
pub(super) fn may_be_name(word: &str) -> bool {
    match shape_slot(word.as_bytes()) {
        Some((slot, bit)) => NAME_SHAPES[slot] & bit != 0,
        None => !word.is_ascii(),
    }
}

/// The longest word worth looking up: no listed word is longer (a Cyrillic or Greek word takes
/// two bytes a letter).
pub(super) const MAX_LOOKUP_BYTES: usize = 32;

/// The flags of a word, compared case-insensitively, 0 when it is in no list. The word is
/// lowercased into a buffer on the stack, so a lookup allocates nothing; ASCII is lowercased
/// byte by byte, other letters ("Кто", "Τρίτη", "Mañana") by `char::to_lowercase`.
pub(super) fn lookup(word: &str) -> u32 {
    let mut buf = [0u8; MAX_LOOKUP_BYTES];
    let Some(lower) = buf.get_mut(..word.len()) else {
        return 0;
    };
    if word.is_ascii() {
        lower.copy_from_slice(word.as_bytes());
        lower.make_ascii_lowercase();
        return FLAGS.get(&*lower).copied().unwrap_or(0);
    }
    let mut len = 0;
    for c in word.chars().flat_map(char::to_lowercase) {
        let Some(slot) = buf.get_mut(len..len + c.len_utf8()) else {
            return 0;
        };
        len += c.encode_utf8(slot).len();
    }
    FLAGS.get(&buf[..len]).copied().unwrap_or(0)
}
