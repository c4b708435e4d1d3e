//! Newlines found and counted at the readers' speed: the YAML documents' boundaries are found line by line
//! and every part's lines counted, over the whole text, before the reader sees it. Here, built at the
//! readers' opt-level, rather than in the core, built for size, where the same loops ran a byte at a time.

/// Where the first `\n` at or after `from` is (`None`: there is none, or `from` is past the end). Eight
/// bytes at a time (SWAR), as the JSON reader scans its strings.
pub fn find_newline(bytes: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let rest = bytes.get(from..)?;
    let mut j = from;
    for word in rest.chunks_exact(8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        let x = u64::from_le_bytes(w) ^ (ONES * u64::from(b'\n'));
        // The high bit set at a byte that is zero (exact for the first such byte, which is all that is read).
        let hit = x.wrapping_sub(ONES) & !x & HIGH;
        if hit != 0 {
            return Some(j + (hit.trailing_zeros() / 8) as usize);
        }
        j += 8;
    }
    bytes.get(j..)?.iter().position(|&b| b == b'\n').map(|p| j + p)
}

/// How many `\n` `bytes` holds.
pub fn count_newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_newline_finds_the_first_at_or_after_from() {
        // Every place of one newline, and two, in texts of every length around a word's, from every start.
        for len in 0..40 {
            for a in 0..len {
                for b in [None, Some(a + 1), Some(a + 9), Some(len - 1)] {
                    let mut text = vec![b'x'; len];
                    // Bytes whose difference from `\n` borrows (0x0b) and high bytes, beside it.
                    if a > 0 {
                        text[a - 1] = 0x0b;
                    }
                    if a + 1 < len {
                        text[a + 1] = 0x8a;
                    }
                    text[a] = b'\n';
                    if let Some(b) = b.filter(|b| *b < len && *b > a) {
                        text[b] = b'\n';
                    }
                    for from in 0..=len + 1 {
                        let want = text.get(from..).and_then(|t| t.iter().position(|&c| c == b'\n')).map(|p| from + p);
                        assert_eq!(find_newline(&text, from), want, "{text:?} from {from}");
                    }
                }
            }
        }
        assert_eq!(find_newline(b"", 0), None);
        assert_eq!(find_newline(b"abcdefghijklmnop", 3), None);
    }

    #[test]
    fn count_newlines_counts_each() {
        assert_eq!(count_newlines(b""), 0);
        assert_eq!(count_newlines(b"a\nb\r\n\n"), 3);
        assert_eq!(count_newlines(&[b'\n'; 1000]), 1000);
    }
}
