//! Sorting for the size of the WebAssembly: every sort of the core and the dashboard goes through one
//! merge sort of indices, with the comparison behind a `dyn`.
//!
//! `slice::sort_by` is generic over the element and the closure, and each instantiation brings its own
//! copy of the whole driftsort and quicksort machinery (2 to 4 KB of code each). Measured on the npm
//! package's wasm (`cargo xtask size`), the sorts were the largest single part of the code. Here the
//! generic part is a few lines (the closure adapter and the permutation); the sort is compiled once.
//!
//! Every function here is stable: equal elements keep their order, so a `sort_unstable` replaced by them
//! gives the same result for types whose equal values are indistinguishable (derived `Ord`).

use core::cmp::Ordering;

/// The order (indices into the input) that sorts `n` items by `cmp`, stably: a natural merge sort of
/// indices, the input's own runs in order (stretches where no item is greater than the next) merged pair
/// by pair, so that a list made of sorted runs takes n log(runs) comparisons, not n log n (at 150,000 pods:
/// a list of 150,050 items built group by group was 1,497 runs, the findings 2,801 runs of 17,172; a list
/// built in order and sorted again to be sure is one run, n - 1 comparisons). Not generic, so compiled once;
/// and unlike the standard sort (which panics on a comparison that is not a total order, since Rust 1.81)
/// it never panics: such a comparison gives some permutation.
fn order(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut from: Vec<usize> = (0..n).collect();
    // Where each run starts, then `n`: n - 1 comparisons.
    let mut bounds: Vec<usize> = core::iter::once(0)
        .chain((1..n).filter(|&i| cmp(i - 1, i) == Ordering::Greater))
        .chain(core::iter::once(n))
        .collect();
    let mut to: Vec<usize> = Vec::new();
    while bounds.len() > 2 {
        to.resize(n, 0);
        let mut merged = Vec::with_capacity(bounds.len() / 2 + 2);
        // Runs k and k + 1 merged, for k = 0, 2, 4...; a last run alone is copied (its `mid` is `n`).
        let mut k = 0;
        while let (Some(&start), Some(&mid)) = (bounds.get(k), bounds.get(k + 1)) {
            let end = bounds.get(k + 2).copied().unwrap_or(n);
            let left = from.get(start..mid).unwrap_or_default();
            let right = from.get(mid..end).unwrap_or_default();
            if let Some(out) = to.get_mut(start..end) {
                merge(left, right, out, cmp);
            }
            merged.push(start);
            k += 2;
        }
        merged.push(n);
        core::mem::swap(&mut from, &mut to);
        bounds = merged;
    }
    from
}

/// Merge two sorted runs into `out` (their combined length): the left one first among equals.
fn merge(left: &[usize], right: &[usize], out: &mut [usize], cmp: &mut dyn FnMut(usize, usize) -> Ordering) {
    let (mut l, mut r) = (left.iter().copied().peekable(), right.iter().copied().peekable());
    for slot in out {
        let take_right = match (l.peek(), r.peek()) {
            (Some(&a), Some(&b)) => cmp(b, a) == Ordering::Less,
            (None, _) => true,
            (Some(_), None) => false,
        };
        let next = if take_right { r.next() } else { l.next() };
        if let Some(i) = next {
            *slot = i;
        }
    }
}

/// Rearrange `v` so that position `k` holds what was at `order[k]`, cycle by cycle with swaps.
/// `order` is a permutation of `0..v.len()` (from [`order`]); anything else leaves `v` a permutation of
/// itself and never panics.
fn apply<T>(v: &mut [T], mut order: Vec<usize>) {
    for start in 0..v.len().min(order.len()) {
        let mut at = start;
        while let Some(slot) = order.get_mut(at) {
            let from = core::mem::replace(slot, at);
            if from == start || from == at || from >= v.len() {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

/// `v.sort_by(cmp)`, stable.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let order = {
        let items: &[T] = v;
        order(items.len(), &mut |a, b| match (items.get(a), items.get(b)) {
            (Some(x), Some(y)) => cmp(x, y),
            _ => Ordering::Equal,
        })
    };
    apply(v, order);
}

/// `v.sort_by_key(key)`, stable.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// `v.sort()` (and `v.sort_unstable()`), stable.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// Sort `v` and keep one of each run of equal values: a set held as a sorted list (look a value up with
/// `binary_search`). A B-tree set brings its own search, insertion and removal code for each element type
/// into the wasm; a list sorted once does not, for a set built once and then read.
pub fn sort_dedup<T: Ord>(v: &mut Vec<T>) {
    sort(v);
    v.dedup();
}

/// Where `key` is in `v`, a list sorted by its first field, each key once (a map held as a sorted list):
/// `Ok` its position, `Err` where it would go.
pub fn find_key<K: Ord + ?Sized, B: core::borrow::Borrow<K>, V>(v: &[(B, V)], key: &K) -> Result<usize, usize> {
    v.binary_search_by(|(k, _)| k.borrow().cmp(key))
}

/// The value under `key` in `v`, a list sorted by key with each key once.
pub fn get_key<'v, K: Ord + ?Sized, B: core::borrow::Borrow<K>, V>(v: &'v [(B, V)], key: &K) -> Option<&'v V> {
    find_key(v, key).ok().and_then(|i| v.get(i)).map(|(_, value)| value)
}

/// In `v`, a list sorted by key with each key once, `update` the value under `key`, or insert the entry
/// `make` gives where there is none: a map held as a sorted list, for a few keys against many updates (a
/// binary search each). Inserting many keys in no order is quadratic: collect and [`sort_dedup`] instead.
pub fn upsert<K: Ord + ?Sized, B: core::borrow::Borrow<K>, V>(
    v: &mut Vec<(B, V)>,
    key: &K,
    make: impl FnOnce() -> (B, V),
    update: impl FnOnce(&mut V),
) {
    match find_key(v, key) {
        Ok(i) => {
            if let Some((_, value)) = v.get_mut(i) {
                update(value);
            }
        }
        Err(i) => v.insert(i, make()),
    }
}

/// Sort pairs by their first number, stably (equal numbers keep their order): a radix sort, four passes
/// of a byte each, in time linear in the pairs where a comparison sort takes n log n comparisons, each
/// reading two pairs far apart once the pairs outgrow the caches. Small lists go through [`sort_by_key`].
pub fn sort_by_number(v: &mut Vec<(u32, u32)>) {
    if v.len() < 1024 {
        sort_by_key(v, |p| p.0);
        return;
    }
    let mut other: Vec<(u32, u32)> = vec![(0, 0); v.len()];
    for shift in [0u32, 8, 16, 24] {
        let digit = |p: &(u32, u32)| (p.0 >> shift & 0xff) as usize;
        let mut starts = [0usize; 257];
        for p in v.iter() {
            if let Some(c) = starts.get_mut(digit(p) + 1) {
                *c += 1;
            }
        }
        // Every pair in one bucket: this byte leaves the order as it is.
        if starts.contains(&v.len()) {
            continue;
        }
        let mut total = 0;
        for c in &mut starts {
            total += *c;
            *c = total;
        }
        for p in v.iter() {
            let Some(at) = starts.get_mut(digit(p)) else { continue };
            if let Some(slot) = other.get_mut(*at) {
                *slot = *p;
            }
            *at += 1;
        }
        core::mem::swap(v, &mut other);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (no dependency): xorshift.
    fn numbers(seed: u64, n: usize, modulo: u64) -> Vec<u64> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % modulo
            })
            .collect()
    }

    #[test]
    fn sorted_lists_as_sets_and_maps() {
        let mut set = vec!["b", "a", "c", "a", "b"];
        sort_dedup(&mut set);
        assert_eq!(set, ["a", "b", "c"]);
        // Counted as a map: keys inserted in place, values updated.
        let mut counts: Vec<(String, u32)> = Vec::new();
        for word in ["pod", "node", "pod", "job", "pod"] {
            upsert(&mut counts, word, || (word.to_owned(), 1), |n| *n += 1);
        }
        assert_eq!(counts, [("job".to_owned(), 1), ("node".to_owned(), 1), ("pod".to_owned(), 3)]);
        assert_eq!(find_key(&counts, "node"), Ok(1));
        assert_eq!(find_key(&counts, "b"), Err(0));
        assert_eq!(find_key(&counts, "zone"), Err(3));
    }

    #[test]
    fn sorts_as_the_standard_library_does_and_keeps_equal_elements_in_order() {
        for (seed, n, modulo) in [(1, 0, 1), (2, 1, 5), (3, 2, 2), (4, 17, 3), (5, 1000, 10), (6, 5000, 1 << 40)] {
            // Pairs (key, position): a stable sort by key keeps positions increasing within a key.
            let mut ours: Vec<(u64, usize)> = numbers(seed, n, modulo).into_iter().zip(0..).collect();
            let mut std = ours.clone();
            sort_by_key(&mut ours, |p| p.0);
            std.sort_by_key(|p| p.0);
            assert_eq!(ours, std, "seed {seed}");
            let mut plain: Vec<u64> = numbers(seed, n, modulo);
            let mut expected = plain.clone();
            sort(&mut plain);
            expected.sort_unstable();
            assert_eq!(plain, expected);
            // Reversed by the comparison.
            let mut rev = numbers(seed, n, modulo);
            sort_by(&mut rev, |a, b| b.cmp(a));
            expected.reverse();
            assert_eq!(rev, expected);
        }
    }

    #[test]
    fn sorts_pairs_by_number_as_a_stable_sort_does() {
        for (seed, n, modulo) in
            [(1, 0, 1), (2, 1, 5), (3, 1023, 7), (4, 1024, 3), (5, 5000, 1 << 32), (6, 70_000, 1000)]
        {
            let mut ours: Vec<(u32, u32)> =
                numbers(seed, n, modulo).into_iter().zip(0..).map(|(k, i)| (k as u32, i)).collect();
            let mut std = ours.clone();
            sort_by_number(&mut ours);
            std.sort_by_key(|p| p.0);
            assert_eq!(ours, std, "seed {seed}");
        }
        // Keys sharing their low bytes, and one key throughout.
        let mut high: Vec<(u32, u32)> = (0..3000u32).map(|i| ((3000 - i) << 16, i)).collect();
        let mut expected = high.clone();
        sort_by_number(&mut high);
        expected.sort_by_key(|p| p.0);
        assert_eq!(high, expected);
        let mut same: Vec<(u32, u32)> = (0..2000u32).map(|i| (7, i)).collect();
        let before = same.clone();
        sort_by_number(&mut same);
        assert_eq!(same, before);
    }

    #[test]
    fn a_list_of_sorted_runs_takes_n_log_runs_comparisons() {
        // Eight runs in order, one after another (as a list built group by group comes), equal keys
        // across runs: the result is the standard library's stable sort, in at most n - 1 comparisons to
        // find the runs and n per level of merging (three levels for eight runs), where a merge sort from
        // single items takes n log n (about 13 levels here).
        let runs: Vec<Vec<(u64, usize)>> = (0..8)
            .map(|r| {
                let mut run: Vec<u64> = numbers(r + 11, 1000, 300);
                run.sort_unstable();
                run.into_iter().zip(r as usize * 1000..).collect()
            })
            .collect();
        let mut ours: Vec<(u64, usize)> = runs.concat();
        let mut std = ours.clone();
        let mut comparisons = 0usize;
        sort_by(&mut ours, |a, b| {
            comparisons += 1;
            a.0.cmp(&b.0)
        });
        std.sort_by_key(|p| p.0);
        assert_eq!(ours, std);
        assert!(comparisons <= 7999 + 3 * 8000, "{comparisons} comparisons");
        // One run: n - 1 comparisons, nothing moved.
        let mut sorted = std.clone();
        comparisons = 0;
        sort_by(&mut sorted, |a, b| {
            comparisons += 1;
            a.0.cmp(&b.0)
        });
        assert_eq!((sorted, comparisons), (std, 7999));
    }

    #[test]
    fn a_comparison_that_is_not_an_order_never_panics_and_loses_nothing() {
        let mut v: Vec<u64> = numbers(9, 500, 100);
        let mut flip = false;
        sort_by(&mut v, |_, _| {
            flip = !flip;
            if flip {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        });
        let mut a = v.clone();
        a.sort_unstable();
        let mut b = numbers(9, 500, 100);
        b.sort_unstable();
        assert_eq!(a, b);
    }

    #[test]
    fn apply_tolerates_a_wrong_order() {
        let mut v = vec!['a', 'b', 'c', 'd'];
        apply(&mut v, vec![3, 3, 9, 0]);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec!['a', 'b', 'c', 'd']);
        let mut w = vec!['a', 'b', 'c'];
        apply(&mut w, vec![2, 0, 1]);
        assert_eq!(w, vec!['c', 'a', 'b']);
    }
}
