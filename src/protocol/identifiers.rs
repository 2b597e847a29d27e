//! The default identifier extractor.
//!
//! [`extract_identifiers`] pulls out of a chat message the spans that could name one specific
//! record in a personal memory store: proper names ("Bank of America", "São Paulo", "OpenAI"),
//! id-like tokens (`ent_…`, UUIDs, `JIRA-4512`, `QX7P2M`, `#4821`, `4417-2290`), e-mail
//! addresses, URLs, domains, IP addresses, `@handles` and the contents of quoted strings.
//!
//! It is a hand-written, single-pass scanner over the message's characters:
//!
//! 1. The main loop walks the characters once. Quoted strings (`"…"`, `“…”`, `'…'`, `‘…’`,
//!    `` `…` ``, `«…»`) are recognised with an amortised closer search (each character is
//!    examined at most once per quote kind, and a quote is at most [`MAX_QUOTE_CHARS`] long
//!    and never spans a line break). URLs are taken whole. Everything else is cut into
//!    chunks of word characters and in-word punctuation.
//! 2. Each chunk is classified: e-mail, `@handle`, `#tag`, path, IP, domain/file name,
//!    snake_case id, hyphenated code, mixed letter/digit code, number, or a word
//!    (Capitalised, CamelCase, ALLCAPS, initial, lowercase, connector such as "of" / "&").
//! 3. Words feed a run builder that joins adjacent name words (and connectors between them)
//!    into one name, and drops ordinary words that are capitalised only because they start a
//!    sentence (a compact list of common English sentence starters and nouns), weekday and
//!    month names, the pronoun I, honorifics and a possessive `'s`.
//!
//! Everything is linear in the input length, never panics (all slicing is at char
//! boundaries recorded while decoding), and the output is capped at [`MAX_IDENTIFIERS`]
//! identifiers of at most [`MAX_IDENTIFIER_CHARS`] characters each.

use std::collections::HashSet;

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
/// Words longer than this (in bytes) are never looked up in the word lists.
const MAX_LOOKUP_BYTES: usize = 24;

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
    /// "OpenAI", "iPhone", "McKinsey", "AT&T"-like mixed case.
    Camel,
    /// "NASA", "IBM", "II".
    Caps,
    /// "F", "J.R.R", "B": joins a run but is never a name on its own.
    Initial,
}

#[derive(Clone, Copy, Debug)]
struct Word {
    start: usize,
    end: usize,
    kind: Kind,
    sent_init: bool,
    starter: bool,
    common: bool,
    mid_drop: bool,
    always_drop: bool,
    cue: bool,
}

#[derive(Clone, Copy, Debug)]
enum El {
    Word(Word),
    Conn { of: bool },
    Num { end: usize },
}

/// Remembers where the last search for a quote closer (or a line break) stopped.
#[derive(Clone, Copy, Default)]
struct Memo {
    /// Positions in `from..to` hold no closer and no line break.
    from: usize,
    to: usize,
    /// `Some(p)` when `p == to` is a closer or a line break.
    hit: Option<usize>,
    valid: bool,
}

struct Scanner<'a> {
    text: &'a str,
    chars: Vec<char>,
    /// Byte offset of each char, plus `text.len()` at the end.
    offs: Vec<usize>,
    out: Vec<String>,
    seen: HashSet<String>,
    run: Vec<El>,
    run_words: usize,
    overflow: bool,
    sentence_start: bool,
    id_cue: bool,
    memos: [Memo; 6],
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        let mut chars = Vec::with_capacity(text.len());
        let mut offs = Vec::with_capacity(text.len() + 1);
        for (i, c) in text.char_indices() {
            chars.push(c);
            offs.push(i);
        }
        offs.push(text.len());
        Scanner {
            text,
            chars,
            offs,
            out: Vec::new(),
            seen: HashSet::new(),
            run: Vec::with_capacity(MAX_RUN_ELEMENTS),
            run_words: 0,
            overflow: false,
            sentence_start: true,
            id_cue: false,
            memos: [Memo::default(); 6],
        }
    }

    fn full(&self) -> bool {
        self.out.len() >= MAX_IDENTIFIERS
    }

    fn char_at(&self, i: usize) -> Option<char> {
        self.chars.get(i).copied()
    }

    /// The text between two char positions.
    fn slice(&self, s: usize, e: usize) -> &'a str {
        let text = self.text;
        match (self.offs.get(s), self.offs.get(e)) {
            (Some(&a), Some(&b)) if a <= b => text.get(a..b).unwrap_or(""),
            _ => "",
        }
    }

    // ----- main loop -------------------------------------------------------------------

    fn scan(&mut self) {
        let n = self.chars.len();
        let mut i = 0;
        while i < n && !self.full() {
            let c = self.chars[i];
            if c.is_whitespace() {
                if c == '\n' || c == '\u{2029}' {
                    self.brk_end();
                }
                i += 1;
                continue;
            }
            if let Some((cs, ce, next)) = self.try_quote(i) {
                self.flush();
                let content = self.slice(cs, ce);
                self.push_quote(content);
                self.sentence_start = false;
                self.id_cue = false;
                i = next;
                continue;
            }
            if let Some(end) = self.try_url(i) {
                self.flush();
                let url = self.slice(i, end);
                self.push_out(url);
                self.sentence_start = false;
                self.id_cue = false;
                i = end;
                continue;
            }
            if is_chunk_char(c) {
                let mut j = i + 1;
                while j < n {
                    let d = self.chars[j];
                    if is_chunk_char(d) {
                        j += 1;
                    } else if d == ','
                        && self.chars[j - 1].is_ascii_digit()
                        && self.char_at(j + 1).is_some_and(|x| x.is_ascii_digit())
                    {
                        j += 1;
                    } else {
                        break;
                    }
                }
                self.chunk(i, j);
                i = j;
                continue;
            }
            match c {
                '!' | '?' | '…' | '。' | '！' | '？' => self.brk_end(),
                _ => self.flush(),
            }
            i += 1;
        }
        self.flush();
    }

    // ----- quotes ----------------------------------------------------------------------

    /// If a quoted string opens at `i`, returns (content start, content end, next position).
    fn try_quote(&mut self, i: usize) -> Option<(usize, usize, usize)> {
        let open = self.chars[i];
        let kind = match open {
            '"' => 0,
            '“' | '„' => 1,
            '‘' => 2,
            '\'' => 3,
            '`' => 4,
            '«' => 5,
            _ => return None,
        };
        let next = self.char_at(i + 1)?;
        if next.is_whitespace() {
            return None;
        }
        match kind {
            2 | 3 => {
                let prev_ok = i == 0 || !is_wordish(self.chars[i - 1]);
                if !prev_ok || !next.is_alphanumeric() {
                    return None;
                }
            }
            4 if next == '`' => return None,
            _ => {}
        }
        let limit = (i + 2 + MAX_QUOTE_CHARS).min(self.chars.len());
        let k = self.find_barrier(kind, i + 1, limit)?;
        if self.is_line_break(k) {
            return None;
        }
        Some((i + 1, k, k + 1))
    }

    fn is_line_break(&self, p: usize) -> bool {
        matches!(
            self.chars.get(p),
            Some('\n') | Some('\r') | Some('\u{2029}')
        )
    }

    fn is_closer(&self, kind: usize, p: usize) -> bool {
        let c = self.chars[p];
        match kind {
            0 => c == '"' || c == '”',
            1 => c == '”' || c == '“' || c == '"',
            2 | 3 => {
                let ok_char = if kind == 2 {
                    c == '’' || c == '\''
                } else {
                    c == '\'' || c == '’'
                };
                ok_char
                    && p > 0
                    && !self.chars[p - 1].is_whitespace()
                    && !self.char_at(p + 1).is_some_and(is_wordish)
            }
            4 => c == '`',
            _ => c == '»',
        }
    }

    /// First position in `start..limit` holding a closer of `kind` or a line break.
    /// Amortised: positions already known to be clean are not scanned again.
    fn find_barrier(&mut self, kind: usize, start: usize, limit: usize) -> Option<usize> {
        let memo = self.memos[kind];
        let mut p = start;
        if memo.valid && memo.from <= start && start <= memo.to {
            if let Some(h) = memo.hit {
                return if h < limit { Some(h) } else { None };
            }
            p = memo.to;
        } else {
            self.memos[kind] = Memo {
                from: start,
                to: start,
                hit: None,
                valid: true,
            };
        }
        while p < limit {
            if self.is_line_break(p) || self.is_closer(kind, p) {
                let m = &mut self.memos[kind];
                m.to = p;
                m.hit = Some(p);
                return Some(p);
            }
            p += 1;
        }
        let m = &mut self.memos[kind];
        m.to = m.to.max(limit);
        None
    }

    fn push_quote(&mut self, content: &str) {
        let trimmed = content.trim().trim_end_matches([',', ';', ':']).trim_end();
        let trimmed = match trimmed.strip_suffix('.') {
            Some(t) if !t.ends_with('.') => t,
            _ => trimmed,
        };
        if trimmed.chars().any(|c| c.is_alphanumeric()) {
            self.push_out(trimmed);
        }
    }

    // ----- URLs ------------------------------------------------------------------------

    fn try_url(&self, i: usize) -> Option<usize> {
        if i > 0 && is_wordish(self.chars[i - 1]) {
            return None;
        }
        let c = self.chars[i];
        if !matches!(c, 'h' | 'H' | 'w' | 'W' | 'f' | 'F') {
            return None;
        }
        let prefix_len = ["https://", "http://", "ftp://", "www."]
            .iter()
            .find(|p| self.starts_with_ci(i, p))
            .map(|p| p.len())?;
        let n = self.chars.len();
        let mut j = i + prefix_len;
        while j < n {
            let d = self.chars[j];
            if d.is_whitespace() || matches!(d, '"' | '“' | '”' | '<' | '>' | '`' | '«' | '»')
            {
                break;
            }
            j += 1;
        }
        // Trim trailing punctuation; a closing bracket stays only when balanced.
        let (mut open_paren, mut close_paren) = (0usize, 0usize);
        for &d in &self.chars[i..j] {
            match d {
                '(' => open_paren += 1,
                ')' => close_paren += 1,
                _ => {}
            }
        }
        while j > i + prefix_len {
            let d = self.chars[j - 1];
            let trim = match d {
                '.' | ',' | ';' | ':' | '!' | '?' | '\'' | '’' | '*' | ']' | '}' => true,
                ')' => {
                    if close_paren > open_paren {
                        close_paren -= 1;
                        true
                    } else {
                        false
                    }
                }
                _ => false,
            };
            if !trim {
                break;
            }
            j -= 1;
        }
        // Need something after the prefix that looks like a host.
        let rest = &self.chars[i + prefix_len..j];
        if !rest.iter().any(|c| c.is_alphanumeric()) {
            return None;
        }
        if prefix_len == 4 && !rest.contains(&'.') {
            return None;
        }
        Some(j)
    }

    fn starts_with_ci(&self, i: usize, prefix: &str) -> bool {
        let mut k = i;
        for p in prefix.chars() {
            match self.chars.get(k) {
                Some(c) if c.to_ascii_lowercase() == p => k += 1,
                _ => return false,
            }
        }
        true
    }

    // ----- chunks ----------------------------------------------------------------------

    fn chunk(&mut self, s: usize, e: usize) {
        let raw = self.slice(s, e);
        if raw == "&" {
            if !self.try_conn("&") {
                self.filler();
            }
            return;
        }
        let (mut s, mut e) = (s, e);
        let mut lead = false;
        while s < e && is_lead_strip(self.chars[s]) {
            s += 1;
            lead = true;
        }
        let (mut period, mut colon, mut other) = (false, false, false);
        while e > s && is_trail_strip(self.chars[e - 1]) {
            match self.chars[e - 1] {
                '.' => period = true,
                ':' => colon = true,
                _ => other = true,
            }
            e -= 1;
        }
        if lead {
            self.flush();
        }
        let mut abbrev = false;
        if s < e {
            let base = self.offs[s];
            abbrev = self.classify(self.slice(s, e), base);
        }
        if colon {
            self.brk_end();
        } else if period {
            if !abbrev {
                self.brk_end();
            }
        } else if other {
            self.flush();
        }
    }

    /// Classifies one chunk core at byte offset `b`. Returns true when a following period
    /// is part of an abbreviation (initial, honorific, "St.") rather than a sentence end.
    fn classify(&mut self, w: &'a str, b: usize) -> bool {
        let (w, possessive) = strip_possessive(w);
        let abbrev = self.classify_core(w, b);
        if possessive {
            self.flush();
        }
        abbrev
    }

    fn classify_core(&mut self, w: &'a str, b: usize) -> bool {
        let first = match w.chars().next() {
            Some(c) => c,
            None => return false,
        };
        let end = b + w.len();
        match first {
            '@' => {
                let rest = &w[1..];
                let mut len = 0;
                for (k, c) in rest.char_indices() {
                    if c.is_alphanumeric() || c == '_' || c == '.' || c == '-' {
                        len = k + c.len_utf8();
                    } else {
                        break;
                    }
                }
                let handle = rest[..len].trim_end_matches(['.', '-']);
                if handle.chars().any(|c| c.is_alphanumeric()) {
                    self.emit_id(b, b + 1 + handle.len());
                } else {
                    self.filler();
                }
                return false;
            }
            '#' => {
                let rest = &w[1..];
                let ok = rest.chars().count() >= 2
                    && rest
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
                    && rest.chars().any(|c| c.is_alphanumeric());
                if ok {
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
        if w.ends_with('%') {
            self.other();
            return false;
        }
        if w.contains('@') {
            if is_email(w) {
                self.emit_id(b, end);
            } else {
                self.other();
            }
            return false;
        }
        if w.contains('/') {
            if is_path(w) {
                self.emit_id(b, end);
            } else {
                self.split_classify(w, b, '/');
            }
            return false;
        }
        if w.contains(':') {
            if w.split(':').all(|p| p.chars().all(|c| c.is_ascii_digit())) {
                self.other();
            } else {
                self.split_classify(w, b, ':');
            }
            return false;
        }
        if w.contains('.') {
            return self.dotted(w, b);
        }
        if w.contains('_') {
            let ok = w.chars().all(|c| is_wordish(c) || c == '_' || c == '-')
                && w.split('_').filter(|p| !p.is_empty()).count() >= 2;
            if ok {
                self.emit_id(b, end);
            } else {
                self.other();
            }
            return false;
        }
        if w.contains('&') {
            self.ampersand(w, b);
            return false;
        }
        if w.contains('-') {
            self.hyphenated(w, b);
            return false;
        }
        if w.contains(['\'', '’']) {
            self.apostrophe(w, b);
            return false;
        }
        if !w.chars().all(is_wordish) {
            self.other();
            return false;
        }
        self.alnum(w, b)
    }

    fn split_classify(&mut self, w: &'a str, b: usize, sep: char) {
        let mut off = 0;
        for part in w.split(sep) {
            if !part.is_empty() {
                let t = part.trim_matches(|c: char| is_lead_strip(c) || is_trail_strip(c));
                if !t.is_empty() {
                    let lead = part.len()
                        - part
                            .trim_start_matches(|c: char| is_lead_strip(c) || is_trail_strip(c))
                            .len();
                    self.classify_core(t, b + off + lead);
                }
            }
            self.flush();
            off += part.len() + sep.len_utf8();
        }
    }

    fn dotted(&mut self, w: &'a str, b: usize) -> bool {
        let end = b + w.len();
        let labels = || w.split('.');
        if labels().any(|l| l.is_empty()) {
            self.other();
            return false;
        }
        if labels().all(|l| l.chars().all(|c| c.is_ascii_digit())) {
            let is_ip = labels().count() == 4
                && labels().all(|l| l.len() <= 3 && l.parse::<u16>().is_ok_and(|v| v <= 255));
            if is_ip {
                self.emit_id(b, end);
            } else {
                self.other();
            }
            return false;
        }
        if labels().all(|l| l.chars().count() == 1 && l.chars().all(|c| c.is_alphabetic())) {
            if w.chars().all(|c| c == '.' || c.is_uppercase()) {
                self.word(b, end, Kind::Initial);
            } else {
                self.filler();
            }
            return true;
        }
        let last = labels().last().unwrap_or("");
        let labels_ok = labels().all(|l| l.chars().all(|c| is_wordish(c) || c == '-' || c == '_'));
        let last_alpha = last.chars().all(|c| c.is_ascii_alphabetic()) && last.len() >= 2;
        let last_ok = last_alpha
            && (last.chars().all(|c| c.is_ascii_lowercase())
                || (last.len() <= 4 && last.chars().all(|c| c.is_ascii_uppercase())));
        let known = {
            let mut buf = [0u8; MAX_LOOKUP_BYTES];
            match ascii_lower(last, &mut buf) {
                Some(l) => in_list(TLDS, l) || in_list(FILE_EXTS, l),
                None => false,
            }
        };
        if labels_ok && last_ok && known {
            self.emit_id(b, end);
        } else {
            self.other();
        }
        false
    }

    fn ampersand(&mut self, w: &'a str, b: usize) {
        let end = b + w.len();
        let parts_ok = w
            .split('&')
            .all(|p| !p.is_empty() && p.chars().all(char::is_alphabetic));
        if !parts_ok {
            self.other();
            return;
        }
        if w.chars().all(|c| c == '&' || c.is_uppercase()) {
            let mut buf = [0u8; MAX_LOOKUP_BYTES];
            let stop = ascii_lower(w, &mut buf).is_some_and(|l| in_list(ACRONYM_STOP, l));
            if stop {
                self.filler();
            } else {
                self.word(b, end, Kind::Caps);
            }
        } else if w.chars().next().is_some_and(char::is_uppercase) {
            self.word(b, end, Kind::Camel);
        } else {
            self.other();
        }
    }

    fn hyphenated(&mut self, w: &'a str, b: usize) {
        let end = b + w.len();
        let parts = || w.split('-');
        if parts().any(|p| p.is_empty() || !p.chars().all(is_wordish)) {
            self.other();
            return;
        }
        let has_digit = w.chars().any(|c| c.is_ascii_digit());
        if is_uuid(w) {
            self.emit_id(b, end);
            return;
        }
        if has_digit {
            let all_digits = parts().all(|p| p.chars().all(|c| c.is_ascii_digit()));
            let id = if all_digits {
                digit_groups_are_id(w)
            } else {
                parts().any(|p| p.chars().any(char::is_uppercase))
                    || parts().any(is_code)
                    || (w.len() >= 8 && parts().all(|p| p.chars().any(|c| c.is_ascii_digit())))
            };
            if id {
                self.emit_id(b, end);
            } else {
                self.other();
            }
            return;
        }
        // Letters only: a name when every part is capitalised ("Jean-Luc", "Coca-Cola").
        let all_cap = parts().all(|p| p.chars().next().is_some_and(char::is_uppercase));
        if all_cap {
            if parts().all(|p| p.chars().all(|c| c.is_uppercase() || is_mark(c))) {
                self.word(b, end, Kind::Caps);
            } else {
                self.cap_word(w, b);
            }
        } else {
            self.lower(w);
        }
    }

    fn apostrophe(&mut self, w: &'a str, b: usize) {
        let end = b + w.len();
        let chars_ok = w.chars().all(|c| is_wordish(c) || c == '\'' || c == '’');
        let first_upper = w.chars().next().is_some_and(char::is_uppercase);
        // "O'Brien", "D'Angelo": the apostrophe is followed by a capital.
        let mut name = chars_ok && first_upper;
        let mut after_apos = false;
        let mut saw_apos = false;
        for c in w.chars() {
            if after_apos {
                if !c.is_uppercase() {
                    name = false;
                }
                after_apos = false;
            }
            if c == '\'' || c == '’' {
                after_apos = true;
                saw_apos = true;
            }
        }
        if name && saw_apos && !after_apos {
            self.word(b, end, Kind::Cap);
        } else if chars_ok {
            // A contraction ("I'm", "Don't", "we'll"): a function word.
            self.filler();
        } else {
            self.other();
        }
    }

    /// A token of letters and digits only.
    fn alnum(&mut self, w: &'a str, b: usize) -> bool {
        let end = b + w.len();
        let has_letter = w.chars().any(char::is_alphabetic);
        let has_digit = w.chars().any(|c| c.is_numeric());
        if !has_letter {
            self.number(b, end, w);
            return false;
        }
        if has_digit {
            if is_code(w) {
                self.emit_id(b, end);
            } else {
                self.other();
            }
            return false;
        }
        let upper = w.chars().filter(|c| c.is_uppercase()).count();
        let lower = w.chars().filter(|c| c.is_lowercase()).count();
        if upper == 0 && lower == 0 {
            // Scripts without case: we cannot tell names from words.
            self.other();
            return false;
        }
        let mut buf = [0u8; MAX_LOOKUP_BYTES];
        let lw = ascii_lower(w, &mut buf);
        if upper == 0 {
            match lw {
                Some(l) if in_list(CONNECTORS, l) && self.try_conn(l) => {}
                _ => self.lower(w),
            }
            return false;
        }
        let first_upper = w.chars().next().is_some_and(char::is_uppercase);
        if lower == 0 {
            if w.chars().count() == 1 {
                if w == "I" {
                    self.filler();
                    return false;
                }
                self.word(b, end, Kind::Initial);
                return true;
            }
            let stop = lw.is_some_and(|l| {
                in_list(ACRONYM_STOP, l)
                    || (l.len() >= 4 && (in_list(STARTERS, l) || in_list(COMMON, l)))
                    || in_list(TIME_WORDS, l)
            });
            if stop {
                self.filler();
            } else {
                self.word(b, end, Kind::Caps);
            }
            return false;
        }
        if !first_upper || w.chars().skip(1).any(char::is_uppercase) {
            self.word(b, end, Kind::Camel);
            return false;
        }
        self.cap_word(w, b)
    }

    /// A capitalised word ("Berlin", "Dr", "Monday", "St").
    fn cap_word(&mut self, w: &'a str, b: usize) -> bool {
        let mut buf = [0u8; MAX_LOOKUP_BYTES];
        if let Some(l) = ascii_lower(w, &mut buf) {
            if in_list(TIME_WORDS, l) {
                self.other();
                return false;
            }
            if in_list(HONORIFICS, l) {
                self.flush();
                self.sentence_start = false;
                self.id_cue = false;
                return true;
            }
            if in_list(ABBREV_JOIN, l) {
                self.word(b, b + w.len(), Kind::Cap);
                return true;
            }
        }
        self.word(b, b + w.len(), Kind::Cap);
        false
    }

    // ----- run builder -----------------------------------------------------------------

    fn word(&mut self, start: usize, end: usize, kind: Kind) {
        let text = self.text.get(start..end).unwrap_or("");
        let mut buf = [0u8; MAX_LOOKUP_BYTES];
        let lw = ascii_lower(text, &mut buf);
        let look = |list: &[&str]| lw.is_some_and(|l| in_list(list, l));
        let checked = matches!(kind, Kind::Cap | Kind::Initial);
        let w = Word {
            start,
            end,
            kind,
            sent_init: self.sentence_start,
            starter: checked && look(STARTERS),
            common: checked && look(COMMON),
            mid_drop: checked && look(MID_DROP),
            always_drop: checked && look(ALWAYS_DROP),
            cue: look(ID_CUES),
        };
        self.sentence_start = w.sent_init && w.starter;
        self.id_cue = false;
        self.run_words += 1;
        if self.run_words > MAX_RUN_WORDS || self.run.len() >= MAX_RUN_ELEMENTS {
            self.overflow = true;
            return;
        }
        self.run.push(El::Word(w));
    }

    /// A connector ("of", "de", "&", "the" after "of") between name words.
    fn try_conn(&mut self, l: &str) -> bool {
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
            Some(El::Word(_)) => {
                if l == "the" {
                    return false;
                }
            }
            Some(El::Conn { of }) => {
                if trailing >= 2 || (l == "the" && !*of) {
                    return false;
                }
            }
            _ => return false,
        }
        if self.run.len() >= MAX_RUN_ELEMENTS {
            self.overflow = true;
            return true;
        }
        self.run.push(El::Conn { of: l == "of" });
        self.sentence_start = false;
        true
    }

    fn number(&mut self, start: usize, end: usize, w: &str) {
        let digits = w.len();
        let year_like = digits == 4 && (w.starts_with("19") || w.starts_with("20"));
        let joinable = match self.run.last() {
            Some(El::Word(last)) => {
                !self.overflow
                    && !(last.kind == Kind::Cap && (last.common || last.starter))
                    && last.kind != Kind::Initial
            }
            _ => false,
        };
        if joinable && digits <= 4 && !year_like && w.chars().all(|c| c.is_ascii_digit()) {
            self.run.push(El::Num { end });
            self.sentence_start = false;
            self.id_cue = false;
            return;
        }
        let cue = self.id_cue || matches!(self.run.last(), Some(El::Word(last)) if last.cue);
        self.flush();
        if cue && digits >= 4 && w.chars().all(|c| c.is_ascii_digit()) {
            self.push_span(start, end);
        }
        self.sentence_start = false;
        self.id_cue = false;
    }

    fn lower(&mut self, w: &str) {
        let mut buf = [0u8; MAX_LOOKUP_BYTES];
        let lw = ascii_lower(w, &mut buf);
        if let Some(El::Num { .. }) = self.run.last() {
            if lw.is_some_and(|l| in_list(UNITS, l)) {
                self.run.pop();
            }
        }
        if lw.is_some_and(|l| in_list(OBJECT_WORDS, l)) {
            self.drop_initial_verb();
        }
        self.flush();
        self.id_cue = lw.is_some_and(|l| in_list(ID_CUES, l));
        self.sentence_start = false;
    }

    /// Content that is neither a name nor an identifier (amounts, units, stray symbols).
    fn other(&mut self) {
        self.flush();
        self.sentence_start = false;
        self.id_cue = false;
    }

    /// A function word that does not end a sentence opening ("I", "OK", "Don't").
    fn filler(&mut self) {
        self.flush();
        self.id_cue = false;
    }

    /// "Wire the money", "Renew my plan", "Cancel INV-2041": a lone capitalised word opening a
    /// sentence and followed directly by an object is an imperative verb, not a name.
    fn drop_initial_verb(&mut self) {
        if let [El::Word(w)] = self.run.as_slice() {
            if w.kind == Kind::Cap && w.sent_init && !self.overflow {
                self.run.clear();
                self.run_words = 0;
            }
        }
    }

    fn emit_id(&mut self, start: usize, end: usize) {
        self.drop_initial_verb();
        self.flush();
        self.push_span(start, end);
        self.sentence_start = false;
        self.id_cue = false;
    }

    fn brk_end(&mut self) {
        self.flush();
        self.sentence_start = true;
    }

    fn flush(&mut self) {
        let span = self.run_span();
        self.run.clear();
        self.run_words = 0;
        self.overflow = false;
        if let Some((s, e)) = span {
            self.push_span(s, e);
        }
    }

    /// The name the current run spells, if any.
    fn run_span(&self) -> Option<(usize, usize)> {
        if self.run.is_empty() || self.overflow {
            return None;
        }
        let run = &self.run[..];
        let mut hi = run.len();
        while hi > 0 && matches!(run[hi - 1], El::Conn { .. }) {
            hi -= 1;
        }
        let mut lo = 0;
        while lo < hi {
            match run[lo] {
                El::Conn { .. } | El::Num { .. } => lo += 1,
                El::Word(w) => {
                    let checked = matches!(w.kind, Kind::Cap | Kind::Initial);
                    if checked && ((w.sent_init && w.starter) || w.mid_drop) {
                        lo += 1;
                    } else {
                        break;
                    }
                }
            }
        }
        if lo >= hi {
            return None;
        }
        let first = match run[lo] {
            El::Word(w) => w,
            _ => return None,
        };
        if hi - lo == 1 {
            let keep = match first.kind {
                Kind::Camel | Kind::Caps => true,
                Kind::Initial => false,
                Kind::Cap => {
                    !((first.sent_init && (first.common || first.starter)) || first.always_drop)
                }
            };
            return keep.then_some((first.start, first.end));
        }
        let end = match run[hi - 1] {
            El::Word(w) => w.end,
            El::Num { end, .. } => end,
            El::Conn { .. } => return None,
        };
        Some((first.start, end))
    }

    fn push_span(&mut self, start: usize, end: usize) {
        if let Some(s) = self.text.get(start..end) {
            self.push_out(s);
        }
    }

    fn push_out(&mut self, s: &str) {
        if self.full() {
            return;
        }
        let s = s.trim();
        if s.is_empty() {
            return;
        }
        let s = match s.char_indices().nth(MAX_IDENTIFIER_CHARS) {
            Some((cut, _)) => &s[..cut],
            None => s,
        };
        if self.seen.insert(s.to_lowercase()) {
            self.out.push(s.to_string());
        }
    }
}

// ----- character classes and token shapes -------------------------------------------------

/// Combining marks (decomposed accents) count as part of a word.
fn is_mark(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

fn is_wordish(c: char) -> bool {
    c.is_alphanumeric() || is_mark(c)
}

fn is_chunk_char(c: char) -> bool {
    is_wordish(c)
        || matches!(
            c,
            '.' | ':'
                | '-'
                | '_'
                | '\''
                | '’'
                | '@'
                | '#'
                | '/'
                | '&'
                | '+'
                | '='
                | '%'
                | '$'
                | '€'
                | '£'
                | '¥'
                | '*'
                | '~'
                | '^'
                | '\\'
        )
}

fn is_lead_strip(c: char) -> bool {
    matches!(
        c,
        '\'' | '’' | '‘' | '*' | '_' | '-' | '.' | ':' | '+' | '=' | '^' | '\\' | '&' | '%'
    )
}

fn is_trail_strip(c: char) -> bool {
    matches!(
        c,
        '.' | ':' | '\'' | '’' | '*' | '_' | '-' | '=' | '^' | '\\' | '/' | '~' | '&'
    )
}

fn strip_possessive(w: &str) -> (&str, bool) {
    for suffix in ["'s", "’s", "'S", "’S"] {
        if let Some(base) = w.strip_suffix(suffix) {
            if base.chars().last().is_some_and(is_wordish) {
                return (base, true);
            }
        }
    }
    (w, false)
}

/// Lowercases an ASCII word into `buf` for list lookups.
fn ascii_lower<'b>(w: &str, buf: &'b mut [u8; MAX_LOOKUP_BYTES]) -> Option<&'b str> {
    if w.is_empty() || w.len() > MAX_LOOKUP_BYTES || !w.is_ascii() {
        return None;
    }
    let dst = &mut buf[..w.len()];
    dst.copy_from_slice(w.as_bytes());
    dst.make_ascii_lowercase();
    std::str::from_utf8(dst).ok()
}

fn in_list(list: &[&str], lw: &str) -> bool {
    list.binary_search(&lw).is_ok()
}

fn is_email(w: &str) -> bool {
    let Some((local, domain)) = w.split_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local
            .chars()
            .all(|c| is_wordish(c) || matches!(c, '.' | '_' | '%' | '+' | '-'));
    let labels_ok = domain.contains('.')
        && domain
            .split('.')
            .all(|l| !l.is_empty() && l.chars().all(|c| is_wordish(c) || c == '-'));
    let tld_ok = domain
        .rsplit('.')
        .next()
        .is_some_and(|t| t.len() >= 2 && t.chars().all(|c| c.is_alphabetic()));
    local_ok && labels_ok && tld_ok
}

fn is_path(w: &str) -> bool {
    let segs: usize = w.split('/').filter(|s| !s.is_empty()).count();
    if segs < 2
        || !w
            .chars()
            .all(|c| is_wordish(c) || matches!(c, '/' | '.' | '_' | '-' | '~'))
    {
        return false;
    }
    if w.starts_with('/') || w.starts_with("~/") || w.starts_with("./") {
        return true;
    }
    // "src/main.rs": the last segment has a file extension.
    w.rsplit('/').next().is_some_and(|last| {
        last.rsplit_once('.').is_some_and(|(stem, ext)| {
            let mut buf = [0u8; MAX_LOOKUP_BYTES];
            !stem.is_empty() && ascii_lower(ext, &mut buf).is_some_and(|e| in_list(FILE_EXTS, e))
        })
    })
}

fn is_uuid(w: &str) -> bool {
    let lens = [8, 4, 4, 4, 12];
    let mut n = 0;
    for (i, part) in w.split('-').enumerate() {
        if i >= 5 || part.len() != lens[i] || !part.chars().all(|c| c.is_ascii_hexdigit()) {
            return false;
        }
        n += 1;
    }
    n == 5
}

/// Digit groups joined by hyphens: an account or phone number, not a date or a range.
fn digit_groups_are_id(w: &str) -> bool {
    let lens: Vec<usize> = w.split('-').map(str::len).take(8).collect();
    let total: usize = lens.iter().sum();
    if total < 6 {
        return false;
    }
    let yearish = |p: &str| p.len() == 4 && (p.starts_with("19") || p.starts_with("20"));
    let parts: Vec<&str> = w.split('-').take(8).collect();
    match lens.as_slice() {
        [4, 2, 2] | [2, 2, 4] | [1, 2, 4] | [2, 1, 4] | [1, 1, 4] => false,
        [4, 2] | [4, 4] | [4, 1] if yearish(parts[0]) => false,
        _ => true,
    }
}

/// A mixed letter+digit token that reads like a code ("QX7P2M", "A320", "user4821"), not a
/// unit, ordinal, time or period ("3pm", "2nd", "16GB", "Q3", "FY2024", "v2", "mp3").
fn is_code(w: &str) -> bool {
    let n = w.chars().count();
    let has_digit = w.chars().any(|c| c.is_ascii_digit());
    let has_letter = w.chars().any(char::is_alphabetic);
    if !has_digit || !has_letter || !w.chars().all(is_wordish) {
        return false;
    }
    let mut transitions = 0;
    let mut prev_digit: Option<bool> = None;
    for c in w.chars() {
        let d = c.is_ascii_digit();
        if prev_digit.is_some_and(|p| p != d) {
            transitions += 1;
        }
        prev_digit = Some(d);
    }
    let starts_digit = w.chars().next().is_some_and(|c| c.is_ascii_digit());
    let upper = w.chars().any(char::is_uppercase);
    if starts_digit && transitions == 1 {
        // "3pm", "2nd", "16GB", "2FA", "100km"
        return false;
    }
    if !starts_digit && transitions == 1 {
        let letters: String = w.chars().take_while(|c| !c.is_ascii_digit()).collect();
        let l = letters.to_ascii_lowercase();
        if matches!(
            l.as_str(),
            "q" | "h" | "fy" | "v" | "ver" | "vol" | "ch" | "pt" | "no" | "ep" | "mp" | "x" | "s"
        ) {
            return false;
        }
    }
    if upper {
        n >= 4
    } else {
        n >= 5
    }
}

// ----- word lists (sorted, lowercase; checked by a unit test) ------------------------------

#[rustfmt::skip]
const STARTERS: &[&str] = &[
    "a", "about", "above", "absolutely", "accept", "according", "actually", "add", "added", "after",
    "afternoon", "afterwards", "again", "against", "ah", "ahh", "alert", "all", "allow", "almost",
    "alright", "also", "although", "always", "am", "among", "an", "analyse", "analyze", "and",
    "another", "answer", "any", "anybody", "anyone", "anything", "anyway", "anyways", "apparently",
    "append", "apply", "approve", "archive", "are", "aren't", "around", "arrange", "as", "ask",
    "assess", "assign", "assume", "at", "attach", "avoid", "aw", "awesome", "back", "bake", "based",
    "basically", "be", "because", "been", "before", "begin", "being", "below", "besides", "best",
    "better", "between", "block", "book", "both", "brainstorm", "brilliant", "bring", "browse",
    "btw", "build", "but", "buy", "by", "bye", "calculate", "call", "can", "cancel", "cannot",
    "cant", "capture", "certainly", "change", "check", "cheers", "choose", "clarify", "clean",
    "clear", "close", "come", "compare", "compose", "compute", "configure", "confirm", "congrats",
    "congratulations", "consider", "contact", "continue", "contrast", "convert", "cook", "cool",
    "copy", "could", "couldnt", "count", "create", "currently", "dear", "decide", "decline",
    "define", "definitely", "delegate", "delete", "deliver", "describe", "did", "didnt", "dig",
    "disable", "display", "do", "does", "doesnt", "done", "dont", "double", "downgrade", "download",
    "draft", "drop", "during", "each", "earlier", "edit", "either", "else", "email", "enable",
    "enter", "especially", "estimate", "evaluate", "even", "evening", "eventually", "ever", "every",
    "everybody", "everyone", "everything", "excellent", "except", "exclude", "expand", "explain",
    "export", "extend", "fetch", "few", "figure", "fill", "filter", "finally", "find", "fine",
    "finish", "first", "fix", "flag", "follow", "following", "for", "forget", "forward", "found",
    "from", "further", "generate", "get", "give", "go", "going", "good", "goodbye", "goodnight",
    "got", "grab", "great", "greetings", "guess", "had", "happy", "has", "hasnt", "have", "havent",
    "having", "he", "hello", "help", "her", "here", "hers", "hey", "hi", "highlight", "him", "his",
    "hiya", "hmm", "hold", "honestly", "hope", "hopefully", "how", "howdy", "however", "i", "if",
    "ignore", "imagine", "import", "in", "include", "insert", "install", "instead", "into",
    "investigate", "invite", "is", "isnt", "it", "its", "jot", "just", "keep", "kind", "kindly",
    "know", "label", "last", "lately", "later", "latest", "let", "lets", "like", "link", "list",
    "listen", "load", "lock", "log", "look", "lookup", "lovely", "make", "many", "mark", "maybe",
    "me", "meanwhile", "meet", "merge", "might", "mine", "modify", "more", "moreover", "morning",
    "most", "move", "much", "must", "my", "need", "never", "next", "nice", "night", "no", "nobody",
    "none", "nope", "nor", "not", "note", "nothing", "notify", "now", "of", "off", "oh", "ok",
    "okay", "on", "once", "one", "only", "open", "or", "order", "organise", "organize", "other",
    "otherwise", "our", "ours", "out", "outline", "over", "own", "paste", "pause", "pay", "per",
    "perfect", "perhaps", "pick", "pin", "ping", "place", "plan", "play", "please", "pls", "plus",
    "postpone", "prepare", "previous", "print", "prioritise", "prioritize", "probably", "proofread",
    "propose", "pull", "push", "put", "quick", "quickly", "quite", "rather", "re", "reach", "read",
    "really", "recall", "recap", "recently", "recommend", "record", "redo", "refresh", "refund",
    "regarding", "register", "reject", "remember", "remind", "remove", "rename", "renew", "repair",
    "replace", "reply", "reschedule", "research", "reset", "respond", "restore", "resume",
    "retrieve", "return", "review", "rewrite", "right", "run", "save", "say", "scan", "schedule",
    "search", "see", "select", "send", "set", "setup", "several", "shall", "share", "she", "shift",
    "ship", "shorten", "should", "shouldnt", "show", "sign", "similarly", "since", "skip", "so",
    "some", "somebody", "someone", "something", "sometimes", "soon", "sorry", "sort", "star",
    "start", "still", "stop", "store", "submit", "subscribe", "such", "suggest", "sum", "summarise",
    "summarize", "sup", "super", "suppose", "sure", "switch", "sync", "tag", "take", "tell", "text",
    "than", "thank", "thanks", "thanx", "that", "thats", "the", "their", "theirs", "them", "then",
    "there", "therefore", "these", "they", "think", "this", "those", "though", "through", "thus",
    "thx", "tidy", "to", "too", "total", "totally", "track", "transfer", "translate", "try", "turn",
    "ty", "ugh", "um", "umm", "under", "undo", "unfortunately", "uninstall", "unless", "unlink",
    "unlock", "unpin", "unsubscribe", "until", "up", "update", "upgrade", "upload", "us", "use",
    "usually", "validate", "verify", "very", "via", "visit", "wait", "want", "warn", "was", "wash",
    "wasnt", "watch", "we", "welcome", "well", "were", "werent", "what", "whatever", "when",
    "whenever", "where", "whereas", "wherever", "whether", "which", "while", "who", "whoever",
    "whom", "whose", "why", "will", "wire", "with", "withdraw", "within", "without", "wonder",
    "wont", "work", "would", "wouldnt", "wow", "write", "yeah", "yep", "yes", "yet", "yo", "you",
    "your", "yours", "yup",
];

#[rustfmt::skip]
const COMMON: &[&str] = &[
    "account", "accountant", "accounts", "address", "agenda", "airport", "alarm", "album",
    "allergy", "anniversary", "annual", "answer", "apartment", "app", "appointment", "article",
    "assignment", "assistant", "aunt", "baby", "backup", "balance", "bank", "bday", "beer", "big",
    "bike", "bill", "bills", "birthday", "blog", "board", "bonus", "book", "booking", "bookings",
    "books", "boss", "boyfriend", "breakfast", "brother", "brunch", "budget", "bug", "bugs",
    "build", "bus", "business", "busy", "cake", "calendar", "call", "calls", "candidate", "car",
    "card", "cart", "cat", "chat", "checkout", "checkup", "child", "children", "chores", "city",
    "claim", "class", "cleaning", "client", "clients", "coach", "code", "codes", "coffee",
    "colleague", "college", "commute", "company", "concert", "conference", "confirmation",
    "contact", "contacts", "contract", "contractor", "cost", "costs", "country", "coupon", "course",
    "cousin", "current", "customer", "customers", "dad", "daddy", "daily", "data", "database",
    "daughter", "day", "deadline", "deal", "deck", "delivery", "dentist", "deploy", "deployment",
    "deposit", "dessert", "different", "dinner", "discount", "doc", "docs", "doctor", "document",
    "documents", "dog", "draft", "drinks", "early", "electrician", "electricity", "emails",
    "episode", "errands", "error", "errors", "essay", "event", "events", "everyone", "exam",
    "expense", "expenses", "family", "father", "feature", "features", "fee", "feedback", "fees",
    "festival", "fiance", "file", "files", "final", "finished", "fix", "flight", "flights",
    "folder", "folks", "food", "free", "friend", "friends", "fuel", "full", "funeral", "game",
    "games", "garage", "garden", "gas", "general", "gift", "gifts", "girlfriend", "goal", "goals",
    "grades", "groceries", "grocery", "group", "guys", "gym", "haircut", "health", "hire", "hiring",
    "holiday", "home", "homework", "hotel", "house", "hungry", "husband", "idea", "ideas",
    "important", "info", "information", "insurance", "interest", "interview", "invoice", "invoices",
    "issue", "issues", "item", "items", "job", "kid", "kids", "kitchen", "landlord", "laptop",
    "late", "latest", "launch", "laundry", "lawyer", "lead", "lease", "lesson", "licence",
    "license", "link", "list", "lists", "loan", "login", "long", "lunch", "main", "manager",
    "match", "mechanic", "medication", "medicine", "meeting", "meetings", "memo", "message",
    "messages", "metrics", "mom", "mommy", "money", "month", "monthly", "mortgage", "mother",
    "movie", "movies", "mum", "music", "neighbor", "neighbour", "nephew", "new", "news", "niece",
    "notes", "numbers", "nurse", "office", "old", "onboarding", "overdue", "package", "page",
    "paper", "parcel", "parents", "parking", "partner", "party", "passport", "password", "paycheck",
    "payment", "payments", "pending", "people", "personal", "pet", "pharmacy", "phone", "photo",
    "photos", "picture", "pictures", "pills", "pizza", "plans", "plants", "plumber", "podcast",
    "policy", "prescription", "present", "presentation", "previous", "price", "pricing", "priority",
    "private", "problem", "product", "profile", "profit", "progress", "project", "projects",
    "proposal", "purchase", "question", "questions", "quick", "rain", "random", "rate", "rates",
    "ready", "recap", "receipt", "recent", "recipe", "reference", "refund", "release", "reminder",
    "reminders", "renewal", "rent", "repairs", "report", "reports", "request", "reservation",
    "response", "restaurant", "results", "return", "revenue", "room", "roommate", "salary", "sale",
    "sales", "same", "schedule", "school", "screenshot", "seats", "second", "server", "settings",
    "sheet", "shipment", "shopping", "short", "show", "shows", "sick", "sister", "site", "slides",
    "small", "snow", "someone", "son", "song", "songs", "spreadsheet", "statement", "stats",
    "status", "stuff", "subscription", "summary", "supplier", "surgery", "table", "task", "tasks",
    "tax", "taxes", "taxi", "teacher", "team", "tenant", "test", "tests", "texts", "therapist",
    "thesis", "thing", "things", "ticket", "tickets", "tired", "todo", "total", "traffic", "train",
    "training", "transaction", "transfer", "travel", "trip", "uncle", "upcoming", "update",
    "updates", "urgent", "utilities", "vacation", "vendor", "vet", "video", "videos", "visa",
    "visit", "vitamins", "voucher", "water", "weather", "website", "wedding", "week", "weekend",
    "weekly", "wife", "wine", "withdrawal", "work", "workout", "workshop", "yard", "year", "yearly",
    "yoga",
];

#[rustfmt::skip]
const MID_DROP: &[&str] = &[
    "a", "also", "an", "and", "are", "at", "but", "dear", "for", "he", "hello", "hey", "hi", "him",
    "how", "i", "if", "in", "is", "it", "its", "me", "my", "no", "of", "ok", "okay", "on", "or",
    "our", "please", "she", "so", "thank", "thanks", "that", "their", "them", "then", "they",
    "this", "to", "us", "was", "we", "what", "when", "where", "who", "why", "yes", "you", "your",
];

#[rustfmt::skip]
const ALWAYS_DROP: &[&str] = &[
    "dad", "daddy", "e-mail", "grandma", "grandpa", "internet", "mom", "mommy", "mum", "wi-fi",
];

#[rustfmt::skip]
const TIME_WORDS: &[&str] = &[
    "apr", "april", "aug", "august", "christmas", "dec", "december", "easter", "feb", "february",
    "fri", "friday", "halloween", "jan", "january", "jul", "july", "jun", "june", "mar", "march",
    "may", "midnight", "mon", "monday", "noon", "nov", "november", "oct", "october", "sat",
    "saturday", "sep", "sept", "september", "sunday", "thanksgiving", "thu", "thur", "thurs",
    "thursday", "today", "tomorrow", "tonight", "tue", "tues", "tuesday", "wed", "wednesday",
    "xmas", "yesterday",
];

#[rustfmt::skip]
const ACRONYM_STOP: &[&str] = &[
    "ai", "aka", "am", "api", "apis", "asap", "atm", "aud", "b&b", "bcc", "bst", "btw", "cad", "cc",
    "ceo", "cest", "cet", "cfo", "chf", "cmo", "coo", "cpu", "cst", "csv", "cto", "diy", "dm",
    "dms", "dob", "edt", "eod", "eom", "eow", "est", "eta", "eur", "evp", "faq", "fw", "fwd", "fyi",
    "gbp", "gmt", "gps", "gpu", "hey", "hi", "hr", "html", "id", "idk", "ids", "imho", "imo", "irl",
    "jpy", "json", "kpi", "kpis", "llm", "lmao", "lol", "m&a", "ml", "mst", "mvp", "nb", "no", "np",
    "ok", "okay", "okr", "okrs", "omg", "ooo", "os", "p&l", "pc", "pdf", "pdfs", "pdt", "pin",
    "pls", "plz", "pm", "poc", "pps", "pr", "ps", "pst", "pto", "q&a", "qa", "r&d", "ram", "re",
    "roi", "rsvp", "saas", "sdk", "sla", "sms", "ssd", "ssn", "svp", "tba", "tbd", "tbh", "thx",
    "tl", "tldr", "todo", "tv", "ty", "ui", "url", "urls", "usb", "usd", "utc", "ux", "vp", "vpn",
    "wfh", "wifi", "wtf", "xml", "yes",
];

#[rustfmt::skip]
const HONORIFICS: &[&str] = &[
    "capt", "col", "dame", "dr", "fr", "frau", "gen", "gov", "herr", "hon", "lt", "miss", "mlle",
    "mme", "mr", "mrs", "ms", "mx", "prof", "professor", "rep", "rev", "sen", "sgt", "sir",
];

#[rustfmt::skip]
const ABBREV_JOIN: &[&str] = &[
    "ft", "jr", "mt", "sr", "st",
];

#[rustfmt::skip]
const CONNECTORS: &[&str] = &[
    "bin", "da", "das", "de", "del", "della", "den", "der", "des", "di", "dos", "du", "ibn", "la",
    "le", "of", "the", "van", "von", "y",
];

#[rustfmt::skip]
const ID_CUES: &[&str] = &[
    "account", "acct", "booking", "case", "claim", "confirmation", "customer", "employee", "id",
    "invoice", "item", "member", "no", "num", "number", "order", "package", "parcel", "patient",
    "pnr", "po", "policy", "receipt", "record", "ref", "reference", "reservation", "serial",
    "shipment", "sku", "ticket", "tracking", "transaction",
];

#[rustfmt::skip]
const OBJECT_WORDS: &[&str] = &[
    "a", "all", "an", "back", "both", "each", "every", "her", "him", "his", "it", "its", "me", "my",
    "off", "our", "out", "some", "that", "the", "their", "them", "these", "this", "those", "up",
    "us", "your",
];

#[rustfmt::skip]
const UNITS: &[&str] = &[
    "ago", "am", "bucks", "calls", "day", "days", "dollar", "dollars", "emails", "eur", "euro",
    "euros", "g", "gb", "gbp", "grams", "guests", "hour", "hours", "hr", "hrs", "items", "k", "kg",
    "km", "l", "lb", "lbs", "less", "liters", "litres", "m", "mb", "messages", "mi", "miles", "min",
    "mins", "minute", "minutes", "ml", "month", "months", "more", "nights", "pages", "pct",
    "people", "percent", "persons", "pieces", "pm", "points", "pound", "pounds", "pts", "quid",
    "rooms", "seats", "seconds", "secs", "tb", "tickets", "times", "units", "usd", "week", "weeks",
    "x", "year", "years", "yrs",
];

#[rustfmt::skip]
const TLDS: &[&str] = &[
    "ad", "ae", "agency", "ai", "app", "ar", "at", "au", "be", "biz", "blog", "br", "by", "ca",
    "cc", "ch", "cl", "cloud", "cn", "co", "com", "company", "cz", "de", "design", "dev", "digital",
    "dk", "edu", "ee", "eg", "email", "es", "eu", "fi", "fm", "fr", "gg", "global", "gov", "gr",
    "hk", "hr", "hu", "id", "ie", "il", "in", "info", "int", "io", "is", "it", "jp", "ke", "kr",
    "kz", "li", "life", "live", "lt", "lu", "lv", "ly", "ma", "mc", "me", "mil", "museum", "mx",
    "my", "net", "network", "news", "ng", "nl", "no", "nz", "online", "org", "page", "ph", "pk",
    "pl", "pro", "pt", "qa", "ro", "rs", "ru", "sa", "se", "sg", "sh", "shop", "si", "site", "sk",
    "so", "solutions", "store", "studio", "systems", "tech", "th", "to", "today", "tr", "travel",
    "tv", "tw", "ua", "uk", "us", "vn", "world", "ws", "xyz", "za",
];

#[rustfmt::skip]
const FILE_EXTS: &[&str] = &[
    "7z", "apk", "c", "cfg", "cjs", "conf", "cpp", "cs", "csv", "dmg", "doc", "docx", "eml", "env",
    "epub", "exe", "gif", "go", "gz", "h", "heic", "hpp", "htm", "html", "ics", "ini", "ipa",
    "java", "jpeg", "jpg", "js", "json", "jsx", "key", "lock", "log", "m4a", "md", "mjs", "mov",
    "mp3", "mp4", "msg", "numbers", "ods", "odt", "pages", "pdf", "php", "png", "ppt", "pptx", "py",
    "rar", "rb", "rs", "rtf", "sh", "sql", "svg", "tar", "tgz", "toml", "ts", "tsx", "txt", "vcf",
    "wasm", "wav", "webp", "xls", "xlsx", "xml", "yaml", "yml", "zip",
];

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
    fn identifiers_word_lists_are_sorted_and_lowercase() {
        for list in [
            STARTERS,
            COMMON,
            MID_DROP,
            ALWAYS_DROP,
            TIME_WORDS,
            ACRONYM_STOP,
            HONORIFICS,
            ABBREV_JOIN,
            CONNECTORS,
            ID_CUES,
            OBJECT_WORDS,
            UNITS,
            TLDS,
            FILE_EXTS,
        ] {
            for pair in list.windows(2) {
                assert!(pair[0] < pair[1], "{:?} >= {:?}", pair[0], pair[1]);
            }
            for w in list {
                assert_eq!(w.to_ascii_lowercase(), *w);
                assert!(w.len() <= MAX_LOOKUP_BYTES);
            }
        }
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
        check("Send the NDA to HSBC asap.", &["NDA", "HSBC"]);
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
