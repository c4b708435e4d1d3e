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

#[cfg(test)]
mod tests {
    use super::*;

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
