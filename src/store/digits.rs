//! Fixed-width decimal and hex digits for ids and timestamps, written by hand: `format!` with
//! width and radix specs costs an argument table per call and links `LowerHex` for the ids alone.

/// Appends the last `width` digits of `value` in `radix` (10 or 16, lowercase), zero-padded.
pub(crate) fn push_digits(out: &mut String, value: u64, width: u32, radix: u64) {
    let mut place = 1u64;
    for _ in 1..width {
        place = place.wrapping_mul(radix);
    }
    while place > 0 {
        let digit = (value / place % radix) as usize;
        out.push(char::from(
            b"0123456789abcdef".get(digit).copied().unwrap_or(b'0'),
        ));
        place /= radix;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pads_like_format() {
        for (value, width) in [(0u64, 1), (7, 4), (2026, 4), (59, 2), (999, 3)] {
            let mut out = String::new();
            push_digits(&mut out, value, width, 10);
            assert_eq!(out, format!("{value:0w$}", w = width as usize));
        }
        for (value, width) in [
            (0u64, 8),
            (u64::MAX, 16),
            (0xABC, 4),
            (0xFFFF_FFFF_FFFF, 12),
        ] {
            let mut out = String::new();
            push_digits(&mut out, value, width, 16);
            assert_eq!(out, format!("{value:0w$x}", w = width as usize));
        }
    }
}
