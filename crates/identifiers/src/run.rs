//! A run of name words becomes a span: where it starts and ends (openers, roles, titles, particles
//! that say where someone is from), what it may not be (a heading, a team, a slot of a series) and
//! the output it joins (duplicates dropped).

use super::*;

impl<'a> Scanner<'a> {
    /// Ends the run, outputting the name it spells. Nothing to flush (the usual case, several
    /// times a token) is decided inline, without a call.
    #[inline(always)]
    pub(super) fn flush(&mut self) {
        self.poss = None;
        if self.run.is_empty() && !self.overflow {
            self.run_words = 0;
            return;
        }
        self.flush_run();
    }

    #[inline(never)]
    pub(super) fn flush_run(&mut self) {
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
    pub(super) fn particle_split(&self, s: usize, e: usize) -> Option<(usize, usize)> {
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

    /// "404 Not Found", "503 Service Unavailable": the run is English words after an HTTP
    /// status code (read as a house number, "42 Elm Street", and so in the run).
    fn http_status_phrase(&self) -> bool {
        let [El::Ord { start, .. }, words @ ..] = self.run.as_slice() else {
            return false;
        };
        let code = self.bytes.get(*start..start + 4).is_some_and(|c| {
            matches!(c[0], b'1'..=b'5') && c[1..3].iter().all(u8::is_ascii_digit) && c[3] == b' '
        });
        code && !words.is_empty()
            && words
                .iter()
                .all(|e| self.is_english_cap_word(e, F_COMMON | F_STARTER))
    }

    /// The name the current run spells, if any, as a byte range.
    pub(super) fn run_span(&self) -> Option<(usize, usize)> {
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
                    || (w.has(F_GIVEN)
                        && w.sent_init
                        && (self.person_acts_after(w.end, true) || self.action_owner(w))));
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
            // "The Head of Finance asked": the article or opener before the title aside.
            if let El::Word(w) = e {
                if w.is_dropped_prefix() && !roles {
                    continue;
                }
                roles = w.kind == Kind::Cap && w.has(F_ROLE);
                if !roles {
                    break;
                }
            }
        }
        if roles || self.names_a_team() || self.http_status_phrase() {
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
                                && self.is_english_or_plural(self.slice(w.start, w.end))
                                && !(w.flags == 0
                                    && (self.says_or_owns_after(w.end)
                                        || self.person_label_before(w.start)
                                        || self.name_pair_follows(w.end))))
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
    pub(super) fn occasion_words(&self) -> usize {
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
    pub(super) fn names_a_team(&self) -> bool {
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
    pub(super) fn is_english_cap_word(&self, e: &El, known: u32) -> bool {
        matches!(e, El::Word(w) if w.kind == Kind::Cap
            && (w.has(known) || is_english_cap(self.slice(w.start, w.end))))
    }

    /// Whether "and" and a name the filter does not take for a word follow byte `p` ("Olu and
    /// Temi are coming"): the word before is a name of the same kind ("Apples and Oranges",
    /// "Sales and Marketing" are words).
    fn name_pair_follows(&self, p: usize) -> bool {
        // The space after the conjunction.
        let at = if self.bytes.get(p..p + 5) == Some(b" and ") {
            p + 4
        } else if self.bytes.get(p..p + 3) == Some(b" & ") {
            p + 2
        } else {
            return false;
        };
        let next = self.word_after(at);
        let flags = lookup(next);
        next.starts_with(char::is_uppercase)
            && (flags & (F_NAME | F_GIVEN) != 0
                || (flags == 0
                    && !is_english_word(next)
                    && !next.strip_suffix('s').is_some_and(is_english_word)))
    }

    /// Whether a label that names a person ends right before `start` ("**Owner:** Farrukh",
    /// "Assignee: Olu"): the word after it is someone, whatever the English filter says.
    fn person_label_before(&self, start: usize) -> bool {
        // The colon, past markdown's emphasis and spaces; most words have none before them.
        let colon = self.bytes[..start]
            .iter()
            .rposition(|b| !matches!(b, b' ' | b'*' | b'_'));
        let Some(colon) = colon.filter(|&c| self.bytes[c] == b':') else {
            return false;
        };
        let label = self.slice(0, colon).trim_end_matches(['*', '_', ' ']);
        let word = label
            .rsplit(|c: char| !c.is_ascii_alphabetic())
            .next()
            .unwrap_or("");
        [
            "owner",
            "owners",
            "assignee",
            "lead",
            "dri",
            "contact",
            "reporter",
            "reviewer",
            "approver",
            "author",
            "host",
            "presenter",
            "speaker",
            "attendees",
            "present",
            "cc",
        ]
        .iter()
        .any(|l| word.eq_ignore_ascii_case(l))
    }

    pub(super) fn push_span(&mut self, start: usize, end: usize) {
        if let Some(s) = self.text.get(start..end) {
            self.push_out(s);
        }
    }

    pub(super) fn push_out(&mut self, s: &'a str) {
        if self.full() {
            return;
        }
        if self.recent_spellings.iter().any(|r| same_word(r, s)) {
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
fn leading_number_fits(rest: &[El], street: bool) -> bool {
    match rest.first() {
        Some(El::Word(w)) if !w.is_dropped_prefix() => {
            !street || matches!(rest.last(), Some(El::Word(last)) if last.has(F_STREET))
        }
        _ => false,
    }
}
