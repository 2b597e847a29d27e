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
//! 3. Words feed a run builder that joins adjacent name words, and the connectors between
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
    /// The last word looked up in the lexicon and its flags.
    last_lookup: (&'a str, u32),
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
    /// The run is a title joined by "and the" ("Harry Potter and the Philosopher's Stone").
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
            last_lookup: ("", 0),
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
        if w == self.last_lookup.0 {
            return self.last_lookup.1;
        }
        let flags = lookup(w);
        self.last_lookup = (w, flags);
        flags
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

    fn scan(&mut self) {
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
                    while let Some((d, dl)) = self.ch(j).filter(|&(d, _)| !d.is_ascii()) {
                        if !is_token_char(d) {
                            break;
                        }
                        j += dl;
                        count += 1;
                    }
                    self.token(i, j, count);
                    (i, ci) = (j, ci + count);
                    continue;
                }
                // "@李明": a handle is written in any script.
                let handle = c == '@';
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
                if letters {
                    self.letters_token(i, j);
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

    /// Names in a word of Chinese, Japanese or Thai, which run words together: before a
    /// title ("田中さんと京都で": 田中; "佐藤様", "王老师", "คุณวิภา"); else the word as a whole
    /// when it is set among Latin words (`caseless_name`); and the listed names and Chinese
    /// given names inside it (`caseless::names_in_unspaced`: 京都). Emits each, in order, and
    /// returns whether there was one.
    fn unspaced_names(&mut self, w: &str, b: usize) -> bool {
        const TITLES: [&str; 11] = [
            "さん",
            "さま",
            "様",
            "先生",
            "ちゃん",
            "くん",
            "氏",
            "女士",
            "老师",
            "小姐",
            "经理",
        ];
        let name_char = |c: char| {
            ('\u{4e00}'..='\u{9fff}').contains(&c) || ('\u{30a0}'..='\u{30ff}').contains(&c)
        };
        let mut spans = std::mem::take(&mut self.caseless_spans);
        spans.clear();
        if w.starts_with(caseless::is_thai) {
            // "คุณวิภา", "กับคุณสมชาย": a Thai title is written onto the name it precedes.
            if let Some(at) = w.find("คุณ") {
                let name = at + "คุณ".len();
                // The name runs to the word's end, or is a listed one ("คุณสมชายจาก": สมชาย).
                if let Some(len) = caseless::listed_prefix(&w[name..]) {
                    spans.push((name, name + len));
                } else if (2..=12).contains(&w[name..].chars().count()) {
                    spans.push((name, w.len()));
                }
            }
        } else if w.contains(['さ', '様', '先', 'ち', 'く', '氏', '女', '老', '小', '经'])
        {
            // Most words hold no title: one pass for the titles' first chars.
            for (at, _) in w.char_indices() {
                if !TITLES.iter().any(|t| w[at..].starts_with(t)) {
                    continue;
                }
                let head = &w[..at];
                // In Chinese the name starts after a particle or verb ("和王老师": 王).
                let chinese = !w.contains(caseless::is_kana);
                let start = head
                    .char_indices()
                    .rev()
                    .take_while(|&(_, c)| name_char(c) && !(chinese && caseless::is_clause_char(c)))
                    .last()
                    .map_or(at, |(i, _)| i);
                if (1..=5).contains(&head[start..].chars().count()) {
                    spans.push((start, at));
                }
            }
        }
        if spans.is_empty() {
            if let Some(len) = self.caseless_name(w, b) {
                // A word set among Latin words is the name as a whole ("Meeting with 王小明").
                self.emit_id(b, b + len);
                self.taken_end = b + len;
                self.caseless_spans = spans;
                return true;
            }
        }
        let titled = spans.len();
        caseless::names_in_unspaced(w, &mut spans);
        // A listed name inside one a title marks ("山田" of "山田太郎さん") is not another.
        let mut k = titled;
        while k < spans.len() {
            let (s, e) = spans[k];
            if spans[..titled].iter().any(|&(ts, te)| s < te && ts < e) {
                spans.remove(k);
            } else {
                k += 1;
            }
        }
        spans.sort_unstable();
        for &(s, e) in &spans {
            self.emit_id(b + s, b + e);
        }
        let found = !spans.is_empty();
        self.caseless_spans = spans;
        found
    }

    /// Names in a Korean word: before a title, the next word ("김민준 씨랑", "김민준
    /// 팀장님한테", "박지은 선생님이": 씨, or a word with 님; 선생님 alone is a word, not a name);
    /// the word set among Latin words; a listed name or a name's shape before a particle
    /// (`caseless::korean_name`). Emits it and returns whether there was one.
    fn korean_names(&mut self, w: &str, b: usize) -> bool {
        let korean_title_follows = || {
            let next = self.slice(b + w.len(), self.bytes.len());
            next.strip_prefix(' ')
                .map(|n| &n[..n.find(char::is_whitespace).unwrap_or(n.len())])
                .is_some_and(|n| {
                    n.starts_with('씨')
                        || n.contains('님')
                        // "정우성 배우가", "봉준호 감독": a role after a name.
                        || caseless::KOREAN_ROLES.iter().any(|r| n.starts_with(r))
                })
        };
        // "참석: 박서준, 이하나 (네이버)", "박지현: …": a family name and two syllables, alone
        // in a list or before a colon.
        let listed_person = || {
            let end = b + w.len();
            let after = self.bytes.get(end).copied();
            let before = self.slice(0, b).trim_end_matches(' ').chars().next_back();
            w.chars().count() == 3
                && w.chars().all(caseless::is_hangul)
                && w.starts_with(|c| caseless::KOREAN_FAMILY_NAMES_ALL.contains(&c))
                && (matches!(after, Some(b',' | b':' | b')'))
                    || matches!(before, Some(',' | ':' | '(' | '、')))
        };
        if listed_person() {
            self.emit_id(b, b + w.len());
            return true;
        }
        if (2..=4).contains(&w.chars().count())
            && w.chars().all(caseless::is_hangul)
            && korean_title_follows()
        {
            self.emit_id(b, b + w.len());
            return true;
        }
        if let Some(len) = self.caseless_name(w, b) {
            self.emit_id(b, b + len);
            self.taken_end = b + len;
            return true;
        }
        if let Some(len) = caseless::korean_name(w) {
            self.emit_id(b, b + len);
            return true;
        }
        false
    }

    /// Names in a word of a spaced script without case (Arabic, Persian, Urdu, Hebrew,
    /// Devanagari…): before a title ("राहुल जी"); after one ("الدكتور أحمد منصور", "يا
    /// أحمد"); a bank, university or hospital with its name; the word set among Latin words; a
    /// listed name, with the family name after it (`caseless::spaced_name`). Emits it and
    /// returns whether there was one.
    fn spaced_names(&mut self, w: &str, b: usize) -> bool {
        // "राहुल जी": a Hindi title is the next word.
        if w.starts_with(|c| ('\u{0900}'..='\u{097f}').contains(&c))
            && self.slice(b + w.len(), self.bytes.len()).starts_with(" जी")
        {
            self.emit_id(b, b + w.len());
            return true;
        }
        // "الدكتور أحمد منصور", "يا أحمد": an Arabic title or call before one or two words;
        // "بنك الراجحي", "جامعة الملك سعود", "دانشگاه شریف": a bank, university or hospital
        // and its name, one name; "شركة أمازون": a company's name after the word.
        let (with_word, words) = match w {
            "يا" => (false, 1),
            "الدكتور" | "الدكتورة" | "السيد" | "السيدة" | "الأستاذ" | "الأستاذة" | "المهندس" => {
                (false, 2)
            }
            "بنك" | "جامعة" | "مستشفى" => (true, 2),
            "بانک" | "دانشگاه" | "بیمارستان" => (true, 1),
            "شركة" | "شرکت" => (false, 1),
            _ => (false, 0),
        };
        if words > 0 {
            match self.arabic_words_after(b + w.len(), words) {
                Some((start, end)) => {
                    self.emit_id(if with_word { b } else { start }, end);
                    self.taken_end = end;
                }
                None => self.other(),
            }
            return true;
        }
        if let Some(len) = self.caseless_name(w, b) {
            self.emit_id(b, b + len);
            self.taken_end = b + len;
            return true;
        }
        if let Some((s, e)) = caseless::spaced_name(self.slice(b, self.bytes.len())) {
            self.emit_id(b + s, b + e);
            self.taken_end = b + e;
            return true;
        }
        false
    }

    /// Up to `most` Arabic words right after byte `p` (one space before each), stopping at a
    /// preposition or particle ("في", "من"…) and at punctuation: the span, if any.
    fn arabic_words_after(&self, p: usize, most: usize) -> Option<(usize, usize)> {
        const STOP: [&str; 17] = [
            "في",
            "من",
            "إلى",
            "على",
            "عن",
            "مع",
            "يوم",
            "الساعة",
            "و",
            "هل",
            "أمس",
            "از",
            "در",
            "به",
            "را",
            "که",
            "با",
        ];
        // Arabic letters and those Persian and Urdu add (پ چ ژ گ ک ی ہ…).
        let arabic = |c: char| {
            ('\u{0620}'..='\u{064a}').contains(&c) || ('\u{0671}'..='\u{06d3}').contains(&c)
        };
        let (mut end, mut taken) = (p, 0);
        while taken < most {
            let rest = self.slice(end, self.bytes.len());
            let Some(word) = rest.strip_prefix(' ') else {
                break;
            };
            let len = word.find(|c: char| !arabic(c)).unwrap_or(word.len());
            let w = &word[..len];
            if w.is_empty() || STOP.contains(&w) {
                break;
            }
            end += 1 + len;
            taken += 1;
        }
        (taken > 0).then_some((p + 1, end))
    }

    /// A word of a script without case set among Latin words (see `alnum`), or a run of up
    /// to three ("Remind me that דוד כהן from Tel Aviv"): the length of the name, a Japanese
    /// or Korean honorific after a single word removed ("田中さん").
    fn caseless_name(&self, w: &str, b: usize) -> Option<usize> {
        const HONORIFICS: [&str; 8] = ["さん", "さま", "様", "先生", "ちゃん", "くん", "씨", "님"];
        let latin = |c: char| c.is_ascii_alphabetic();
        // The nearest char before that is not whitespace.
        let (mut p, mut before) = (b, None);
        while let Some(c) = self.prev(p) {
            if !is_space(c) {
                before = Some(c);
                break;
            }
            p -= c.len_utf8();
        }
        // The nearest char after the run that is not whitespace, and the run's end.
        let next_char = |from: usize| {
            let mut p = from;
            while let Some((c, len)) = self.ch(p) {
                if !is_space(c) {
                    return (Some(c), p);
                }
                p += len;
            }
            (None, p)
        };
        let (mut after, mut at) = next_char(b + w.len());
        if !before.is_some_and(latin) && !after.is_some_and(latin) {
            // Not among Latin words: the common case, decided first.
            return None;
        }
        let glued = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
        if glued(self.prev(b)) || glued(self.ch(b + w.len()).map(|(c, _)| c)) {
            // Written onto a Latin word, it is a particle or the rest of a sentence in its
            // own script ("KAIST에서", "LINEで中村さんから").
            return None;
        }
        let honorific_end = matches!(
            w.chars().next_back(),
            Some('ん' | 'ま' | '様' | '生' | 'く' | '씨' | '님')
        );
        let name = HONORIFICS
            .iter()
            .filter(|_| honorific_end)
            .find_map(|h| w.strip_suffix(h))
            .filter(|n| !n.is_empty())
            .unwrap_or(w);
        // Hiragana spells grammar and ordinary words, not names; a name is a few Han chars
        // ("张伟说他那边的" before "CUDA" is a clause).
        let fits = |word: &str| {
            let (mut count, mut han) = (0, 0);
            for c in word.chars() {
                count += 1;
                han += usize::from(('\u{4e00}'..='\u{9fff}').contains(&c));
                if count > 8 || han > 4 || ('\u{3040}'..='\u{309f}').contains(&c) {
                    return false;
                }
            }
            true
        };
        if !fits(name) {
            return None;
        }

        let caseless = |c: char| {
            is_cjk_letter(c) || (c.is_alphabetic() && !c.is_uppercase() && !c.is_lowercase())
        };
        let mut end = b + name.len();
        if before.is_some_and(caseless)
            || (after.is_some_and(caseless) && !before.is_some_and(latin))
        {
            // Within text of its own script; a run of several words needs Latin before it.
            return None;
        }
        let mut words = 1;
        while words < 3 && name.len() == w.len() && after.is_some_and(caseless) {
            let word = self.slice(at, self.bytes.len());
            let len = word
                .find(|c: char| !caseless(c) && !is_mark(c) && !is_indic_sign(c))
                .unwrap_or(word.len());
            if !fits(&word[..len]) {
                return None;
            }
            end = at + len;
            words += 1;
            (after, at) = next_char(end);
        }
        if words == 1 && name.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)) {
            // Chinese text around a Latin term ("CUDA 版本是 12.1", "tokenizer 的 bug"): a
            // name is two chars or more, holds no particle, and stands among words, not
            // beside numbers or Chinese punctuation.
            let plain =
                |c: Option<char>| c.is_none_or(|c| latin(c) || "(),.;:!?&/-\"'".contains(c));
            if name.chars().nth(1).is_none() || !plain(before) || !plain(after) {
                return None;
            }
        }
        if words == 1 && caseless::reads_as_clause(name) {
            return None;
        }
        // Words of a sentence in that script meet a Latin name on one side ("KTX 예매 좀
        // 도와줘"); a name of several words is set between Latin words.
        let among_latin = if words > 1 {
            before.is_some_and(latin) && after.is_some_and(latin)
        } else {
            before.is_some_and(latin) || after.is_some_and(latin)
        };
        (among_latin && !before.is_some_and(caseless) && !after.is_some_and(caseless))
            .then_some(end - b)
    }

    /// The word before byte `start`, its period dropped ("dott" of "dott. Rossi").
    fn title_before(&self, start: usize) -> &'a str {
        self.word_before(self.slice(0, start).trim_end().trim_end_matches('.').len())
    }

    /// Whether the message is typed in lowercase: its first word has no capital and the
    /// pronoun "I" is not written as one. Its writer does not capitalise, so names come in
    /// lowercase too ("dinner at dishoom with funmi").
    fn casual(&mut self) -> bool {
        *self.casual.get_or_insert_with(|| {
            let first = self.text.split_whitespace().next().unwrap_or_default();
            first.chars().any(char::is_alphabetic)
                && !first.chars().any(char::is_uppercase)
                && !self
                    .bytes
                    .windows(3)
                    .any(|w| w[0] == b' ' && w[1] == b'I' && matches!(w[2], b' ' | b'\''))
        })
    }

    /// In a message typed in lowercase, a word that is neither in the lexicon nor a common
    /// English word, right after a preposition or a word that introduces a person or a place
    /// ("at dishoom", "to ibadan", "aunty funmi", "called benne dosa house"), is a name: emits
    /// it with the unknown words after it (and a place noun ending them).
    fn unlisted_lowercase_name(&mut self, w: &str, b: usize) -> bool {
        let Some((cs, ce)) = self.cue_word else {
            return false;
        };
        // The caller saw the cue right before `w`; one space, not a dash or a slash, between.
        // The message's casing is asked once and remembered: most messages end here.
        if !self.casual() || self.bytes[ce] != b' ' {
            return false;
        }
        let cue = self.slice(cs, ce);
        // "zayn and noor": a name just found, then "and" or "or".
        // "me and tomás": someone with the writer.
        let listed = matches!(cue, "and" | "or")
            && (self.lowercase_name_end + 1 == cs || self.word_before(cs) == "me");
        let slot = listed
            || matches!(
                cue,
                "at" | "from"
                    | "in"
                    | "with"
                    | "on"
                    | "to"
                    | "into"
                    | "through"
                    | "near"
                    | "via"
                    | "called"
                    | "named"
                    | "aunty"
                    | "auntie"
                    | "uncle"
                    | "ask"
                    | "tell"
                    | "friend"
                    | "cousin"
                    | "name"
                    | "owe"
                    | "pay"
                    | "text"
                    | "ping"
                    | "meet"
                    | "visit"
                    | "invite"
                    | "call"
                    | "drop"
                    // "watched oppenheimer", "playing silksong": what one watches, reads or
                    // plays is a work.
                    | "watch"
                    | "watched"
                    | "watching"
                    | "rewatching"
                    | "finished"
                    | "reading"
                    | "playing"
                    | "binged"
            )
            // "my flatmate wojtek", "our dog biscuit": a person (or a pet) by their relation
            // to someone ("dentist appt", "the dog walker" are no such slot).
            || (lookup(cue) & F_RELATION != 0
                && matches!(
                    self.word_before(cs),
                    "my" | "our" | "your" | "his" | "her" | "their"
                ));
        if !slot || !is_unknown_lowercase(w) {
            return false;
        }
        let work = matches!(
            cue,
            "watch"
                | "watched"
                | "watching"
                | "rewatching"
                | "finished"
                | "reading"
                | "playing"
                | "binged"
        );
        // The next three words, each after one space: a name runs on over unknown words, and
        // over ordinary ones when a place noun closes it ("riverside family clinic"). Read
        // one at a time: most names end at the next word.
        let mut end = b + w.len();
        let (mut at, mut unknown_run) = (end, true);
        for k in 0..3 {
            let Some(rest) = self.text[at..].strip_prefix(' ') else {
                break;
            };
            let next = rest
                .split(|c: char| !c.is_alphabetic())
                .next()
                .unwrap_or_default();
            let flags = lookup(next);
            if next.is_empty() {
                break;
            }
            at += 1 + next.len();
            if flags & (F_STREET | F_PLACE_NOUN) != 0 {
                end = at;
                break;
            }
            if unknown_run && flags == 0 && is_unknown_lowercase(next) {
                end = at;
                continue;
            }
            let whole = !self.bytes.get(at).is_some_and(u8::is_ascii_alphanumeric);
            if work
                && k < 2
                && flags & !F_COMMON == 0
                && whole
                && next.bytes().all(|c| c.is_ascii_lowercase())
            {
                // "rewatching gilmore girls with", "playing elden ring all weekend": a work's
                // title runs on over plain words to the next function word.
                end = at;
                continue;
            }
            if k == 0 && cue == "to" && flags & F_OBJECT != 0 {
                // "to mow the lawn": a verb before its object.
                return false;
            }
            unknown_run = false;
            if flags & (F_MID_DROP | F_STARTER | F_TIME) != 0 {
                break;
            }
        }
        let end = self.shop_possessive_end(b, end);
        self.emit_id(b, end);
        self.taken_end = end;
        self.lowercase_name_end = end;
        true
    }

    /// The end of an unlisted lowercase name at `b..end` with its 's when it names a shop: after
    /// a place's preposition, before a function word or the clause's end ("from gail's to my
    /// list", "at addenbrooke's on the 9th"; "dani's bday" is someone's).
    fn shop_possessive_end(&self, b: usize, end: usize) -> usize {
        let rest = self.slice(end, self.bytes.len());
        let Some(after) = rest.strip_prefix("'s").or_else(|| rest.strip_prefix("’s")) else {
            return end;
        };
        let owns_nothing = match after.strip_prefix(' ') {
            Some(next) => {
                let word = next
                    .split(|c: char| !c.is_alphabetic())
                    .next()
                    .unwrap_or("");
                lookup(word) & (F_MID_DROP | F_TIME) != 0
            }
            None => !after.starts_with(char::is_alphanumeric),
        };
        let at_place = matches!(
            self.word_before(b),
            "at" | "from" | "to" | "into" | "near" | "outside"
        );
        if owns_nothing && at_place {
            end + (rest.len() - after.len())
        } else {
            end
        }
    }

    /// The first letters of the lexicon's `says` verbs (a unit test checks): most words are
    /// ruled out before a lookup.
    const SAYS_INITIALS: [char; 10] = ['s', 't', 'a', 'w', 'r', 'g', 'k', 'l', 'h', 'm'];

    /// Whether what follows byte `p` is a possessive ('s and a word) or a verb a person does
    /// ("said", "grew up", "keeps"): read in lowercase messages after an unknown word.
    fn says_or_owns_after(&self, p: usize) -> bool {
        // A space, an apostrophe or a curly one's first byte: nothing else can follow.
        if !matches!(self.bytes.get(p), Some(b' ' | b'\'' | 0xE2)) {
            return false;
        }
        let rest = self.slice(p, self.bytes.len());
        if ["'s ", "’s "].iter().any(|s| rest.starts_with(s)) {
            return true;
        }
        let Some(rest) = rest
            .strip_prefix(' ')
            .filter(|r| r.starts_with(Self::SAYS_INITIALS))
        else {
            return false;
        };
        let verb = rest.split(|c: char| !c.is_alphabetic()).next();
        verb.is_some_and(|verb| lookup(verb) & F_SAYS != 0)
    }

    /// Whether the word at `b` follows a lowercase honorific ("dr. okafor", "mrs kowalski").
    fn after_lowercase_honorific(&self, b: usize) -> bool {
        let Some((s, e)) = self.cue_word else {
            return false;
        };
        // At most "prof", then ". " or " ": most words are ruled out here.
        if e - s > 4 || b - e > 2 || b - e == 0 {
            return false;
        }
        let between = self.slice(e, b);
        let title = self.slice(s, e);
        // Cheap tests first: this runs at every lowercase word after another.
        if !(between == ". " || (between == " " && matches!(title, "mr" | "mrs" | "ms" | "dr")))
            || !title.starts_with(|c: char| c.is_ascii_lowercase())
            || lookup(title) & F_HONORIFIC == 0
        {
            return false;
        }
        // "the dr. said": after a determiner it is a noun, not a title.
        !matches!(
            self.word_before(s),
            "the" | "a" | "my" | "your" | "our" | "his" | "her" | "their" | "this" | "that"
        )
    }

    /// The end of the longest listed name of several lowercase words that opens at `start`
    /// with the word ending at `end` ("new york", "rio de janeiro"), if any.
    fn listed_phrase_end(&self, start: usize, mut end: usize) -> Option<usize> {
        let mut longest = None;
        loop {
            let rest = self.slice(end, self.bytes.len());
            // "trader joe's", "sam's club": a shop's 's is part of its listed name.
            let possessive =
                rest.starts_with("'s") && !rest[2..].starts_with(|c: char| c.is_alphanumeric());
            let step = if possessive {
                2
            } else if let Some(next) = rest.strip_prefix(' ') {
                let len = next
                    .bytes()
                    .position(|b| !b.is_ascii_lowercase())
                    .unwrap_or(next.len());
                if len == 0 {
                    break;
                }
                1 + len
            } else {
                break;
            };
            end += step;
            let flags = lookup_phrase(self.slice(start, end));
            if flags & F_NAME != 0 {
                longest = Some(end);
            }
            if flags & F_NAME_PREFIX == 0 {
                break;
            }
        }
        longest
    }

    // ----- quotes ----------------------------------------------------------------------

    /// If a quoted string opens at `i` (char index `ci`), returns the content's byte range
    /// and the position (and char index) just after the closing quote.
    fn try_quote(
        &mut self,
        i: usize,
        ci: usize,
        open: char,
        len: usize,
    ) -> Option<(usize, usize, usize, usize)> {
        let kind = match open {
            '"' => 0,
            '“' | '„' => 1,
            '‘' => 2,
            '\'' => 3,
            '`' => 4,
            '«' => 5,
            // The brackets Chinese, Japanese and Korean quote titles and names with.
            '「' => 6,
            '『' => 7,
            '《' => 8,
            _ => return None,
        };
        let (next, _) = self.ch(i + len)?;
        if is_space(next) {
            return None;
        }
        match kind {
            // An apostrophe only opens a quote when it does not sit inside a word.
            2 | 3 if self.prev(i).is_some_and(is_wordish) || !next.is_alphanumeric() => {
                return None
            }
            // "``" / "```": code fences and doubled backticks are not quotes.
            4 if next == '`' => return None,
            _ => {}
        }
        let (start, start_ci) = (i + len, ci + 1);
        let (k, k_ci) = self.find_barrier(kind, start, start_ci, start_ci + MAX_QUOTE_CHARS + 1)?;
        let (close, close_len) = self.ch(k)?;
        if is_line_break(close) {
            return None;
        }
        Some((start, k, k + close_len, k_ci + 1))
    }

    fn is_closer(&self, kind: usize, p: usize, c: char, len: usize) -> bool {
        match kind {
            0 => c == '"' || c == '”',
            1 => c == '”' || c == '“' || c == '"',
            2 | 3 => {
                (c == '\'' || c == '’')
                    && self.prev(p).is_some_and(|d| !is_space(d))
                    && !self.ch(p + len).is_some_and(|(d, _)| is_wordish(d))
            }
            4 => c == '`',
            5 => c == '»',
            6 => c == '」',
            7 => c == '』',
            _ => c == '》',
        }
    }

    /// First position from `start` (char index `start_ci`) up to char index `limit_ci`
    /// holding a closer of `kind` or a line break, with its char index. Calls come with
    /// increasing `start`; positions already known to be clean are not scanned again, so
    /// all searches together take linear time.
    fn find_barrier(
        &mut self,
        kind: usize,
        start: usize,
        start_ci: usize,
        limit_ci: usize,
    ) -> Option<(usize, usize)> {
        let memo = self.memos[kind];
        let (mut p, mut p_ci) = (start, start_ci);
        if memo.valid && memo.from <= start && start <= memo.to {
            if memo.hit {
                return (memo.to_ci < limit_ci).then_some((memo.to, memo.to_ci));
            }
            (p, p_ci) = (memo.to, memo.to_ci);
        } else {
            self.memos[kind] = Memo {
                valid: true,
                from: start,
                to: start,
                to_ci: start_ci,
                hit: false,
            };
        }
        let mut hit = false;
        while p_ci < limit_ci {
            let Some((c, len)) = self.ch(p) else {
                break;
            };
            if is_line_break(c) || self.is_closer(kind, p, c, len) {
                hit = true;
                break;
            }
            p += len;
            p_ci += 1;
        }
        let m = &mut self.memos[kind];
        (m.to, m.to_ci, m.hit) = (p, p_ci, hit);
        hit.then_some((p, p_ci))
    }

    fn push_quote(&mut self, content: &'a str) {
        if content.is_empty() {
            return;
        }
        let trimmed = content.trim().trim_end_matches([',', ';', ':']).trim_end();
        // A quoted sentence keeps its full stop (it is quoted exactly); a word or name
        // before an American-style stop ("we call it "Phoenix."") does not.
        let trimmed = match trimmed.strip_suffix('.') {
            Some(t) if !t.ends_with('.') && !t.contains(' ') => t,
            _ => trimmed,
        };
        // A one-character quote ("rock 'n' roll", grade 'A') names nothing.
        if trimmed.chars().any(char::is_alphanumeric) && trimmed.chars().nth(1).is_some() {
            self.push_out(trimmed);
        }
    }

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
        if e - s > MAX_TOKEN_CHARS || self.bytes.get(e) == Some(&b'(') {
            self.other();
            return;
        }
        self.alnum(w, s, &Shape::of_ascii_letters(w));
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
        if self.bytes.get(token_end) == Some(&b'(')
            && core.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'.')
        {
            // "findUser(", "Retry(total=2)": a call in pasted code.
            self.other();
            return;
        }
        if colon && core.bytes().all(|c| c.is_ascii_lowercase()) {
            // "Lessons learned:", "Action items:": a two-word label.
            self.drop_label(None);
        }
        let mut abbrev = false;
        if s < e {
            let trail_punct = period || colon || other;
            abbrev = self.classify(self.slice(s, e), s, token_end, trail_punct);
            if period {
                self.keep_suffix_dot(e);
            }
        }
        if colon {
            self.drop_label(Some(s));
        }
        if colon || (period && !abbrev) {
            self.brk_end();
        } else if other {
            self.flush();
        }
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

    /// Whether the run, with the possessive ending at `end`, is a shop listed with its 's
    /// in names.txt ("sainsbury's", "trader_joe's").
    #[inline(always)]
    fn listed_shop(&self, end: usize) -> bool {
        let Some(El::Word(first)) = self.run.first() else {
            return false;
        };
        // Its first word opens a listed name ("sainsbury", "trader"), and it is no longer than
        // one: most runs are ruled out without reading them.
        // (A camel-case word, "McDonald", is kept without its flags: looked up here.)
        let opens = first.has(F_NAME_PREFIX)
            || (first.kind == Kind::Camel
                && lookup(self.slice(first.start, first.end)) & F_NAME_PREFIX != 0);
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
            Some(El::Word(w)) => w.end == end && w.has(F_SUFFIX_DOT) && self.run.len() > 1,
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
            if is_path(w) || is_slash_id(w) {
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
            if self.shape(Asked::SnakeCaseId, w, shapes::is_snake_case_id) {
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
            if self.shape(Asked::Ipv4, w, shapes::is_ipv4) {
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
            if b < self.taken_end {
                // The second word of a name already taken ("york" of "new york").
                return false;
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
                return false;
            }
            // Names of three letters or more, after a cue word of two to ten ("at", "called",
            // "flatmate").
            let slot = self
                .cue_word
                .is_some_and(|(s, e)| (2..=10).contains(&(e - s)) && e + 1 == b);
            if slot && w.len() >= 3 && self.unlisted_lowercase_name(w, b) {
                return false;
            }
            if w.len() >= 3
                && self.casual()
                && self.says_or_owns_after(end)
                && is_unknown_lowercase(w)
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
                return false;
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
            } else if flags & F_CONNECTOR != 0 {
                self.try_conn(flags, w == "of")
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
                self.try_title_joiner(w)
            } else {
                false
            };
            if !joined {
                self.lower_flags(flags, b, end);
            }
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
                    && (flags != 0 || is_english_ascii(w)))
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

    /// A word of a script without case (see `alnum`): a short word set among Latin words names
    /// something ("Meeting with 王小明 in 東京"); within text of its own script, a title, a
    /// listed name or a name's shape does (`caseless.rs`). Each script is asked only what
    /// applies to it. Out of line: it keeps `alnum`, which every word passes through, small.
    #[inline(never)]
    fn caseless_word(&mut self, w: &'a str, b: usize) {
        if b < self.taken_end {
            // The second word of a name already taken ("محمد العلي").
            return;
        }
        let first = w.chars().next().unwrap_or(' ');
        let found = if caseless::is_hangul(first) {
            self.korean_names(w, b)
        } else if is_cjk_letter(first) || caseless::is_thai(first) {
            // Han, kana and Thai run words together; the other scripts space them.
            self.unspaced_names(w, b)
        } else {
            self.spaced_names(w, b)
        };
        if !found {
            self.other();
        }
    }

    /// A lowercase word at `b` that names something: a family name after "dr.", a listed name
    /// or the first word of one (`named`: it may be listed). Emits it and returns true.
    #[inline(never)]
    fn lowercase_name(&mut self, w: &'a str, b: usize, named: bool) -> bool {
        let end = b + w.len();
        if self.after_lowercase_honorific(b)
            && lookup(w) & (F_STARTER | F_COMMON | F_MID_DROP | F_TIME | F_HONORIFIC) == 0
        {
            // "dr. okafor", "ms. carter": a family name typed in lowercase; "dr amira
            // haddad": a given name and an unknown word after it, the whole name.
            let next = self.text[end..]
                .strip_prefix(' ')
                .and_then(|rest| rest.split(|c: char| !c.is_alphabetic()).next())
                .filter(|next| is_unknown_lowercase(next));
            let end = next.map_or(end, |next| end + 1 + next.len());
            self.emit_id(b, end);
            self.taken_end = end;
            return true;
        }
        if !named {
            return false;
        }
        let flags = self.lookup(w);
        if flags & F_NAME_PREFIX != 0 {
            if let Some(name_end) = self.listed_phrase_end(b, end) {
                // "los angeles office", "a flight to new york".
                self.emit_id(b, name_end);
                self.taken_end = name_end;
                return true;
            }
        }
        if flags & (F_NAME | F_STARTER | F_COMMON | F_MID_DROP) == F_NAME {
            // "ask priya", "flight to lisbon": a listed name typed in lowercase.
            self.emit_id(b, end);
            self.lowercase_name_end = end;
            return true;
        }
        false
    }

    /// A capitalised word ("Berlin", "Dr", "Monday", "St").
    /// `flags`: the word's lexicon flags, `lookup(w)`.
    fn cap_word(&mut self, w: &'a str, b: usize, mut flags: u32) -> bool {
        if flags & (F_NAME | F_GIVEN | F_HONORIFIC) == 0
            && self.case_blind(b + w.len())
            && (flags != 0 || is_english_ascii(w))
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
            let next = self.slice(b + w.len(), self.bytes.len());
            if next
                .strip_prefix(' ')
                .and_then(|n| n.chars().next())
                .is_some_and(|c| (c.is_lowercase() && cyrillic_or_greek(c)) || c.is_ascii_digit())
            {
                flags |= F_STARTER;
            }
        }
        if self.run.is_empty()
            && self.sentence_start
            && flags & (F_NAME | F_GIVEN | F_STARTER) == 0
            && self.opens_sentence_of_another_language(b, b + w.len())
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
                        [El::Word(owner)] => !owner.has(F_GIVEN),
                        [El::Word(opener), El::Word(owner)] => {
                            opener.is_dropped_prefix() && !owner.has(F_GIVEN)
                        }
                        _ => false,
                    }
                    && is_english_ascii(self.slice(start, end))
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
            if matches!(self.slice(w.start, w.end), "St" | "St." | "Saint" | "Sankt" | "San"))
    }

    /// The run is a title opened by a capitalised "The" inside a sentence ("reading The
    /// Catcher in the Rye"), where lowercase prepositions and articles join the words.
    fn title_mode(&self) -> bool {
        if self.title_run {
            return true;
        }
        // "after Gone with the Wind", "rewatching What We Do in the Shadows": an ordinary word
        // capitalised inside a sentence opens a title.
        if let Some(El::Word(w)) = self.run.first() {
            if w.kind == Kind::Cap
                && !w.sent_init
                && !w.has(F_GIVEN | F_NAME)
                && (w.has(F_COMMON | F_STARTER) || is_english_ascii(self.slice(w.start, w.end)))
            {
                return true;
            }
        }
        // Most runs hold no "The" at all: a plain loop on length and first byte first.
        let mut has_the = false;
        for e in &self.run {
            if let El::Word(w) = e {
                has_the |= w.end - w.start == 3 && self.bytes.get(w.start) == Some(&b'T');
            }
        }
        if !has_the {
            return false;
        }
        let first = self
            .run
            .iter()
            .find(|e| !matches!(e, El::Word(w) if w.is_dropped_prefix()));
        matches!(first, Some(El::Word(w))
            if w.kind == Kind::Cap && !w.sent_init && w.end - w.start == 3
                && self.slice(w.start, w.end) == "The")
    }

    /// Whether the sentence opening with the capitalised word `start..end` opens in title case,
    /// and where the title starts: a word that prose writes in lowercase follows it
    /// capitalised ("A Man Called Ove", "Call Me by Your Name", "Of Mice and Men", "In the
    /// Mood for Love"). The first word is the title's unless it is a verb before its object
    /// ("Reading Pride and Prejudice", "Play Bohemian Rhapsody"), a greeting, or a line's
    /// heading or cell.
    /// `first_flags`: the first word's lexicon flags. Asked at every sentence's first word:
    /// the bytes after it rule most out before any lookup.
    fn title_case_opening(&self, start: usize, end: usize, first_flags: u32) -> Option<usize> {
        let rest = self
            .bytes
            .get(end + 1..)
            .filter(|_| self.bytes[end] == b' ')?;
        let via_article = first_flags & F_MID_DROP != 0
            && [&b"the "[..], b"a ", b"an "]
                .iter()
                .any(|a| rest.starts_with(a));
        if !via_article && !rest.first().is_some_and(u8::is_ascii_uppercase) {
            return None;
        }
        let before = self.bytes[..start].iter().rev().find(|&&b| b != b' ');
        if matches!(before, Some(b'#' | b'|' | b'*')) {
            return None;
        }
        let word_at = |p: usize| {
            let rest = self.slice(p, self.bytes.len());
            let len = rest
                .find(|c: char| !c.is_ascii_alphabetic() && c != '\'')
                .unwrap_or(rest.len());
            &rest[..len]
        };
        let first = self.slice(start, end);
        if first_flags & F_GIVEN != 0 || is_german_article(first) {
            // "Faith Hill and Tim McGraw", "Der Server hängt": a person, or German nouns.
            return None;
        }
        let mut second = word_at(end + 1);
        let mut second_start = end + 1;
        if matches!(second, "the" | "a" | "an") && first_flags & F_MID_DROP != 0 {
            // "In the Mood for Love": a preposition, an article, then the title's word.
            second_start += second.len() + 1;
            second = word_at(second_start);
        }
        if !is_ordinary_cap(second) || second == "I" {
            return None;
        }
        if first == "A" {
            // "A Man Called Ove", "A Farewell to Arms": a title goes on in title case; "A Joana
            // Santos do Itaú" is Portuguese "the" before a name (the English filter takes one
            // name in 25 for a word).
            let third = word_at(second_start + second.len() + 1);
            if !is_ordinary_cap(third)
                && !matches!(third, "to" | "of" | "in" | "for" | "and" | "the")
            {
                return None;
            }
        }
        if first == "The" && lookup(second) & F_COMMON != 0 {
            // "The Bank of America rep", "The University of Michigan": an institution's
            // noun after "The" opens its name, which "The" is no part of (`opens_title`
            // decides); "The Mythical Man-Month", "The Great Gatsby" open titles.
            return None;
        }
        let greeting = matches!(
            first,
            "Hi" | "Hey"
                | "Hello"
                | "Dear"
                | "Thanks"
                | "Thank"
                | "Happy"
                | "Good"
                | "Merry"
                | "Yes"
                | "No"
                | "Ok"
                | "Okay"
                | "So"
                | "And"
                | "But"
                | "Also"
                | "Then"
                | "Well"
                | "Oh"
                | "Please"
        );
        if greeting {
            return None;
        }
        // "Call Me", "Shut Up": a verb's object pronoun or particle, capitalised, is a title's.
        // "Add The Lord of the Rings", "Did University of Michigan reply", "My Bank of
        // America card": the title starts after a verb, a question's auxiliary or a
        // possessive.
        let outside = is_verb_form(first)
            || second == "The"
            || (first_flags & F_REQUEST != 0 && lookup(second) & F_OBJECT == 0)
            || matches!(
                first,
                "Did"
                    | "Does"
                    | "Do"
                    | "Is"
                    | "Are"
                    | "Was"
                    | "Were"
                    | "Has"
                    | "Have"
                    | "Can"
                    | "Could"
                    | "Should"
                    | "Would"
                    | "My"
                    | "Our"
                    | "Your"
                    | "His"
                    | "Her"
                    | "Their"
                    | "This"
                    | "That"
            );
        Some(if outside { end + 1 } else { start })
    }

    /// "in", "to", "on", "at" after a title word; "a", "an" after such a preposition or "of".
    fn try_title_joiner(&mut self, w: &str) -> bool {
        let article = matches!(w, "a" | "an");
        if !article
            && !matches!(
                w,
                "in" | "to" | "on" | "at" | "with" | "over" | "for" | "from" | "under"
            )
        {
            return false;
        }
        if self.poss.is_some() || self.overflow || self.run.len() >= MAX_RUN_ELEMENTS {
            return false;
        }
        let ok = match self.run.last() {
            Some(El::Word(_)) => !article,
            Some(El::Conn { of: true, .. }) => article,
            _ => false,
        };
        if ok {
            self.run.push(El::Conn {
                of: !article,
                prep: !article,
            });
            self.sentence_start = false;
        }
        ok
    }

    /// Whether " the " and a title's words follow position `p`: two capitalised words, or one
    /// and "of" ("the Philosopher's Stone", "the Art of …"; not "the Acme team").
    fn the_title_follows(&self, p: usize) -> bool {
        if self.bytes.get(p..p + 5) != Some(b" the ") || !self.cap_word_follows(p + 4) {
            return false;
        }
        let rest = self.slice(p + 5, self.bytes.len());
        let word_end = rest
            .find(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’')
            .unwrap_or(rest.len());
        let after = &rest[word_end..];
        let next = after.strip_prefix(' ').unwrap_or("");
        // "Vector Institute and the University of Toronto": two institutions, not a title.
        let institution = |w: &str| lookup(w) & (F_COMMON | F_GIVEN) == F_COMMON;
        // "Klara and the Sun, both so good": or the clause ends after the one word.
        let clause_ends = after.is_empty() || after.starts_with([',', '.', '!', '?', '\n']);
        !institution(&rest[..word_end])
            && (next.starts_with(char::is_uppercase) || next.starts_with("of ") || clause_ends)
    }

    /// Whether the run opens a listed name of several words that goes on over the word ending
    /// at `p` and a capitalised word after it ("Trinidad and Tobago").
    fn listed_name_goes_on(&self, p: usize) -> bool {
        // Past an opener the run still holds ("Is Bosnia and Herzegovina…").
        let first = self.run.iter().find_map(|e| match e {
            El::Word(w) if !w.is_dropped_prefix() => Some(w),
            _ => None,
        });
        let Some(first) = first else {
            return false;
        };
        if !first.has(F_NAME_PREFIX) || !self.cap_word_follows(p) {
            return false;
        }
        let rest = self.slice(p + 1, self.bytes.len());
        let len = rest
            .find(|c: char| !c.is_alphabetic())
            .unwrap_or(rest.len());
        lookup_phrase(self.slice(first.start, p + 1 + len)) & F_NAME != 0
    }

    /// Whether the run is one capitalised word inside a sentence and, after the "and" ending
    /// at `p`, one more comes before a lowercase word or punctuation, neither a known name and
    /// one of them an abstract noun by its ending (-ice, -ment, -ness, -tion, -ity…).
    fn abstract_pair_follows(&self, p: usize) -> bool {
        let [El::Word(first)] = self.run.as_slice() else {
            return false;
        };
        if first.kind != Kind::Cap || first.has(F_GIVEN | F_NAME) {
            return false;
        }
        let opens_sentence = first.sent_init;
        let Some(rest) = self.slice(p, self.bytes.len()).strip_prefix(' ') else {
            return false;
        };
        let len = rest
            .find(|c: char| !c.is_alphabetic())
            .unwrap_or(rest.len());
        let (second, after) = rest.split_at(len);
        if !second.starts_with(char::is_uppercase)
            || after.starts_with(' ') && after[1..].starts_with(char::is_uppercase)
            || lookup(second) & (F_GIVEN | F_NAME | F_TIME) != 0
        {
            return false;
        }
        let abstract_noun = |w: &str| {
            [
                "ice", "ment", "ness", "tion", "sion", "ity", "ance", "ence", "ism", "ship",
            ]
            .iter()
            .any(|e| {
                w.len() > e.len() + 2
                    && w.as_bytes()[w.len() - e.len()..].eq_ignore_ascii_case(e.as_bytes())
            })
        };
        let first = self.slice(first.start, first.end);
        if opens_sentence {
            // "1. Pride and Prejudice", "Crime and Punishment, War and Peace": at a sentence's
            // start, a pair of English words that ends its clause.
            let ends_clause = after.is_empty()
                || after.starts_with([',', '.', ';', ':', '!', '?', ')', '\n'])
                || after.starts_with(" (")
                || after.starts_with(" —");
            return ends_clause && is_english_cap(first) && is_english_cap(second);
        }
        abstract_noun(first)
            || abstract_noun(second)
            // "War and Peace", "Romeo and Juliet" not: two words of English.
            || (is_english_cap(first) && is_english_cap(second))
    }

    /// Whether a capitalised word follows position `p` after one space.
    /// Whether a space and a capitalised word that prose writes in lowercase follow `p`
    /// ("… and Men", "… for Love"; not "… and Tim", "… by ABBA").
    fn ordinary_cap_follows(&self, p: usize) -> bool {
        let rest = self.slice(p, self.bytes.len());
        let Some(rest) = rest.strip_prefix(' ') else {
            return false;
        };
        let len = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        is_ordinary_cap(&rest[..len])
    }

    /// Whether the run opens with a preposition capitalised inside a sentence ("Of Mice").
    fn run_opens_with_preposition(&self) -> bool {
        matches!(self.run.first(), Some(El::Word(w))
            if !w.sent_init && is_title_preposition(self.slice(w.start, w.end)))
    }

    /// Whether a capitalised place's noun ("Clinic", "Island", "Street") follows byte `p`.
    fn place_noun_follows(&self, p: usize) -> bool {
        if !self.cap_word_follows(p) {
            return false;
        }
        let next = self.slice(p + 1, self.bytes.len());
        let len = next
            .find(|c: char| !c.is_alphabetic())
            .unwrap_or(next.len());
        lookup(&next[..len]) & F_PLACE_NOUN != 0
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

    /// Ends the run, outputting the name it spells. Nothing to flush (the usual case, several
    /// times a token) is decided inline, without a call.
    #[inline(always)]
    fn flush(&mut self) {
        self.poss = None;
        if self.run.is_empty() && !self.overflow {
            self.run_words = 0;
            return;
        }
        self.flush_run();
    }

    #[inline(never)]
    fn flush_run(&mut self) {
        let span = self.run_span();
        // A particle needs a word on each side: most runs are too short to hold one.
        let split = span
            .filter(|_| self.run.len() >= 3)
            .and_then(|(s, e)| self.particle_split(s, e));
        self.title_run = false;
        self.title_opening = None;
        self.run.clear();
        self.run_words = 0;
        self.overflow = false;
        match (span, split) {
            (Some((s, e)), Some((a, b))) => {
                self.push_span(s, a);
                if b < e {
                    self.push_span(b, e);
                }
            }
            (Some((s, e)), None) => self.push_span(s, e),
            _ => {}
        }
    }

    /// Where the name spanning `s..e` is two: a particle after a full name, or after a
    /// surname behind an honorific, says where a person is from ("Lucía Fernández de
    /// Telefónica", "Sanne de Vries van Coolblue", "Herr Müller von Bosch"), while one word
    /// before it makes one name ("Rio de Janeiro", "Sanne de Vries", "El Califa de León"),
    /// and so do two given names ("Ana Maria de Souza": a listed name before the particle).
    /// Returns the end of the first name and the start of the second (the run's end when the
    /// second is a common noun: "Herr Yılmaz von der Hausverwaltung").
    fn particle_split(&self, s: usize, e: usize) -> Option<(usize, usize)> {
        let mut before = 0;
        let mut prev: Option<&Word> = None;
        // "Hospital Clínic de Barcelona", "Museo Nacional de Arte": a place's noun opens the
        // name of one place, not a person's.
        let mut institution = false;
        for el in &self.run {
            let El::Word(w) = el else { continue };
            if w.start < s || w.end > e {
                continue;
            }
            if before == 0 && w.has(F_COMMON) && !w.has(F_GIVEN | F_NAME) {
                institution = true;
            }
            // "Santa Cruz de Tenerife", "Puerto Vallarta de …": a place opened by a saint or
            // a place's kind.
            institution |= before == 0
                && matches!(
                    self.slice(w.start, w.end),
                    "San"
                        | "Santa"
                        | "Santo"
                        | "São"
                        | "Saint"
                        | "Puerto"
                        | "Porto"
                        | "Ciudad"
                        | "Villa"
                        | "Monte"
                        | "Rio"
                        | "Río"
                        | "Playa"
                        | "Isla"
                        | "Costa"
                        | "Nueva"
                        | "Nuevo"
                        | "Bahía"
                );
            if let Some(p) = prev {
                let gap = self.slice(p.end, w.start).trim();
                if !gap.is_empty() {
                    // "Lucía al Museo del Prado", "Frau Schneider im Café Einstein": a
                    // preposition after a person says where they go or are ("Frankfurt am
                    // Main" is one place: no person before it).
                    let preposition = matches!(gap, "al" | "im" | "am" | "auf" | "zum" | "zur");
                    let person = || {
                        let title = self.title_before(s);
                        p.has(F_GIVEN) || lookup(title) & F_HONORIFIC != 0
                    };
                    // "Herr Yılmaz von der Hausverwaltung": where they are from may be no name.
                    let from = if w.end == e && w.has(F_ALWAYS_DROP) {
                        e
                    } else {
                        w.start
                    };
                    if preposition && before == 1 && p.start == s && person() {
                        return Some((p.end, from));
                    }
                    if !preposition && !gap.split(' ').all(is_name_particle) {
                        return None;
                    }
                    let word = self.slice(p.start, p.end);
                    // "Universidad Nacional de Colombia": an adjective, not a surname.
                    let adjective = word.len() > 5 && word.ends_with("al");
                    let full_name = before >= 2
                        && !(institution || adjective || (before == 2 && p.has(F_GIVEN | F_NAME)));
                    let title = self.title_before(s);
                    let surname = before == 1
                        && p.start == s
                        && (lookup(title) & F_HONORIFIC != 0 || title == "M");
                    if full_name || surname {
                        return Some((p.end, from));
                    }
                }
            }
            let article = before == 0
                && prev.is_none()
                && matches!(
                    self.slice(w.start, w.end),
                    "El" | "La" | "Le" | "Il" | "Lo" | "Los" | "Las" | "Les" | "O" | "A" | "The"
                );
            if !article {
                before += 1;
            }
            prev = Some(w);
        }
        None
    }

    /// The name the current run spells, if any, as a byte range.
    fn run_span(&self) -> Option<(usize, usize)> {
        if self.overflow {
            return None;
        }
        if let [El::Word(w)] = self.run.as_slice() {
            // "Will's sister", "Will, tickets are booked", "Hope said", "see June's email": a
            // given name that is also a word (or a month) names a person when it owns
            // something, is addressed or said something; a verb or a month does neither.
            // The span without an 's kept in it ("June's email"): a person's, not a shop's.
            // Most words are neither given names nor months: asked first.
            let maybe = w.kind == Kind::Cap && w.has(F_GIVEN | F_TIME);
            let (name, _) = if maybe {
                strip_possessive(self.slice(w.start, w.end))
            } else {
                ("", false)
            };
            let person = maybe
                && (w.has(F_GIVEN) || is_name_like_month(name))
                && (self.owns(w)
                    || (w.has(F_GIVEN) && w.sent_init && self.person_acts_after(w.end, true)));
            if person {
                return Some((w.start, w.start + name.len()));
            }
            // "Negotiation", "Latency from our region", "| Localization |": a lone word ending
            // like a noun of action or state is no name (names end otherwise; "Florence",
            // "Clement", "Nancy" are why -ence, -ment and -ancy are not here).
            // German nouns end so too ("Hausverwaltung", "Kostenstelle", "Aktenzeichen"; not
            // "Samsung").
            let word = self.slice(w.start, w.end);
            let noun_ending = || {
                [
                    "tion", "sion", "ency", "ung", "heit", "keit", "schaft", "stelle", "zeichen",
                    "nummer",
                ]
                .iter()
                .any(|e| word.ends_with(e))
            };
            if w.kind == Kind::Cap
                && word.len() > 6
                && !w.has(F_NAME)
                && noun_ending()
                && (!word.ends_with("sung") || word.ends_with("ssung"))
            {
                return None;
            }
            // "Bread\nEggs\nMilk": a common English word alone on its line is a list's item.
            if w.kind == Kind::Cap && w.sent_init && self.alone_on_line(w) && is_english_cap(word) {
                return None;
            }
        }
        // "Head of Sales", "Staff Engineer", "| Legal |", "Product wants Insights": a job
        // title or a department names no one.
        let mut roles = false;
        for e in &self.run {
            if let El::Word(w) = e {
                roles = w.kind == Kind::Cap && w.has(F_ROLE);
                if !roles {
                    break;
                }
            }
        }
        if roles || self.names_a_team() {
            return None;
        }
        if let [El::Word(w), El::Num { .. }] = self.run.as_slice() {
            // "Sprint 41", "Week 3", "Flat 3": a slot in a series ("Windows 11", "Pixel 8" are
            // names).
            if w.has(F_COUNTED) {
                return None;
            }
        }
        let run = &self.run[..];
        let mut hi = run.len();
        while hi > 0 && matches!(run[hi - 1], El::Conn { .. } | El::Ord { .. }) {
            hi -= 1;
        }
        let run = &run[..hi];
        let mut lo = self.occasion_words();
        // A title opening its sentence, unless the run is all its line (a heading: "Action
        // Items") or a label.
        let title_opening = self.title_opening.filter(|_| {
            let end = match run.last() {
                Some(El::Word(w)) => w.end,
                Some(El::Num { end }) => *end,
                _ => 0,
            };
            // "Quick Update on the launch", "The Year 4 trip": two words, or one and an
            // article, are how some write any phrase; a title has three words besides its
            // article, or a joiner ("Of Mice and Men", "Call Me by Your Name").
            let words = run
                .iter()
                .filter(|e| matches!(e, El::Word(w) if !matches!(self.slice(w.start, w.end), "The" | "A" | "An")))
                .count();
            let joined = run.iter().any(|e| matches!(e, El::Conn { .. }));
            (words >= 3 || (words == 2 && joined))
                && match self.bytes.get(end) {
                    // A list's item of its own ("- One Hundred Years of Solitude"), not a
                    // heading or a label.
                    None | Some(b'\n' | b'\r') => {
                        let first = run.iter().find_map(|e| match e {
                            El::Word(w) => Some(w.start),
                            _ => None,
                        });
                        first.is_some_and(|p| self.opens_line(p) && !self.line_start(p))
                    }
                    Some(b':') => false,
                    _ => true,
                }
        });
        while lo < run.len() {
            match run[lo] {
                // "Customer Nordvik Fisk AS reported", "Founder Nadia Ali said": a role
                // before a name that is no English word is what the person or company is
                // ("Product Hunt", "Marketing Cloud" stay whole).
                El::Word(w)
                    if w.kind == Kind::Cap
                        && w.has(F_ROLE)
                        && matches!(run.get(lo + 1), Some(El::Word(next))
                            if next.kind == Kind::Cap && !next.has(F_ROLE)
                                && !is_english_cap(self.slice(next.start, next.end))) =>
                {
                    lo += 1
                }
                El::Word(w) if !w.is_dropped_prefix() => break,
                El::Word(w) if Some(w.start) == title_opening => break,
                // "Will Smith's agent", "Hope Solo's book": a given name that is also a word,
                // before a capitalised word the lexicon does not know and that owns something
                // ("Will Sarah join?" stays a question).
                // "Grant Thompson asked", "To: Will Carter", "Will Turner,": or that ends the
                // clause (a comma, the line's end, a past-tense verb next).
                El::Word(w)
                    if w.has(F_GIVEN)
                        && matches!(run.get(lo + 1), Some(El::Word(next))
                            if next.kind == Kind::Cap && next.flags == 0
                                && (self.owns(next) || self.person_acts_after(next.end, true))) =>
                {
                    break
                }
                El::Ord { street, .. } if leading_number_fits(&run[lo + 1..], street) => break,
                // "The Lord of the Rings", "A Tale of Two Cities": the article of a title.
                El::Word(w) if lo == 0 && self.opens_title(&w, &run[1..]) => break,
                _ => lo += 1,
            }
        }
        let mut run = &run[lo..];
        // "chez M. Garnier", "M. Lefèvre de la BNP": French "Monsieur" before one surname
        // ("M. Night Shyamalan" keeps its initial).
        if let [El::Word(m), rest @ ..] = run {
            let surname_only = rest
                .iter()
                .take_while(|e| !matches!(e, El::Conn { .. }))
                .filter(|e| matches!(e, El::Word(_)))
                .count()
                == 1;
            if m.kind == Kind::Initial
                && self.slice(m.start, m.end) == "M"
                && self.bytes.get(m.end) == Some(&b'.')
                && matches!(rest.first(), Some(El::Word(w)) if w.kind == Kind::Cap)
                && surname_only
            {
                run = rest;
            }
        }
        // "das Angebot von Bechtle", "Migration auf Intune", "Praxis am Prenzlauer Berg": a
        // common noun before a preposition is what the name is about, not part of it ("Bank
        // of America", "Internet of Things" keep their "of").
        if let [El::Word(w), El::Conn { .. }, rest @ ..] = run {
            let word = self.slice(w.start, w.end);
            let noun = w.has(F_ALWAYS_DROP)
                || (!w.has(F_NAME)
                    && word.len() > 6
                    && (word.ends_with("tion") || word.ends_with("ung")));
            if noun && w.kind == Kind::Cap && matches!(rest.first(), Some(El::Word(_))) {
                let gap = match rest.first() {
                    Some(El::Word(next)) => self.slice(w.end, next.start).trim(),
                    _ => "",
                };
                if !matches!(
                    gap,
                    "of" | "&" | "and" | "of the" | "de" | "del" | "da" | "do" | "di" | "du"
                ) {
                    run = rest;
                }
            }
        }
        let start = match run.first()? {
            El::Word(w) => w.start,
            El::Ord { start, .. } => *start,
            _ => return None,
        };
        if let [El::Word(w)] = run {
            // "Hi Art", "Tell Pat", "Did Grace send it?": a given name that is also a word,
            // after an opener, is the one addressed or talked about.
            let addressed = lo > 0 && w.has(F_GIVEN);
            let keep = match w.kind {
                Kind::Camel | Kind::Caps => true,
                Kind::Initial => false,
                Kind::Cap => {
                    // "Amount stays at $210k", "Lower churn": a common English word opening
                    // a sentence (the filter asked only there, and last).
                    // "Chioma said…": a word the lexicon does not know, opening a sentence
                    // and saying something, is someone (the English filter lets about one
                    // name in 25 pass as a word).
                    let common = || {
                        w.has(F_COMMON | F_STARTER)
                            || (!w.has(F_NAME | F_GIVEN)
                                && is_english_ascii(self.slice(w.start, w.end))
                                && !(w.flags == 0 && self.says_or_owns_after(w.end)))
                    };
                    !((w.sent_init && !addressed && common())
                        || w.has(F_ALWAYS_DROP | F_TIME | F_CONNECTOR))
                }
            };
            return keep.then_some((w.start, w.end));
        }
        let end = match run.last()? {
            El::Word(w) => w.end,
            El::Num { end } => *end,
            El::Conn { .. } | El::Ord { .. } => return None,
        };
        Some((start, end))
    }

    /// Whether the word `w` is all its line holds, a list's marker aside ("- Milk", "Eggs").
    /// Reads at most a few bytes either side: linear time whatever the line's length.
    /// How many of the run's first words wish a happy occasion ("Happy New Year", "Merry
    /// Christmas", "Happy Birthday Sarah": the wish and its English words): an occasion names
    /// no record.
    fn occasion_words(&self) -> usize {
        let Some(El::Word(wish)) = self.run.first() else {
            return 0;
        };
        if !matches!(self.slice(wish.start, wish.end), "Happy" | "Merry") {
            return 0;
        }
        1 + self.run[1..]
            .iter()
            .take_while(|e| self.is_english_cap_word(e, F_COMMON | F_STARTER | F_TIME))
            .count()
    }

    /// The run is English words before "team" or "department" ("the Data Platform team",
    /// "Customer Success department"): a department names no one.
    fn names_a_team(&self) -> bool {
        let Some(El::Word(last)) = self.run.last() else {
            return false;
        };
        // Most runs are followed by none of these: the bytes are compared first.
        let next = self.bytes.get(last.end..).unwrap_or_default();
        [&b" team"[..], b" department", b" dept", b" squad"]
            .iter()
            .any(|t| next.starts_with(t) && !next.get(t.len()).is_some_and(u8::is_ascii_lowercase))
            && self
                .run
                .iter()
                .all(|e| self.is_english_cap_word(e, F_COMMON | F_ROLE))
    }

    /// Whether a run's element is a capitalised English word: one with any of the lexicon's
    /// flags `known`, or one the English filter holds.
    fn is_english_cap_word(&self, e: &El, known: u32) -> bool {
        matches!(e, El::Word(w) if w.kind == Kind::Cap
            && (w.has(known) || is_english_cap(self.slice(w.start, w.end))))
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
        matches!(line.trim_ascii(), b"" | b"-" | b"*" | b"\xe2\x80\xa2")
            || line
                .trim_ascii()
                .strip_suffix(b".")
                .is_some_and(|n| n.iter().all(u8::is_ascii_digit))
    }

    /// Whether `w`, a capitalised "The" or "A" before the run's `rest`, is a title's first
    /// word: "A" before a name with "of" in it, "The" before one with "of the" in it ("The
    /// Bank of America" stays "Bank of America").
    fn opens_title(&self, w: &Word, rest: &[El]) -> bool {
        let of = |e: &El| matches!(e, El::Conn { of: true, .. });
        match self.slice(w.start, w.end) {
            "A" => matches!(rest.first(), Some(El::Word(_))) && rest.iter().any(of),
            // "books like Where the Crawdads Sing": a question's word capitalised inside a
            // sentence, before "the", opens a title.
            "Where" | "When" | "What" | "Who" | "How" | "Why" => {
                !w.sent_init && matches!(rest.first(), Some(El::Conn { .. }))
            }
            // "reading Of Mice and Men", "then In Cold Blood": a preposition capitalised inside
            // a sentence opens a title.
            word if is_title_preposition(word) => {
                !w.sent_init && matches!(rest.first(), Some(El::Word(_)))
            }
            // "The Seven Husbands of Evelyn Hugo": or four words and "of".
            "The" => {
                rest.windows(2)
                    .any(|pair| of(&pair[0]) && matches!(pair[1], El::Conn { of: false, .. }))
                    || (rest.iter().any(of)
                        && rest.iter().filter(|e| matches!(e, El::Word(_))).count() >= 4)
            }
            _ => false,
        }
    }

    /// Whether the run opens right after a lowercase article ("a", "an", "the") and one space.
    fn article_before_run(&self) -> bool {
        let Some(El::Word(w)) = self.run.first() else {
            return false;
        };
        w.start >= 2
            && self.bytes[w.start - 1] == b' '
            && self.bytes[w.start - 2] != b' '
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
        let dated = before.is_empty()
            || before
                .bytes()
                .any(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
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

    /// Whether a word carries a possessive `'s` (kept in it, or right after it).
    fn owns(&self, w: &Word) -> bool {
        let word = self.slice(w.start, w.end);
        POSSESSIVES.iter().any(|p| word.ends_with(p)) || self.possessive_at(w.end)
    }

    fn push_span(&mut self, start: usize, end: usize) {
        if let Some(s) = self.text.get(start..end) {
            self.push_out(s);
        }
    }

    fn push_out(&mut self, s: &'a str) {
        if self.full() {
            return;
        }
        if self.recent_spellings.contains(&s) {
            // One of the last spans again ("Joe's Joe's", a list of names repeated): trimmed
            // and cut already, and seen; compared, not hashed.
            return;
        }
        let plain = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii() && !is_space(char::from(b)));
        let s = if plain(s.as_bytes().first()) && plain(s.as_bytes().last()) {
            s
        } else {
            s.trim()
        };
        if s.is_empty() {
            return;
        }
        // A cut may end between the words of a name: trim again.
        let cut = match s.as_bytes().get(..=MAX_IDENTIFIER_CHARS) {
            None => None,
            // ASCII up to the cut: the cut is at that byte.
            Some(head) if head.is_ascii() => Some((MAX_IDENTIFIER_CHARS, ' ')),
            Some(_) => s.char_indices().nth(MAX_IDENTIFIER_CHARS),
        };
        let s = match cut {
            Some((cut, _)) => s.get(..cut).unwrap_or(s).trim_end(),
            None => s,
        };
        self.recent_spellings[self.recent_at] = s;
        self.recent_at = (self.recent_at + 1) % RECENT_SPELLINGS;
        if self.seen_spelling.contains(s) {
            return;
        }
        if self.seen.insert(s.to_lowercase()) {
            self.out.push(s.to_string());
        }
        if self.seen_spelling.len() < MAX_SEEN_SPELLINGS {
            self.seen_spelling.insert(s);
        }
    }
}

/// A leading ordinal or number joins the name after it: "5th Avenue" (any name),
/// "42 Elm Street" (a plain number only before a street name).
/// A preposition that, capitalised inside a sentence, opens a title ("Of Mice and Men").
fn is_title_preposition(w: &str) -> bool {
    matches!(w, "Of" | "In" | "On" | "To" | "For" | "With" | "At")
}

fn leading_number_fits(rest: &[El], street: bool) -> bool {
    match rest.first() {
        Some(El::Word(w)) if !w.is_dropped_prefix() => {
            !street || matches!(rest.last(), Some(El::Word(last)) if last.has(F_STREET))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(text: &str) -> Vec<String> {
        extract_identifiers(text)
    }

    fn check(text: &str, expected: &[&str]) {
        assert_eq!(ids(text), expected, "message: {text:?}");
    }

    #[test]
    fn identifiers_says_verbs_open_with_the_letters_asked_first() {
        for (word, flags) in lexicon::lexicon().filter(|(_, f)| f & F_SAYS != 0) {
            assert!(word.starts_with(Scanner::SAYS_INITIALS), "{word} {flags}");
        }
    }

    #[test]
    fn identifiers_word_lists_are_sorted_and_lowercase() {
        let lexicon: Vec<(&str, u32)> = lexicon().collect();
        assert!(lexicon.len() > 1_500);
        for pair in lexicon.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{:?} >= {:?}", pair[0].0, pair[1].0);
        }
        for line in include_str!("lexicon.txt").lines() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let flags: Vec<&str> = line.split_whitespace().skip(1).collect();
            assert!(!flags.is_empty(), "{line:?}: no flags");
            for name in flags {
                assert_ne!(flag_named(name), 0, "{line:?}: unknown flag {name:?}");
            }
        }
        for (w, flags) in lexicon {
            assert_eq!(w.to_lowercase(), w);
            assert!(w.len() <= MAX_LOOKUP_BYTES && flags != 0);
            assert_eq!(
                lookup(w) & !(F_TLD | F_FILE_EXT | F_NAME | F_NAME_PREFIX),
                flags
            );
        }
        for (mut list, flag) in word_lists() {
            if flag == F_NAME {
                // names.txt is grouped by kind, not sorted: only duplicates are mistakes.
                list.sort_unstable();
            }
            for pair in list.windows(2) {
                assert!(pair[0] < pair[1], "{:?} >= {:?}", pair[0], pair[1]);
            }
            for w in list {
                assert_eq!(w.to_lowercase(), w);
                assert!(w.len() <= MAX_LOOKUP_BYTES, "{w:?}");
                assert!(lookup(w) & flag != 0, "{w:?}");
                assert!(
                    flag != F_NAME || w.contains(['_', '\'']) || may_be_name(w),
                    "{w:?}"
                );
            }
        }
        assert_eq!(lookup("com"), F_TLD);
        assert_eq!(lookup("pdf"), F_ACRONYM_STOP | F_FILE_EXT);
        assert_eq!(lookup("a"), F_MID_DROP | F_OBJECT | F_STARTER);
        assert_eq!(lookup("zzz"), 0);
        assert_eq!(lookup("0"), 0);
        assert_eq!(lookup("The"), F_CONNECTOR | F_OBJECT | F_STARTER);
        assert_eq!(lookup("Globex"), 0);
        assert_eq!(lookup("São"), F_NAME_PREFIX);
        assert_eq!(lookup_phrase("São Paulo"), F_NAME);
        assert_eq!(lookup("Lisbon"), F_NAME);
    }

    #[test]
    fn identifiers_lines_whose_capitals_say_nothing() {
        check("PLEASE REMIND ME TO CALL THE DENTIST ON MONDAY", &[]);
        check("CALL JOHN AT IBM ABOUT THE NDA", &["JOHN", "IBM"]);
        check("Which Is Better For A Beginner, Running Or Swimming?", &[]);
        check("Can You Remind Me To Call Sarah On Monday", &["Sarah"]);
        check("LINEで中村さんから写真が届いた", &["LINE", "中村"]);
        check(
            "My Manager Wants The Report By Monday Morning, Any Tips?",
            &[],
        );
    }

    #[test]
    fn identifiers_labels_possessives_and_german_determiners() {
        // A listed name before a colon names someone, an unknown word labels.
        check(
            "Standup\n- Amara: finishing SEC-219\n- Piotr: on call",
            &["Amara", "SEC-219", "Piotr"],
        );
        check("Attendees: Priya", &["Priya"]);
        // A word that only opens sentences owns nothing after a place's preposition only.
        check("it's Ola's turn to host", &["Ola"]);
        check("Nkechi's order arrived", &["Nkechi"]);
        check("met him at Nkechi's on the way", &["Nkechi's"]);
        // What a saint owns, before a lowercase word too.
        check(
            "Ask Rev. Mensah if St. Anne's hall is free",
            &["Mensah", "St. Anne's"],
        );
        // German possessives and "kein" are articles: the noun after one is no name.
        check("Wie spät ist es in deiner Zeitzone?", &[]);
        check("Ich treffe meine Schwester Annika", &["Annika"]);
        check("keine Ahnung wo Jonas ist", &["Jonas"]);
        // A work's title after "watching", "playing" runs on over plain words.
        check(
            "rewatching gilmore girls with my gran lol",
            &["gilmore girls"],
        );
        check(
            "playing elden ring all weekend, dont judge",
            &["elden ring"],
        );
        check("we're watching squid game s2 tonight", &["squid game"]);
        // A says-verb opening a sentence is a verb; a vendor or a customer before a company is
        // its role.
        check("Asked Tariq to get tickets", &["Tariq"]);
        check(
            "Kunde Brandt & Söhne KG meldet einen Fehler",
            &["Brandt & Söhne KG"],
        );
        check("Vendor Acme Ltd sent new bank details", &["Acme Ltd"]);
        // A listed name with "and" in it; an opener left in the run does not hide the owner
        // of a shop or the first word of a listed name.
        check(
            "moved to Trinidad and Tobago in the 70s",
            &["Trinidad and Tobago"],
        );
        check(
            "Is Bosnia and Herzegovina in the EU?",
            &["Bosnia and Herzegovina", "EU"],
        );
        check("London and Paris", &["London", "Paris"]);
        check("Is McKinley's Hardware open?", &["McKinley's Hardware"]);
        // A lowercase shop's 's after a place's preposition, before nothing it owns.
        check("the good bread from gail's to my list", &["gail's"]);
        check("surgery is at addenbrooke's on the 9th", &["addenbrooke's"]);
        check("meet at zaina's place", &["zaina"]);
        // Chat's interjections open sentences.
        check("Lol yes exactly", &[]);
        check("Tbh not sure. Haha ok", &[]);
        // German everyday nouns; where someone is from may be such a noun.
        check(
            "erst zu Rossmann, dann zur Apotheke und ins Kino",
            &["Rossmann"],
        );
        check("Herr Yılmaz von der Hausverwaltung kommt", &["Yılmaz"]);
        check("Der Build ist seit heute Morgen rot", &[]);
        // Ordinary abbreviations and what logs report.
        check("Do we need a DPA before the SFTP drop? CORS too", &[]);
        check("kubectl logs shows OOMKilled, then ConnectTimeout", &[]);
        check("Error: ENOENT: no such file", &[]);
        // Widely used names in scripts without case: districts, landmarks, chains, apps.
        check(
            "明日、渋谷のスターバックスで打ち合わせ",
            &["渋谷", "スターバックス"],
        );
        check("我想去故宫，然后去宜家", &["故宫", "宜家"]);
        check(
            "이번 주말에 제주도 가는데 대한항공 예약",
            &["제주도", "대한항공"],
        );
        check("موعدي مع سارة في دبي مول يوم الخميس", &["سارة", "دبي مول"]);
        check("พรุ่งนี้ไปสยามพารากอนกับสมชาย", &["สยามพารากอน", "สมชาย"]);
    }

    #[test]
    fn identifiers_names_that_own() {
        check("We met at Lloyd's of London", &["Lloyd's of London"]);
        check(
            "Maria's of the opinion that Bob is right",
            &["Maria", "Bob"],
        );
        check(
            "the kids' school is St Brigid's Primary",
            &["St Brigid's Primary"],
        );
        check("Maria's Primary school", &["Maria", "Primary"]);
        check(
            "Frau Schneider im Café Einstein",
            &["Schneider", "Café Einstein"],
        );
        check("we drove to Frankfurt am Main", &["Frankfurt am Main"]);
        check(
            "Checking whether McKinley's Hardware is open",
            &["McKinley's Hardware"],
        );
        check("notes from the visit to Mayo Clinic", &["Mayo Clinic"]);
        check("A Joana Santos de Itaú pediu", &["Joana Santos", "Itaú"]);
    }

    #[test]
    fn identifiers_titles_opened_by_an_article_a_question_or_a_preposition() {
        check("Diary of a Wimpy Kid", &["Diary of a Wimpy Kid"]);
        check("A Man Called Ove made me cry", &["A Man Called Ove"]);
        check(
            "books like Where the Crawdads Sing",
            &["Where the Crawdads Sing"],
        );
        check(
            "I'm reading Of Mice and Men with Rob",
            &["Of Mice and Men", "Rob"],
        );
        check("he said To Kill a Mockingbird", &["To Kill a Mockingbird"]);
        check(
            "finished reading Klara and the Sun, so sad",
            &["Klara and the Sun"],
        );
    }

    #[test]
    fn identifiers_people_and_works_typed_or_said() {
        check(
            "Chioma said the best jollof is at Ofada Kitchen",
            &["Chioma", "Ofada Kitchen"],
        );
        check(
            "hamid and i finally watched oppenheimer. 3 hours!!",
            &["hamid", "oppenheimer"],
        );
        check("ok so me and tomás are hitting lidl", &["tomás", "lidl"]);
    }

    #[test]
    fn identifiers_headings_departments_occasions_and_slots() {
        check("## Weekly Review\n- shipped it", &[]);
        check("Mirela is joining the Data Platform team", &["Mirela"]);
        check("3. AOB and the FY forecast", &[]);
        check("Happy Birthday Sarah! and Happy New Year", &["Sarah"]);
        check(
            "Sprint 41 retro: Windows 11 broke, meet at Gate 3",
            &["Windows 11"],
        );
    }

    #[test]
    fn identifiers_account_numbers_in_two_groups() {
        check("transfer to account 7193 0248 today", &["7193 0248"]);
        check("account no. 3318 2290", &["3318 2290"]);
        check("order 4471 arrived with 300 items", &["4471"]);
    }

    #[test]
    fn identifiers_titles_of_two_nouns() {
        check(
            "Book club picked Pride and Prejudice for March.",
            &["Pride and Prejudice"],
        );
        check(
            "Have I read Crime and Punishment yet?",
            &["Crime and Punishment"],
        );
        check(
            "I met Anna and Ben at Google and Microsoft",
            &["Anna", "Ben", "Google", "Microsoft"],
        );
    }

    #[test]
    fn identifiers_names_without_capitals_or_case() {
        // Listed names typed in lowercase; words that are also names stay words.
        check(
            "ask priya if the invoice came, flight to lisbon",
            &["priya", "lisbon"],
        );
        check("tell will the grace period ends", &[]);
        check(
            "los angeles office, then new york",
            &["los angeles", "new york"],
        );
        check("new ideas for rio", &[]);
        check(
            "grab milk from trader joe's, then sam's club; ask sam's mom",
            &["trader joe's", "sam's club", "sam"],
        );
        // Chinese: a family name and a given name between particles; listed places.
        check("我下周和张伟去杭州出差", &["张伟", "杭州"]);
        check("我的同事赵敏明天从成都飞回北京", &["赵敏", "成都", "北京"]);
        check("候选人毕业于清华大学", &["清华大学"]);
        // Japanese: a title marks a name, a listed name needs none; no name inside a name.
        check("田中さんと京都で会う", &["田中", "京都"]);
        check(
            "山田太郎さんは大阪のソニーで",
            &["山田太郎", "大阪", "ソニー"],
        );
        // Korean, Arabic, Hebrew, Devanagari, Thai.
        check("박지현이 서울에 왔어요", &["박지현", "서울"]);
        check(
            "참석: 박서준, 이하나 (네이버). 봉준호 감독 최고",
            &["박서준", "이하나", "네이버", "봉준호"],
        );
        check("محمد العلي سيزور مكتب دبي", &["محمد العلي", "دبي"]);
        check("דוד כהן מתל אביב", &["דוד כהן", "תל אביב"]);
        check("यिश הופעה תל אביב", &["תל אביב"]);
        check("प्रिया शर्मा ने मुंबई से फोन किया", &["प्रिया शर्मा", "मुंबई"]);
        check("ไปเชียงใหม่กับคุณสมชาย", &["เชียงใหม่", "สมชาย"]);
        // Among Latin words, a run of words of another script is one name; Chinese clauses
        // around a Latin term are not.
        check(
            "Remind me that דוד כהן from Tel Aviv sent it",
            &["דוד כהן", "Tel Aviv"],
        );
        check("张伟说他那边的 CUDA 版本是 12.1", &["张伟", "CUDA"]);
    }

    #[test]
    fn identifiers_unlisted_names_in_lowercase_messages() {
        // After a preposition or a word that introduces someone, a word that is not English.
        check(
            "dinner at dishoom in covent garden, then drinks with funmi",
            &["dishoom", "covent garden", "funmi"],
        );
        check(
            "buy a card for aunty funmi and post it to ibadan",
            &["funmi", "ibadan"],
        );
        // English words, plurals and verbs after "to" stay words.
        check(
            "remind me to mow the lawn, pick up jake from soccer, vat on deposits",
            &["jake"],
        );
        // A writer who capitalises writes names capitalised: a lowercase word is a word.
        check("Dinner at zorbaz tonight", &[]);
        check("so I said dinner at zorbaz", &[]);
        // After a relation of someone's; a place noun closes a name over ordinary words.
        check(
            "my flatmate wojtek ate it, the dog walker is here, dentist appt moved",
            &["wojtek"],
        );
        check(
            "the pediatrician is dr amira haddad at riverside family clinic",
            &["amira haddad", "riverside family clinic"],
        );
        check("ask dr. okafor about it", &["okafor"]);
        // An unknown word that says or owns something; not after an article or "st.".
        check(
            "kasia recommended it and dani's bday is soon",
            &["kasia", "dani"],
        );
        check("the fridge note says hi, st. mary's is closed", &[]);
    }

    #[test]
    fn identifiers_roles_greetings_and_korean_endings() {
        check(
            "Customer Nordvik Fisk AS reported it. Product Hunt loved it.",
            &["Nordvik Fisk AS", "Product Hunt"],
        );
        check(
            "Beste Joost,\n\nDank je.\n\nGroet,\nFemke",
            &["Joost", "Femke"],
        );
        check("예약번호가 KE7Q2X야", &["KE7Q2X"]);
        check(
            "| Mei-Ling Cho | Growth |\nTermin bei Herrn Dr. Yilmaz wegen des Kredits",
            &["Mei-Ling Cho", "Yilmaz"],
        );
        check("Dr. Anjali Menon (Cardiology) called", &["Anjali Menon"]);
        check(
            "NASA's open data is here. That playlist was Marisol's, not mine! Meet at Wendy's?",
            &["NASA", "Marisol", "Wendy's"],
        );
        check(
            "Everything Everywhere All at Once is on",
            &["Everything Everywhere All at Once"],
        );
        check(
            "Meet at Olusegun's place. O João Pereira da Embraer ligou.",
            &["Olusegun", "João Pereira", "Embraer"],
        );
        check(
            "cita en el Hospital Clínic de Barcelona a las 9, luego a Santa Cruz de Tenerife",
            &["Hospital Clínic de Barcelona", "Santa Cruz de Tenerife"],
        );
        check(
            "April is flying in from Cebu. May and I are going. May is going to be busy.",
            &["April", "Cebu", "May"],
        );
        check(
            "Reading list:\n- One Hundred Years of Solitude\n- Call Me by Your Name\n",
            &["One Hundred Years of Solitude", "Call Me by Your Name"],
        );
        check(
            "Factuur 2024-0451 en FV/2024/0391; git clone git@github.com:acme/api.git; \
             api.corvid.health; HTTP/2 401 in 2023-2024",
            &[
                "2024-0451",
                "FV/2024/0391",
                "git@github.com:acme/api.git",
                "api.corvid.health",
            ],
        );
        check(
            "save arXiv:2310.06825 and doi:10.1145/3442188, PMID:31452104",
            &["arXiv:2310.06825", "doi:10.1145/3442188", "PMID:31452104"],
        );
        check(
            "andiamo a Reggio nell'Emilia, poi la Galleria dell'Accademia",
            &["Reggio nell'Emilia", "Galleria dell'Accademia"],
        );
        check(
            "Just watched Everything Everywhere All at Once, no regrets",
            &["Everything Everywhere All at Once"],
        );
    }

    #[test]
    fn identifiers_titles_opening_sentences() {
        check(
            "Call Me by Your Name soundtrack is on repeat",
            &["Call Me by Your Name"],
        );
        check("Of Mice and Men is on the list", &["Of Mice and Men"]);
        check(
            "In the Mood for Love is showing at BFI Southbank",
            &["In the Mood for Love", "BFI Southbank"],
        );
        check(
            "Bring Me the Horizon are playing",
            &["Bring Me the Horizon"],
        );
        // A verb, an auxiliary or a possessive before the title is not in it.
        check(
            "Reading Pride and Prejudice for book club",
            &["Pride and Prejudice"],
        );
        check(
            "Did University of Michigan reply?",
            &["University of Michigan"],
        );
        check("My Bank of America card got declined", &["Bank of America"]);
        // People, German nouns, names after "and", and headings are no titles.
        check(
            "Faith Hill and Tim McGraw are touring",
            &["Faith Hill", "Tim McGraw"],
        );
        check("Der Server hängt seit heute", &[]);
        check(
            "Live Nation and Ticketmaster settled",
            &["Live Nation", "Ticketmaster"],
        );
        check("Quick Update on the launch", &[]);
    }

    #[test]
    fn identifiers_job_titles_and_departments_name_no_one() {
        check(
            "Maya Goldberg joined as Head of Customer Success; ping Legal and the Platform team",
            &["Maya Goldberg"],
        );
        check("General Motors hired a Staff Engineer", &["General Motors"]);
    }

    #[test]
    fn identifiers_titles_of_ordinary_words() {
        check(
            "I finished Gone with the Wind, put Here Comes the Sun on, Bill Murray in Lost in Translation",
            &["Gone with the Wind", "Here Comes the Sun", "Bill Murray", "Lost in Translation"],
        );
        check(
            "reading The Hobbit in London with Sue and Dr. Nguyễn Thị Mai at Smile Bright Dental",
            &[
                "The Hobbit",
                "London",
                "Sue",
                "Nguyễn Thị Mai",
                "Smile Bright Dental",
            ],
        );
    }

    #[test]
    fn identifiers_services_and_repositories_in_lowercase() {
        check(
            "the ci-deployer role and the search-indexer deployment, repo acme/checkout-web",
            &["ci-deployer", "search-indexer", "acme/checkout-web"],
        );
        check(
            "follow-up on the well-known check-in, cherry-picked rendez-vous, and/or 24/7",
            &[],
        );
    }

    #[test]
    fn identifiers_common_words_opening_sentences() {
        check(
            "Amount stays at $210k. Lower churn first. Notion crashed. Sky called.",
            &["Notion", "Sky"],
        );
    }

    #[test]
    fn identifiers_telephones_are_no_ids() {
        check(
            "her number is 087 123 4567, Phone: +234 803 555 0142; IBAN DE89 3704 0044 0532 0130 00",
            &["DE89 3704 0044 0532 0130 00"],
        );
    }

    #[test]
    fn identifiers_list_items_of_common_words() {
        check("Bread\nEggs\n- Milk\n1. Butter\nCall Spotify", &["Spotify"]);
    }

    #[test]
    fn identifiers_flights_apart_from_airlines() {
        check(
            "Aer Lingus EI154, then my Volvo XC90",
            &["Aer Lingus", "EI154", "Volvo XC90"],
        );
    }

    #[test]
    fn identifiers_listed_names_own_what_follows() {
        check(
            "Kevin's copy is at Sam's Club; send it to Priya's email, not Costco's",
            &["Kevin", "Sam's Club", "Priya", "Costco"],
        );
    }

    #[test]
    fn identifiers_networks_log_lines_tests_and_romanised_names() {
        check(
            "allow 10.42.0.0/16 and 2001:db8:4f2a::/48 but not 10.42.7.19",
            &["10.42.0.0/16", "2001:db8:4f2a::/48", "10.42.7.19"],
        );
        check(
            "[2024-02-01 13:45:12] ERROR Failed to load config\nFAILED tests/test_sync.py::test_retry",
            &["tests/test_sync.py::test_retry"],
        );
        check(
            "Reviewers: Sun-hee Park, Hsu Wei-ting, Eun-ji. Hip-hop and Pop-up night",
            &["Sun-hee Park", "Hsu Wei-ting", "Eun-ji"],
        );
    }

    #[test]
    fn identifiers_english_filter_holds_every_listed_word() {
        let words: Vec<&str> = lexicon::lines(include_str!("english.txt"))
            .flat_map(str::split_whitespace)
            .collect();
        assert!(words.len() > 9_000);
        assert!(words.iter().all(|w| is_english_word(w)));
        // Names pass for words rarely (about 1 in 25 by the filter's size).
        let [.., (names, _)] = word_lists();
        let names: Vec<&str> = names
            .into_iter()
            .filter(|w| w.bytes().all(|b| b.is_ascii_lowercase()) && w.len() >= 3)
            .collect();
        let passing = names.iter().filter(|w| is_english_word(w)).count();
        assert!(
            passing * 10 < names.len(),
            "{passing} of {} names pass",
            names.len()
        );
    }

    #[test]
    fn identifiers_names_with_particles_and_connectors() {
        check(
            "Can you pull up my statement from Bank of America?",
            &["Bank of America"],
        );
        check(
            "Goldman Sachs hired McKinsey & Company last year.",
            &["Goldman Sachs", "McKinsey & Company"],
        );
        check(
            "We flew from Rio de Janeiro to São Paulo.",
            &["Rio de Janeiro", "São Paulo"],
        );
        check(
            "Did Ludwig van Beethoven write that?",
            &["Ludwig van Beethoven"],
        );
        check(
            "She studied at the University of the Arts London.",
            &["University of the Arts London"],
        );
        check("Is Barnes & Noble open late?", &["Barnes & Noble"]);
        // A particle after a full name, or after a surname behind an honorific, is "from".
        check(
            "Responde a Lucía Fernández de Telefónica y a Ana Maria de Souza.",
            &["Lucía Fernández", "Telefónica", "Ana Maria de Souza"],
        );
        check(
            "een gesprek met Sanne de Vries van Coolblue in Den Haag",
            &["Sanne de Vries", "Coolblue", "Den Haag"],
        );
        check(
            "Herr Müller von Bosch kommt. Las compré en El Corte Inglés de Valencia.",
            &["Müller", "Bosch", "El Corte Inglés", "Valencia"],
        );
        check(
            "chez M. Garnier; M. Lefèvre de la BNP; M. Night Shyamalan",
            &["Garnier", "Lefèvre", "BNP", "M. Night Shyamalan"],
        );
        check(
            "Estudia en la Universidad Nacional de Colombia",
            &["Universidad Nacional de Colombia"],
        );
    }

    #[test]
    fn identifiers_lists_are_split_on_and() {
        check("Compare Stripe and Adyen fees.", &["Stripe", "Adyen"]);
        check(
            "Invite Priya, Tom and Lena to the Lisbon offsite.",
            &["Priya", "Tom", "Lena", "Lisbon"],
        );
    }

    #[test]
    fn identifiers_camel_case_and_acronyms() {
        check(
            "Sync my iPhone contacts with GitHub and YouTube.",
            &["iPhone", "GitHub", "YouTube"],
        );
        check("Does OpenAI have an office near the UN?", &["OpenAI", "UN"]);
        // An NDA is a kind of document, HSBC one bank (issue 13).
        check("Send the NDA to HSBC asap.", &["HSBC"]);
        check("FYI the CEO of Globex called.", &["Globex"]);
    }

    #[test]
    fn identifiers_diacritics() {
        check("Zürich or Genève for the offsite?", &["Zürich", "Genève"]);
        check("Remind me to call François Dupré.", &["François Dupré"]);
        // Decomposed accents (NFD) stay inside the word.
        check(
            "Lunch with Jose\u{301} in Malaga.",
            &["Jose\u{301}", "Malaga"],
        );
    }

    #[test]
    fn identifiers_codes_and_numbers() {
        check(
            "Ticket JIRA-4512 blocks PROJ-77.",
            &["JIRA-4512", "PROJ-77"],
        );
        check("Where is order #4821?", &["#4821"]);
        check(
            "Confirmation code 9XK2LM for the Hilton.",
            &["9XK2LM", "Hilton"],
        );
        check("Booking ref QX7P2M, seat 14C.", &["QX7P2M"]);
        check(
            "Wire $1,200 to account 4417-2290 by Friday.",
            &["4417-2290"],
        );
        check("The invoice 20417 is overdue.", &["20417"]);
        check("I paid 120 dollars at 3pm on 2024-05-01.", &[]);
        check("It took 10-15 minutes, in Q3 of FY2024.", &[]);
        check(
            "Link ent_01HZX3 to 550e8400-e29b-41d4-a716-446655440000.",
            &["ent_01HZX3", "550e8400-e29b-41d4-a716-446655440000"],
        );
    }

    #[test]
    fn identifiers_emails_urls_domains_ips_handles() {
        check(
            "Email bob.smith+news@globex.co.uk and cc @priya_k.",
            &["bob.smith+news@globex.co.uk", "@priya_k"],
        );
        check(
            "See (https://example.com/a_(b)) and www.acme.io/pricing.",
            &["https://example.com/a_(b)", "www.acme.io/pricing"],
        );
        check(
            "The server 10.0.0.12 hosts intranet.acme.com.",
            &["10.0.0.12", "intranet.acme.com"],
        );
        check("Open notes/2024/plan.md please", &["notes/2024/plan.md"]);
        check(
            "Ping 2001:db8::1 and fe80::1, not std::fmt or 10:30.",
            &["2001:db8::1", "fe80::1"],
        );
        check("e.g. the pricing, i.e. 3.5 per seat", &[]);
    }

    #[test]
    fn identifiers_quotes() {
        check(
            "Find the doc called \"Q3 Roadmap\" please.",
            &["Q3 Roadmap"],
        );
        check(
            "What's in ‘holiday plans’ and «Projet Soleil»?",
            &["holiday plans", "Projet Soleil"],
        );
        check(
            "Maria's notes on 'the move' aren't done, that's fine.",
            &["Maria", "the move"],
        );
        check("Set `max_retries` to 5.", &["max_retries"]);
        check("Please find \"quote here and 'another one", &[]);
        check("The kids' toys and Sam's bike", &["Sam"]);
    }

    #[test]
    fn identifiers_honorifics_and_possessives() {
        check("Did Dr. Ana Müller reply?", &["Ana Müller"]);
        check("Prof. Smith's lecture moved.", &["Smith"]);
        check("Ask Mrs Patel about the Jones' house.", &["Patel", "Jones"]);
        check("John F. Kennedy airport", &["John F. Kennedy"]);
        check("Meet at St. Pancras tomorrow.", &["St. Pancras"]);
    }

    #[test]
    fn identifiers_sentence_starters_and_stop_words() {
        check(
            "Hi! Thanks. Please tell me what I said on Monday in March.",
            &[],
        );
        check("Hey, Can you check something?", &[]);
        check("Globex called. Maria answered.", &["Globex", "Maria"]);
        check("Meeting moved. Lunch is at noon.", &[]);
        check("Hi Sarah, can you ping Tom?", &["Sarah", "Tom"]);
        check("Good morning! Any news from Acme?", &["Acme"]);
        check("OK so the NASA thing is done.", &["NASA"]);
        check(
            "- Buy milk\n- Call Priya\n1. Email Globex",
            &["Priya", "Globex"],
        );
        check("Note: Globex renewed.", &["Globex"]);
        check(
            "Renegotiate the Globex contract. Escalate INV-77 to Priya.",
            &["Globex", "INV-77", "Priya"],
        );
    }

    #[test]
    fn identifiers_fast_char_classes_agree_with_std() {
        for c in (0..=0x10_ffff).filter_map(char::from_u32) {
            if is_cjk_letter(c) {
                assert!(
                    c.is_alphabetic() && !c.is_uppercase() && !c.is_lowercase(),
                    "{c:?}"
                );
            }
            assert_eq!(is_space(c), c.is_whitespace(), "{c:?}");
            if c.is_ascii() {
                let token = c.is_ascii_alphanumeric() || ".:-_'@#/&+=%$*~^\\".contains(c);
                assert_eq!(is_ascii_token_byte(c as u8), token, "{c:?}");
            }
        }
        assert!(!is_ascii_token_byte(0x80) && !is_ascii_token_byte(0xff));
    }

    #[test]
    fn identifiers_hand_decoding_agrees_with_std() {
        let text = "aé東😀e\u{301}b’s Йs\u{3000}x";
        let scanner = Scanner::new(text);
        for p in 0..=text.len() + 1 {
            let ch = text.get(p..).and_then(|t| t.chars().next());
            assert_eq!(scanner.ch(p), ch.map(|c| (c, c.len_utf8())), "at {p}");
            let prev = text.get(..p).and_then(|t| t.chars().next_back());
            assert_eq!(scanner.prev(p), prev, "at {p}");
        }
    }

    #[test]
    fn identifiers_chat_markup_labels_and_verb_forms() {
        check("**Venue:** Lisbon\nTimeline: tight", &["Lisbon"]);
        check("Lessons learned: ask Omar earlier.", &["Omar"]);
        check("Reviewing the draft from Halvorsen.", &["Halvorsen"]);
        check("Emailed Priya. Beijing is next.", &["Priya", "Beijing"]);
        check("Ahmed called.", &["Ahmed"]);
        check("| Owner | Ines |", &["Ines"]);
        check("The MOU and the RFP went to UNICEF.", &["UNICEF"]);
        check("P.S. The Globex deck is done.", &["Globex"]);
    }

    #[test]
    fn identifiers_paths_branches_services_and_list_items() {
        // A directory keeps its trailing slash; relative Windows paths; a drive folder whose
        // name holds a space.
        check("copy the photos to /srv/media/ tonight", &["/srv/media/"]);
        check("run ..\\tools\\build.bat first", &["..\\tools\\build.bat"]);
        check(
            "Install it in D:\\Game Files\\Steam\\steam.exe, then ping nas.lan.",
            &["D:\\Game Files\\Steam\\steam.exe", "nas.lan"],
        );
        check("Open C:\\Temp and wait", &["C:\\Temp"]);
        // Git branches by their conventional kind; services by the kind of program.
        check(
            "git switch bugfix/null-deref before lunch",
            &["bugfix/null-deref"],
        );
        check("tag release/4.1 tonight", &["release/4.1"]);
        check(
            "restart orders-worker, not the co-worker",
            &["orders-worker"],
        );
        check("a well-known follow-up", &[]);
        // A task-list checkbox opens its item; weekdays in the plural.
        check("- [x] Email Dana the draft\n- [ ] Reduce costs", &["Dana"]);
        check("Heathrow closes on Mondays.", &["Heathrow"]);
        check("Sunny Patel paid. Sunny day today", &["Sunny Patel"]);
        // An Indic virama or nukta is part of its word, not a break inside it: the two words
        // between Latin words are one name.
        check("Met अमित शर्मा in Delhi", &["अमित शर्मा", "Delhi"]);
    }

    #[test]
    fn identifiers_possessives_titles_and_particles() {
        check("Dinner at Nando's or Wagamama?", &["Nando's", "Wagamama"]);
        check("Lunch at Nando's with Priya's team", &["Nando's", "Priya"]);
        check("Meet at Luigi's Pizza", &["Luigi's Pizza"]);
        check("Priya's Berlin trip", &["Priya", "Berlin"]);
        check("Coffee at Dunkin' first", &["Dunkin'"]);
        check(
            "Watch The Return of the King in Leeds",
            &["The Return of the King", "Leeds"],
        );
        check(
            "Visit Bourg-en-Bresse and Den Haag",
            &["Bourg-en-Bresse", "Den Haag"],
        );
        check(
            "May Chen and June Park joined in May.",
            &["May Chen", "June Park"],
        );
        check("Is it on Apple TV+ or Disney+?", &["Apple TV+", "Disney+"]);
        check(
            "Hope Lange's script. Will Priya join?",
            &["Hope Lange", "Priya"],
        );
        check("FWIW the COI came.", &[]);
    }

    #[test]
    fn identifiers_given_names_that_are_words_and_shop_possessives() {
        check("Mark Ellison called back", &["Mark Ellison"]);
        check("Will Sarah join?", &["Sarah"]);
        check("Will, the cab is here", &["Will"]);
        check("Hope said hi to Zed", &["Hope", "Zed"]);
        check("Hope you are well", &[]);
        check("Did you read May's notes?", &["May"]);
        check("Bring a Wendy's burger", &["Wendy's"]);
        check("Maria's birthday is soon", &["Maria"]);
        check("shop\tFred's\t12.00", &["Fred's"]);
    }

    #[test]
    fn identifiers_words_of_other_languages_and_titles_after_names() {
        // Openers, weekdays and honorifics looked up in any script.
        check("Кто в пятницу дежурит? Иван Петров", &["Иван Петров"]);
        check("Ο Νίκος από τη Θεσσαλονίκη", &["Νίκος", "Θεσσαλονίκη"]);
        check("Mañana tengo cita con la Dra. Gómez", &["Gómez"]);
        check(
            "Ich habe am Montag einen Termin bei Frau Becker",
            &["Becker"],
        );
        check("Mehmet Bey, Turkcell sözleşmesi", &["Mehmet", "Turkcell"]);
        check("Tanaka-san asked for the forecast", &["Tanaka"]);
        // A title after a name in text without spaces or case.
        check("来週の金曜日に田中さんと会う", &["田中"]);
        check("김민준 팀장님한테 회의록 보내줘", &["김민준"]);
        check("박지은 선생님이 알림장에", &["박지은"]);
        check("王女士明天来", &["王"]);
        check("คุณวิภา ส่งใบแจ้งหนี้", &["วิภา"]);
        check("राहुल जी, कॉल 4 बजे है", &["राहुल"]);
        check("موعد مع الدكتور أحمد منصور في دبي", &["أحمد منصور", "دبي"]);
        check("يا أحمد، هل أرسلت العقد", &["أحمد"]);
        // A Turkish case ending after an apostrophe is not part of the name.
        check(
            "Yarın Ayşe ile İstanbul'a, Koton'dan bir elbise",
            &["Ayşe", "İstanbul", "Koton"],
        );
        check("I'd ask O'Brien, ma'am", &["O'Brien"]);
        // A sentence in another language opens with a word, not a name, unless a title is
        // before it.
        check("Compré las zapatillas en Zara", &["Zara"]);
        check("Ciao! Il dott. Rossi ha confermato per giovedì", &["Rossi"]);
        // A word before its position is read by chars, never split inside one.
        check("déjà vu: ask May if Réunion à May", &["May", "Réunion"]);
    }

    #[test]
    fn identifiers_given_names_months_and_titles() {
        check(
            "Will is OOO until Monday, so ask May if it works",
            &["Will", "May"],
        );
        check("April said the party starts at 7", &["April"]);
        check("Hi Art, the CFO approved it.", &["Art"]);
        check("Did Mark get the slides?", &[]);
        check("Summer camp forms are due", &[]);
        check("June is booked solid", &[]);
        check("See you in May. Due May 5.", &[]);
        check(
            "Harry Potter and the Philosopher's Stone, with Anna and the kids",
            &["Harry Potter and the Philosopher's Stone", "Anna"],
        );
        check("Sam and the Acme team", &["Sam", "Acme"]);
        check(
            "The Lord of the Rings or A Tale of Two Cities? The Bank of America rep asked.",
            &[
                "The Lord of the Rings",
                "A Tale of Two Cities",
                "Bank of America",
            ],
        );
        check(
            "Ben & Jerry's Half Baked, and Mike Chen's car",
            &["Ben & Jerry's", "Half Baked", "Mike Chen"],
        );
        check(
            "Boston Children's Hospital",
            &["Boston Children's Hospital"],
        );
    }

    #[test]
    fn identifiers_markdown_logs_and_emoji() {
        check(
            "| Vendor | Hosts |\n|---|---|\n| Datadog | 120 |\n| Bill | 3 |",
            &["Datadog", "Bill"],
        );
        check("## Characters\n- Elizabeth Bennet", &["Elizabeth Bennet"]);
        check(
            "WARN host=pay-gw-03.eu.acme.internal order=ORD-88213 attempt=3",
            &["pay-gw-03.eu.acme.internal", "ORD-88213"],
        );
        check(":rotating_light: paged @lena :+1:", &["@lena"]);
        check(
            "retrying upload to s3://acme-ml/ckpt/step_12000 (attempt 3)",
            &["s3://acme-ml/ckpt/step_12000"],
        );
        check(
            "sprint:\n- Rose: data loader\n- Will: eval harness\n- Owner: me",
            &["Rose", "Will"],
        );
        check(
            "a NASA-themed cake from a Berlin-based bakery",
            &["NASA", "Berlin"],
        );
        check(
            "bump ghcr.io/acme/worker:2.14.1, digest sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08, role arn:aws:iam::4815:role/Audit",
            &[
                "ghcr.io/acme/worker:2.14.1",
                "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                "arn:aws:iam::4815:role/Audit",
            ],
        );
        check(
            "Expenses: Trader Joe's $84.20, Kevin's lunch",
            &["Trader Joe's", "Kevin"],
        );
        check(
            "Musée d'Orsay, then Kinkaku-ji and a Follow-up",
            &["Musée d'Orsay", "Kinkaku-ji"],
        );
        check("Die Zahlung ist da, sagt Frau Becker", &["Becker"]);
        check(
            "thanks to the Vector Institute and the University of Toronto",
            &["Vector Institute", "University of Toronto"],
        );
    }

    #[test]
    fn identifiers_paths_addresses_and_grouped_numbers() {
        // CSV cells, JSON keys, a folder's trailing backslash, a department.
        check("db-07,10.1.2.3\n", &["db-07", "10.1.2.3"]);
        check("paid 1,250,000 to ACC-12", &["ACC-12"]);
        check("{\"owner\": \"Ravi Das\"}", &["Ravi Das"]);
        check("Is D:\\Music\\Live\\ gone?", &["D:\\Music\\Live\\"]);
        check("Ask IT and HR about Zorbix", &["Zorbix"]);
        check(
            "See C:\\Temp\\a.txt and \\\\nas\\docs",
            &["C:\\Temp\\a.txt", "\\\\nas\\docs"],
        );
        check("Run ../bin/sync.sh", &["../bin/sync.sh"]);
        check("at main (/srv/app.js:3:9)", &["/srv/app.js"]);
        check("Ping ::1 and 64:ff9b::1", &["::1", "64:ff9b::1"]);
        check(
            "IBAN GB82 WEST 1234 5698 7654 32 ok",
            &["GB82 WEST 1234 5698 7654 32"],
        );
        check(
            "card 4111 1111 1111 1111, years 2021 2022 2023",
            &["4111 1111 1111 1111"],
        );
        check(
            "ssh root@10.1.2.3 then git checkout fix/OPS-12",
            &["root@10.1.2.3", "fix/OPS-12"],
        );
        check("2024-05-01T10:00:00Z INFO console.log(x) Retry(3)", &[]);
        check(
            "Call 佐藤さん in 大阪 about 김지은",
            &["佐藤", "大阪", "김지은"],
        );
        check("明天和王小明开会", &[]);
        check("ありがとう Tom", &["Tom"]);
    }

    #[test]
    fn identifiers_names_with_numbers() {
        check("Is Artemis II delayed?", &["Artemis II"]);
        check("My iPhone 15 Pro is broken.", &["iPhone 15 Pro"]);
        check("We met Sarah 3 times.", &["Sarah"]);
        check("Acme Corp 2023 results", &["Acme Corp"]);
        check("Ticket 4512 is open", &["4512"]);
    }

    #[test]
    fn identifiers_dedupe_case_insensitively() {
        check("Acme Corp, acme corp and ACME CORP.", &["Acme Corp"]);
        check("Berlin and \"Berlin\"", &["Berlin"]);
    }

    #[test]
    fn identifiers_edge_inputs_do_not_panic() {
        for text in [
            "",
            " ",
            "'",
            "\"",
            "“",
            "`",
            "```",
            "@",
            "#",
            "&",
            "-",
            "'s",
            "’s",
            "...",
            "é",
            "\u{301}",
            "a'",
            "'a",
            "@.",
            "#-",
            "x@",
            "@x@y",
            "1.2.3.4.5",
            "a-",
            "-a",
            "ÅÄÖ",
            "İstanbul",
            "ǅemal",
            "🎉 Party at Globex 🎉",
            "日本語のテキスト Tokyo",
            "\u{0}\u{1}",
            "a\u{2029}B",
            "http://",
            "www.",
            "https://(((",
            "ent_",
            "_",
            "__init__",
            "a/b/c",
            "/",
            "~/",
            "10:30",
            "::",
            "C++ and C#",
            "'''''",
            "\"\"\"\"",
            "‘’‘’",
            "«»",
            "O'",
            "O'B",
            "Mc",
            "& Co",
            "of Bank",
            "Bank of",
            "#Ω",
            "@é",
            "İİİ'S",
            "ß-ẞ",
            "x'ẞ's",
        ] {
            let out = ids(text);
            assert!(out.len() <= MAX_IDENTIFIERS);
        }
    }

    #[test]
    fn identifiers_cut_to_the_cap_are_trimmed() {
        // Found by tests/prop_identifiers.rs: the 200-char cut fell on the space in a name.
        let text = format!("A{}Aaaa NASA", "b".repeat(194));
        let id = &ids(&text)[0];
        assert_eq!(id.as_str(), &text[..199]);
    }

    #[test]
    fn identifiers_output_is_capped() {
        let text: String = (0..500).map(|i| format!("INV-{i:05} ")).collect();
        assert_eq!(ids(&text).len(), MAX_IDENTIFIERS);
        let long = format!(
            "\"{}\" https://example.com/{}",
            "y".repeat(150),
            "z".repeat(500)
        );
        for id in ids(&long) {
            assert!(id.chars().count() <= MAX_IDENTIFIER_CHARS);
        }
    }
}
