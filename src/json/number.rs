//! A JSON number as its text: exactly what was parsed (or what JS printed), so no float
//! parsing or formatting code is needed to carry numbers through.

use std::fmt;

/// The largest integer a JS number holds exactly, as decimal text (2^53 − 1).
const MAX_SAFE_INTEGER: &str = "9007199254740991";

/// A number in valid JSON number syntax.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Number(String);

impl Number {
    /// `text` when it is a JSON number (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`).
    pub fn from_literal(text: &str) -> Option<Number> {
        (number_syntax_len(text.as_bytes()) == Some(text.len())).then(|| Number(text.to_owned()))
    }

    /// Text already checked by the parser.
    pub(super) fn from_checked(text: &str) -> Number {
        Number(text.to_owned())
    }

    /// A finite float as the shortest text that reads back as it (JS prints it in the wasm);
    /// `None` for NaN and ±Infinity, which JSON cannot hold. A whole number beyond the exact
    /// JS integers is written with `.0` (`9007199254740992.0`), so it still reads as a float
    /// and not as an integer JS would round.
    pub fn from_f64(value: f64) -> Option<Number> {
        if !value.is_finite() {
            return None;
        }
        let mut text = float_text(value);
        if !is_js_exact(&text) {
            text.push_str(".0");
        }
        Some(Number(text))
    }

    /// The JSON text of the number.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether the text is an integer (no fraction, no exponent).
    pub fn is_integer(&self) -> bool {
        is_integer_text(&self.0)
    }

    /// The value when the text is an integer in `u64` range (as serde_json's `as_u64`).
    pub fn as_u64(&self) -> Option<u64> {
        if !self.is_integer() || self.0.starts_with('-') {
            return None;
        }
        digits_value(&self.0)
    }

    /// The value when the text is an integer in `i64` range (as serde_json's `as_i64`).
    pub fn as_i64(&self) -> Option<i64> {
        if !self.is_integer() {
            return None;
        }
        match self.0.strip_prefix('-') {
            Some(digits) => 0i64.checked_sub_unsigned(digits_value(digits)?),
            None => self.as_u64().and_then(|n| i64::try_from(n).ok()),
        }
    }

    /// The nearest float (JS reads it in the wasm). Always `Some`: the parser refuses numbers
    /// beyond the float range.
    pub fn as_f64(&self) -> Option<f64> {
        Some(float_value(&self.0))
    }

    /// Whether a JS number holds this value exactly as far as integers go: `false` for an
    /// integer literal beyond ±(2^53 − 1), which `JSON.parse` would round.
    pub fn is_js_exact(&self) -> bool {
        is_js_exact(&self.0)
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

macro_rules! from_integer {
    ($($t:ty)*) => {$(
        impl From<$t> for Number {
            fn from(n: $t) -> Number {
                Number(n.to_string())
            }
        }
    )*};
}

from_integer!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize);

/// The value of decimal digits, `None` beyond `u64`.
fn digits_value(digits: &str) -> Option<u64> {
    digits.bytes().try_fold(0u64, |n, b| {
        n.checked_mul(10)?
            .checked_add(u64::from(b.wrapping_sub(b'0')))
    })
}

fn is_integer_text(text: &str) -> bool {
    !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'))
}

pub(super) fn is_js_exact(text: &str) -> bool {
    if !is_integer_text(text) {
        return true;
    }
    let digits = text.strip_prefix('-').unwrap_or(text);
    // Same length: decimal text compares as the numbers do.
    digits.len() < MAX_SAFE_INTEGER.len()
        || (digits.len() == MAX_SAFE_INTEGER.len() && digits <= MAX_SAFE_INTEGER)
}

/// The length of the JSON number at the start of `bytes`, or `None` when it does not start
/// with one (`01`, `1.`, `-`, `1e` are not numbers).
pub(super) fn number_syntax_len(bytes: &[u8]) -> Option<usize> {
    let digits_from = |i: usize| {
        bytes
            .iter()
            .skip(i)
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut i = usize::from(bytes.first() == Some(&b'-'));
    match bytes.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i += digits_from(i),
        _ => return None,
    }
    if bytes.get(i) == Some(&b'.') {
        let n = digits_from(i + 1);
        if n == 0 {
            return None;
        }
        i += 1 + n;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let n = digits_from(i);
        if n == 0 {
            return None;
        }
        i += n;
    }
    Some(i)
}

/// Whether a number in valid syntax is beyond the float range (serde_json refuses those:
/// `1e400`), decided on the decimal digits without parsing a float.
pub(super) fn is_out_of_range(text: &str) -> bool {
    // f64::MAX plus half an ulp, to 40 digits: from there on, a number rounds to infinity.
    const LIMIT_DIGITS: &[u8] = b"1797693134862315807937289714053034150799";
    let (mantissa, exponent) = text.split_once(['e', 'E']).unwrap_or((text, ""));
    let mantissa = mantissa.strip_prefix('-').unwrap_or(mantissa);
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let int = int.trim_start_matches('0');
    if int.is_empty() {
        // Below 1 before the exponent: the first significant digit follows the zeros.
        let significant = frac.trim_start_matches('0');
        if significant.is_empty() {
            return false; // zero
        }
        let power =
            exponent_value(exponent).saturating_sub(1 + (frac.len() - significant.len()) as i64);
        return beyond(power, significant.bytes(), LIMIT_DIGITS);
    }
    let power = exponent_value(exponent).saturating_add(int.len() as i64 - 1);
    beyond(power, int.bytes().chain(frac.bytes()), LIMIT_DIGITS)
}

/// Whether digits `d₁d₂…` at power `power` (d₁ × 10^power) reach the limit's digits at 10^308.
fn beyond(power: i64, digits: impl Iterator<Item = u8>, limit: &[u8]) -> bool {
    match power {
        p if p > 308 => true,
        // Decimal digits compare as the numbers do; trailing zeros only make them longer.
        308 => digits.cmp(limit.iter().copied()) != std::cmp::Ordering::Less,
        _ => false,
    }
}

/// An exponent's value (`+12`, `-3`, `7`), saturated: thousands of digits are as far out.
fn exponent_value(exponent: &str) -> i64 {
    let (negative, digits) = match exponent.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, exponent.strip_prefix('+').unwrap_or(exponent)),
    };
    let magnitude = digits.bytes().fold(0i64, |n, b| {
        n.saturating_mul(10)
            .saturating_add(i64::from(b.wrapping_sub(b'0')))
    });
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

#[cfg(target_arch = "wasm32")]
mod js {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        /// JS `String(n)`: the shortest text that reads back as `n`.
        #[wasm_bindgen(js_name = String)]
        pub fn number_text(n: f64) -> String;
        /// JS `parseFloat(text)`: correctly rounded.
        #[wasm_bindgen(js_name = parseFloat)]
        pub fn parse_float(text: &str) -> f64;
    }
}

#[cfg(target_arch = "wasm32")]
fn float_text(value: f64) -> String {
    js::number_text(value)
}

#[cfg(target_arch = "wasm32")]
fn float_value(text: &str) -> f64 {
    js::parse_float(text)
}

#[cfg(not(target_arch = "wasm32"))]
fn float_text(value: f64) -> String {
    value.to_string()
}

#[cfg(not(target_arch = "wasm32"))]
fn float_value(text: &str) -> f64 {
    text.parse().unwrap_or(f64::NAN)
}
