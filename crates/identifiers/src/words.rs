//! Word predicates: English words (the lexicon and the bit filter of common words), names
//! that are words, particles, verb forms, possessives, and a line's case.

use crate::chars::is_wordish;
use crate::lexicon::{
    is_english_word, lookup, F_COMMON, F_CONNECTOR, F_GIVEN, F_MID_DROP, F_NAME, F_NAME_PREFIX,
    F_OBJECT, F_STARTER, F_TIME,
};

/// Whether a line is shouted (no lowercase letter, a dozen capitals or more) or has every
/// word capitalised, two function words ("Is", "For", "The": the lexicon's) or more among
/// them (five words or more). Reads up to the line's end, and stops as soon as the line is
/// neither.
pub(super) fn is_case_blind(text: &str) -> bool {
    let (mut capitals, mut shouted) = (0, true);
    let (mut words, mut function_words, mut title_cased) = (0, 0, true);
    let mut word_start = None;
    for (i, c) in text.char_indices() {
        if c == '\n' {
            break;
        }
        let part = c.is_alphanumeric() || c == '\'' || c == '’';
        match (part, word_start) {
            (true, None) => {
                word_start = Some(i);
                if c.is_alphabetic() {
                    words += 1;
                    title_cased &= c.is_uppercase();
                }
            }
            (false, Some(s)) => {
                word_start = None;
                let flags = if words > 1 { lookup(&text[s..i]) } else { 0 };
                function_words += usize::from(
                    flags & (F_MID_DROP | F_CONNECTOR | F_STARTER) != 0
                        && flags & (F_NAME | F_GIVEN) == 0,
                );
            }
            _ => {}
        }
        if part {
            // Letters of scripts without case ("LINEで中村さんから…") shout nothing.
            shouted &= !c.is_lowercase();
            capitals += usize::from(c.is_uppercase());
        }
        if !shouted && !title_cased {
            return false;
        }
    }
    (shouted && capitals >= 12) || (title_cased && words >= 5 && function_words >= 2)
}

/// Combining marks (decomposed accents) count as part of a word.
#[inline(always)]
/// "and" (or "with") in languages whose sentences may open with two names joined by it:
/// "Kasia i Tomek", "Pegasus ile İzmir".
pub(super) fn is_conjunction(w: &str) -> bool {
    matches!(
        w,
        "i" | "y"
            | "e"
            | "et"
            | "und"
            | "ile"
            | "ve"
            | "và"
            | "dan"
            | "og"
            | "och"
            | "és"
            | "ja"
            | "oraz"
            | "ou"
            | "o"
            | "и"
            | "и́"
    )
}

/// A romanised Korean or Chinese given name of two syllables joined by a hyphen ("Sun-hee",
/// "Wei-ting", "Ji-soo"), not a compound of English words ("Hip-hop", "Pop-up").
pub(super) fn is_romanised_given_name(w: &str) -> bool {
    let Some((head, tail)) = w.split_once('-') else {
        return false;
    };
    let syllable = |p: &str| {
        let p = p.as_bytes();
        let vowel = |c: &&u8| matches!(c.to_ascii_lowercase(), b'a' | b'e' | b'i' | b'o' | b'u');
        let onset = p.iter().take_while(|c| !vowel(c)).count();
        let vowels = p[onset..].iter().take_while(vowel).count();
        let coda = &p[onset + vowels..];
        (1..=4).contains(&p.len())
            && onset <= 2
            && (1..=3).contains(&vowels)
            && matches!(coda, b"" | b"n" | b"ng" | b"m" | b"k" | b"l")
    };
    // The head's capital is read as lowercase (the filter hashes words in lowercase).
    head.starts_with(|c: char| c.is_ascii_uppercase())
        && head[1..].bytes().all(|c| c.is_ascii_lowercase())
        && tail.bytes().all(|c| c.is_ascii_lowercase())
        && syllable(head)
        && syllable(tail)
        && lookup(tail) == 0
        && !(is_english_word(head) && is_english_word(tail))
}

/// A capitalised word that prose writes in lowercase: a function word, a common English word,
/// not a name ("Me", "Mood", "Dance"; not "Tim", "ABBA", "Monday").
pub(super) fn is_ordinary_cap(w: &str) -> bool {
    let b = w.as_bytes();
    let flags = lookup(w);
    b.len() >= 2
        && b[0].is_ascii_uppercase()
        && b[1].is_ascii_lowercase()
        && flags & (F_NAME | F_GIVEN | F_TIME) == 0
        && (flags & (F_MID_DROP | F_STARTER | F_COMMON | F_OBJECT) != 0 || is_english_ascii(w))
}

/// A lowercase word of three letters or more that is neither in the lexicon nor a common
/// English word or its plural ("deposits", "sisters"): in a message typed in lowercase, a name
/// where a name may stand.
pub(super) fn is_unknown_lowercase(w: &str) -> bool {
    w.len() >= 3
        && w.chars().all(|c| c.is_alphabetic() && c.is_lowercase())
        // "keanu" of "keanu_reeves": the first word of a listed name is known no better.
        && lookup(w) & !F_NAME_PREFIX == 0
        && !is_english_word(w)
        && !w
            .strip_suffix('s')
            .is_some_and(|stem| lookup(stem) != 0 || is_english_word(stem))
}

/// Whether a capitalised word is, in lowercase, a common English word and no listed name
/// ("Wind", "Mice"; not "Paris", "Priya").
pub(super) fn is_english_cap(w: &str) -> bool {
    lookup(w) & (F_NAME | F_GIVEN) == 0 && is_english_ascii(w)
}

/// Whether a lowercase word is a common English word or one of its inflections ("hosts",
/// "resolved", "picking"; not "indexer", "deployer": a service's name is often such a word).
pub(super) fn is_english_inflected(w: &str) -> bool {
    is_english_word(w)
        || ["s", "es", "d", "ed", "ing"].iter().any(|e| {
            w.strip_suffix(e)
                .is_some_and(|stem| stem.len() >= 3 && (is_english_word(stem) || lookup(stem) != 0))
        })
}

/// Whether an ASCII word is, in lowercase, a common English word.
pub(super) fn is_english_ascii(w: &str) -> bool {
    w.is_ascii() && is_english_word(w)
}

/// A particle of Romance, Dutch or German names and places: "de", "da", "van der".
pub(super) fn is_name_particle(w: &str) -> bool {
    matches!(
        w,
        "de" | "da"
            | "do"
            | "dos"
            | "das"
            | "del"
            | "della"
            | "di"
            | "du"
            | "des"
            | "van"
            | "von"
            | "der"
            | "den"
            | "la"
            | "le"
    )
}

/// "der", "Die", "einen": a German article (German capitalises the nouns after one).
pub(super) fn is_german_article(w: &str) -> bool {
    const ARTICLES: [&str; 12] = [
        "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "eines",
    ];
    // "in deiner Zeitzone", "mit meinem Chef", "unsere Wohnung", "keine Ahnung": a
    // possessive's or "kein" is an article too.
    const STEMS: [&str; 8] = [
        "mein", "dein", "sein", "ihr", "unser", "euer", "eur", "kein",
    ];
    let b = w.as_bytes();
    if !matches!(b.len(), 3..=7)
        || !matches!(b[0] | 0x20, b'd' | b'e' | b'm' | b's' | b'i' | b'u' | b'k')
    {
        return false;
    }
    ARTICLES.iter().any(|a| w.eq_ignore_ascii_case(a))
        || STEMS.iter().any(|stem| {
            b.len() >= stem.len()
                && b[..stem.len()].eq_ignore_ascii_case(stem.as_bytes())
                && matches!(&b[stem.len()..], b"" | b"e" | b"en" | b"em" | b"er" | b"es")
                && b != b"eur"
        })
}

/// A capitalised word that reads as a verb form opening a sentence: "Running late",
/// "Comparing Asana", "Agreed with", "Hired two". Names with these endings ("Beijing",
/// "Ahmed", "Saeed", "Khaled", "Alfred") are kept.
#[inline(always)]
pub(super) fn is_verb_form(w: &str) -> bool {
    let b = w.as_bytes();
    if b.len() < 5 || !matches!(b[b.len() - 1], b'g' | b'd' | b'G' | b'D') || !w.is_ascii() {
        return false;
    }
    // "Mei-Ling", "Wei-Ming": a part capitalised after a hyphen is a name's.
    if b.windows(2)
        .any(|p| p[0] == b'-' && p[1].is_ascii_uppercase())
    {
        return false;
    }
    let ends = |suffix: &str| {
        b.get(b.len().saturating_sub(suffix.len())..)
            .is_some_and(|tail| tail.eq_ignore_ascii_case(suffix.as_bytes()))
    };
    let names_ed = ["eed", "med", "fred", "dred", "aled"];
    // "Bring", "String": no vowel before the -ing, no verb form.
    let stem_has_vowel = b[..b.len() - 3].iter().any(|c| b"aeiouyAEIOUY".contains(c));
    // "Everything", "Nothing": a pronoun.
    (ends("ing") && !ends("jing") && !ends("thing") && stem_has_vowel)
        || (b.len() >= 6 && ends("ed") && !names_ed.iter().any(|n| ends(n)))
}

/// "Dunkin'", "Lovin'": a capitalised word whose final g is an apostrophe.
pub(super) fn is_g_dropping(w: &str) -> bool {
    if !matches!(w.as_bytes().last(), Some(b'\'' | 0x99)) {
        return false;
    }
    let base = w.strip_suffix('\'').or_else(|| w.strip_suffix('’'));
    base.is_some_and(|b| {
        b.len() >= 4
            && b.ends_with("in")
            && b.chars().next().is_some_and(char::is_uppercase)
            && b.chars().all(char::is_alphabetic)
    })
}

/// Months that are also given names ("May Lin", "June Carter").
pub(super) fn is_name_like_month(w: &str) -> bool {
    ["april", "may", "june", "jun", "august"]
        .iter()
        .any(|m| w.eq_ignore_ascii_case(m))
}

pub(super) fn strip_possessive(w: &str) -> (&str, bool) {
    let b = w.as_bytes();
    let apostrophe = b.len() >= 2 && matches!(b[b.len() - 2], b'\'' | 0x99);
    if !apostrophe || !matches!(b.last(), Some(b's' | b'S')) {
        return (w, false);
    }
    // "'s" or "’s" (E2 80 99), in either case.
    let cut = if b[b.len() - 2] == b'\'' {
        2
    } else if b.len() >= 4 && b[b.len() - 4..b.len() - 2] == [0xE2, 0x80] {
        4
    } else {
        return (w, false);
    };
    match w.get(..w.len() - cut) {
        Some(base) if base.chars().next_back().is_some_and(is_wordish) => (base, true),
        _ => (w, false),
    }
}

/// A verb of speech of another language, after a sentence's first word: that word is someone
/// ("Ольга сказала", "Kasia mówi", "María dijo"). Russian by its stem (gender and aspect
/// endings vary), the others as written.
pub(super) fn speech_verb(w: &str) -> bool {
    const RUSSIAN: [&str; 10] = [
        "сказал",
        "просил",
        "попросил",
        "посоветовал",
        "написал",
        "спросил",
        "говорит",
        "пишет",
        "предложил",
        "напомнил",
    ];
    matches!(
        w,
        "dice"
            | "dijo"
            | "disse"
            | "diz"
            | "dit"
            | "sagt"
            | "meint"
            | "zegt"
            | "zei"
            | "mówi"
            | "powiedział"
            | "powiedziała"
            | "söyledi"
            | "dedi"
            | "anasema"
            | "alisema"
            | "bilang"
            | "nói"
    ) || RUSSIAN.iter().any(|v| w.starts_with(v))
}

/// `a == b` for the memos of the last word asked: inlined, because in wasm `==` on slices is a
/// call to `memcmp`, a byte loop, for words mostly a few bytes long.
#[inline(always)]
pub(super) fn same_word(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}
