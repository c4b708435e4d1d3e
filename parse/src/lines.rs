//! Newlines found and counted at the readers' speed: the YAML documents' boundaries are found line by line
//! and every part's lines counted, over the whole text, before the reader sees it. Here, built at the
//! readers' opt-level, rather than in the core, built for size, where the same loops ran a byte at a time.

/// Where the first `\n` at or after `from` is (`None`: there is none, or `from` is past the end). Eight
/// bytes at a time (SWAR), as the JSON reader scans its strings.
pub fn find_newline(bytes: &[u8], from: usize) -> Option<usize> {
    find_byte(bytes, from, b'\n')
}

/// Where the first `byte` at or after `from` is (`None`: there is none, or `from` is past the end), eight
/// bytes at a time.
pub fn find_byte(bytes: &[u8], from: usize, byte: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let rest = bytes.get(from..)?;
    let mut j = from;
    for word in rest.chunks_exact(8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        let x = u64::from_le_bytes(w) ^ (ONES * u64::from(byte));
        // The high bit set at a byte that is zero (exact for the first such byte, which is all that is read).
        let hit = x.wrapping_sub(ONES) & !x & HIGH;
        if hit != 0 {
            return Some(j + (hit.trailing_zeros() / 8) as usize);
        }
        j += 8;
    }
    bytes.get(j..)?.iter().position(|&b| b == byte).map(|p| j + p)
}

/// Does `bytes` hold a control character other than `\n` (below 0x20, or DEL)? Eight bytes at a time.
pub fn has_control(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let control = |b: u8| (b < 0x20 && b != b'\n') || b == 0x7f;
    let words = bytes.chunks_exact(8);
    let tail = words.remainder();
    for word in words {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        let x = u64::from_le_bytes(w);
        // The high bit of each byte below 0x20: its own high bit clear, and its low seven bits plus 0x60
        // below 0x80 (added apart: nothing carries into the next byte).
        let below = !(((x & LOW7) + ONES * 0x60) | x) & HIGH;
        let odd = (below & !zero_bytes(x ^ (ONES * u64::from(b'\n')))) | zero_bytes(x ^ (ONES * 0x7f));
        if odd != 0 {
            return true;
        }
    }
    tail.iter().any(|b| control(*b))
}

/// The high bit of each byte of `x` that is zero, and no other bit (the low seven bits of each byte are
/// added apart, so nothing carries into the next byte).
fn zero_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    !(((x & LOW7) + LOW7) | x | LOW7)
}

fn word_at(bytes: &[u8], at: usize) -> Option<u64> {
    let mut w = [0u8; 8];
    w.copy_from_slice(bytes.get(at..at + 8)?);
    Some(u64::from_le_bytes(w))
}

/// The first line after byte `from` that begins with `a` or `b`: the first `p > from` with a `\n` at
/// `p - 1` and `a` or `b` at `p`. Eight places at a time, without a step per line (the YAML readers look
/// for `---` and `...` lines this way, over the whole text).
pub fn find_line_beginning(bytes: &[u8], from: usize, a: u8, b: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut i = from;
    while let (Some(w), Some(next)) = (word_at(bytes, i), word_at(bytes, i + 1)) {
        // Byte k: a line break at i + k, and `a` or `b` after it.
        let hit = zero_bytes(w ^ (ONES * u64::from(b'\n')))
            & (zero_bytes(next ^ (ONES * u64::from(a))) | zero_bytes(next ^ (ONES * u64::from(b))));
        if hit != 0 {
            return Some(i + 1 + (hit.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    let rest = bytes.get(i..)?;
    rest.windows(2).position(|p| matches!(p, [b'\n', c] if *c == a || *c == b)).map(|p| i + p + 1)
}

/// How many `\n` `bytes` holds. Eight bytes at a time (in WebAssembly, a byte at a time took a fifth of a
/// second for a 150 MB text, counted twice).
pub fn count_newlines(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let words = bytes.chunks_exact(8);
    let tail = words.remainder();
    let mut n = 0usize;
    for word in words {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        n += zero_bytes(u64::from_le_bytes(w) ^ (ONES * u64::from(b'\n'))).count_ones() as usize;
    }
    n + tail.iter().filter(|&&b| b == b'\n').count()
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

    /// A text of `len` bytes drawn from `pick` by a linear congruential sequence from `seed` (advanced), so
    /// that many texts visit the mixes of the bytes.
    fn mix(pick: &[u8], seed: &mut u32, len: usize) -> Vec<u8> {
        (0..len)
            .map(|_| {
                *seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                pick[(*seed >> 16) as usize % pick.len()]
            })
            .collect()
    }

    #[test]
    fn find_line_beginning_finds_the_first_after_from() {
        // Texts of every length around two words', of line breaks, the two bytes looked for, bytes beside
        // them in value and a high byte, from every start.
        let pick = [b'\n', b'-', b'.', b',', b'/', 0x0b, 0xad, b'x'];
        let mut seed = 11u32;
        for len in 0..40 {
            for _ in 0..40 {
                let text = mix(&pick, &mut seed, len);
                for from in 0..=len + 1 {
                    let want = (from + 1..len).find(|&p| text[p - 1] == b'\n' && matches!(text[p], b'-' | b'.'));
                    assert_eq!(find_line_beginning(&text, from, b'-', b'.'), want, "{text:?} from {from}");
                }
            }
        }
    }

    #[test]
    fn find_byte_and_has_control_read_each_byte() {
        // Every byte value, alone and in a word of letters at every place, and beside its neighbours.
        for b in 0..=255u8 {
            let control = (b < 0x20 && b != b'\n') || b == 0x7f;
            for len in 1..20 {
                for at in 0..len {
                    let mut text = vec![b'x'; len];
                    text[at] = b;
                    if at + 1 < len {
                        text[at + 1] = b.wrapping_add(1);
                    }
                    let want = control || (at + 1 < len && matches!(b.wrapping_add(1), 0..=0x09 | 0x0b..=0x1f | 0x7f));
                    assert_eq!(has_control(&text), want, "{text:?}");
                    let first = text.iter().position(|c| *c == b);
                    assert_eq!(find_byte(&text, 0, b), first, "{text:?}");
                }
            }
        }
    }

    #[test]
    fn count_newlines_counts_each() {
        assert_eq!(count_newlines(b""), 0);
        assert_eq!(count_newlines(b"a\nb\r\n\n"), 3);
        assert_eq!(count_newlines(&[b'\n'; 1000]), 1000);
        // Every length around a word's, each byte a newline or a byte beside it in value (0x0b, 0x09), a
        // high byte (0x8a, 0xff) or a letter, in a sequence that visits their mixes.
        let pick = [b'\n', 0x0b, 0x09, 0x8a, 0xff, b'x'];
        let mut seed = 7u32;
        for len in 0..64 {
            for _ in 0..50 {
                let text = mix(&pick, &mut seed, len);
                assert_eq!(count_newlines(&text), text.iter().filter(|&&b| b == b'\n').count(), "{text:?}");
            }
        }
    }
}
