//! Units for people: durations and lists of names as the report's messages and renderers print them.
//! The bottom layer: it uses nothing else of the crate.

/// `45s`, `3m05s`, `1h02m`.
pub fn duration(secs: u64) -> String {
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    match (h, m) {
        (0, 0) => format!("{s}s"),
        (0, _) => format!("{m}m{s:02}s"),
        _ => format!("{h}h{m:02}m"),
    }
}

/// Names for a message: up to `max` of them, then "and N more".
pub fn name_list(names: &[String], max: usize) -> String {
    name_list_of(names.get(..max).unwrap_or(names), names.len())
}

/// [`name_list`] of a list of `total` names of which `first` are the first (only those are worded).
pub fn name_list_of(first: &[String], total: usize) -> String {
    let shown = first.join(", ");
    match total.checked_sub(first.len()) {
        Some(more) if more > 0 => format!("{shown} and {more} more"),
        _ => shown,
    }
}

/// `YYYY-MM-DD` (exactly that), a day that exists (2025-02-29 does not), from year 1.
pub fn calendar_date(s: &str) -> Option<(u16, u8, u8)> {
    let b = s.as_bytes();
    if b.len() != 10 || b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u16> {
        let part = s.get(r)?;
        if !part.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        part.parse().ok()
    };
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if year == 0 || day == 0 || day > days {
        return None;
    }
    Some((year, u8::try_from(month).ok()?, u8::try_from(day).ok()?))
}

/// Seconds since 1970-01-01T00:00:00Z of an RFC 3339 time as the API server writes it
/// (`2024-02-27T15:42:58Z`, with fractions of a second or an offset such as `+02:00`); `None` for any
/// other text or a day that does not exist.
pub fn timestamp(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = b.get(r)?;
        if part.is_empty() || !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(part).ok()?.parse().ok()
    };
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    if !((at(10, b'T') || at(10, b't') || at(10, b' ')) && at(13, b':') && at(16, b':')) {
        return None;
    }
    let (y, mo, d) = calendar_date(s.get(..10)?)?;
    let (y, mo, d) = (i64::from(y), i64::from(mo), i64::from(d));
    let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    // Fractions of a second, then the offset.
    let mut i = 19;
    if at(i, b'.') {
        i += 1;
        let digits = b.get(i..)?.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        i += digits;
    }
    let offset = match b.get(i..)? {
        b"Z" | b"z" => 0,
        [sign @ (b'+' | b'-'), ..] if b.len() == i + 6 && at(i + 3, b':') => {
            let (oh, om) = (num(i + 1..i + 3)?, num(i + 4..i + 6)?);
            if oh > 23 || om > 59 {
                return None;
            }
            let o = oh * 3600 + om * 60;
            if *sign == b'+' {
                o
            } else {
                -o
            }
        }
        _ => return None,
    };
    // Days from the civil date (proleptic Gregorian), March-based years.
    let (yy, mm) = if mo <= 2 { (y - 1, mo + 9) } else { (y, mo - 3) };
    let era = yy.div_euclid(400);
    let yoe = yy - era * 400;
    let doy = (153 * mm + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + h * 3600 + mi * 60 + sec - offset)
}

/// An RFC 3339 time in UTC (`2024-02-27T15:42:58Z`) of seconds since 1970-01-01T00:00:00Z.
pub fn format_timestamp(secs: i64) -> String {
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // The civil date of a day number (proleptic Gregorian), March-based years.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rest / 3600, rest / 60 % 60, rest % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_as_the_api_server_writes_them() {
        assert_eq!(timestamp("1970-01-01T00:00:00Z"), Some(0));
        // `date -u -d 2024-02-27T15:42:58Z +%s`
        assert_eq!(timestamp("2024-02-27T15:42:58Z"), Some(1_709_048_578));
        assert_eq!(timestamp("2024-02-27T17:42:58.123456+02:00"), Some(1_709_048_578));
        assert_eq!(timestamp("2024-02-29T00:00:00Z"), Some(1_709_164_800));
        for t in ["1970-01-01T00:00:00Z", "2024-02-29T23:59:59Z", "2000-03-01T12:00:00Z", "2026-12-31T00:00:01Z"] {
            assert_eq!(timestamp(t).map(format_timestamp).as_deref(), Some(t));
        }
        for bad in [
            "2023-02-29T00:00:00Z",
            "2024-02-27",
            "2024-02-27T15:42:58",
            "2024-02-27T15:42:58+0200",
            "",
            "2024-13-01T00:00:00Z",
            "2024-02-27T15:42:58.Z",
        ] {
            assert_eq!(timestamp(bad), None, "{bad}");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(duration(45), "45s");
        assert_eq!(duration(185), "3m05s");
        assert_eq!(duration(3720), "1h02m");
    }

    #[test]
    fn names() {
        let n: Vec<String> = ["a", "b", "c"].iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(name_list(&n, 5), "a, b, c");
        assert_eq!(name_list(&n, 2), "a, b and 1 more");
    }
}
