//! Names in scripts without case (Han, kana, Hangul, Thai, Arabic, Hebrew, Devanagari): what the
//! scanner asks of a word written in one. The scripts' own facts (listed names, endings, titles)
//! are in `caseless.rs`.

use super::*;

impl<'a> Scanner<'a> {
    /// A word of a script without case (see `alnum`): a short word set among Latin words names
    /// something ("Meeting with 王小明 in 東京"); within text of its own script, a title, a
    /// listed name or a name's shape does (`caseless.rs`). Each script is asked only what
    /// applies to it. Out of line: it keeps `alnum`, which every word passes through, small.
    #[inline(never)]
    pub(super) fn caseless_word(&mut self, w: &'a str, b: usize) {
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

    /// Names in a word of Chinese, Japanese or Thai, which run words together: before a
    /// title ("田中さんと京都で": 田中; "佐藤様", "王老师", "คุณวิภา"); else the word as a whole
    /// when it is set among Latin words (`caseless_name`); and the listed names and Chinese
    /// given names inside it (`caseless::names_in_unspaced`: 京都). Emits each, in order, and
    /// returns whether there was one.
    pub(super) fn unspaced_names(&mut self, w: &str, b: usize) -> bool {
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
    pub(super) fn korean_names(&mut self, w: &str, b: usize) -> bool {
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
    pub(super) fn spaced_names(&mut self, w: &str, b: usize) -> bool {
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
    pub(super) fn arabic_words_after(&self, p: usize, most: usize) -> Option<(usize, usize)> {
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
    pub(super) fn caseless_name(&self, w: &str, b: usize) -> Option<usize> {
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
}
