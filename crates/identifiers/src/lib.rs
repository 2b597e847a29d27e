//! The default identifier extractor.
//!
//! [`extract_identifiers`] pulls out of a chat message the spans that could name one specific
//! record in a personal memory store: proper names ("Bank of America", "São Paulo", "OpenAI"),
//! id-like tokens (`ent_…`, UUIDs, `JIRA-4512`, `QX7P2M`, `#4821`, `4417-2290`), e-mail
//! addresses, URLs, domains, IP addresses, `@handles` and the contents of quoted strings.
//!
//! It is a hand-written scanner that makes one pass over the message; the token shapes that are
//! regular languages (e-mails, URLs, domains, UUIDs, snake_case ids, IP addresses, handles,
//! model codes, dates) are matched by hand in `shapes.rs`, each tested against its regular
//! expression:
//!
//! 1. The main loop walks the bytes, decoding chars as it goes. It recognises quoted strings
//!    (`"…"`, `“…”`, `'…'`, `‘…’`, `` `…` ``, `«…»`, `「…」`, `『…』`, `《…》`)
//!    with an amortised closer search (each character is examined at most once per quote
//!    kind; a quote is at most [`MAX_QUOTE_CHARS`] long and never spans a line break), takes
//!    URLs whole, and cuts everything else into tokens of word characters and in-word
//!    punctuation.
//! 2. Each token is classified from a one-pass summary of its characters: e-mail, `@handle`,
//!    `#tag`, path, IP address, domain or file name, snake_case id, hyphenated code, mixed
//!    letter/digit code, number, or a word (Capitalised, CamelCase, ALLCAPS, initial,
//!    lowercase, or a connector such as "of", "de", "&").
//! 3. Words feed a run builder (here and in `run.rs`, `titles.rs`; lowercase names in
//!    `lowercase.rs`, scripts without case in `caseless_names.rs`, quotes in `quotes.rs`)
//!    that joins adjacent name words, and the connectors between
//!    them, into one name ("Bank of America", "McKinsey & Company"; but "OpenAI and
//!    Anthropic" stays two names). It drops words that are capitalised only because they
//!    open a sentence (a compact lexicon of common English sentence starters and nouns, plus
//!    a lone capitalised word followed directly by an object: "Wire the money"), weekday and
//!    month names, the pronoun I, generic acronyms ("FYI", "PDF"), honorifics, and a
//!    possessive `'s` (kept only right before punctuation, as in "at Trader Joe's?").
//!    Numbers extend a name when they read as part of it ("Windows 11", "Dyson V11",
//!    "5th Avenue", "42 Elm Street"), not when they count something ("Sarah 3 times").
//!
//! Everything is linear in the input length (a lexicon lookup is one hash table probe; a shape
//! check runs over one token, or from a URL's start to its end; a grouped account number is
//! looked for at most nine groups ahead) and never panics: slicing goes through checked `get`
//! or is bounded by a length checked just before. The output is capped at [`MAX_IDENTIFIERS`] identifiers of at most [`MAX_IDENTIFIER_CHARS`]
//! characters each.

use std::cell::Cell;

use fnv::{FnvHashMap, FnvHashSet};

mod bloom;
mod caseless;
mod lexicon;
use lexicon::*;
mod chars;
mod shapes;
use chars::*;
mod tokens;
use tokens::*;
mod words;
use words::*;
mod caseless_names;
mod lowercase;
mod quotes;
mod run;
mod titles;

/// At most this many identifiers are returned (the caller keeps far fewer).
pub const MAX_IDENTIFIERS: usize = 64;
/// Each identifier is cut to at most this many characters.
pub const MAX_IDENTIFIER_CHARS: usize = 200;
/// A quoted string longer than this (in characters) is not treated as a quote.
pub const MAX_QUOTE_CHARS: usize = 200;
/// A run of capitalised words longer than this is a title-cased sentence, not a name.
const MAX_RUN_WORDS: usize = 8;
/// Hard bound on the elements (words, connectors, numbers) kept for one run.
const MAX_RUN_ELEMENTS: usize = 16;
/// Tokens longer than this (in characters, URLs aside) are noise, not identifiers.
const MAX_TOKEN_CHARS: usize = 256;
/// At most this many spellings are remembered to skip repeated mentions quickly.
const MAX_SEEN_SPELLINGS: usize = 256;
/// At most this many answers of the regex shapes are remembered (see `Scanner::shape_answers`).
const MAX_SHAPE_ANSWERS: usize = 256;
/// The spans last pushed, compared before the spelling set is hashed: a name mentioned again
/// is most often one of the last few.
const RECENT_SPELLINGS: usize = 8;

/// A possessive `'s`, with either apostrophe, in either case.
const POSSESSIVES: [&str; 4] = ["'s", "’s", "'S", "’S"];

/// Extracts the concrete identifiers a message names, in order of first appearance.
///
/// Spans are returned exactly as written (quotes, honorifics and a possessive `'s` removed),
/// without duplicates (compared case-insensitively; the first spelling wins).
pub fn extract_identifiers(text: &str) -> Vec<String> {
    let mut scanner = Scanner::new(text);
    scanner.scan();
    scanner.out
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// "Berlin", "Maria", "Jean-Luc", "O'Brien".
    Cap,
    /// "OpenAI", "iPhone", "McKinsey".
    Camel,
    /// "NASA", "IBM", "II", "AT&T".
    Caps,
    /// "F", "J.R.R", "B": joins a run but is never a name on its own.
    Initial,
}

#[derive(Clone, Copy, Debug)]
struct Word {
    start: usize,
    end: usize,
    kind: Kind,
    /// Opens its sentence (possibly after dropped starters such as "Hi").
    sent_init: bool,
    /// Lexicon flags (only consulted for `Cap` and `Initial` words).
    flags: u32,
}

impl Word {
    fn has(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }

    /// A capitalised word that is an ordinary English word here and not part of a name.
    fn is_dropped_prefix(&self) -> bool {
        matches!(self.kind, Kind::Cap | Kind::Initial)
            && ((self.sent_init && self.has(F_STARTER)) || self.has(F_MID_DROP))
    }
}

/// An element of a run of name words.
#[derive(Clone, Copy, Debug)]
enum El {
    Word(Word),
    /// "of", "de", "&", "the" after "of".
    Conn {
        of: bool,
        /// "in", "to", "on", "at" inside a title ("The Catcher in the Rye"): it joins only
        /// through an article, so "The Hobbit in London" stays two names.
        prep: bool,
    },
    /// A number or model code after a name word: "11" in "Windows 11".
    Num {
        end: usize,
    },
    /// A number before name words: "5th Avenue", "42 Elm Street".
    Ord {
        start: usize,
        /// A plain number ("42"), which only starts a street name; else an ordinal.
        street: bool,
    },
}

/// The token shapes asked of a regular expression (`shapes.rs`), as keys of remembered answers.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Asked {
    Email,
    Hashtag,
    SnakeCaseId,
    DomainOrFile,
    Ipv4,
    Uuid,
    DigitGroupsId,
    ModelCode,
    Ordinal,
}

/// Remembers where the last search for a quote closer (or a line break) stopped.
#[derive(Clone, Copy, Default)]
struct Memo {
    valid: bool,
    /// Byte positions in `from..to` hold no closer and no line break.
    from: usize,
    to: usize,
    /// The char index of `to`.
    to_ci: usize,
    /// Position `to` is a closer or a line break.
    hit: bool,
}

/// A one-pass summary of a token's characters.
#[derive(Clone, Copy, Default)]
struct Shape {
    chars: usize,
    letters: usize,
    upper: usize,
    lower: usize,
    /// Numeric characters (ASCII digits and others).
    numeric: usize,
    first_upper: bool,
    upper_after_first: bool,
    at: bool,
    slash: bool,
    colon: bool,
    dot: bool,
    underscore: bool,
    amp: bool,
    hyphen: bool,
    apos: bool,
    /// Any other character that is not part of a word.
    other: bool,
}

impl Shape {
    /// `Shape::of` an ASCII word, byte by byte.
    fn of_ascii(w: &[u8]) -> Shape {
        let mut s = Shape {
            chars: w.len(),
            first_upper: w.first().is_some_and(u8::is_ascii_uppercase),
            ..Shape::default()
        };
        for &b in w {
            match b {
                b'A'..=b'Z' => s.upper += 1,
                b'a'..=b'z' => s.lower += 1,
                b'0'..=b'9' => s.numeric += 1,
                b'@' => s.at = true,
                b'/' => s.slash = true,
                b':' => s.colon = true,
                b'.' => s.dot = true,
                b'_' => s.underscore = true,
                b'&' => s.amp = true,
                b'-' => s.hyphen = true,
                b'\'' => s.apos = true,
                _ => s.other = true,
            }
        }
        s.letters = s.upper + s.lower;
        s.upper_after_first = s.upper > usize::from(s.first_upper);
        s
    }

    /// `Shape::of` a word of ASCII letters.
    fn of_ascii_letters(w: &str) -> Shape {
        let b = w.as_bytes();
        let upper = b.iter().filter(|c| c.is_ascii_uppercase()).count();
        let first_upper = b.first().is_some_and(u8::is_ascii_uppercase);
        Shape {
            chars: b.len(),
            letters: b.len(),
            upper,
            lower: b.len() - upper,
            first_upper,
            upper_after_first: upper > usize::from(first_upper),
            ..Shape::default()
        }
    }

    fn of(w: &str) -> Shape {
        if w.is_ascii() {
            return Shape::of_ascii(w.as_bytes());
        }
        let mut s = Shape::default();
        for c in w.chars() {
            let first = s.chars == 0;
            s.chars += 1;
            if is_cjk_letter(c) {
                s.letters += 1;
            } else if c.is_alphabetic() {
                s.letters += 1;
                if c.is_uppercase() {
                    s.upper += 1;
                    if first {
                        s.first_upper = true;
                    } else {
                        s.upper_after_first = true;
                    }
                } else if c.is_lowercase() {
                    s.lower += 1;
                }
            } else if c.is_numeric() {
                s.numeric += 1;
            } else if !is_mark(c) && !is_indic_sign(c) {
                match c {
                    '@' => s.at = true,
                    '/' => s.slash = true,
                    ':' => s.colon = true,
                    '.' => s.dot = true,
                    '_' => s.underscore = true,
                    '&' => s.amp = true,
                    '-' => s.hyphen = true,
                    '\'' | '’' => s.apos = true,
                    _ => s.other = true,
                }
            }
        }
        s
    }
}

/// The scanner. Positions are byte offsets into `text`, always at char boundaries; `ci`
/// values are the matching char indices (used only to bound quote lengths in chars).
struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    out: Vec<String>,
    /// The lowercased `out`, for duplicate checks.
    seen: FnvHashSet<String>,
    /// Spans already pushed, as written: a name mentioned again is dropped without
    /// lowercasing it (at most [`MAX_SEEN_SPELLINGS`] kept).
    seen_spelling: FnvHashSet<&'a str>,
    /// The last spans pushed (a ring): a name repeated soon after is dropped without hashing
    /// it.
    recent_spellings: [&'a str; RECENT_SPELLINGS],
    /// Where the next span pushed goes in `recent_spellings`.
    recent_at: usize,
    /// Every token through `token` (`fast_paths`).
    #[cfg(test)]
    general_path_only: bool,
    /// The last word looked up in the lexicon and its flags.
    last_lookup: (&'a str, u32),
    /// The last word asked whether it is an English word, and the answer (`is_english`).
    last_english: Cell<Option<(&'a str, bool)>>,
    run: Vec<El>,
    run_words: usize,
    overflow: bool,
    sentence_start: bool,
    /// The last lowercase word (byte range), looked up only when a number follows it.
    cue_word: Option<(usize, usize)>,
    memos: [Memo; 9],
    /// The answers of the regex shapes for tokens already asked about: a long paste repeats
    /// its hosts, ids and addresses (logs, threads), and each distinct token pays the regex
    /// engine once (at most [`MAX_SHAPE_ANSWERS`] kept).
    shape_answers: FnvHashMap<(Asked, &'a str), bool>,
    /// The run's last word was followed by a possessive `'s` (its end without and with it),
    /// and what comes next decides whether the `'s` is part of the name ("Trader Joe's on
    /// Main", "Joe's Pizza") or a person's possessive ("Maria's birthday").
    poss: Option<(usize, usize)>,
    /// The run is a title joined by "and the" ("Harry Potter and the Philosopher's Stone") or
    /// a subtitle's colon ("The Legend of Zelda: Tears of the Kingdom").
    title_run: bool,
    /// The run opened a sentence in title case ("Call Me by Your Name soundtrack…"): where
    /// the title's first word starts (the sentence's first word, or the second when the first
    /// is a verb before it: "Reading Pride and Prejudice").
    title_opening: Option<usize>,
    /// The end of the last name taken with words after the one read ("محمد العلي", "new
    /// york"): the words before it are in it.
    taken_end: usize,
    /// The names found in a token of a script without case, kept to reuse its allocation.
    caseless_spans: Vec<(usize, usize)>,
    /// Whether the message is typed in lowercase (asked once, when first needed).
    casual: Option<bool>,
    /// The end of the last name found typed in lowercase: "and" after it may join another.
    lowercase_name_end: usize,
    /// Where the line being read starts.
    line_begin: usize,
    /// Whether the line's case says nothing (`case_blind`), once asked.
    case_blind_line: Option<bool>,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Scanner {
            text,
            bytes: text.as_bytes(),
            out: Vec::new(),
            seen: FnvHashSet::default(),
            seen_spelling: FnvHashSet::default(),
            recent_spellings: [""; RECENT_SPELLINGS],
            recent_at: 0,
            #[cfg(test)]
            general_path_only: false,
            last_lookup: ("", 0),
            last_english: Cell::new(None),
            run: Vec::with_capacity(MAX_RUN_ELEMENTS),
            run_words: 0,
            overflow: false,
            sentence_start: true,
            cue_word: None,
            memos: [Memo::default(); 9],
            shape_answers: FnvHashMap::default(),
            poss: None,
            title_run: false,
            title_opening: None,
            taken_end: 0,
            caseless_spans: Vec::new(),
            casual: None,
            lowercase_name_end: 0,
            line_begin: 0,
            case_blind_line: None,
        }
    }

    /// `test(w)`, remembered for the next time the same token is asked the same.
    fn shape(&mut self, asked: Asked, w: &'a str, test: fn(&str) -> bool) -> bool {
        if let Some(&yes) = self.shape_answers.get(&(asked, w)) {
            return yes;
        }
        let yes = test(w);
        if self.shape_answers.len() < MAX_SHAPE_ANSWERS {
            self.shape_answers.insert((asked, w), yes);
        }
        yes
    }

    /// `lookup(w)`, remembering the last word asked: a repeated word ("Joe's Joe's", "a a")
    /// is compared, not hashed and probed again.
    fn lookup(&mut self, w: &'a str) -> u32 {
        if same_word(w, self.last_lookup.0) {
            return self.last_lookup.1;
        }
        let flags = lookup(w);
        self.last_lookup = (w, flags);
        flags
    }

    /// `is_english_ascii(w)`, remembering the last word asked: a title's first word is asked
    /// again at each word after it, and a repeated word ("Joe's Joe's") is compared, not
    /// hashed again.
    fn is_english(&self, w: &'a str) -> bool {
        match self.last_english.get() {
            Some((last, yes)) if same_word(last, w) => yes,
            _ => {
                let yes = is_english_ascii(w);
                self.last_english.set(Some((w, yes)));
                yes
            }
        }
    }

    /// Whether an ASCII word is a common English word or the plural of one (or of a word the
    /// lexicon knows) of four letters or more ("Minutes", "Vendors"; "Hays" is a name).
    fn is_english_or_plural(&self, w: &'a str) -> bool {
        self.is_english(w)
            || w.strip_suffix('s').is_some_and(|stem| {
                stem.len() >= 4 && (is_english_ascii(stem) || lookup(stem) != 0)
            })
    }

    fn full(&self) -> bool {
        self.out.len() >= MAX_IDENTIFIERS
    }

    /// The char starting at byte `p` and its length in bytes.
    #[inline(always)]
    fn ch(&self, p: usize) -> Option<(char, usize)> {
        let b = *self.bytes.get(p)?;
        if b < 0x80 {
            return Some((char::from(b), 1));
        }
        self.ch_multibyte(p)
    }

    /// `ch` past ASCII: out of line, so the many inlined `ch` calls stay small. `None` inside a
    /// char, as `text.get(p..)` is.
    #[inline(never)]
    fn ch_multibyte(&self, p: usize) -> Option<(char, usize)> {
        let c = self.text.get(p..)?.chars().next()?;
        Some((c, c.len_utf8()))
    }

    /// The char ending at byte `p`.
    #[inline(always)]
    fn prev(&self, p: usize) -> Option<char> {
        let b = *self.bytes.get(p.checked_sub(1)?)?;
        if b < 0x80 {
            return Some(char::from(b));
        }
        self.prev_multibyte(p)
    }

    /// `prev` past ASCII, out of line. `None` when `p` is inside a char, as `text.get(..p)` is.
    #[inline(never)]
    fn prev_multibyte(&self, p: usize) -> Option<char> {
        self.text.get(..p)?.chars().next_back()
    }

    #[inline(always)]
    fn slice(&self, s: usize, e: usize) -> &'a str {
        self.text.get(s..e).unwrap_or("")
    }

    // ----- main loop -------------------------------------------------------------------

    /// Whether `scan` takes its fast paths for the commonest token shapes, past `token`'s
    /// checks that cannot apply to them: always, but in the unit test that compares the two.
    #[cfg(not(test))]
    #[inline(always)]
    fn fast_paths(&self) -> bool {
        true
    }

    #[cfg(test)]
    fn fast_paths(&self) -> bool {
        !self.general_path_only
    }

    fn scan(&mut self) {
        let fast = self.fast_paths();
        let n = self.bytes.len();
        let (mut i, mut ci) = (0, 0);
        while i < n && !self.full() {
            let Some((c, len)) = self.ch(i) else {
                break;
            };
            if is_space(c) {
                if c == '\n' || c == '\u{2029}' {
                    self.brk_end();
                    self.line_begin = i + len;
                    self.case_blind_line = None;
                }
                i += len;
                ci += 1;
                continue;
            }
            if c == '#' && self.line_start(i) && self.plain_heading(i) {
                // "## Characters", "## Weekly Review": a heading of ordinary words names a
                // section.
                self.brk_end();
                let end = self.line_end(i);
                ci += self.slice(i, end).chars().count();
                i = end;
                continue;
            }
            if c == '|' && self.line_start(i) && self.table_rule_follows(i) {
                // "| Vendor | Hosts | Annual |" above "|---|---|": a table's header row
                // names its columns.
                self.brk_end();
                let end = self.line_end(i);
                ci += self.slice(i, end).chars().count();
                i = end;
                continue;
            }
            if let Some((cs, ce, next, next_ci)) = self.try_quote(i, ci, c, len) {
                self.flush();
                let content = self.slice(cs, ce);
                // `{"region": "eu-west-1"}`: a double-quoted string right before a colon is a
                // key of pasted JSON, a field's name rather than a value.
                let key = c == '"' && self.bytes.get(next) == Some(&b':');
                if !key {
                    self.push_quote(content);
                }
                // "…in `eu-west-1`. Any ideas?": a stop right after the quote ends the sentence.
                self.sentence_start = matches!(self.bytes.get(next), Some(b'.' | b'!' | b'?'))
                    && self.bytes.get(next + 1).is_none_or(u8::is_ascii_whitespace);
                self.cue_word = None;
                (i, ci) = (next, next_ci);
                continue;
            }
            if let Some((end, end_ci)) = self.try_url(i, ci, c) {
                self.flush();
                let url = self.slice(i, end);
                self.push_out(url);
                self.sentence_start = false;
                self.cue_word = None;
                (i, ci) = (end, end_ci);
                continue;
            }
            if (c.is_ascii_digit() || c.is_ascii_uppercase())
                && !self.prev(i).is_some_and(is_wordish)
            {
                if let Some(end) = self.grouped_number(i) {
                    // ASCII only: bytes are chars.
                    if self.phone_before(i) {
                        // Read as an id is, and left out.
                        self.flush();
                        self.sentence_start = false;
                        self.cue_word = None;
                    } else {
                        self.emit_id(i, end);
                    }
                    (i, ci) = (end, ci + (end - i));
                    continue;
                }
            }
            if is_token_char(c) {
                let (mut j, mut count) = (i + len, 1);
                let mut letters = c.is_ascii_alphabetic();
                // Chinese, Japanese and Korean words run into Latin ones without a space
                // ("我和Emily约在上海", "iCloudに", "KAIST에서"): a token is either.
                if !c.is_ascii() && is_cjk_letter(c) {
                    // Up to the next ASCII char or break.
                    let mut cjk = true;
                    while let Some((d, dl)) = self.ch(j).filter(|&(d, _)| !d.is_ascii()) {
                        if !is_token_char(d) {
                            break;
                        }
                        cjk &= is_cjk_letter(d);
                        j += dl;
                        count += 1;
                    }
                    if fast && cjk && count <= MAX_TOKEN_CHARS {
                        self.cjk_token(i, j);
                    } else {
                        self.token(i, j, count);
                    }
                    (i, ci) = (j, ci + count);
                    continue;
                }
                // "@李明": a handle is written in any script.
                let handle = c == '@';
                if letters {
                    // Most tokens are words: their letters first, without the checks below.
                    let run = self.bytes[j..]
                        .iter()
                        .take_while(|b| b.is_ascii_alphabetic());
                    let n = run.count();
                    (j, count) = (j + n, count + n);
                }
                while let Some(&b) = self.bytes.get(j) {
                    // ASCII, byte by byte; other chars decoded.
                    let dl = if b < 0x80 {
                        // "1,250,000": a comma between digits groups thousands only when three
                        // digits follow it ("web-01,10.0.3.7" in a CSV row is two cells).
                        let digit = |p: usize| self.bytes.get(p).is_some_and(u8::is_ascii_digit);
                        let digit_comma = b == b','
                            && digit(j.wrapping_sub(1))
                            && digit(j + 1)
                            && digit(j + 2)
                            && digit(j + 3)
                            && !digit(j + 4);
                        if !is_ascii_token_byte(b) && !digit_comma {
                            break;
                        }
                        1
                    } else {
                        match self.ch_multibyte(j) {
                            Some((d, dl))
                                if is_token_char(d)
                                    && (handle || !is_cjk_letter(d) || self.names_with(j, d)) =>
                            {
                                dl
                            }
                            _ => break,
                        }
                    };
                    letters &= b.is_ascii_alphabetic();
                    j += dl;
                    count += 1;
                }
                // The fast paths: `token`'s work for the commonest shapes, without its checks that
                // cannot apply to them. A token too long to be a name is `token`'s to drop.
                if !fast || count > MAX_TOKEN_CHARS {
                    self.token(i, j, count);
                } else if letters {
                    self.letters_token(i, j);
                } else if is_unstripped(&self.bytes[i..j]) {
                    self.unstripped_token(i, j);
                } else if is_lead_and_letters(&self.bytes[i..j]) {
                    self.lead_letters_token(i, j);
                } else if is_letters_period(&self.bytes[i..j]) {
                    self.letters_period_token(i, j);
                } else {
                    self.token(i, j, count);
                }
                (i, ci) = (j, ci + count);
                continue;
            }
            match c {
                '!' | '?' | '|' | '…' | '。' | '！' | '？' => self.brk_end(),
                '[' if matches!(self.bytes.get(i + 1..i + 3), Some(b"x]" | b"X]" | b" ]")) => {
                    // "- [x] Send the NDA": a task-list checkbox opens its item as a line does.
                    self.brk_end();
                    (i, ci) = (i + 3, ci + 3);
                    continue;
                }
                _ => self.flush(),
            }
            i += len;
            ci += 1;
        }
        self.flush();
    }

    /// Whether a number at byte `i` is a telephone's: after a country code ("+234 803 555
    /// 0142"), or after "phone", "tel", "mobile" or someone's "number" ("her number is 087 123
    /// 4567"; an "account number" is an id). Reads at most 40 bytes back.
    fn phone_before(&self, i: usize) -> bool {
        // Words read from the end, lazily: only the last three are looked at.
        let before = self.slice(0, i).trim_end().trim_end_matches(':').trim_end();
        let mut words = before.rsplit(char::is_whitespace);
        let one_of = |w: &str, list: &[&str]| list.iter().any(|x| w.eq_ignore_ascii_case(x));
        let last = words.next().unwrap_or_default();
        if last.len() >= 2 && last.starts_with('+') && last[1..].bytes().all(|c| c.is_ascii_digit())
        {
            return true;
        }
        if one_of(
            last,
            &["phone", "tel", "mobile", "cell", "whatsapp", "telephone"],
        ) {
            return true;
        }
        let number = if last.eq_ignore_ascii_case("is") {
            words.next().unwrap_or_default()
        } else {
            last
        };
        let owner = words.next().unwrap_or_default();
        number.eq_ignore_ascii_case("number")
            && one_of(
                owner,
                &[
                    "her", "his", "my", "their", "our", "your", "office", "phone", "mobile",
                    "cell", "home", "work",
                ],
            )
    }

    /// Whether the Hangul from byte `j` (its first char `d`), written onto the Latin before it,
    /// is part of one name with it ("LG전자", "SK하이닉스") rather than a particle after it
    /// ("KAIST에서", "iPhone을").
    fn names_with(&self, j: usize, d: char) -> bool {
        if !caseless::is_hangul(d) {
            return false;
        }
        let rest = self.slice(j, self.bytes.len());
        let run = &rest[..rest.find(|c| !caseless::is_hangul(c)).unwrap_or(rest.len())];
        !caseless::is_korean_particle(run)
    }

    /// Where the line holding byte `i` ends (its line break, or the text's end).
    fn line_end(&self, i: usize) -> usize {
        self.bytes[i..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(self.bytes.len(), |k| i + k)
    }

    /// Whether the line holding byte `i` is written so that its capitals say nothing of names:
    /// shouted ("PLEASE REMIND ME TO CALL THE DENTIST") or with every word capitalised,
    /// function words too ("Which Is Better For A Beginner, Running Or Swimming?"). There an
    /// English word is an ordinary word. Asked of a word ending at `end`; answered once a line
    /// (`scan` forgets the answer at each line break), and only once two capitalised words
    /// meet: most lines never ask.
    #[inline]
    fn case_blind(&mut self, end: usize) -> bool {
        match self.case_blind_line {
            Some(blind) => blind,
            None => self.cap_word_follows(end) && self.read_line_case(end),
        }
    }

    #[inline(never)]
    fn read_line_case(&mut self, i: usize) -> bool {
        let from = self.line_begin.min(i);
        // A line break the scan stepped over (inside a quote) starts the line later.
        let start = self.bytes[from..i]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(from, |k| from + k + 1);
        // A line's first few hundred bytes tell how it is written; a longer line (a paste)
        // is not read twice.
        let mut probe = self.bytes.len().min(start + 400);
        while !self.text.is_char_boundary(probe) {
            probe -= 1;
        }
        let blind = is_case_blind(self.slice(start, probe));
        self.case_blind_line = Some(blind);
        blind
    }

    /// Whether the line near byte `i` holds a letter of Latin Extended-A (UTF-8 lead byte C4
    /// or C5): Polish, Czech, Croatian or Vietnamese, where "do" is "to" or "by" ("z Kasią do
    /// Zakopanego"); Portuguese and Spanish write none.
    fn extended_latin_near(&self, i: usize) -> bool {
        self.line_near(i).iter().any(|&c| matches!(c, 0xC4 | 0xC5))
    }

    /// Whether the line near byte `i` holds a function word of Indonesian or Malay ("ke",
    /// "sama", "yang"), where "di" is "at" ("Budi di Bandung"), not the "di" of Italian names
    /// ("Castellammare di Stabia").
    fn malay_near(&self, i: usize) -> bool {
        let line = self.line_near(i);
        [
            &b" ke "[..],
            b" sama ",
            b" yang ",
            b" aku ",
            b" dan ",
            b" dari ",
            b" untuk ",
            b" mau ",
        ]
        .iter()
        .any(|word| line.windows(word.len()).any(|w| w == *word))
    }

    /// The line around byte `i`, at most 300 bytes either side.
    fn line_near(&self, i: usize) -> &'a [u8] {
        let (from, to) = (i.saturating_sub(300), self.bytes.len().min(i + 300));
        let start = self.bytes[from..i]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(from, |k| from + k + 1);
        let end = self.bytes[i..to]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(to, |k| i + k);
        &self.bytes[start..end]
    }

    /// Whether the line at byte `i` is a markdown heading of one word ("## Thoughts") or of at
    /// most four English words ("## Weekly Review", "### Open questions").
    fn plain_heading(&self, i: usize) -> bool {
        let line = self.slice(i, self.line_end(i)).trim_start_matches('#');
        let Some(words) = line.strip_prefix(' ').map(str::trim) else {
            return false;
        };
        let word = |w: &str| !w.is_empty() && w.chars().all(char::is_alphabetic);
        if word(words) {
            return true;
        }
        let english = |w: &str| {
            let flags = lookup(w);
            flags & (F_NAME | F_GIVEN) == 0
                && (flags & (F_COMMON | F_STARTER | F_MID_DROP | F_CONNECTOR) != 0
                    || is_english_inflected(&w.to_ascii_lowercase()))
        };
        words.split(' ').count() <= 4 && words.split(' ').all(|w| word(w) && english(w))
    }

    /// Whether only spaces stand between byte `i` and the start of its line.
    fn line_start(&self, i: usize) -> bool {
        self.bytes[..i]
            .iter()
            .rev()
            .find(|&&c| c != b' ' && c != b'\t')
            .is_none_or(|&c| c == b'\n')
    }

    /// Whether the line after the one holding byte `i` is a markdown table's rule
    /// ("|---|:--:|", "--- | ---").
    fn table_rule_follows(&self, i: usize) -> bool {
        let start = self.line_end(i) + 1;
        let Some(rest) = self.bytes.get(start..) else {
            return false;
        };
        let line = &rest[..rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())];
        line.contains(&b'-')
            && line.contains(&b'|')
            && line
                .iter()
                .all(|c| matches!(c, b'|' | b'-' | b':' | b' ' | b'\t' | b'\r'))
    }

    /// An account or card number written in groups at `i`: an IBAN ("DE89 3704 0044 0532
    /// 0130 00": country, check digits, then groups of four) or three or more groups of
    /// three or four digits, ten digits or more, not a list of years. Returns its end.
    /// Looks at most [`MAX_GROUPS`] groups ahead, so trying at every token stays linear.
    fn grouped_number(&self, i: usize) -> Option<usize> {
        const MAX_GROUPS: usize = 9;
        let at = |p: usize| self.bytes.get(p).copied().unwrap_or(0);
        let iban = at(i).is_ascii_uppercase()
            && at(i + 1).is_ascii_uppercase()
            && at(i + 2).is_ascii_digit()
            && at(i + 3).is_ascii_digit()
            && at(i + 4) == b' ';
        if !iban && !at(i).is_ascii_digit() {
            return None;
        }
        let in_group = |c: u8| c.is_ascii_digit() || (iban && c.is_ascii_uppercase());
        let (mut p, mut end) = (i, i);
        let (mut groups, mut digits, mut years, mut last_len) = (0, 0, 0, 4);
        while groups < MAX_GROUPS {
            let start = p;
            while p - start < 5 && in_group(at(p)) {
                p += 1;
            }
            let len = p - start;
            let fits = if iban {
                (1..=4).contains(&len) && last_len == 4
            } else {
                (3..=4).contains(&len)
            };
            if !fits || at(p).is_ascii_alphanumeric() {
                break;
            }
            let group = self.bytes.get(start..p).unwrap_or_default();
            groups += 1;
            digits += group.iter().filter(|c| c.is_ascii_digit()).count();
            years +=
                usize::from(len == 4 && (group.starts_with(b"19") || group.starts_with(b"20")));
            (last_len, end) = (len, p);
            if at(p) != b' ' || !in_group(at(p + 1)) {
                break;
            }
            p += 1;
        }
        let enough = if iban {
            groups >= 4
        } else {
            groups >= 3 && digits >= 10 && years < groups
        };
        enough.then_some(end)
    }

    /// The word before byte `start`, its period dropped ("dott" of "dott. Rossi").
    fn title_before(&self, start: usize) -> &'a str {
        self.word_before(self.slice(0, start).trim_end().trim_end_matches('.').len())
    }

    // ----- quotes ----------------------------------------------------------------------

    // ----- URLs ------------------------------------------------------------------------

    /// If a URL starts at `i` (char index `ci`), returns the position (and char index)
    /// just after it.
    fn try_url(&self, i: usize, ci: usize, c: char) -> Option<(usize, usize)> {
        if !matches!(c, 'h' | 'H' | 'w' | 'W' | 'f' | 'F' | 's' | 'S' | 'g' | 'G')
            || self.prev(i).is_some_and(is_wordish)
        {
            return None;
        }
        let (prefix_len, len) = shapes::url_candidate(self.text.get(i..)?)?;
        let body = i + prefix_len;
        let (mut j, mut j_ci) = (i + len, ci + prefix_len);
        let (mut open, mut close) = (0usize, 0usize);
        let (mut alnum, mut dot) = (false, false);
        for d in self.slice(body, j).chars() {
            match d {
                '(' => open += 1,
                ')' => close += 1,
                '.' => dot = true,
                _ => alnum |= d.is_alphanumeric(),
            }
            j_ci += 1;
        }
        // Trim trailing punctuation; a closing parenthesis stays when it is balanced.
        while j > body {
            let Some(d) = self.prev(j) else {
                break;
            };
            let trim = match d {
                '.' | ',' | ';' | ':' | '!' | '?' | '\'' | '’' | '*' | ']' | '}' => true,
                ')' if close > open => {
                    close -= 1;
                    true
                }
                _ => false,
            };
            if !trim {
                break;
            }
            j -= d.len_utf8();
            j_ci -= 1;
        }
        if !alnum || j == body || (prefix_len == 4 && !dot) {
            return None;
        }
        Some((j, j_ci))
    }

    // ----- tokens ----------------------------------------------------------------------

    /// A token of ASCII letters only, bytes `s..e`, the most common kind: what `token` does
    /// with it (nothing to strip, no possessive, no punctuation in it), without the checks.
    fn letters_token(&mut self, s: usize, e: usize) {
        let w = self.slice(s, e);
        if self.call_in_code(w, e) {
            self.other();
            return;
        }
        self.alnum(w, s, &Shape::of_ascii_letters(w));
    }

    /// A token of CJK ideographs, kana and Hangul only ("東京", "张伟和李娜去北京"), bytes `s..e`:
    /// what `token` does with it (nothing to strip; its shape is a word without case), without
    /// the checks.
    fn cjk_token(&mut self, s: usize, e: usize) {
        self.caseless_word(self.slice(s, e), s);
    }

    /// A token of one leading punctuation byte that `token` strips and ASCII letters ("'a" of
    /// an unclosed quote, "*bold", "-v"): what `token` does with it, without the checks.
    fn lead_letters_token(&mut self, s: usize, e: usize) {
        self.flush();
        let w = self.slice(s + 1, e);
        if self.call_in_code(w, e) {
            self.other();
            return;
        }
        self.alnum(w, s + 1, &Shape::of_ascii_letters(w));
    }

    /// A token of ASCII letters and a period ("Milk.", "Mr."), bytes `s..e`, the most common
    /// end of a sentence: what `token` does with it, without the checks. The period ends the
    /// sentence unless the word is an abbreviation.
    fn letters_period_token(&mut self, s: usize, e: usize) {
        let w = self.slice(s, e - 1);
        if self.call_in_code(w, e) {
            self.other();
            return;
        }
        let abbrev = self.alnum(w, s, &Shape::of_ascii_letters(w));
        self.keep_suffix_dot(e - 1);
        if !abbrev {
            self.brk_end();
        }
    }

    /// A token, bytes `s..e`, that opens and ends with an ASCII letter or digit ("Joe's",
    /// "don't", "v2.4.1", "e-mail"): what `token` does with it (nothing to strip, no trailing
    /// period or colon), without the checks.
    fn unstripped_token(&mut self, s: usize, e: usize) {
        let w = self.slice(s, e);
        if self.call_in_code(w, e) {
            self.other();
            return;
        }
        self.classify(w, s, e, false);
    }

    /// Whether a token's core, the token ending at `token_end`, is a call in pasted code
    /// ("findUser(", "Retry(total=2)", "os.path.join("): a name and dots before "(". The
    /// byte after the token first, inline; the core's bytes out of line (rarely asked).
    #[inline(always)]
    fn call_in_code(&self, core: &str, token_end: usize) -> bool {
        #[inline(never)]
        fn callee(core: &str) -> bool {
            core.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'.')
        }
        self.bytes.get(token_end) == Some(&b'(') && callee(core)
    }

    /// A maximal run of `count` token characters, bytes `s..e`.
    fn token(&mut self, s: usize, e: usize, count: usize) {
        if count > MAX_TOKEN_CHARS {
            self.other();
            return;
        }
        if e - s == 1 && self.bytes.get(s) == Some(&b'&') {
            if !self.try_conn(F_CONNECTOR, false) {
                self.filler();
            }
            return;
        }
        if e - s == 1 && self.bytes.get(s) == Some(&b':') && self.prev(s) == Some(' ') {
            // "Présents : Camille", "Points :": a French label, its colon spaced.
            self.drop_label(None);
            self.brk_end();
            return;
        }
        if self.is_emoji_code(s, e) {
            // ":rotating_light:", ":+1:": an emoji written by its name.
            self.filler();
            return;
        }
        let (mut s, mut e) = (s, e);
        let mut lead = false;
        // "./run.sh", ".\\run.ps1", "\\\\server\\share", "::1": the leading punctuation is part of
        // the token.
        let keep_lead = matches!(self.bytes.get(s), Some(b'.' | b'\\' | b':')) && {
            let token = self.slice(s, e);
            ["./", "../", ".\\", "..\\", "\\\\", "::"]
                .iter()
                .any(|p| token.starts_with(p) && token.len() > p.len())
        };
        while let Some((c, len)) = self.ch(s).filter(|_| s < e && !keep_lead) {
            if !is_lead_strip(c) {
                break;
            }
            s += len;
            lead = true;
        }
        let (mut period, mut colon, mut other) = (false, false, false);
        let token_end = e;
        while let Some(c) = self.prev(e).filter(|_| e > s) {
            if e == token_end && matches!(c, '\'' | '’') && is_g_dropping(self.slice(s, e)) {
                // "Dunkin'", "Lovin'": the apostrophe stands for a letter of the name.
                break;
            }
            match c {
                '.' => period = true,
                ':' => colon = true,
                _ if is_trail_strip(c) => other = true,
                _ => break,
            }
            e -= c.len_utf8();
        }
        if lead {
            self.flush();
        }
        let core = self.slice(s, e);
        if self.call_in_code(core, token_end) {
            self.other();
            return;
        }
        // "The Legend of Zelda: Tears of the Kingdom": a title's subtitle after its colon.
        let subtitle = colon && token_end == e + 1 && self.subtitle_follows(e);
        let colon = colon && !subtitle;
        if colon && core.bytes().all(|c| c.is_ascii_lowercase()) {
            // "Lessons learned:", "Action items:": a two-word label.
            self.drop_label(None);
        }
        let mut abbrev = false;
        if s < e {
            let trail_punct = period || colon || other;
            let token_end = if subtitle { e } else { token_end };
            abbrev = self.classify(self.slice(s, e), s, token_end, trail_punct);
            if period {
                self.keep_suffix_dot(e);
            }
        }
        if subtitle {
            self.title_run = self.try_conn(F_CONNECTOR, false);
            return;
        }
        if colon {
            self.drop_label(Some(s));
        }
        if colon || (period && !abbrev) {
            self.brk_end();
        } else if other && self.plural_possessive(s, e, token_end) {
            // "St Thomas' Hospital", "St James' Park": an owner ending in s, its apostrophe
            // alone; what comes next decides, as after 's ("James' car" is James's).
            self.poss = Some((e, token_end));
        } else if other {
            self.flush();
        }
    }

    /// Whether the run, with the word ending at `e` before a colon, is a title ("… of …",
    /// not opening its line unless it opens with "The") and a subtitle follows the colon: a
    /// capitalised word, then "of", "the" or another capitalised word ("Pirates of the
    /// Caribbean: At World's End"; "Head of Sales: Priya Shah" is a label, and "Bank of America:
    /// Jane called" names someone after it).
    fn subtitle_follows(&self, e: usize) -> bool {
        let Some(El::Word(first)) = self.run.first() else {
            return false;
        };
        let titled = self
            .run
            .iter()
            .any(|el| matches!(el, El::Conn { of: true, .. }));
        let word = self.word_after(e + 1);
        if !titled
            || !self.cap_word_follows(e + 1)
            || lookup(word) & (F_NAME | F_GIVEN) != 0
            || (self.opens_line(first.start) && self.slice(first.start, first.end) != "The")
        {
            return false;
        }
        let next = e + 2 + word.len();
        let after = self.slice(next, self.bytes.len());
        let after = after.strip_prefix("'s").unwrap_or(after);
        after.starts_with(" of ")
            || after.starts_with(" the ")
            || self.cap_word_follows(self.bytes.len() - after.len())
    }

    /// Whether the word `s..e`, cut at `token_end` of one apostrophe, is a capitalised word
    /// ending in s, the run's last, before a space and a capital.
    fn plural_possessive(&self, s: usize, e: usize, token_end: usize) -> bool {
        let apostrophe = matches!(self.slice(e, token_end), "'" | "’");
        apostrophe
            && self.bytes[e - 1] == b's'
            && self.bytes[s].is_ascii_uppercase()
            && self.cap_word_follows(token_end)
            && matches!(self.run.last(), Some(El::Word(w))
                // "Chris' Mum": a listed name owns, as with 's; a saint's name is a place's.
                if w.end == e && (!w.has(F_NAME) || self.saint_owns()))
    }

    /// Whether bytes `s..e` are an emoji's name between colons (":tada:", ":+1:").
    fn is_emoji_code(&self, s: usize, e: usize) -> bool {
        let t = &self.bytes[s..e];
        t.len() > 2
            && t[0] == b':'
            && t[t.len() - 1] == b':'
            && t[1..t.len() - 1]
                .iter()
                .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || b"_+-".contains(&c))
    }

    /// Classifies one token core at byte offset `b`. Returns true when a following period
    /// belongs to an abbreviation (initial, honorific, "St.") rather than ending a sentence.
    ///
    /// A possessive `'s` is dropped and ends the name ("Maria's birthday"), except right
    /// before punctuation, where it is usually part of a shop's name ("at Trader Joe's?").
    ///
    /// `token_end`: where the token ended before trailing punctuation (`trail_punct`) was cut.
    fn classify(&mut self, w: &'a str, b: usize, token_end: usize, trail_punct: bool) -> bool {
        let (base, possessive) = strip_possessive(w);
        let abbrev = self.classify_core(base, b);
        if possessive {
            let (base_end, end) = (b + base.len(), b + w.len());
            // Punctuation (or the end) right after the token: "from Trader Joe's?".
            // A tab or the line's end after it (a table cell, a list item) likewise.
            // An amount right after it ("Trader Joe's $84.20" in an expense list) likewise.
            let at_boundary = trail_punct
                || !matches!(self.ch(token_end), Some((c, _)) if is_space(c) && c != '\t' && !is_line_break(c))
                || matches!(self.ch(token_end + 1), Some(('$' | '€' | '£' | '¥', _)));
            let punct_after =
                trail_punct || matches!(self.ch(token_end), Some((c, _)) if !c.is_whitespace());
            let listed_owner = matches!(self.run.as_slice(),
                [El::Word(w)] if w.end == base_end && w.kind == Kind::Cap && w.has(F_NAME)
                    // "sam's" of "sam's_club": the 's is the shop's.
                    && lookup_phrase(self.slice(w.start, end)) & (F_NAME | F_NAME_PREFIX) == 0);
            if listed_owner {
                // "Kevin's copy", "Priya's email", "not Noor's.": a listed name owns what
                // follows; the shops whose name holds the 's are listed with it.
                self.flush();
            } else if (at_boundary && !(punct_after && self.lone_person_owns(end)))
                || self.article_before_run()
            {
                // "a Trader Joe's bag", "the Macy's gift card": a person's possessive takes no
                // article; a shop's name does.
                self.extend_last_word(base_end, end);
            } else if self.run_is_shop() || self.listed_shop(end) {
                // "Ben & Jerry's Half Baked", "Sainsbury's delivery slot": the shop's name
                // ends at its 's, unless "of" and a name go on with it ("Lloyd's of London").
                self.extend_last_word(base_end, end);
                if !self.of_name_follows(token_end) {
                    self.flush();
                }
            } else if matches!(self.run.last(), Some(El::Word(last)) if last.end == base_end) {
                self.poss = Some((base_end, end));
            } else {
                self.flush();
            }
        }
        abbrev
    }

    /// Whether the run before a possessive ending at `end` is one capitalised word, no common
    /// one, that no list holds as a shop ("was Marisol's,", "at Eliza's?"): before punctuation
    /// a person's, where a shop's name would be listed ("at Wendy's?", "Sainsbury's.") or run
    /// to more words ("at Trader Joe's?"). (In a table's cell or before an amount the 's
    /// stays a shop's: "Fred's\t12.00".)
    fn lone_person_owns(&self, end: usize) -> bool {
        matches!(self.run.as_slice(), [El::Word(w)] if w.kind == Kind::Cap && !w.has(F_COMMON))
            && !self.listed_shop(end)
    }

    /// Whether the run before a possessive reads as a shop's name rather than a person's:
    /// "Ben & Jerry's", "Trader Joe's" (a name opened by an ordinary word), not "Mike Chen's".
    fn run_is_shop(&self) -> bool {
        let (Some(El::Word(first)), Some(El::Word(last))) = (self.run.first(), self.run.last())
        else {
            return false;
        };
        let first_common =
            first.kind == Kind::Cap && first.has(F_COMMON) && !first.has(F_GIVEN | F_STARTER);
        first.start != last.start
            && (first_common || self.slice(first.start, last.start).contains(" & "))
    }

    /// The run's first word past an opener it still holds ("Our" of "Our Nando's voucher",
    /// "Is" of "Is Bosnia and Herzegovina…").
    fn first_name_word(&self) -> Option<&Word> {
        self.run.iter().find_map(|e| match e {
            El::Word(w) if !w.is_dropped_prefix() => Some(w),
            _ => None,
        })
    }

    /// Whether the run, with the possessive ending at `end`, is a shop listed with its 's
    /// in names.txt ("sainsbury's", "trader_joe's").
    #[inline(always)]
    fn listed_shop(&self, end: usize) -> bool {
        let Some(first) = self.first_name_word() else {
            return false;
        };
        // Its first word opens a listed name with an 's ("sainsbury", "trader"), and it is no
        // longer than one: most runs are ruled out without reading them.
        // (A camel-case word, "McDonald", is kept without its flags: looked up here.)
        let opens = first.has(F_SHOP_PREFIX)
            || (first.kind == Kind::Camel
                && lookup(self.slice(first.start, first.end)) & F_SHOP_PREFIX != 0);
        if !opens || end - first.start > MAX_LOOKUP_BYTES {
            return false;
        }
        lookup_phrase(self.slice(first.start, end)) & F_NAME != 0
    }

    /// Stretches the run's last word from ending at `end` to ending at `new_end`.
    fn extend_last_word(&mut self, end: usize, new_end: usize) {
        if let Some(El::Word(last)) = self.run.last_mut() {
            if last.end == end {
                last.end = new_end;
            }
        }
    }

    /// "Acme Inc.", "Sammy Davis Jr.": these suffixes keep their period.
    fn keep_suffix_dot(&mut self, end: usize) {
        let suffix = match self.run.last() {
            // "Fontaines D.C.": dotted initials after a name keep their last dot too.
            Some(El::Word(w)) => {
                w.end == end
                    && self.run.len() > 1
                    && (w.has(F_SUFFIX_DOT)
                        || (w.kind == Kind::Initial && self.bytes[w.start..end].contains(&b'.')))
            }
            _ => false,
        };
        if suffix && self.bytes.get(end) == Some(&b'.') {
            self.extend_last_word(end, end + 1);
        }
    }

    fn classify_core(&mut self, w: &'a str, b: usize) -> bool {
        if !w.is_empty() && w.bytes().all(|c| c.is_ascii_alphabetic()) {
            // A word of ASCII letters ("Joe" of "Joe's", "a" of "'a"): none of the checks
            // below applies to it.
            return self.alnum(w, b, &Shape::of_ascii_letters(w));
        }
        let Some(first) = w.chars().next() else {
            return false;
        };
        let end = b + w.len();
        match first {
            '@' => {
                match shapes::handle_len(w) {
                    Some(len) => self.emit_id(b, b + len),
                    None => self.filler(),
                }
                return false;
            }
            '#' => {
                if self.shape(Asked::Hashtag, w, shapes::is_hashtag) {
                    self.emit_id(b, end);
                } else {
                    self.filler();
                }
                return false;
            }
            '$' | '€' | '£' | '¥' => {
                self.drop_initial_verb();
                self.other();
                return false;
            }
            _ => {}
        }
        if w.as_bytes().last() == Some(&b'%') {
            self.other();
            return false;
        }
        if is_windows_path(w) {
            // `C:\Projects\Orion\`: a folder's trailing backslash belongs to its path.
            let end = match self.windows_path_after_space(w, end) {
                0 => end + usize::from(self.bytes.get(end) == Some(&b'\\')),
                more => end + more,
            };
            self.emit_id(b, end);
            return false;
        }
        let plus = w.as_bytes().last() == Some(&b'+');
        if let Some(base) = plus
            .then(|| w.strip_suffix('+'))
            .flatten()
            .map(|base| base.strip_suffix('+').unwrap_or(base))
        {
            // "Disney+", "Notepad++": a name with a plus.
            let mut cs = base.chars();
            if cs.next().is_some_and(char::is_uppercase)
                && cs.clone().next().is_some()
                && cs.all(char::is_alphabetic)
            {
                self.word(b, end, Kind::Camel, 0);
                return false;
            }
        }
        let shape = Shape::of(w);
        if let Some((key, value)) = shape.other.then(|| w.split_once('=')).flatten() {
            // "host=pay-gw-03.eu.acme.internal", "order=ORD-88213" in a log line: the value.
            let key_like = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'.';
            if !key.is_empty() && !value.is_empty() && key.bytes().all(key_like) {
                return self.classify_core(value, b + key.len() + 1);
            }
        }
        if shape.colon && shape.slash && has_url_scheme(w) {
            // "postgres://db.internal:5432/orders", "redis://cache:6379", a URL after
            // "SENTRY_DSN=": any scheme, where the scanner's URL start knows the common ones.
            self.emit_id(b, end);
            return false;
        }
        if shape.slash {
            // "10.42.0.0/16", "2001:db8:4f2a::/48": a network, its prefix length included.
            if let Some((ip, bits)) = w.rsplit_once('/') {
                let prefix =
                    (1..=3).contains(&bits.len()) && bits.bytes().all(|c| c.is_ascii_digit());
                if prefix && (shapes::is_ipv4(ip) || shapes::is_ipv6(ip)) {
                    self.emit_id(b, end);
                    return false;
                }
            }
        }
        if shape.colon {
            if is_iso_datetime(w) {
                self.other();
                return false;
            }
            if shapes::is_ipv6(w) {
                self.emit_id(b, end);
                return false;
            }
            if is_colon_id(w) {
                self.emit_id(b, end);
                return false;
            }
            if w.split_once("::")
                .is_some_and(|(file, test)| !test.is_empty() && file.contains('/') && is_path(file))
            {
                // "tests/test_sync.py::test_retry_backoff": a test, by its file and name.
                self.emit_id(b, end);
                return false;
            }
            if let Some(head) = strip_line_or_port(w) {
                // "signup.js:27:15", "redis-prod-01:6379": a file or host and a position.
                return self.classify_core(head, b);
            }
        }
        if shape.at {
            if self.shape(Asked::Email, w, shapes::is_email)
                || is_user_at_ipv4(w)
                || is_scp_remote(w)
            {
                self.emit_id(b, end);
            } else {
                self.other();
            }
        } else if shape.slash {
            // "/shared/営業": a path runs on past the Latin letters.
            let root = || is_root_segment(w) && self.bytes.get(end) != Some(&b'/');
            if is_path(w) || is_slash_id(w) || root() {
                // "/mnt/backup/photos/": a directory's trailing slash belongs to its path.
                let end = end + usize::from(self.bytes.get(end) == Some(&b'/'));
                self.emit_id(b, end);
            } else {
                self.split_classify(w, b, '/');
            }
        } else if shape.colon {
            if w.split(':').all(|p| p.bytes().all(|c| c.is_ascii_digit())) {
                self.other();
            } else {
                self.split_classify(w, b, ':');
            }
        } else if shape.dot {
            return self.dotted(w, b);
        } else if shape.underscore {
            if self.config_key(b, end) {
                // "sentry_dsn: https://…", "output_dir:", "customer_id = 'C-20931'": a key of
                // pasted config or code names what follows.
                self.other();
            } else if self.shape(Asked::SnakeCaseId, w, shapes::is_snake_case_id) {
                self.emit_id(b, end);
            } else {
                self.other();
            }
        } else if shape.other {
            self.other();
        } else if shape.amp {
            self.ampersand(w, b);
        } else if shape.hyphen {
            self.hyphenated(w, b, &shape);
        } else if shape.apos {
            self.apostrophe(w, b);
        } else {
            return self.alnum(w, b, &shape);
        }
        false
    }

    /// Whether the token at `b..end` is a key: a colon after it with only indentation (or a
    /// list's dash) before it on its line, or "=" after it.
    fn config_key(&self, b: usize, end: usize) -> bool {
        match self.bytes.get(end) {
            Some(b':') => self.bytes[..b]
                .iter()
                .rev()
                .take_while(|&&c| c != b'\n')
                .all(|&c| matches!(c, b' ' | b'\t' | b'-')),
            Some(b'=') => true,
            Some(b' ') => self.bytes.get(end + 1) == Some(&b'='),
            _ => false,
        }
    }

    /// "Google/Apple", "Re:Acme": classify each part on its own.
    fn split_classify(&mut self, w: &'a str, b: usize, sep: char) {
        let strip = |c: char| is_lead_strip(c) || is_trail_strip(c);
        let mut off = 0;
        for part in w.split(sep) {
            // `trim_matches` by hand: the bytes stripped in front give the core's offset.
            let (mut lead, mut end) = (0, part.len());
            for c in part.chars().take_while(|&c| strip(c)) {
                lead += c.len_utf8();
            }
            while let Some(c) = part.get(lead..end).and_then(|r| r.chars().next_back()) {
                if !strip(c) {
                    break;
                }
                end -= c.len_utf8();
            }
            let t = part.get(lead..end).unwrap_or("");
            if !t.is_empty() && t.chars().count() <= MAX_TOKEN_CHARS {
                self.classify_core(t, b + off + lead);
            }
            self.flush();
            off += part.len() + sep.len_utf8();
        }
    }

    fn dotted(&mut self, w: &'a str, b: usize) -> bool {
        let end = b + w.len();
        if w.split('.').any(str::is_empty) {
            self.other();
            return false;
        }
        if w.bytes().all(|c| c == b'.' || c.is_ascii_digit()) {
            // "4129.553.087": groups of three after four digits or more are a booking's
            // number, not thousands.
            let mut groups = w.split('.');
            let booking = groups.next().is_some_and(|g| g.len() >= 4)
                && w.len() >= 11
                && groups.all(|g| g.len() == 3);
            if booking || self.shape(Asked::Ipv4, w, shapes::is_ipv4) {
                self.emit_id(b, end);
            } else {
                self.other();
            }
            return false;
        }
        let initials = w.split('.').all(|label| {
            let mut cs = label.chars();
            cs.next().is_some_and(char::is_alphabetic) && cs.next().is_none()
        });
        if initials {
            // Initials: "J.R.R", "U.S" join names; "e.g", "i.e", "a.m", "P.S" do not.
            if lookup(w) & F_ACRONYM_STOP != 0 {
                self.filler();
                return false;
            }
            if w.chars().all(|c| c == '.' || c.is_uppercase()) {
                self.word(b, end, Kind::Initial, 0);
            } else {
                self.filler();
            }
            return true;
        }
        // A domain ("docs.example.com") or a file name ("report.pdf", "Node.js").
        // "console.log(x)": a call in pasted code, not a file.
        let call = self.bytes.get(end) == Some(&b'(');
        let last = w.rsplit('.').next().unwrap_or(w);
        let known = !call
            && lookup(last) & (F_TLD | F_FILE_EXT) != 0
            && self.shape(Asked::DomainOrFile, w, shapes::is_domain_or_file);
        if known {
            self.emit_id(b, end);
        } else {
            self.other();
        }
        false
    }

    /// "AT&T", "P&G", "R&D".
    fn ampersand(&mut self, w: &'a str, b: usize) {
        let end = b + w.len();
        let parts_ok = w
            .split('&')
            .all(|p| !p.is_empty() && p.chars().all(char::is_alphabetic));
        if !parts_ok {
            self.other();
        } else if w.chars().all(|c| c == '&' || c.is_uppercase()) {
            if lookup(w) & F_ACRONYM_STOP != 0 {
                self.filler();
            } else {
                self.word(b, end, Kind::Caps, 0);
            }
        } else if w.chars().next().is_some_and(char::is_uppercase) {
            self.word(b, end, Kind::Camel, 0);
        } else {
            self.other();
        }
    }

    fn hyphenated(&mut self, w: &'a str, b: usize, shape: &Shape) {
        let end = b + w.len();
        // One pass over the parts.
        let (mut empty, mut digits, mut each_digit, mut capitalised) = (false, true, true, true);
        for p in w.split('-') {
            empty |= p.is_empty();
            digits &= p.bytes().all(|c| c.is_ascii_digit());
            each_digit &= p.bytes().any(|c| c.is_ascii_digit());
            capitalised &= p.chars().next().is_some_and(char::is_uppercase);
        }
        // Only asked when the shape leaves it open.
        let code = || w.split('-').any(is_code);
        if empty {
            self.other();
            return;
        }
        if self.shape(Asked::Uuid, w, shapes::is_uuid) {
            self.emit_id(b, end);
            return;
        }
        // A capitalised name and a lowercase word after its last hyphen.
        let named = w
            .rsplit_once('-')
            .filter(|(name, _)| name.starts_with(char::is_uppercase));
        match named {
            // "Tanaka-san", "Sato-sensei": a title after the name, as "Dr." before one. Not
            // "-ji": Kinkaku-ji is a temple; a Hindi "ji" stands apart ("Sharma ji").
            Some((name, "san" | "sama" | "kun" | "chan" | "sensei")) if !name.contains('-') => {
                self.cap_word(name, b, lookup(name));
                return;
            }
            // "NASA-themed", "Google-owned", "Berlin-based": the name before an adjective.
            Some((
                name,
                "themed" | "based" | "style" | "owned" | "powered" | "backed" | "sponsored"
                | "approved" | "certified" | "compatible" | "friendly" | "related" | "only"
                | "free" | "like" | "wide" | "specific" | "led" | "funded" | "inspired",
            )) => {
                self.classify_core(name, b);
                self.flush();
                return;
            }
            _ => {}
        }
        if shape.numeric > 0 {
            let id = if digits {
                !self.phone_before(b)
                    && self.shape(Asked::DigitGroupsId, w, shapes::digit_groups_are_id)
            } else {
                shape.upper > 0 || code() || (w.len() >= 8 && each_digit) || is_host_like(w)
            };
            if id {
                self.emit_id(b, end);
            } else {
                self.other();
            }
            return;
        }
        // Letters only: a name when every part is capitalised ("Jean-Luc", "Coca-Cola"), or
        // when it starts and ends capitalised with short particles between
        // ("Stratford-upon-Avon", "Aix-en-Provence", "Port-au-Prince").
        let particles = || {
            let mut parts = w.split('-');
            let first = parts.next().unwrap_or("");
            let last = w.rsplit('-').next().unwrap_or("");
            let cap = |p: &str| p.chars().next().is_some_and(char::is_uppercase);
            cap(first)
                && cap(last)
                && parts.all(|p| cap(p) || (p.len() <= 5 && p.chars().all(char::is_lowercase)))
        };
        if !capitalised && particles() {
            self.cap_word(w, b, lookup(w));
        } else if capitalised {
            if shape.lower == 0 {
                self.word(b, end, Kind::Caps, 0);
            } else {
                self.cap_word(w, b, lookup(w));
            }
        } else if is_romanised_given_name(w) {
            // "Sun-hee", "Wei-ting", "Soo-jin": a Korean or Chinese given name.
            self.cap_word(w, b, 0);
        } else if is_service_name(w) {
            self.emit_id(b, end);
        } else if w.split_once('-').is_some_and(|(head, tail)| {
            head.len() >= 4
                && head.starts_with(char::is_uppercase)
                && (1..=4).contains(&tail.len())
                && tail.bytes().all(|c| c.is_ascii_lowercase())
                && lookup(head) | lookup(tail) == 0
        }) {
            // "Kinkaku-ji", "Seongsu-dong", "Gangnam-gu": a place and its kind; not
            // "Follow-up", "Check-in" (words the lexicon knows).
            self.cap_word(w, b, 0);
        } else {
            self.lower(w, b);
        }
    }

    fn apostrophe(&mut self, w: &'a str, b: usize) {
        let elided = |prefixes: &[&str]| {
            prefixes.iter().any(|p| {
                w.strip_prefix(p)
                    .is_some_and(|rest| rest.starts_with(char::is_uppercase))
            })
        };
        let after_name = matches!(self.run.last(), Some(El::Word(_)));
        // An Italian "dello", "nello" after a person is where they are from ("Gianluca
        // dell'Enel"): two names.
        let after_person =
            matches!(self.run.last(), Some(El::Word(last)) if last.has(F_NAME | F_GIVEN));
        if after_name
            && (elided(&["d'", "d’", "l'", "l’"])
                || (!after_person
                    && elided(&[
                        "dell'", "dell’", "nell'", "nell’", "all'", "all’", "sull'", "sull’",
                    ])))
        {
            // "Musée d'Orsay", "Côte d'Ivoire", "Reggio nell'Emilia": an elided "de"/"le" (or
            // an Italian "nello", "dello") before a capital continues the name.
            self.word(b, b + w.len(), Kind::Cap, 0);
            return;
        }
        // "İstanbul'a", "Koton'dan", "Ali'nin": a Turkish case ending written after a name.
        const TURKISH_ENDINGS: [&str; 42] = [
            "a", "da", "dan", "de", "den", "e", "i", "in", "nin", "nun", "ta", "tan", "te", "ten",
            "u", "un", "ya", "ye", "yi", "yla", "yle", "ı", "ın", "nın", "ü", "ün", "nün", "yı",
            "la", "le", "na", "ne", "nda", "nde", "ndan", "nden", "nı", "ni", "nu", "nü", "yu",
            "yü",
        ];
        if let Some((base, ending)) = w.split_once(['\'', '’']) {
            if base.starts_with(char::is_uppercase)
                && base.chars().count() >= 2
                && TURKISH_ENDINGS.contains(&ending)
            {
                self.cap_word(base, b, lookup(base));
                self.flush();
                return;
            }
        }
        // "O'Brien", "D'Angelo": capitalised, and every apostrophe is followed by a capital.
        let mut name = w.chars().next().is_some_and(char::is_uppercase);
        let mut after_apos = false;
        for c in w.chars() {
            if after_apos && !c.is_uppercase() {
                name = false;
            }
            after_apos = c == '\'' || c == '’';
        }
        if name && (!after_apos || is_g_dropping(w)) {
            self.word(b, b + w.len(), Kind::Cap, 0);
        } else if w.split_once(['\'', '’']).is_some_and(|(head, tail)| {
            head.len() == 1 && tail.len() >= 3 && tail.chars().all(char::is_lowercase)
        }) && self.after_lowercase_honorific(b)
        {
            // "mrs o'sullivan": an Irish family name typed in lowercase after a title.
            self.emit_id(b, b + w.len());
        } else if !self.sentence_start
            && w.starts_with(|c: char| c.is_ascii_uppercase())
            && w != "I'm"
            && self.cap_word_follows(b + w.len())
        {
            // "exit song is Don't Stop Me Now", "is It's Always Sunny in Philadelphia": a
            // contraction capitalised inside a sentence opens a title.
            self.flush();
            self.word(b, b + w.len(), Kind::Cap, F_CONTRACTION);
        } else {
            // A contraction ("I'm", "Don't", "we'll"): a function word.
            self.filler();
        }
    }

    /// A token of letters and digits only.
    fn alnum(&mut self, w: &'a str, b: usize, shape: &Shape) -> bool {
        let end = b + w.len();
        if shape.letters == 0 {
            // Not a group of a number already taken ("2290" of "3318 2290").
            if b >= self.taken_end {
                self.number(b, end, w);
            }
            return false;
        }
        if shape.numeric > 0 {
            // "Aer Lingus EI154", "KLM KL1601": a flight after its airline is a code of its
            // own (a model code, "Volvo XC90", "Dyson V11", has fewer digits).
            let flight = w.len() >= 5
                && w.len() <= 6
                && w.as_bytes()[..2].iter().all(u8::is_ascii_uppercase)
                && w.as_bytes()[2..].iter().all(u8::is_ascii_digit);
            if self.tail_joinable()
                && !flight
                && self.shape(Asked::ModelCode, w, shapes::is_model_code)
            {
                // "Dyson V11", "Galaxy S23".
                self.run.push(El::Num { end });
                self.sentence_start = false;
                self.cue_word = None;
            } else if shape.upper > 0 && self.lookup(w) & F_ACRONYM_STOP != 0 {
                // "IPv6", "IPv4", "MP3": a generic term with a digit, not a code.
                self.filler();
            } else if is_code(w) {
                self.emit_id(b, end);
            } else if self.shape(Asked::Ordinal, w, shapes::is_ordinal) {
                self.flush();
                self.run.push(El::Ord {
                    start: b,
                    street: false,
                });
                self.sentence_start = false;
                self.cue_word = None;
            } else if is_digit_brand(w) {
                // "1Password", "7Eleven"
                self.word(b, end, Kind::Camel, 0);
            } else {
                self.other();
            }
            return false;
        }
        if shape.upper == 0 && shape.lower == 0 {
            self.caseless_word(w, b);
            return false;
        }
        if shape.upper == 0 {
            self.lowercase_word(w, b, end);
            return false;
        }
        let flags = self.lookup(w);
        if shape.lower == 0 {
            if shape.chars == 1 {
                // "O João Pereira da Embraer": Portuguese "o" before a name, opening a
                // sentence, as "I" is no name.
                if w == "I" || (w == "O" && self.sentence_start && self.cap_word_follows(end)) {
                    self.filler();
                    return false;
                }
                self.word(b, end, Kind::Initial, flags);
                return true;
            }
            let common = flags & (F_STARTER | F_COMMON) != 0 && w.len() >= 4;
            let log_level = matches!(
                w,
                "INFO"
                    | "ERROR"
                    | "WARN"
                    | "WARNING"
                    | "DEBUG"
                    | "FATAL"
                    | "TRACE"
                    | "CRITICAL"
                    | "FAILED"
                    | "NOTICE"
                    | "PASSED"
                    | "FAIL"
                    | "PASS"
            );
            if log_level {
                // "ERROR Failed to load config": a log line's message opens after its level.
                self.filler();
                self.sentence_start = true;
            } else if common
                || flags & (F_ACRONYM_STOP | F_TIME | F_HONORIFIC) != 0
                || (self.case_blind(end)
                    && flags & (F_NAME | F_GIVEN) == 0
                    && (flags != 0 || self.is_english(w)))
            {
                self.filler();
            } else {
                self.word(b, end, Kind::Caps, 0);
            }
            return false;
        }
        if shape.lower == 1 && shape.upper >= 2 && w.ends_with('s') {
            // "OKRs", "KPIs", "NDAs": a plural acronym is generic.
            self.filler();
            return false;
        }
        if !shape.first_upper || shape.upper_after_first {
            // "TypeError", "NullPointerException", "OOMKilled", "AccessDenied",
            // "CrashLoopBackOff", "ConnectTimeout": what pasted code and logs report.
            let status = [
                "Error",
                "Exception",
                "Killed",
                "Denied",
                "Failed",
                "Timeout",
                "BackOff",
                "Exceeded",
                "Refused",
            ]
            .iter()
            .any(|s| w.len() > s.len() && w.ends_with(s));
            if flags & F_ACRONYM_STOP != 0 || status {
                // "YoY", "QoQ"
                self.filler();
            } else {
                self.word(b, end, Kind::Camel, 0);
            }
            return false;
        }
        self.cap_word(w, b, flags)
    }

    /// A word of lowercase letters ("pricing", "priya", "of"): a name typed in lowercase, a
    /// joiner inside a name or title, or a plain word that ends the run. Out of `alnum`, so
    /// the path of capitalised words stays small (in wasm too: wasm-opt inlines a function with
    /// one caller only when it is small, wasm-pack.toml).
    #[inline(never)]
    fn lowercase_word(&mut self, w: &'a str, b: usize, end: usize) {
        if b < self.taken_end {
            // The second word of a name already taken ("york" of "new york").
            return;
        }
        let named = may_be_name(w);
        // A title of at most four letters right before ("dr. okafor"): checked inline.
        let titled = self.cue_word.is_some_and(|(s, e)| {
            e - s <= 4
                && match self.bytes.get(e..b) {
                    Some(b". ") => true,
                    Some(b" ") => matches!(&self.bytes[s..e], b"mr" | b"mrs" | b"ms" | b"dr"),
                    _ => false,
                }
        });
        if (named || titled) && self.lowercase_name(w, b, named) {
            return;
        }
        // Names of three letters or more, after a cue word of two to ten ("at", "called",
        // "flatmate").
        let slot = self
            .cue_word
            .is_some_and(|(s, e)| (2..=10).contains(&(e - s)) && e + 1 == b);
        if slot && w.len() >= 3 && self.unlisted_lowercase_name(w, b) {
            return;
        }
        if w.len() >= 3
            && self.casual()
            && self.says_or_owns_after(end)
            // "grace said", "jack's allergist": or a given name that is also a word.
            && (is_unknown_lowercase(w) || lookup(w) & F_GIVEN != 0)
            // "the fridge says", "st. mary's": a name takes no article or "st." before it.
            && !matches!(
                self.word_before(b),
                "the" | "a" | "an" | "my" | "our" | "your" | "his" | "her" | "their" | "this"
                    | "that" | "st"
            )
            && !self.text[..b].ends_with("st. ")
        {
            // "luc grew up there", "hannah says", "dani's bday": an unknown word that
            // says, does or owns something is someone.
            let end = self.shop_possessive_end(b, end);
            self.emit_id(b, end);
            self.lowercase_name_end = end;
            return;
        }
        // The cue's bytes right before the word: most words are ruled out by its last byte.
        let head = &self.bytes[..b];
        let cue = |c: &[u8]| head.ends_with(c);
        if w.len() >= 4
            && matches!(head.last(), Some(b' '))
            && matches!(head.get(b.wrapping_sub(2)), Some(b't' | b'm' | b'n'))
            && (cue(b" at ") && w != "will" || cue(b" from ") || cue(b" on ") && w != "target")
            && self.casual()
            && lookup(w) & (F_GIVEN | F_COMMON) == F_GIVEN
        {
            // "from boots", "on delta", "at target": a brand that is also a word, where
            // one shops or flies ("on target", "at will" are idioms).
            self.emit_id(b, end);
            return;
        }
        let flags = if self.run.is_empty() {
            0
        } else {
            self.lookup(w)
        };
        let joined = if w == "the"
            && matches!(self.run.last(), Some(El::Word(_)))
            && self.cap_word_follows(end)
            && self.title_mode()
        {
            // "Here Comes the Sun", "Gone with the Wind": "the" inside a title.
            self.run.push(El::Conn {
                of: false,
                prep: false,
            });
            self.sentence_start = false;
            true
        } else if w == "of" && self.poss.is_some() && self.cap_word_follows(end) {
            // "Lloyd's of London", "Ripley's of Hollywood": a possessive before "of" and a
            // capitalised word is inside one name.
            if let Some((base_end, poss_end)) = self.poss.take() {
                self.extend_last_word(base_end, poss_end);
            }
            self.try_conn(flags, true)
        } else if matches!(w, "a" | "an")
            && (matches!(self.run.last(), Some(El::Conn { of: true, .. }))
                || (matches!(self.run.last(), Some(El::Word(_)))
                    && self.run_opens_with_preposition()))
            && self.cap_word_follows(end)
        {
            // "Portrait of a Lady on Fire", "Diary of a Wimpy Kid", "To Kill a
            // Mockingbird".
            self.try_conn(F_CONNECTOR, false)
        } else if self.bytes.get(end + 1) == Some(&b'd')
            && matches!(w, "an" | "vor" | "ob")
            && matches!(self.run.last(), Some(El::Word(p)) if !p.has(F_GIVEN | F_NAME | F_ALWAYS_DROP))
            && self.word_after(end) == "der"
            && self.cap_word_follows(end + 4)
        {
            // "Mülheim an der Ruhr", "Bad Homburg vor der Höhe", "Rothenburg ob der
            // Tauber": a German place by its river or hill ("Lisa an der Kasse" is where
            // someone is).
            self.try_conn(F_CONNECTOR, false)
        } else if flags & F_CONNECTOR != 0 {
            // "z Kasią do Zakopanego": Polish "do" is "to", and "Budi di Bandung":
            // Indonesian "di" is "at"; Portuguese "do" and Italian "di" join a name ("Foz do
            // Iguaçu", "Castellammare di Stabia").
            let foreign = match w {
                "do" => self.extended_latin_near(b),
                "di" => self.malay_near(b),
                _ => false,
            };
            !foreign && self.try_conn(flags, w == "of")
        } else if w == "and" && self.the_title_follows(end) {
            // "Harry Potter and the Philosopher's Stone", "Zen and the Art of …": "and
            // the" before a capitalised word joins a title ("Anna and the kids" does not).
            self.title_run = self.try_conn(F_CONNECTOR, true);
            self.title_run
        } else if w == "and" && self.listed_name_goes_on(end) {
            // "Trinidad and Tobago", "Bosnia and Herzegovina": a listed name with "and".
            self.try_conn(F_CONNECTOR, false)
        } else if w == "and" && self.abstract_pair_follows(end) {
            // "Pride and Prejudice", "Crime and Punishment": two capitalised nouns joined
            // inside a sentence name one work ("Anna and Ben" stay two).
            self.try_conn(F_CONNECTOR, false)
        } else if (self.title_opening.is_some() || self.run_opens_with_preposition())
            && matches!(w, "and" | "for" | "by" | "from")
            && self.ordinary_cap_follows(end)
        {
            // "Of Mice and Men", "In the Mood for Love", "Call Me by Your Name".
            self.try_conn(F_CONNECTOR, false)
        } else if (flags & F_MID_DROP != 0 || matches!(w, "with" | "over" | "under"))
            && self.title_mode()
        {
            self.try_title_joiner(w, end)
        } else {
            false
        };
        if !joined {
            self.lower_flags(flags, b, end);
        }
    }

    /// A capitalised word ("Berlin", "Dr", "Monday", "St").
    /// `flags`: the word's lexicon flags, `lookup(w)`.
    fn cap_word(&mut self, w: &'a str, b: usize, mut flags: u32) -> bool {
        // "vào thứ Năm": a Vietnamese weekday, "day" and its number.
        if self.bytes.get(b.wrapping_sub(2)) == Some(&0xA9) && self.text[..b].ends_with("thứ ") {
            flags |= F_TIME;
        }
        if flags & (F_NAME | F_GIVEN | F_HONORIFIC) == 0
            && self.case_blind(b + w.len())
            && (flags != 0 || self.is_english(w))
        {
            self.filler();
            return false;
        }
        // "Asked Tariq to…", "Told Priya": a says-verb opens a sentence as any verb does.
        if flags & (F_STARTER | F_TIME) == 0 && (flags & F_SAYS != 0 || is_verb_form(w)) {
            flags |= F_STARTER;
        }
        if flags & F_TIME != 0 {
            if self.title_mode() {
                // "The Midnight Library"
                self.word(b, b + w.len(), Kind::Cap, flags);
            } else if is_name_like_month(w)
                && !self.possessive_at(b + w.len())
                && self.month_names_person(b, b + w.len())
            {
                self.flush();
                self.word(b, b + w.len(), Kind::Cap, flags & !F_TIME);
            } else if self.place_noun_follows(b + w.len()) {
                // "Mayo Clinic", "Easter Island", "Christmas Market": a day's or month's word
                // before a place's noun names the place.
                self.flush();
                self.word(b, b + w.len(), Kind::Cap, flags & !F_TIME);
            } else if is_name_like_month(w)
                && (self.cap_word_follows(b + w.len()) || self.possessive_at(b + w.len()))
            {
                // "May Lin joined", "June Carter's album": a month that is also a given
                // name, right before a capitalised word, starts a name; "June's email": a
                // month owns nothing, a person does.
                self.flush();
                self.word(b, b + w.len(), Kind::Cap, flags);
            } else {
                self.other();
            }
            return false;
        }
        if flags & F_HONORIFIC != 0 {
            self.flush();
            self.sentence_start = false;
            self.cue_word = None;
            return true;
        }
        // Only right after the article: an empty run, or one holding just the article that
        // opened the sentence ("Die Zahlung").
        let fresh = match self.run.as_slice() {
            [] => true,
            [El::Word(w)] => w.is_dropped_prefix(),
            _ => false,
        };
        // A letter right before the space: most sentences open after a stop.
        let after_word = b >= 2 && self.bytes[b - 2].is_ascii_alphabetic();
        if fresh && after_word && is_german_article(self.word_before(b)) {
            // "einen Termin", "die Überweisung": German capitalises its nouns; one after an
            // article is a noun unless a name follows it.
            self.sentence_start = true;
            flags |= F_COMMON;
        }
        let cyrillic_or_greek =
            |c: char| matches!(c, '\u{0370}'..='\u{03ff}' | '\u{0400}'..='\u{04ff}');
        if self.run.is_empty() && self.sentence_start && w.starts_with(cyrillic_or_greek) {
            // "Напомни мне…", "Сколько стоит…", "Θύμισέ μου…": in Russian, Ukrainian and
            // Greek chat a sentence opens with a verb, a question word or a noun far more
            // often than with a name; before a lowercase word of its script or a number it is
            // read as one (18 such openings in the tuning sets, no name among them).
            // "Ольга сказала", "Наташа просила": a verb of speech after it makes it someone
            // (`speech_verb`), here and in the other languages below ("Kasia mówi").
            let next = self.slice(b + w.len(), self.bytes.len());
            if next
                .strip_prefix(' ')
                .and_then(|n| n.chars().next())
                .is_some_and(|c| (c.is_lowercase() && cyrillic_or_greek(c)) || c.is_ascii_digit())
                && !speech_verb(self.word_after(b + w.len()))
            {
                flags |= F_STARTER;
            }
        }
        if self.run.is_empty()
            && self.sentence_start
            && flags & (F_NAME | F_GIVEN | F_STARTER) == 0
            && self.opens_sentence_of_another_language(b, b + w.len())
            && !speech_verb(self.word_after(b + w.len()))
        {
            // "Compré las zapatillas…", "Ik heb bij Albert Heijn…", "Tolong ingatkan saya…": the
            // same for a sentence in a language the lexicon does not hold.
            flags |= F_STARTER;
        }
        self.word(b, b + w.len(), Kind::Cap, flags);
        flags & F_ABBREV_JOIN != 0
    }

    /// Whether the sentence whose first word spans `start..p` goes on with lowercase words, holds a
    /// function word of another language ("las", "heb", "saya") and none that only English has:
    /// then its first word is a verb, pronoun or noun far more often than a name (the listed
    /// names, `names.txt`, are kept before this is asked).
    fn opens_sentence_of_another_language(&self, start: usize, p: usize) -> bool {
        let rest = self.slice(p, self.bytes.len());
        let Some(after) = rest.strip_prefix(' ') else {
            return false;
        };
        let (next, then) = after.split_once(' ').unwrap_or((after, ""));
        if !next.starts_with(char::is_lowercase)
            || lookup(next) & F_CONNECTOR != 0
            || (then.starts_with(char::is_uppercase) && is_conjunction(next))
            || lookup(self.title_before(start)) & F_HONORIFIC != 0
        {
            // "Rio de Janeiro", "Quinta das Lágrimas": a particle inside a name; "dott.
            // Rossi ha…": a title before it.
            return false;
        }
        let end = rest.find(['.', '!', '?', '\n', ';']).unwrap_or(rest.len());
        let mut foreign = false;
        for word in rest[..end].split(|c: char| !c.is_alphabetic() && c != '\'') {
            if matches!(
                word,
                "the"
                    | "and"
                    | "for"
                    | "with"
                    | "my"
                    | "you"
                    | "that"
                    | "this"
                    | "are"
                    | "have"
                    | "has"
                    | "can"
                    | "from"
                    | "about"
                    | "please"
                    | "what"
                    | "when"
                    | "where"
                    | "how"
                    | "it"
                    | "your"
                    | "our"
                    | "they"
                    | "she"
                    | "his"
                    | "just"
                    | "need"
                    | "get"
                    | "got"
                    | "did"
                    | "should"
                    | "could"
                    | "would"
                    | "there"
                    | "their"
                    | "been"
                    | "which"
                    | "who"
                    | "why"
                    | "if"
                    | "not"
                    | "but"
                    | "we"
                    | "i'm"
                    | "it's"
                    | "to"
                    | "is"
                    | "on"
                    | "at"
                    | "of"
                    | "in"
                    | "an"
                    | "was"
                    | "will"
                    | "be"
                    | "up"
                    | "out"
                    | "all"
                    | "one"
                    | "by"
                    | "so"
                    | "or"
            ) {
                return false;
            }
            // Spanish, Portuguese, French, Italian, German, Dutch, Polish, Turkish,
            // Indonesian, Vietnamese, Swahili (not "et", "al": "Vaswani et al."; not words
            // romanised Hindi shares, "ka", "ke", "na", "ya", "do").
            foreign |= matches!(
                word,
                "el" | "la"
                    | "los"
                    | "las"
                    | "que"
                    | "en"
                    | "por"
                    | "con"
                    | "una"
                    | "un"
                    | "mi"
                    | "para"
                    | "del"
                    | "le"
                    | "les"
                    | "des"
                    | "du"
                    | "est"
                    | "pour"
                    | "dans"
                    | "avec"
                    | "je"
                    | "il"
                    | "di"
                    | "che"
                    | "non"
                    | "da"
                    | "della"
                    | "os"
                    | "em"
                    | "uma"
                    | "não"
                    | "der"
                    | "die"
                    | "das"
                    | "und"
                    | "ist"
                    | "nicht"
                    | "mit"
                    | "für"
                    | "ein"
                    | "eine"
                    | "den"
                    | "dem"
                    | "het"
                    | "een"
                    | "van"
                    | "ik"
                    | "de"
                    | "op"
                    | "niet"
                    | "w"
                    | "z"
                    | "się"
                    | "nie"
                    | "bir"
                    | "ve"
                    | "bu"
                    | "için"
                    | "ile"
                    | "yang"
                    | "dan"
                    | "ini"
                    | "itu"
                    | "saya"
                    | "và"
                    | "của"
                    | "tôi"
                    | "là"
                    | "có"
                    | "không"
                    | "kwa"
                    | "wa"
            );
        }
        foreign
    }

    // ----- run builder -----------------------------------------------------------------

    fn word(&mut self, start: usize, end: usize, kind: Kind, flags: u32) {
        if let Some((base_end, poss_end)) = self.poss.take() {
            // "Joe's Pizza", "Carlo's Bakery", "The Hitchhiker's Guide": a possessive before
            // a capitalised common noun (or inside a title) belongs to the name.
            // "McKinley's Hardware", "Fiddler's Elbow": an English word capitalised after
            // an owner of one word who is not someone's given name ("Maria's Birthday",
            // "Joy Division's Unknown Pleasures" stay two).
            let shop = || {
                flags & (F_NAME | F_GIVEN) == 0
                    && match self.run.as_slice() {
                        // Past an opener the run still holds ("Is McKinley's Hardware open?").
                        [El::Word(owner)] => !owner.has(F_GIVEN | F_NAME),
                        [El::Word(opener), El::Word(owner)] => {
                            opener.is_dropped_prefix() && !owner.has(F_GIVEN | F_NAME)
                        }
                        _ => false,
                    }
                    && self.is_english(self.slice(start, end))
            };
            let joins = kind == Kind::Cap
                && (flags & F_COMMON != 0 || self.title_mode() || self.saint_owns() || shop());
            if joins {
                self.extend_last_word(base_end, poss_end);
            } else {
                self.flush();
            }
        }
        if let Some(El::Conn { prep: true, .. }) = self.run.last() {
            // "The Hobbit in London": a title preposition joins only through an article, or
            // an ordinary word ("Lost in Translation", "Falling in Love", "All at Once").
            let ordinary = kind == Kind::Cap
                && self.word_before(start) != "with"
                && is_ordinary_cap(self.slice(start, end));
            if !ordinary {
                self.run.pop();
                self.flush();
            }
        }
        // "Put The Hobbit on hold": a capitalised "The" after an opener is not where the
        // sentence starts, and opens a title.
        let the_after_opener =
            !self.run.is_empty() && end - start == 3 && self.slice(start, end) == "The";
        let w = Word {
            start,
            end,
            kind,
            sent_init: self.sentence_start && !the_after_opener,
            flags,
        };
        // "A Man Called Ove": the article is a title's first word too.
        let article = kind == Kind::Initial && self.bytes[start] == b'A' && end == start + 1;
        if self.run.is_empty() && w.sent_init && (kind == Kind::Cap || article) {
            self.title_opening = self.title_case_opening(start, end, flags);
            self.title_run |= self.title_opening.is_some();
        }
        // "Hi Sarah": a dropped opener keeps the sentence open for the next word.
        self.sentence_start =
            w.sent_init && matches!(kind, Kind::Cap | Kind::Initial) && w.has(F_STARTER);
        self.cue_word = None;
        self.run_words += 1;
        if self.run_words > MAX_RUN_WORDS || self.run.len() >= MAX_RUN_ELEMENTS {
            self.overflow = true;
            return;
        }
        self.run.push(El::Word(w));
    }

    /// A connector ("of", "de", "&", "the" after "of") between name words.
    fn try_conn(&mut self, flags: u32, of: bool) -> bool {
        let is_the = flags & F_CONNECTOR != 0 && flags & F_OBJECT != 0; // "the"
        if self.poss.is_some() {
            return false;
        }
        if self.overflow {
            return self.run_words > 0;
        }
        let trailing = self
            .run
            .iter()
            .rev()
            .take_while(|e| matches!(e, El::Conn { .. }))
            .count();
        match self.run.last() {
            Some(El::Word(_)) if !is_the => {}
            Some(El::Conn { of: prev_of, .. }) if trailing < 2 && (!is_the || *prev_of) => {}
            _ => return false,
        }
        if self.run.len() >= MAX_RUN_ELEMENTS {
            self.overflow = true;
        } else {
            self.run.push(El::Conn { of, prep: false });
        }
        self.sentence_start = false;
        true
    }

    /// The run is a saint's name ("St Mary's", "St. Brigid's"): what the saint owns is named
    /// after them ("St Mary's Hospital", "St Brigid's Primary"), as a person's things are not.
    fn saint_owns(&self) -> bool {
        matches!(self.run.first(), Some(El::Word(w))
            if self.bytes[w.start] == b'S'
                && matches!(self.slice(w.start, w.end), "St" | "St." | "Saint" | "Sankt" | "San"))
    }

    /// Whether the run opens a listed name of several words that goes on over the word ending
    /// at `p` and a capitalised word after it ("Trinidad and Tobago").
    fn listed_name_goes_on(&self, p: usize) -> bool {
        let Some(first) = self.first_name_word() else {
            return false;
        };
        if !first.has(F_NAME_PREFIX) || !self.cap_word_follows(p) {
            return false;
        }
        let next = self.word_after(p);
        lookup_phrase(self.slice(first.start, p + 1 + next.len())) & F_NAME != 0
    }

    /// Whether a capitalised place's noun ("Clinic", "Island", "Street") follows byte `p`.
    fn place_noun_follows(&self, p: usize) -> bool {
        self.cap_word_follows(p) && lookup(self.word_after(p)) & F_PLACE_NOUN != 0
    }

    /// Whether " of " and a capitalised word follow byte `p`.
    fn of_name_follows(&self, p: usize) -> bool {
        self.bytes.get(p..p + 3) == Some(b" of") && self.cap_word_follows(p + 3)
    }

    fn cap_word_follows(&self, p: usize) -> bool {
        self.bytes.get(p) == Some(&b' ') && self.ch(p + 1).is_some_and(|(c, _)| c.is_uppercase())
    }

    /// "**Owner:** Dana", "Attendees: Priya": a lone capitalised word that opens a sentence
    /// and ends in a colon (or is the run before a lowercase word and a colon) labels what
    /// follows. `start`: where the word must start, when it is the token just read.
    fn drop_label(&mut self, start: Option<usize>) {
        if let [El::Word(w)] = self.run.as_slice() {
            let here = start.is_none_or(|s| w.start == s);
            // "Component: Reporting, Assignee: Hugo": a label after a comma, as at a line's start.
            let listed = self.bytes[..w.start].trim_ascii_end().ends_with(b",");
            // "- Rose: data loader", "- Amara: pen test", "London: 3 offers": a given name
            // or a listed name before a colon assigns or names, as an unknown word does not.
            if w.kind == Kind::Cap
                && (w.sent_init || listed)
                && here
                && !self.overflow
                && !w.has(F_GIVEN | F_NAME)
            {
                self.run.clear();
                self.run_words = 0;
            }
        }
    }

    /// Whether a number or model code may extend the run ("Windows 11", "Dyson V11"): it
    /// must follow a name word, not an ordinary word such as "Ticket" or "Room".
    fn tail_joinable(&self) -> bool {
        match self.run.last() {
            Some(El::Word(last)) => {
                !self.overflow
                    && self.poss.is_none()
                    && last.kind != Kind::Initial
                    && !(last.kind == Kind::Cap && last.has(F_STARTER | F_COMMON))
            }
            _ => false,
        }
    }

    fn number(&mut self, start: usize, end: usize, w: &str) {
        let ascii = w.bytes().all(|c| c.is_ascii_digit());
        let year_like = w.len() == 4 && (w.starts_with("19") || w.starts_with("20"));
        let joinable = self.tail_joinable();
        let cue = matches!(self.run.last(), Some(El::Word(last)) if last.has(F_ID_CUE));
        if joinable && ascii && w.len() <= 4 && !year_like {
            // "Windows 11", "iPhone 15 Pro".
            self.run.push(El::Num { end });
            self.sentence_start = false;
            self.cue_word = None;
            return;
        }
        let cue = cue || self.cue_active();
        self.flush();
        if ascii && cue && (3..=4).contains(&w.len()) {
            // "account no. 3318 2290", "acct 7193 0248": after its cue, an account number in
            // groups.
            let mut group_end = end;
            while let Some(next) = self.digit_group_after(group_end) {
                group_end = next;
            }
            if group_end > end {
                self.push_span(start, group_end);
                self.taken_end = group_end;
                self.sentence_start = false;
                self.cue_word = None;
                return;
            }
        }
        // "order 48213", "Invoice 2041": a number after an id word names a record.
        // Amounts are not written with a leading zero, nor with ten digits or more.
        let id_like = w.len() >= 10 || (w.len() >= 6 && w.starts_with('0'));
        if ascii && (id_like || (cue && w.len() >= 4)) {
            self.push_span(start, end);
        } else if ascii && w.len() <= 5 {
            // Perhaps a house number: "42 Elm Street".
            self.run.push(El::Ord {
                start,
                street: true,
            });
        }
        self.sentence_start = false;
        self.cue_word = None;
    }

    /// Whether the last word was an id word such as "order", "invoice" or "account".
    /// The end of a group of three or four digits after a space at `p`, if one is there.
    fn digit_group_after(&self, p: usize) -> Option<usize> {
        let rest = self.bytes.get(p..)?.strip_prefix(b" ")?;
        let len = rest.iter().take_while(|c| c.is_ascii_digit()).count();
        let ends = !rest.get(len).is_some_and(u8::is_ascii_alphanumeric);
        ((3..=4).contains(&len) && ends).then_some(p + 1 + len)
    }

    fn cue_active(&self) -> bool {
        self.cue_word
            .and_then(|(s, e)| self.text.get(s..e))
            .is_some_and(|w| lookup(w) & F_ID_CUE != 0)
    }

    /// `C:\Program Files\Acme\config.ini`: a drive's folder whose name holds a space goes on
    /// in the next word when that word is capitalised and holds a backslash. The length of
    /// the space and that word (trailing punctuation aside), else 0.
    fn windows_path_after_space(&self, w: &str, end: usize) -> usize {
        let one_folder = w.len() > 3 && w.as_bytes()[1] == b':' && !w[3..].contains('\\');
        if !one_folder || self.bytes.get(end) != Some(&b' ') {
            return 0;
        }
        let rest = self.text.get(end + 1..).unwrap_or("");
        let next = &rest[..rest.find(char::is_whitespace).unwrap_or(rest.len())];
        let next = next.trim_end_matches(|c: char| {
            is_trail_strip(c) || matches!(c, ',' | ';' | '!' | '?' | ')' | '"')
        });
        let capitalised = next.bytes().next().is_some_and(|c| c.is_ascii_uppercase());
        if capitalised && next.contains('\\') && !next.contains(':') {
            1 + next.len()
        } else {
            0
        }
    }

    /// A lowercase word. It is only looked up when a run is open: a plain word after other
    /// plain words, the common case, costs no lookup.
    fn lower(&mut self, w: &str, b: usize) {
        let flags = if self.run.is_empty() { 0 } else { lookup(w) };
        self.lower_flags(flags, b, b + w.len());
    }

    fn lower_flags(&mut self, flags: u32, start: usize, end: usize) {
        if let Some((base_end, poss_end)) = self.poss.take() {
            // "at Trader Joe's on the way", "Wendy's or Arby's": a possessive followed by a
            // function word or adverb owns nothing; the 's is the name's. Before a noun
            // ("Maria's birthday", "Sam's flight") it is a person's possessive.
            // A word that only opens sentences ("turn", "order", "plan": imperatives, nouns
            // too) owns nothing only after a place's preposition: "meet at Nkechi's so we…",
            // not "it's Ola's turn", "Nkechi's order arrived".
            let at_place = || match self.run.first() {
                Some(El::Word(w)) => matches!(
                    self.word_before(w.start),
                    "at" | "from" | "to" | "in" | "into" | "near" | "outside" | "inside"
                ),
                _ => false,
            };
            let function_word =
                flags & (F_MID_DROP | F_TIME) != 0 || (flags & F_STARTER != 0 && at_place());
            // "NASA's open data": a shop's name is no acronym.
            let acronym = matches!(self.run.last(), Some(El::Word(w)) if w.kind == Kind::Caps);
            // "at Olusegun's place": what a person has, though a verb too.
            let owned = matches!(
                self.slice(start, end),
                "place" | "house" | "flat" | "party" | "wedding" | "room" | "car"
            );
            // "St. Anne's hall", "St Mary's church": what a saint owns is named after them.
            if (function_word && flags & F_COMMON == 0 && !acronym && !owned) || self.saint_owns() {
                self.extend_last_word(base_end, poss_end);
            }
        }
        if flags & F_UNIT != 0 && matches!(self.run.last(), Some(El::Num { .. })) {
            // "Sarah 3 times": the number is a count, not part of the name.
            self.run.pop();
        }
        if flags & F_OBJECT != 0 {
            self.drop_initial_verb();
        }
        self.flush();
        self.cue_word = Some((start, end));
        self.sentence_start = false;
    }

    /// "Wire the money", "Renew my plan", "Cancel INV-2041": a lone capitalised word that
    /// opens a sentence and is followed directly by an object is a verb, not a name.
    fn drop_initial_verb(&mut self) {
        if let [El::Word(w)] = self.run.as_slice() {
            // A listed name is no verb ("Louise a son cours…": French "a", not "a").
            if w.kind == Kind::Cap && w.sent_init && !self.overflow && !w.has(F_NAME) {
                self.run.clear();
                self.run_words = 0;
            }
        }
    }

    /// Content that is neither a name nor an identifier (amounts, units, stray symbols).
    fn other(&mut self) {
        self.flush();
        self.sentence_start = false;
        self.cue_word = None;
    }

    /// A function word that leaves a sentence opening open ("I", "OK", "Don't").
    fn filler(&mut self) {
        self.flush();
        self.cue_word = None;
    }

    fn emit_id(&mut self, start: usize, end: usize) {
        self.drop_initial_verb();
        self.flush();
        self.push_span(start, end);
        self.sentence_start = false;
        self.cue_word = None;
    }

    fn brk_end(&mut self) {
        self.flush();
        self.sentence_start = true;
    }

    fn alone_on_line(&self, w: &Word) -> bool {
        let line_ends = matches!(self.bytes.get(w.end), None | Some(b'\n' | b'\r'));
        line_ends && self.opens_line(w.start)
    }

    /// Whether byte `start` opens its line, a list's marker aside ("- ", "* ", "• ", "2. ").
    /// Reads at most 8 bytes back.
    fn opens_line(&self, start: usize) -> bool {
        let from = start.saturating_sub(8);
        let before = &self.bytes[from..start];
        let line = match before.iter().rposition(|&b| b == b'\n') {
            Some(i) => &before[i + 1..],
            None if from == 0 => before,
            None => return false,
        };
        matches!(
            line.trim_ascii(),
            b"" | b"-" | b"*" | b"- [ ]" | b"- [x]" | b"\xe2\x80\xa2"
        ) || line
            .trim_ascii()
            .strip_suffix(b".")
            .is_some_and(|n| n.iter().all(u8::is_ascii_digit))
    }

    /// Whether the run opens right after a lowercase article ("a", "an", "the") and one space.
    fn article_before_run(&self) -> bool {
        let Some(El::Word(w)) = self.run.first() else {
            return false;
        };
        // The article's last byte first: most runs have none before them.
        w.start >= 2
            && self.bytes[w.start - 1] == b' '
            && matches!(self.bytes[w.start - 2], b'a' | b'n' | b'e')
            && matches!(self.word_before(w.start), "a" | "an" | "the")
    }

    /// Whether a possessive `'s` starts at byte `p`.
    fn possessive_at(&self, p: usize) -> bool {
        let after = self.slice(p, self.bytes.len());
        POSSESSIVES.iter().any(|s| after.starts_with(s))
    }

    /// What follows the space at byte `p`, and the lowercase ASCII word it opens ("" when it
    /// opens none).
    fn next_word(&self, p: usize) -> (&'a str, &'a str) {
        let rest = self.slice(p + 1, self.bytes.len());
        let len = rest
            .find(|c: char| !c.is_ascii_lowercase())
            .unwrap_or(rest.len());
        (rest, &rest[..len])
    }

    /// Whether the clause ends right after byte `p`: a comma, the line's or the text's end,
    /// or a verb of telling or a past tense ("Grant Thompson asked", "Hope said").
    fn clause_ends_after(&self, p: usize) -> bool {
        match self.bytes.get(p) {
            None | Some(b',' | b':' | b'\n' | b'\r' | b'\t' | b'|') => true,
            Some(b' ') => {
                let (rest, word) = self.next_word(p);
                if rest.starts_with('|') {
                    // "| Bill | Kindle |": a table cell ends there.
                    return true;
                }
                // "need", "seed": not a past tense.
                (word.len() >= 4 && word.ends_with("ed") && !word.ends_with("eed"))
                    || matches!(word, "said" | "says" | "told" | "sent" | "wrote" | "paid")
            }
            _ => false,
        }
    }

    /// The word of letters right after one space at byte `p` ("" when no space, or no letter,
    /// is there): what the rules that look one word ahead read (a cue's name, a place's noun,
    /// a listed name's next word, a says-verb).
    fn word_after(&self, p: usize) -> &'a str {
        self.slice(p, self.bytes.len())
            .strip_prefix(' ')
            .and_then(|rest| rest.split(|c: char| !c.is_alphabetic()).next())
            .unwrap_or("")
    }

    /// The ASCII word (letters and digits) before byte `start` and the spaces before it.
    fn word_before(&self, start: usize) -> &'a str {
        // Bytes: an ASCII byte is never part of a multi-byte char, so the span stays on char
        // boundaries.
        let head = &self.bytes[..start];
        let end = head.iter().rposition(|&c| c != b' ').map_or(0, |i| i + 1);
        let begin = head[..end]
            .iter()
            .rposition(|c| !c.is_ascii_alphanumeric())
            .map_or(0, |i| i + 1);
        self.slice(begin, end)
    }

    /// Whether a month that is also a given name (bytes `start..end`) names a person where it
    /// stands: it opens a sentence and says or does something ("April said", "April will
    /// present"), or sits inside one after no word of time ("ask May if", "when June
    /// approves", not "in May", "due May 5", "this June").
    fn month_names_person(&self, start: usize, end: usize) -> bool {
        if self.sentence_start {
            return self.person_acts_after(end, false);
        }
        let before = self.word_before(start);
        // "Friday May 5", "Q2 June"; not "Tell May the…", a verb opening the sentence.
        let dated = before.is_empty()
            || before.bytes().any(|c| c.is_ascii_digit())
            || (before.bytes().any(|c| c.is_ascii_uppercase()) && lookup(before) & F_STARTER == 0)
            || lookup(before) & (F_TIME | F_MID_DROP | F_CONNECTOR) != 0
            || matches!(
                before,
                "is" | "was"
                    | "be"
                    | "not"
                    | "due"
                    | "until"
                    | "till"
                    | "since"
                    | "by"
                    | "from"
                    | "through"
                    | "during"
                    | "before"
                    | "after"
                    | "around"
                    | "early"
                    | "late"
                    | "mid"
                    | "end"
                    | "start"
                    | "every"
                    | "each"
                    | "this"
                    | "next"
                    | "last"
                    | "and"
                    | "or"
            );
        let after = self.slice(end, self.bytes.len()).trim_start_matches(' ');
        !dated && !after.starts_with(|c: char| c.is_ascii_digit())
    }

    /// Whether what follows byte `p` makes the word before it a person: the clause ends
    /// there, or a person's verb or a list of people follows ("Will is out", "Grace from AP
    /// says", "Rose and Art", "Rose + Hank"). "Summer camp", "Will you", "Mark as read" are
    /// none of these.
    /// `lists`: "and", "or", "+" and "&" count ("Rose and Art"), not for a month ("May and
    /// June").
    fn person_acts_after(&self, p: usize, lists: bool) -> bool {
        if self.clause_ends_after(p) {
            return true;
        }
        if self.bytes.get(p) != Some(&b' ') {
            return false;
        }
        let (rest, word) = self.next_word(p);
        let list = rest.starts_with(['+', '&']) || matches!(word, "and" | "or");
        // "June is booked solid": a month is, a month has.
        let state = matches!(word, "is" | "was" | "has" | "had");
        // "May and I are…", "April is flying in": someone with the writer, or doing something
        // now.
        let with_writer = word == "and" && rest.strip_prefix("and I ").is_some();
        let doing = matches!(word, "is" | "was") && {
            let next = self.next_word(p + 1 + word.len()).1;
            // "May is going to be busy": of a month too.
            next.ends_with("ing") && next != "going"
        };
        (lists && (list || state))
            || with_writer
            || doing
            || matches!(
                word,
                "from"
                    | "will"
                    | "can"
                    | "wants"
                    | "asked"
                    | "just"
                    | "also"
                    | "got"
                    | "went"
                    | "broke"
                    | "thinks"
                    | "needs"
            )
    }

    /// Whether `w` opens an action item, " to " and a verb after it: a list's item or after a
    /// label's colon ("- [ ] Bill to email Deloitte", "Action: Grace to set up …"; "Hope to
    /// see you there" opens no item).
    fn action_owner(&self, w: &Word) -> bool {
        let item = self.bytes[..w.start].trim_ascii_end().ends_with(b":")
            || (self.opens_line(w.start) && !self.line_start(w.start));
        item && self.word_after(w.end) == "to" && {
            let verb = self.word_after(w.end + 3);
            verb.len() > 1 && verb.bytes().all(|c| c.is_ascii_lowercase())
        }
    }

    /// Whether a word carries a possessive `'s` (kept in it, or right after it).
    fn owns(&self, w: &Word) -> bool {
        let word = self.slice(w.start, w.end);
        POSSESSIVES.iter().any(|p| word.ends_with(p)) || self.possessive_at(w.end)
    }
}

#[cfg(test)]
mod tests;
