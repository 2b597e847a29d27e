//! Titles of works: when capitalised ordinary words, articles and prepositions make one name
//! ("The Lord of the Rings", "Of Mice and Men", "Harry Potter and the Philosopher's Stone").

use super::*;

impl<'a> Scanner<'a> {
    /// The run is a title opened by a capitalised "The" inside a sentence ("reading The
    /// Catcher in the Rye"), where lowercase prepositions and articles join the words.
    pub(super) fn title_mode(&self) -> bool {
        if self.title_run {
            return true;
        }
        // "after Gone with the Wind", "rewatching What We Do in the Shadows": an ordinary word
        // capitalised inside a sentence opens a title.
        if let Some(El::Word(w)) = self.run.first() {
            if w.kind == Kind::Cap
                && !w.sent_init
                && !w.has(F_GIVEN | F_NAME)
                && (w.has(F_COMMON | F_STARTER) || self.is_english(self.slice(w.start, w.end)))
            {
                return true;
            }
            // "or A Farewell to Arms", "is Can't Help Falling in Love": so do a capital "A"
            // and a contraction.
            if !w.sent_init
                && ((w.kind == Kind::Initial && self.bytes[w.start] == b'A')
                    || w.has(F_CONTRACTION))
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
    pub(super) fn title_case_opening(
        &self,
        start: usize,
        end: usize,
        first_flags: u32,
    ) -> Option<usize> {
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
                    // "Saw Past Lives at …": an irregular past tense (`is_verb_form` reads -ed).
                    | "Saw"
                    | "Read"
                    | "Heard"
                    | "Got"
                    | "Bought"
                    | "Found"
                    | "Lent"
                    | "Took"
            );
        Some(if outside { end + 1 } else { start })
    }

    /// "in", "to", "on", "at" after a title word; "a", "an" after such a preposition or "of".
    /// `end`: where `w` ends.
    pub(super) fn try_title_joiner(&mut self, w: &str, end: usize) -> bool {
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
        // "Past Lives at the Odeon": "at the" says where a work is seen, not inside its title
        // ("Everything Everywhere All at Once" still joins).
        if w == "at" && self.word_after(end) == "the" {
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
    pub(super) fn the_title_follows(&self, p: usize) -> bool {
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

    /// Whether the run is one capitalised word inside a sentence and, after the "and" ending
    /// at `p`, one more comes before a lowercase word or punctuation, neither a known name and
    /// one of them an abstract noun by its ending (-ice, -ment, -ness, -tion, -ity…).
    pub(super) fn abstract_pair_follows(&self, p: usize) -> bool {
        let [El::Word(first)] = self.run.as_slice() else {
            return false;
        };
        if first.kind != Kind::Cap || first.has(F_GIVEN | F_NAME) {
            return false;
        }
        let opens_sentence = first.sent_init;
        let second = self.word_after(p);
        let after = self.slice(p + 1 + second.len(), self.bytes.len());
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
    pub(super) fn ordinary_cap_follows(&self, p: usize) -> bool {
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
    pub(super) fn run_opens_with_preposition(&self) -> bool {
        matches!(self.run.first(), Some(El::Word(w))
            if !w.sent_init && is_title_preposition(self.slice(w.start, w.end)))
    }

    /// Whether `w`, a capitalised "The" or "A" before the run's `rest`, is a title's first
    /// word: "A" before a name with "of" in it, "The" before one with "of the" in it ("The
    /// Bank of America" stays "Bank of America").
    pub(super) fn opens_title(&self, w: &Word, rest: &[El]) -> bool {
        let of = |e: &El| matches!(e, El::Conn { of: true, .. });
        match self.slice(w.start, w.end) {
            // "processional is A Thousand Years": inside a sentence, a capital article opens
            // a title whatever follows.
            "A" | "An" if !w.sent_init => matches!(rest.first(), Some(El::Word(_))),
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
}

/// A preposition that, capitalised inside a sentence, opens a title ("Of Mice and Men").
fn is_title_preposition(w: &str) -> bool {
    matches!(w, "Of" | "In" | "On" | "To" | "For" | "With" | "At")
}
