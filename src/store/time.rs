//! Timestamps. The store never reads a clock: every write is given `now_ms` (Unix ms).

/// Largest instant rendered: 9999-12-31T23:59:59.999Z.
const MAX_MS: f64 = 253_402_300_799_999.0;

/// Clamps a caller's clock into the renderable range (NaN, infinities and negatives become 0).
pub(crate) fn sanitize_ms(ms: f64) -> f64 {
    if ms.is_finite() {
        ms.clamp(0.0, MAX_MS).floor()
    } else {
        0.0
    }
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ`, like JavaScript's `Date.prototype.toISOString`.
pub(crate) fn iso_ms(ms: f64) -> String {
    let total = sanitize_ms(ms) as i64;
    let days = total.div_euclid(86_400_000);
    let in_day = total.rem_euclid(86_400_000);
    let (year, month, day) = civil_from_days(days);
    let hours = in_day / 3_600_000;
    let minutes = (in_day / 60_000) % 60;
    let seconds = (in_day / 1000) % 60;
    let millis = in_day % 1000;
    // In range: the clock is sanitized to years 1970..=9999.
    format!("{year:04}-{month:02}-{day:02}T{hours:02}:{minutes:02}:{seconds:02}.{millis:03}Z")
}

/// Days since 1970-01-01 to a proleptic Gregorian (year, month, day) (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_to_iso_string() {
        assert_eq!(iso_ms(0.0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_ms(1_000_000_000_000.0), "2001-09-09T01:46:40.000Z");
        assert_eq!(iso_ms(1_795_978_053_304.0), "2026-11-29T18:47:33.304Z");
        assert_eq!(iso_ms(951_782_400_000.0), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso_ms(f64::NAN), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_ms(-5.0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_ms(f64::INFINITY), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_ms(1e300), "9999-12-31T23:59:59.999Z");
    }
}
