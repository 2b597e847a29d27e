//! Names in text of a script without case (Chinese, Japanese, Korean, Arabic, Persian, Urdu,
//! Hebrew, Devanagari, Thai), where no capital marks them. Three sources, each cheap to rule
//! out: the listed names of names.txt, found inside unspaced text by a filter of their first
//! two chars and in spaced text after a one-letter prefix ("בתל אביב", "وأحمد"); Chinese given
//! names after a common family name, between particles and verbs; Korean names, a family name
//! and two syllables before a particle. Positions are byte offsets into the word or token given.
//! The scanner (`Scanner::caseless_word`) adds the titles and the words set among Latin ones.

use super::lexicon::{lookup_caseless, lookup_phrase, may_open_name, F_NAME, F_NAME_PREFIX};

fn is_han(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c) || c == '々'
}

pub(super) fn is_kana(c: char) -> bool {
    ('\u{3040}'..='\u{30ff}').contains(&c)
}

pub(super) fn is_hangul(c: char) -> bool {
    ('\u{ac00}'..='\u{d7a3}').contains(&c)
}

pub(super) fn is_thai(c: char) -> bool {
    ('\u{0e00}'..='\u{0e7f}').contains(&c)
}

/// Whether `w` is in names.txt. These scripts have no case: the word is looked up as it is.
fn listed(w: &str) -> bool {
    lookup_caseless(w) & F_NAME != 0
}

/// The length in bytes of the longest listed name `rest` opens with (two chars or more), if
/// any: one lookup a char while what is read so far opens a longer listed name.
pub(super) fn listed_prefix(rest: &str) -> Option<usize> {
    let mut chars = rest.char_indices();
    let (Some((_, a)), Some((_, b))) = (chars.next(), chars.next()) else {
        return None;
    };
    if !may_open_name(a, b) {
        return None;
    }
    let mut longest = None;
    for end in chars.map(|(i, _)| i).chain(std::iter::once(rest.len())) {
        let flags = lookup_caseless(&rest[..end]);
        if flags & F_NAME != 0 {
            longest = Some(end);
        }
        if flags & F_NAME_PREFIX == 0 {
            break;
        }
    }
    longest
}

/// Listed names inside a token written without spaces between words (Han, kana, Thai),
/// leftmost and longest first, and Chinese given names after a family name when the token
/// holds no kana (in Japanese the listed family names stand alone). Pushed onto `found` as
/// byte ranges.
pub(super) fn names_in_unspaced(token: &str, found: &mut Vec<(usize, usize)>) {
    let chinese = !token.contains(is_kana) && token.contains(is_han);
    let mut at = 0;
    while let Some(c) = token[at..].chars().next() {
        let rest = &token[at..];
        if let Some(mut len) = listed_prefix(rest) {
            // "清华大学", "上海博物馆", "東京ドーム": a place and what stands there.
            let after = &rest[len..];
            let suffix = after
                .chars()
                .next()
                .filter(|c| INSTITUTION_OPENERS.binary_search(c).is_ok())
                .and_then(|_| INSTITUTIONS.iter().find(|s| after.starts_with(*s)));
            if let Some(suffix) = suffix {
                len += suffix.len();
            }
            found.push((at, at + len));
            at += len;
            continue;
        }
        if let Some(len) = chinese.then(|| chinese_name(token, at)).flatten() {
            found.push((at, at + len));
            at += len;
            continue;
        }
        at += c.len_utf8();
    }
}

/// The first chars of [`INSTITUTIONS`] (sorted): most names are followed by none.
const INSTITUTION_OPENERS: [char; 18] = [
    'ド', 'ホ', '公', '医', '博', '大', '机', '电', '病', '研', '空', '站', '酒', '銀', '银', '集',
    '電', '駅',
];

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

/// The most common Chinese family names (sorted, for a binary search), less those that mostly begin ordinary words
/// (周 "week", 高 "high", 方 "side", 安 "safe", 文 "text", 于, 万, 常, 白, 钱, 金, 任…).
const FAMILY_NAMES: [char; 70] = [
    '丁', '何', '余', '侯', '冯', '刘', '卢', '叶', '吕', '吴', '唐', '夏', '姚', '姜', '孙', '孟',
    '宋', '崔', '廖', '张', '彭', '徐', '曹', '曾', '朱', '李', '杜', '杨', '林', '梁', '毛', '汪',
    '沈', '潘', '熊', '王', '田', '秦', '程', '罗', '胡', '苏', '范', '萧', '董', '蒋', '蔡', '薛',
    '袁', '谢', '谭', '贾', '赵', '邓', '邱', '邵', '邹', '郑', '郝', '郭', '钟', '陆', '陈', '雷',
    '韩', '顾', '魏', '黄', '龙', '龚',
];

/// Chars after which a new word begins in running Chinese (sorted): the particles, prepositions and
/// common verbs a name is set between ("和张伟去", "张伟说", "是李娜的").
const CLAUSE_CHARS: [char; 68] = [
    '不', '与', '也', '买', '了', '从', '会', '做', '再', '写', '刚', '到', '去', '又', '发', '叫',
    '同', '向', '吗', '吧', '告', '呢', '和', '啊', '回', '在', '太', '对', '就', '已', '带', '帮',
    '很', '想', '才', '打', '找', '把', '拿', '推', '是', '替', '有', '来', '毕', '没', '用', '由',
    '的', '看', '真', '等', '约', '给', '被', '要', '见', '觉', '让', '说', '请', '负', '跟', '过',
    '还', '送', '都', '问',
];

/// Whether one word of a script without case reads as part of a sentence rather than a name:
/// Chinese that holds a particle or common verb ("版本是"); Thai, which runs its words together,
/// so that a word between spaces is a phrase or a particle ("ครับ", "ได้ไหม"); Korean ending in
/// a particle or a verb ending ("호스트는", "입니다").
pub(super) fn reads_as_clause(w: &str) -> bool {
    // Not 은 and 이, which end given names too ("김지은").
    const KOREAN_ENDINGS: [&str; 13] = [
        "는", "를", "을", "가", "도", "의", "에서", "에게", "한테", "으로", "까지", "부터", "이랑",
    ];
    let Some(last) = w.chars().next_back() else {
        return false;
    };
    w.chars().any(is_clause_char)
        || w.starts_with(is_thai)
        || (is_hangul(last)
            && w.chars().nth(1).is_some()
            && (matches!(last, '다' | '요' | '죠' | '까')
                || KOREAN_ENDINGS.iter().any(|e| w.ends_with(e))))
}

/// Whether a char is one of [`CLAUSE_CHARS`].
pub(super) fn is_clause_char(c: char) -> bool {
    CLAUSE_CHARS.binary_search(&c).is_ok()
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

/// Words for a person that a name follows without a particle ("同事赵敏", "老板陈志强").
const CHINESE_PEOPLE_NOUNS: [&str; 24] = [
    "同事", "老板", "朋友", "同学", "老师", "经理", "客户", "室友", "邻居", "医生", "助理", "领导",
    "老公", "老婆", "妈妈", "爸爸", "哥哥", "姐姐", "弟弟", "妹妹", "表哥", "表姐", "主管", "总监",
];

/// A Chinese personal name at byte `at` of `token`: a family name at a word boundary, then
/// one or two chars up to the next particle, verb, time word or the token's end. Its length
/// in bytes.
fn chinese_name(token: &str, at: usize) -> Option<usize> {
    let mut next = token[at..].chars();
    let first = next.next()?;
    if FAMILY_NAMES.binary_search(&first).is_err() {
        return None;
    }
    let c: [Option<char>; 5] =
        std::array::from_fn(|k| if k == 0 { Some(first) } else { next.next() });
    let boundary =
        |c: Option<char>| c.is_none_or(|c| !is_han(c) || CLAUSE_CHARS.binary_search(&c).is_ok());
    let time_word = |k: usize| {
        matches!(
            (c[k], c.get(k + 1).copied().flatten()),
            (
                Some('明' | '今' | '昨' | '前' | '后'),
                Some('天' | '年' | '早' | '晚')
            ) | (
                Some('下' | '上' | '这'),
                Some('周' | '午' | '个' | '次' | '星')
            )
        )
    };
    let ends_name = |k: usize| boundary(c[k]) || time_word(k);
    // "同事赵敏", "我老板陈志强": a word for a person right before the name.
    let after_person_noun = || {
        CHINESE_PEOPLE_NOUNS
            .iter()
            .any(|n| token[..at].ends_with(n))
    };
    if !boundary(token[..at].chars().next_back()) && !after_person_noun() {
        return None;
    }
    let given =
        |k: usize| c[k].is_some_and(|c| is_han(c) && CLAUSE_CHARS.binary_search(&c).is_err());
    let n = if given(1) && ends_name(2) {
        2
    } else if given(1) && given(2) && !time_word(2) && ends_name(3) {
        3
    } else {
        return None;
    };
    let len: usize = c[..n].iter().flatten().map(|c| c.len_utf8()).sum();
    let name = &token[at..at + len];
    let word = NOT_NAMES
        .iter()
        .any(|w| w.chars().next().is_some_and(|c| c == first) && name.starts_with(w));
    (!word).then_some(len)
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

/// Whether a run of Hangul is one of the particles that follow a name.
pub(super) fn is_korean_particle(run: &str) -> bool {
    KOREAN_PARTICLES.contains(&run)
        || matches!(run, "의" | "도" | "로" | "만" | "께" | "께서")
        // The copula and the vocative: "예약번호가 KE7Q2X야", "민수야".
        || matches!(run, "야" | "이야" | "예요" | "이에요" | "입니다" | "이다")
}

/// What a Korean place's name runs on into: a university, bank, hospital, airport, station,
/// district or branch.
const KOREAN_PLACE_SUFFIXES: [&str; 10] = [
    "대학교",
    "대학",
    "은행",
    "병원",
    "공항",
    "역",
    "동",
    "구",
    "시",
    "점",
];

/// Roles written after a Korean name ("봉준호 감독", "정우성 배우").
pub(super) const KOREAN_ROLES: [&str; 15] = [
    "배우",
    "감독",
    "대표",
    "팀장",
    "매니저",
    "작가",
    "기자",
    "교수",
    "선생",
    "의원",
    "원장",
    "부장",
    "과장",
    "대리",
    "선수",
];

/// The Korean family names of nine people in ten: a name of three syllables starts with one.
pub(super) const KOREAN_FAMILY_NAMES_ALL: [char; 30] = [
    '김', '이', '박', '최', '정', '강', '조', '윤', '장', '임', '한', '오', '서', '신', '권', '황',
    '안', '송', '류', '전', '홍', '고', '문', '양', '손', '배', '백', '허', '유', '남',
];

/// The most common Korean family names that seldom begin an ordinary word.
const KOREAN_FAMILY_NAMES: [char; 6] = ['김', '박', '최', '윤', '임', '황'];

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
    // "서울대학교", "강남역", "성수동": a listed name and the institution or district there.
    let place = KOREAN_PLACE_SUFFIXES
        .iter()
        .find_map(|s| stem.strip_suffix(s))
        .unwrap_or(stem);
    if listed(stem) || listed(place) {
        return Some(stem.len());
    }
    let mut syllables = stem.chars();
    let person = stripped.is_some()
        && stem.chars().count() == 3
        && syllables.all(is_hangul)
        && KOREAN_FAMILY_NAMES.contains(&stem.chars().next()?);
    if person {
        return Some(stem.len());
    }
    korean_given_name(word)
}

/// What follows a person in Korean and seldom a thing: "씨" (Mr/Ms), "랑" and "이랑" (with),
/// "한테" and "에게" (to), with a particle after "씨" ("민수씨가").
const KOREAN_PERSON_MARKS: [&str; 5] = ["씨", "이랑", "랑", "한테", "에게"];

/// People who are not named: family, friends, colleagues ("엄마랑", "친구한테").
const KOREAN_PEOPLE_NOUNS: [&str; 28] = [
    "가족", "고객", "과장", "남친", "남편", "누나", "대리", "동료", "동생", "딸이", "부장", "부모",
    "사람", "사장", "삼촌", "선배", "손님", "아내", "아들", "아빠", "애들", "언니", "엄마", "여친",
    "오빠", "이모", "친구", "후배",
];

/// A Korean given name of two syllables before a mark of a person ("민수씨가", "지수랑",
/// "서연이한테": the "이" after a name that ends in a consonant is not part of it). The
/// name's length in bytes.
fn korean_given_name(word: &str) -> Option<usize> {
    let rest = word
        .find('씨')
        .map_or(word, |i| &word[..i + '씨'.len_utf8()]);
    let stem = KOREAN_PERSON_MARKS
        .iter()
        .find_map(|m| rest.strip_suffix(m))?;
    // Two syllables, and at most the "이" after them.
    let end = stem.char_indices().nth(2).map_or(stem.len(), |(i, _)| i);
    let (name, tail) = stem.split_at(end);
    let fits = name.chars().count() == 2
        && name.chars().all(is_hangul)
        && (tail.is_empty() || tail == "이")
        && !KOREAN_PEOPLE_NOUNS.contains(&name);
    fits.then_some(name.len())
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
            .unwrap_or(s.len())
    };
    let word = &rest[..word_len(rest)];
    // The name, or the name after a one-letter prefix: Arabic "و" "ب" "ل" "ف" ("and", "in",
    // "to", "so"), Hebrew "ב" "ל" "מ" "ה" "ו" "ש" "כ" ("בתל אביב", "לנועה").
    let prefixed = word
        .strip_prefix(['و', 'ب', 'ل', 'ف', 'ב', 'ל', 'מ', 'ה', 'ו', 'ש', 'כ'])
        .filter(|w| w.chars().count() >= 2)
        .map(|w| word.len() - w.len());
    for start in [Some(0), prefixed].into_iter().flatten() {
        let first = &word[start..];
        let next = rest[word.len()..].strip_prefix(' ');
        let second = next.map_or("", |next| &next[..word_len(next)]);
        let both = word.len() + 1 + second.len();
        if !second.is_empty() && lookup_phrase(&rest[start..both]) & F_NAME != 0 {
            // "תל אביב": a listed name of two words.
            return Some((start, both));
        }
        if !listed(first) {
            continue;
        }
        let arabic_family = second.starts_with("ال")
            && second.chars().count() >= 4
            && !ARABIC_NOT_SURNAMES.contains(&second);
        let family =
            !second.is_empty() && !second.starts_with(is_thai) && (listed(second) || arabic_family);
        return Some((start, if family { both } else { word.len() }));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unspaced(token: &str) -> Vec<&str> {
        let mut found = Vec::new();
        names_in_unspaced(token, &mut found);
        found.into_iter().map(|(s, e)| &token[s..e]).collect()
    }

    #[test]
    fn char_sets_are_sorted() {
        for set in [&FAMILY_NAMES[..], &CLAUSE_CHARS, &INSTITUTION_OPENERS] {
            assert!(set.windows(2).all(|p| p[0] < p[1]), "{set:?}");
        }
        for i in INSTITUTIONS {
            assert!(
                INSTITUTION_OPENERS.contains(&i.chars().next().unwrap()),
                "{i}"
            );
        }
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
        assert_eq!(korean_name("민수씨가"), Some("민수".len()));
        assert_eq!(korean_name("지수랑"), Some("지수".len()));
        assert_eq!(korean_name("서연이한테"), Some("서연".len()));
        assert_eq!(korean_name("엄마랑"), None);
        assert_eq!(korean_name("회의실에서"), None);
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
