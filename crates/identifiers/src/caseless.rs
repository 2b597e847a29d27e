//! Names in text of a script without case (Chinese, Japanese, Korean, Arabic, Hebrew,
//! Devanagari, Thai), where a capital cannot mark them. Three sources, each cheap to rule out:
//! the listed names of names.txt, found inside unspaced text by their first char; Chinese
//! given names after a common family name; Korean names, a family name and two syllables before
//! a particle or title. Positions are byte offsets into the word or token given.

use super::lexicon::{lookup, F_NAME};

/// The longest listed name in chars that is looked for inside unspaced text ("パナソニック").
const MAX_LISTED_CHARS: usize = 6;

fn is_han(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c) || c == '々'
}

fn is_kana(c: char) -> bool {
    ('\u{3040}'..='\u{30ff}').contains(&c)
}

fn is_hangul(c: char) -> bool {
    ('\u{ac00}'..='\u{d7a3}').contains(&c)
}

fn is_thai(c: char) -> bool {
    ('\u{0e00}'..='\u{0e7f}').contains(&c)
}

fn listed(w: &str) -> bool {
    lookup(w) & F_NAME != 0
}

/// Listed names inside a token written without spaces between words (Han, kana, Thai),
/// leftmost and longest first, and Chinese given names after a family name when the token
/// holds no kana (in Japanese the listed family names stand alone).
pub(super) fn names_in_unspaced(token: &str) -> Vec<(usize, usize)> {
    let chars: Vec<(usize, char)> = token.char_indices().collect();
    let end_of = |i: usize| chars.get(i).map_or(token.len(), |&(b, _)| b);
    let chinese = !chars.iter().any(|&(_, c)| is_kana(c)) && chars.iter().any(|&(_, c)| is_han(c));
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let longest = (2..=MAX_LISTED_CHARS.min(chars.len() - i))
            .rev()
            .find(|&n| listed(&token[chars[i].0..end_of(i + n)]));
        if let Some(mut n) = longest {
            // "清华大学", "上海博物馆", "東京ドーム": a place and what stands there.
            let rest = &token[end_of(i + n)..];
            if let Some(suffix) = INSTITUTIONS.iter().find(|s| rest.starts_with(*s)) {
                n += suffix.chars().count();
            }
            found.push((chars[i].0, end_of(i + n)));
            i += n;
            continue;
        }
        if chinese {
            if let Some(n) = chinese_name_at(&chars, i) {
                found.push((chars[i].0, end_of(i + n)));
                i += n;
                continue;
            }
        }
        i += 1;
    }
    found
}

/// What a place's name may run on into: the institution or building there.
const INSTITUTIONS: [&str; 21] = [
    "大学",
    "大學",
    "博物馆",
    "博物館",
    "银行",
    "銀行",
    "医院",
    "病院",
    "机场",
    "空港",
    "ドーム",
    "ホテル",
    "酒店",
    "大厦",
    "公司",
    "集团",
    "研究所",
    "駅",
    "站",
    "電子",
    "电子",
];

/// The most common Chinese family names, less those that mostly begin ordinary words
/// (周 "week", 高 "high", 方 "side", 安 "safe", 文 "text", 于, 万, 常, 白, 钱, 金, 任…).
const FAMILY_NAMES: &str = "王李张刘陈杨黄赵吴徐孙胡朱郭何林罗郑梁宋谢唐韩冯邓曹彭曾萧田董潘袁蔡蒋余杜叶程魏苏吕丁沈姚卢姜崔钟谭陆汪范廖贾夏邹熊孟秦邱薛侯雷龙郝顾毛龚邵";

/// Chars after which a new word begins in running Chinese: the particles, prepositions and
/// common verbs a name is set between ("和张伟去", "张伟说", "是李娜的").
const CLAUSE_CHARS: &str =
    "和跟与同给找叫让问请把被对向由是说在的了去来要也都会就还已不没有很刚等帮发打告见约过到从替";

/// Whether Chinese text holds a particle or common verb: a clause, not a name ("版本是").
pub(super) fn reads_as_clause(w: &str) -> bool {
    w.chars().any(|c| CLAUSE_CHARS.contains(c))
}

/// Words that open with a family name's char but are not names.
const NOT_NAMES: [&str; 12] = [
    "林业",
    "谢谢",
    "韩国",
    "苏州",
    "黄色",
    "黄金",
    "丁点",
    "何时",
    "何况",
    "程序",
    "潘多拉",
    "夏天",
];

/// A Chinese personal name at `chars[i]`: a family name at a word boundary, then one or two
/// chars up to the next particle, verb, time word or the token's end. Its length in chars.
fn chinese_name_at(chars: &[(usize, char)], i: usize) -> Option<usize> {
    let c = |k: usize| chars.get(k).map(|&(_, c)| c);
    let boundary = |k: usize| c(k).is_none_or(|c| !is_han(c) || CLAUSE_CHARS.contains(c));
    let time_word = |k: usize| {
        matches!(
            (c(k), c(k + 1)),
            (
                Some('明' | '今' | '昨' | '前' | '后'),
                Some('天' | '年' | '早' | '晚')
            ) | (
                Some('下' | '上' | '这'),
                Some('周' | '午' | '个' | '次' | '星')
            )
        )
    };
    let ends_name = |k: usize| boundary(k) || time_word(k);
    if !FAMILY_NAMES.contains(c(i)?) || (i > 0 && !boundary(i - 1)) {
        return None;
    }
    let given = |k: usize| c(k).is_some_and(|c| is_han(c) && !CLAUSE_CHARS.contains(c));
    let n = if given(i + 1) && ends_name(i + 2) {
        2
    } else if given(i + 1) && given(i + 2) && !time_word(i + 2) && ends_name(i + 3) {
        3
    } else {
        return None;
    };
    let name: String = chars[i..i + n].iter().map(|&(_, c)| c).collect();
    (!NOT_NAMES.iter().any(|w| name.starts_with(w))).then_some(n)
}

/// What follows a Korean name: the particles ("김민준이", "부산에서") and the title 씨.
const KOREAN_PARTICLES: [&str; 18] = [
    "에게서",
    "에서",
    "에게",
    "한테",
    "이랑",
    "으로",
    "까지",
    "부터",
    "에",
    "은",
    "는",
    "이",
    "가",
    "을",
    "를",
    "와",
    "과",
    "랑",
];

/// The most common Korean family names that seldom begin an ordinary word.
const KOREAN_FAMILY_NAMES: &str = "김박최윤임황";

/// A Korean word that names something: a listed name ("서울에"), or a family name and two
/// syllables before a particle ("박지현이"). The name's length in bytes.
pub(super) fn korean_name(word: &str) -> Option<usize> {
    if !word.starts_with(is_hangul) {
        return None;
    }
    let stripped = KOREAN_PARTICLES
        .iter()
        .find_map(|p| word.strip_suffix(p).filter(|s| s.chars().count() >= 2));
    let stem = stripped.unwrap_or(word);
    if listed(stem) {
        return Some(stem.len());
    }
    let mut syllables = stem.chars();
    let person = stripped.is_some()
        && stem.chars().count() == 3
        && syllables.all(is_hangul)
        && KOREAN_FAMILY_NAMES.contains(stem.chars().next()?);
    person.then_some(stem.len())
}

/// Arabic words that begin with the article but name no one ("next week", "the hour").
const ARABIC_NOT_SURNAMES: [&str; 6] = ["الأسبوع", "الساعة", "اليوم", "القادم", "الماضي", "الآن"];

/// A listed name in a spaced script (Arabic, Hebrew, Devanagari, Thai) at the start of
/// `rest` ("محمد العلي سيزور…", "प्रिया शर्मा ने…"), with the word after it when that is a
/// listed name too or, in Arabic, a family name with the article. Arabic's one-letter
/// prefixes ("و", "ب", "ل") are not part of the name. The name's byte range in `rest`.
pub(super) fn spaced_name(rest: &str) -> Option<(usize, usize)> {
    let word_len = |s: &str| {
        s.find(|c: char| !c.is_alphabetic() && !super::is_mark(c) && !super::is_indic_sign(c))
    };
    let first = &rest[..word_len(rest).unwrap_or(rest.len())];
    let start = if listed(first) {
        0
    } else {
        let prefixed = first
            .strip_prefix(['و', 'ب', 'ل', 'ف'])
            .filter(|w| listed(w))?;
        first.len() - prefixed.len()
    };
    let mut end = first.len();
    if let Some(next) = rest[end..].strip_prefix(' ') {
        let second = &next[..word_len(next).unwrap_or(next.len())];
        let arabic_family = second.starts_with("ال")
            && second.chars().count() >= 4
            && !ARABIC_NOT_SURNAMES.contains(&second);
        if !second.is_empty()
            && !is_thai(second.chars().next()?)
            && (listed(second) || arabic_family)
        {
            end += 1 + second.len();
        }
    }
    Some((start, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unspaced(token: &str) -> Vec<&str> {
        names_in_unspaced(token)
            .into_iter()
            .map(|(s, e)| &token[s..e])
            .collect()
    }

    #[test]
    fn chinese_given_names_after_a_family_name() {
        assert_eq!(unspaced("张伟说北京的办公室下个月搬家"), ["张伟", "北京"]);
        assert_eq!(unspaced("我下周和张伟去杭州出差"), ["张伟", "杭州"]);
        assert_eq!(unspaced("张伟明天去上海开会"), ["张伟", "上海"]);
        assert_eq!(unspaced("帮我记住是李娜的卡"), ["李娜"]);
        assert_eq!(
            unspaced("候选人陈晓明"),
            Vec::<&str>::new(),
            "no word boundary before 陈"
        );
        assert_eq!(unspaced("谢谢你"), Vec::<&str>::new());
        assert_eq!(unspaced("下周去"), Vec::<&str>::new());
    }

    #[test]
    fn listed_names_run_on_into_the_institution_there() {
        assert_eq!(unspaced("候选人毕业于清华大学"), ["清华大学"]);
        assert_eq!(unspaced("田中さんと東京ドームで"), ["田中", "東京ドーム"]);
        // In Japanese a family name stands alone; Chinese given names are not looked for.
        assert_eq!(unspaced("鈴木です"), ["鈴木"]);
        assert_eq!(unspaced("林さんと"), Vec::<&str>::new());
    }

    #[test]
    fn korean_names_before_particles() {
        assert_eq!(korean_name("서울에"), Some("서울".len()));
        assert_eq!(korean_name("박지현이"), Some("박지현".len()));
        assert_eq!(korean_name("김민준에게"), Some("김민준".len()));
        assert_eq!(
            korean_name("박지현"),
            None,
            "no particle: could be any word"
        );
        assert_eq!(korean_name("이번에"), None);
        assert_eq!(korean_name("회의록을"), None);
    }

    #[test]
    fn names_in_spaced_scripts() {
        let name = |text: &'static str| spaced_name(text).map(|(s, e)| &text[s..e]);
        assert_eq!(name("محمد العلي سيزور مكتب دبي"), Some("محمد العلي"));
        assert_eq!(name("سارة الأسبوع القادم"), Some("سارة"));
        assert_eq!(name("وأحمد"), Some("أحمد"));
        assert_eq!(name("प्रिया शर्मा ने कहा"), Some("प्रिया शर्मा"));
        assert_eq!(name("प्रिया की शादी"), Some("प्रिया"));
        assert_eq!(name("נועה כהן מצטרפת"), Some("נועה כהן"));
        assert_eq!(name("הפגישה עם"), None);
    }
}
