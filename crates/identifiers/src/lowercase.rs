//! Names typed in lowercase: a listed name, a name after a cue ("ask", "with", "watched", a
//! relation), an unknown word that says or owns something, a surname after a lowercase honorific.

use super::*;

impl<'a> Scanner<'a> {
    /// Whether the message is typed in lowercase: its first word has no capital and the
    /// pronoun "I" is not written as one. Its writer does not capitalise, so names come in
    /// lowercase too ("dinner at dishoom with funmi").
    pub(super) fn casual(&mut self) -> bool {
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
    pub(super) fn unlisted_lowercase_name(&mut self, w: &str, b: usize) -> bool {
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
        // "watched oppenheimer", "playing silksong": what one watches, reads or plays is a
        // work.
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
        let slot = listed
            || work
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
                    // "my gym is puregym", "the router is a netgear"; not "is refundable",
                    // "is busted": what something is may be said of it.
                    | "is"
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
            )
            // "my flatmate wojtek", "our dog biscuit": a person (or a pet) by their relation
            // to someone ("dentist appt", "the dog walker" are no such slot).
            || (lookup(cue) & F_RELATION != 0
                && matches!(
                    self.word_before(cs),
                    "my" | "our" | "your" | "his" | "her" | "their"
                ));
        if !slot {
            return false;
        }
        if !is_unknown_lowercase(w) {
            return self.plain_words_name_a_place(w, b, cue);
        }
        if cue == "is"
            && [
                "ed", "able", "ible", "ful", "ous", "ive", "less", "ish", "ing", "al",
            ]
            .iter()
            .any(|e| w.ends_with(e))
        {
            return false;
        }
        // The next three words, each after one space: a name runs on over unknown words, and
        // over ordinary ones when a place noun closes it ("riverside family clinic"). Read
        // one at a time: most names end at the next word.
        let mut end = b + w.len();
        let (mut at, mut unknown_run) = (end, true);
        for k in 0..3 {
            let next = self.word_after(at);
            if next.is_empty() {
                break;
            }
            let flags = lookup(next);
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
                && next.len() >= 2
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

    /// Where a place's noun ends that follows byte `p` after at most one plain word the
    /// lexicon does not know, all in lowercase ("leeds road", "victoria palace theatre",
    /// "phoenix mall"; "bright spark electrical" after "bright").
    fn place_noun_end(&self, p: usize) -> Option<usize> {
        let mut at = p;
        for _ in 0..2 {
            let next = self.word_after(at);
            let flags = lookup(next);
            at += 1 + next.len();
            if next.is_empty() || !next.bytes().all(|c| c.is_ascii_lowercase()) {
                return None;
            }
            if flags & (F_STREET | F_PLACE_NOUN) != 0 {
                return (!self.bytes.get(at).is_some_and(u8::is_ascii_alphanumeric)).then_some(at);
            }
            if flags != 0 {
                return None;
            }
        }
        None
    }

    /// "at smile studio", "on old kent road", "from riverside vets": after a place's
    /// preposition, one or two plain words the lexicon does not know, then a place's noun,
    /// name the place (emitted). "at the studio", "at city hall" have an article or a word
    /// the lexicon knows.
    fn plain_words_name_a_place(&mut self, w: &str, b: usize, cue: &str) -> bool {
        if !matches!(cue, "at" | "from" | "near" | "on" | "called" | "via")
            || lookup(w) != 0
            || !w.bytes().all(|c| c.is_ascii_lowercase())
        {
            return false;
        }
        let Some(end) = self.place_noun_end(b + w.len()) else {
            return false;
        };
        self.emit_id(b, end);
        self.taken_end = end;
        self.lowercase_name_end = end;
        true
    }

    /// The end of an unlisted lowercase name at `b..end` with its 's when it names a shop: after
    /// a place's preposition, before a function word or the clause's end ("from gail's to my
    /// list", "at addenbrooke's on the 9th"; "dani's bday" is someone's).
    pub(super) fn shop_possessive_end(&self, b: usize, end: usize) -> usize {
        let rest = self.slice(end, self.bytes.len());
        let Some(after) = rest.strip_prefix("'s").or_else(|| rest.strip_prefix("’s")) else {
            return end;
        };
        let poss_end = end + (rest.len() - after.len());
        let owns_nothing = if after.starts_with(' ') {
            lookup(self.word_after(poss_end)) & (F_MID_DROP | F_TIME) != 0
        } else {
            !after.starts_with(char::is_alphanumeric)
        };
        let at_place = matches!(
            self.word_before(b),
            "at" | "from" | "to" | "into" | "near" | "outside"
        );
        if owns_nothing && at_place {
            poss_end
        } else {
            end
        }
    }

    /// The first letters of the lexicon's `says` verbs (a unit test checks): most words are
    /// ruled out before a lookup.
    pub(super) const SAYS_INITIALS: [char; 10] = ['s', 't', 'a', 'w', 'r', 'g', 'k', 'l', 'h', 'm'];

    /// Whether what follows byte `p` is a possessive ('s and a word) or a verb a person does
    /// ("said", "grew up", "keeps"): read in lowercase messages after an unknown word.
    pub(super) fn says_or_owns_after(&self, p: usize) -> bool {
        // A space, an apostrophe or a curly one's first byte: nothing else can follow.
        if !matches!(self.bytes.get(p), Some(b' ' | b'\'' | 0xE2)) {
            return false;
        }
        let rest = self.slice(p, self.bytes.len());
        if ["'s ", "’s "].iter().any(|s| rest.starts_with(s)) {
            return true;
        }
        let verb = self.word_after(p);
        verb.starts_with(Self::SAYS_INITIALS) && lookup(verb) & F_SAYS != 0
    }

    /// Whether the word at `b` follows a lowercase honorific ("dr. okafor", "mrs kowalski").
    pub(super) fn after_lowercase_honorific(&self, b: usize) -> bool {
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
    pub(super) fn listed_phrase_end(&self, start: usize, mut end: usize) -> Option<usize> {
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

    /// A lowercase word at `b` that names something: a family name after "dr.", a listed name
    /// or the first word of one (`named`: it may be listed). Emits it and returns true.
    #[inline(never)]
    pub(super) fn lowercase_name(&mut self, w: &'a str, b: usize, named: bool) -> bool {
        let end = b + w.len();
        if self.after_lowercase_honorific(b)
            && lookup(w) & (F_STARTER | F_COMMON | F_MID_DROP | F_TIME | F_HONORIFIC) == 0
        {
            // "dr. okafor", "ms. carter": a family name typed in lowercase; "dr amira
            // haddad": a given name and an unknown word after it, the whole name.
            let next = self.word_after(end);
            let end = if is_unknown_lowercase(next) {
                end + 1 + next.len()
            } else {
                end
            };
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
            // "ask priya", "flight to lisbon": a listed name typed in lowercase; "olivia
            // rodrigo": two listed names in a row are one.
            let next = self.word_after(end);
            let listed = next.starts_with(char::is_lowercase)
                && lookup(next) & (F_NAME | F_STARTER | F_COMMON | F_MID_DROP) == F_NAME;
            let end = if listed { end + 1 + next.len() } else { end };
            let end = self.place_noun_end(end).unwrap_or(end);
            self.emit_id(b, end);
            self.lowercase_name_end = end;
            self.taken_end = end;
            return true;
        }
        false
    }
}
