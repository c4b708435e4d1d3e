//! Kubernetes resource quantities (`500m`, `2`, `1Gi`, `1e3`, `128974848`) and IntOrString values.

/// Parse a quantity to its value in base units (cores, bytes). `None` for text that is not a quantity.
pub fn parse_quantity(raw: &str) -> Option<f64> {
    let s = raw.trim();
    if s.is_empty() {
        return None;
    }
    let split = s.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-')).unwrap_or(s.len());
    let (num, suffix) = s.split_at(split);
    let (num, suffix) = if let Some(exp) = suffix.strip_prefix(['e', 'E']) {
        // `1e3` is a decimal exponent, `1E` would be exa: an exponent must be followed by digits.
        if !exp.is_empty() && exp.trim_start_matches(['+', '-']).bytes().all(|b| b.is_ascii_digit()) {
            (s, "")
        } else {
            (num, suffix)
        }
    } else {
        (num, suffix)
    };
    let base: f64 = num.parse().ok()?;
    let mult = match suffix {
        "" => 1.0,
        "n" => 1e-9,
        "u" => 1e-6,
        "m" => 1e-3,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "E" => 1e18,
        "Ki" => 1024.0,
        "Mi" => 1024.0 * 1024.0,
        "Gi" => 1024.0 * 1024.0 * 1024.0,
        "Ti" => 1024.0f64.powi(4),
        "Pi" => 1024.0f64.powi(5),
        "Ei" => 1024.0f64.powi(6),
        _ => return None,
    };
    let v = base * mult;
    (v.is_finite() && v >= 0.0).then_some(v)
}

/// CPU in millicores, rounded up as the API server does.
pub fn cpu_millis(raw: &str) -> Option<i64> {
    parse_quantity(raw).map(|v| {
        // `9m` is 9.000000000000002 in floating point: a whole number of millicores stays one.
        let m = v * 1000.0;
        let whole = m.round();
        let m = if (m - whole).abs() < 1e-6 { whole } else { m.ceil() };
        m.min(i64::MAX as f64) as i64
    })
}

/// Memory in bytes, rounded up.
pub fn bytes(raw: &str) -> Option<i64> {
    parse_quantity(raw).map(|v| v.ceil().min(i64::MAX as f64) as i64)
}

/// The largest count an IntOrString is read as (`maxUnavailable: 4000000000` reads as this).
pub const MAX_COUNT: i64 = 1_000_000;
/// The largest percentage an IntOrString is read as.
pub const MAX_PERCENT: i64 = 1_000_000;

/// An IntOrString value as Kubernetes reads it for budgets and limits: a count or a percentage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntOrPercent {
    Int(i64),
    Percent(i64),
}

impl IntOrPercent {
    /// `2`, `"2"`, `"25%"`. Whitespace is trimmed; anything else is `None`. Untrusted numbers are
    /// saturated here, once: a count beyond [`MAX_COUNT`] reads as `MAX_COUNT`, a percentage beyond
    /// [`MAX_PERCENT`] as `MAX_PERCENT` (no cluster has more nodes; a budget is never larger than its pool),
    /// and digits too long for an i64 saturate the same way instead of being unreadable.
    pub fn parse(raw: &str) -> Option<IntOrPercent> {
        let s = raw.trim();
        let (digits, percent) = match s.strip_suffix('%') {
            Some(p) => (p.trim(), true),
            None => (s, false),
        };
        let body = digits.strip_prefix('-').unwrap_or(digits);
        if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let negative = digits.starts_with('-');
        let max = if percent { MAX_PERCENT } else { MAX_COUNT };
        // Any run of digits parses: too long for i64 is simply larger than the cap.
        let magnitude = body.parse::<i64>().unwrap_or(i64::MAX).min(max);
        let v = if negative { -magnitude } else { magnitude };
        Some(if percent { IntOrPercent::Percent(v) } else { IntOrPercent::Int(v) })
    }

    /// A count read from a number (JSON or YAML), saturated like [`IntOrPercent::parse`].
    pub fn count(n: i64) -> IntOrPercent {
        IntOrPercent::Int(n.clamp(-MAX_COUNT, MAX_COUNT))
    }

    /// `value` of `total`, percentages rounded down.
    pub fn scaled_floor(self, total: i64) -> i64 {
        match self {
            IntOrPercent::Int(n) => n,
            IntOrPercent::Percent(p) => p.saturating_mul(total) / 100,
        }
    }

    /// `value` of `total`, percentages rounded up.
    pub fn scaled_ceil(self, total: i64) -> i64 {
        match self {
            IntOrPercent::Int(n) => n,
            IntOrPercent::Percent(p) => p.saturating_mul(total).saturating_add(99) / 100,
        }
    }

    pub fn is_percent(self) -> bool {
        matches!(self, IntOrPercent::Percent(_))
    }
}

impl std::fmt::Display for IntOrPercent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IntOrPercent::Int(n) => write!(f, "{n}"),
            IntOrPercent::Percent(p) => write!(f, "{p}%"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities() {
        assert_eq!(cpu_millis("500m"), Some(500));
        assert_eq!(cpu_millis("2"), Some(2000));
        assert_eq!(cpu_millis("0.1"), Some(100));
        assert_eq!(bytes("1Gi"), Some(1 << 30));
        assert_eq!(bytes("1e3"), Some(1000));
        assert_eq!(bytes("128974848"), Some(128_974_848));
        assert_eq!(bytes("129M"), Some(129_000_000));
        assert_eq!(bytes("1E"), Some(1_000_000_000_000_000_000));
        assert_eq!(bytes("12ab"), None);
        assert_eq!(bytes(""), None);
        assert_eq!(bytes("-1"), None);
    }

    #[test]
    fn int_or_percent() {
        assert_eq!(IntOrPercent::parse("25%"), Some(IntOrPercent::Percent(25)));
        assert_eq!(IntOrPercent::parse("3"), Some(IntOrPercent::Int(3)));
        assert_eq!(IntOrPercent::parse("ten"), None);
        assert_eq!(IntOrPercent::Percent(25).scaled_floor(11), 2);
        assert_eq!(IntOrPercent::Percent(31).scaled_ceil(10), 4);
        assert_eq!(IntOrPercent::Percent(39).scaled_floor(10), 3);
    }
}
