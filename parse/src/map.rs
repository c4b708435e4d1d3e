//! [`StringMap`]: labels, annotations and selectors, kept small.

use super::text::Str;

/// A map of strings sorted by key (labels, annotations, `nodeSelector`, `matchLabels`): the order and
/// lookups of a `BTreeMap` in one allocation the size of its entries. A `BTreeMap`'s first node has room
/// for 11 entries (over 500 bytes) however few it holds, and every object read has two or three such
/// maps: at 150,000 pods that was a third of the model.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StringMap(Vec<(Str, Str)>);

impl StringMap {
    pub fn new() -> StringMap {
        StringMap(Vec::new())
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    pub fn get(&self, key: &str) -> Option<&Str> {
        self.find(key).ok().and_then(|i| self.0.get(i)).map(|(_, v)| v)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// Set a key's value, returning the value it had.
    pub fn insert(&mut self, key: impl Into<Str>, value: impl Into<Str>) -> Option<Str> {
        let (key, value) = (key.into(), value.into());
        match self.find(&key) {
            Ok(i) => self.0.get_mut(i).map(|(_, v)| std::mem::replace(v, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }

    /// Set a key's value unless it has one.
    pub fn insert_if_absent<V: Into<Str>>(&mut self, key: &str, value: impl FnOnce() -> V) {
        if let Err(i) = self.find(key) {
            self.0.insert(i, (Str::from(key), value().into()));
        }
    }

    pub fn remove(&mut self, key: &str) -> Option<Str> {
        self.find(key).ok().map(|i| self.0.remove(i).1)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&Str, &Str)> + ExactSizeIterator {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Str> + ExactSizeIterator {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Str> + ExactSizeIterator {
        self.0.iter().map(|(_, v)| v)
    }
}

/// As a `BTreeMap` is collected: in key order, the last value of a key given twice.
impl<K: Into<Str>, V: Into<Str>> FromIterator<(K, V)> for StringMap {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> StringMap {
        let mut v: Vec<(Str, Str)> = iter.into_iter().map(|(k, v)| (k.into(), v.into())).collect();
        // Stable: among equal keys the last one given is last, and is the one kept.
        v.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(Str, Str)> = Vec::with_capacity(v.len());
        for (k, val) in v {
            match out.last_mut() {
                Some(last) if last.0 == k => last.1 = val,
                _ => out.push((k, val)),
            }
        }
        StringMap(out)
    }
}

impl<'a> IntoIterator for &'a StringMap {
    type Item = (&'a Str, &'a Str);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (Str, Str)>, fn(&'a (Str, Str)) -> Self::Item>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    /// The same entries, order and lookups as a BTreeMap built from the same pairs, whatever the order
    /// and repeats they come in.
    #[test]
    fn behaves_as_a_btreemap() {
        for given in [
            pairs(&[]),
            pairs(&[("b", "1"), ("a", "2"), ("c", "3")]),
            pairs(&[("app", "web"), ("app", "db"), ("tier", "front"), ("app", "api")]),
            pairs(&[("z", ""), ("", "empty key"), ("m", "x"), ("", "again")]),
        ] {
            let m: StringMap = given.iter().cloned().collect();
            let b: BTreeMap<String, String> = given.iter().cloned().collect();
            let strs = |m: &StringMap| m.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
            let b_strs = |b: &BTreeMap<String, String>| b.clone().into_iter().collect::<Vec<_>>();
            assert_eq!(strs(&m), b_strs(&b));
            assert_eq!(m.len(), b.len());
            for k in ["", "a", "app", "b", "c", "m", "nope", "tier", "z"] {
                assert_eq!(m.get(k).map(|v| v.as_str()), b.get(k).map(String::as_str), "{k}");
                assert_eq!(m.contains_key(k), b.contains_key(k));
            }
            let (mut m2, mut b2) = (m.clone(), b.clone());
            for (k, v) in [("b", "new"), ("q", "added"), ("a", "again")] {
                assert_eq!(m2.insert(k, v).map(String::from), b2.insert(k.to_owned(), v.to_owned()));
            }
            assert_eq!(m2.remove("b").map(String::from), b2.remove("b"));
            assert_eq!(m2.remove("missing").map(String::from), b2.remove("missing"));
            m2.insert_if_absent("q", || "not set".to_owned());
            m2.insert_if_absent("r", || "set".to_owned());
            b2.entry("q".to_owned()).or_insert_with(|| "not set".to_owned());
            b2.entry("r".to_owned()).or_insert_with(|| "set".to_owned());
            assert_eq!(strs(&m2), b_strs(&b2));
        }
    }
}
