//! Character classes of the scanner: spaces, line breaks, what a token or a word is made of,
//! and the punctuation stripped from a token's ends. The hot ones take ASCII first.

pub(super) fn is_mark(c: char) -> bool {
    // 200C, 200D: the zero-width (non-)joiners inside Persian and Indic words ("دیجی‌کالا").
    matches!(
        c as u32,
        0x0300..=0x036F
            | 0x1AB0..=0x1AFF
            | 0x1DC0..=0x1DFF
            | 0x200C..=0x200D
            | 0x20D0..=0x20FF
            | 0xFE20..=0xFE2F
    )
}

/// The signs of the Indic scripts and Thai that are not letters (the virama of "शर्मा",
/// nuktas, Thai vowel and tone marks) are token chars, not breaks inside a word: every char of
/// the Indic blocks but the sentence marks (dandas), Thai's combining marks. Checked after the
/// other classes, so no other script pays for it.
pub(super) fn is_indic_sign(c: char) -> bool {
    matches!(c as u32, 0x0900..=0x0963 | 0x0966..=0x096F | 0x0971..=0x0DF3 | 0x0E31 | 0x0E34..=0x0E3A | 0x0E47..=0x0E4E)
}

/// `char::is_whitespace`, without a call for ASCII.
#[inline(always)]
pub(super) fn is_space(c: char) -> bool {
    if c.is_ascii() {
        matches!(c, ' ' | '\t'..='\r')
    } else {
        // U+3000 is the last whitespace char.
        c <= '\u{3000}' && c.is_whitespace()
    }
}

#[inline(always)]
pub(super) fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2029}')
}

#[inline(always)]
pub(super) fn is_wordish(c: char) -> bool {
    // ASCII first: no CJK or mark range to test, and no call into the Unicode tables.
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    is_cjk_letter(c) || c.is_alphanumeric() || is_mark(c)
}

/// CJK ideographs, kana and Hangul syllables: letters without case, told apart here before
/// the general Unicode tables are searched (slowly, for chars this far up).
#[inline(always)]
pub(super) fn is_cjk_letter(c: char) -> bool {
    matches!(c, '\u{3041}'..='\u{3096}' | '\u{30A1}'..='\u{30FA}' | '\u{4E00}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7A3}')
}

#[inline(always)]
pub(super) fn is_token_char(c: char) -> bool {
    if c.is_ascii() {
        is_ascii_token_byte(c as u8)
    } else {
        is_wordish(c) || matches!(c, '’' | '€' | '£' | '¥') || is_indic_sign(c)
    }
}

/// The ASCII token characters: letters, digits and `. : - _ ' @ # / & + = % $ * ~ ^ \\`.
#[inline(always)]
pub(super) fn is_ascii_token_byte(b: u8) -> bool {
    /// Bit `c` of `MASKS[c / 64]`: whether ASCII char `c` is a token char. Two `u64`s, not a
    /// `u128`, whose shifts are a library call at opt-level "z".
    const MASKS: [u64; 2] = {
        let mut m = [0u64; 2];
        let mut c = 0;
        while c < 128 {
            let b = c as u8;
            let punct = matches!(
                b,
                b'.' | b':'
                    | b'-'
                    | b'_'
                    | b'\''
                    | b'@'
                    | b'#'
                    | b'/'
                    | b'&'
                    | b'+'
                    | b'='
                    | b'%'
                    | b'$'
                    | b'*'
                    | b'~'
                    | b'^'
                    | b'\\'
            );
            if b.is_ascii_alphanumeric() || punct {
                m[c / 64] |= 1 << (c % 64);
            }
            c += 1;
        }
        m
    };
    match MASKS.get(usize::from(b) / 64) {
        Some(mask) => mask >> (b % 64) & 1 == 1,
        None => false,
    }
}

#[inline(always)]
pub(super) fn is_lead_strip(c: char) -> bool {
    matches!(
        c,
        '\'' | '’' | '‘' | '*' | '_' | '-' | '.' | ':' | '+' | '=' | '^' | '\\' | '&' | '%'
    )
}

#[inline(always)]
pub(super) fn is_trail_strip(c: char) -> bool {
    matches!(
        c,
        '.' | ':' | '\'' | '’' | '*' | '_' | '-' | '=' | '^' | '\\' | '/' | '~' | '&'
    )
}

/// Whether a token is one byte that `is_lead_strip` strips, then ASCII letters ("'a", "*bold",
/// "-v"; a letter after the byte, so no "./" or "::" that `token` keeps).
pub(super) fn is_lead_and_letters(t: &[u8]) -> bool {
    matches!(t, [lead, letters @ ..] if is_lead_strip(char::from(*lead))
        && !letters.is_empty()
        && letters.iter().all(u8::is_ascii_alphabetic))
}

/// Whether a token is ASCII letters and a period ("Milk.", "Mr.").
pub(super) fn is_letters_period(t: &[u8]) -> bool {
    matches!(t, [letters @ .., b'.'] if !letters.is_empty() && letters.iter().all(u8::is_ascii_alphabetic))
}

/// Whether a token opens and ends with an ASCII letter or digit: `token` strips nothing from it.
pub(super) fn is_unstripped(t: &[u8]) -> bool {
    matches!(t, [first, .., last] if first.is_ascii_alphanumeric() && last.is_ascii_alphanumeric())
}
