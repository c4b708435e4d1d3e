//! [`Str`]: the strings the model keeps, shared; [`Interner`]: one copy of each value.

use std::collections::HashSet;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Deref;
use std::sync::Arc;

/// An immutable string that clones for the price of a reference count. The model's kinds, apiVersions,
/// namespaces, file names, label keys and values and owners' names repeat across objects: read through
/// an [`Interner`], each distinct value is held once (at 150,000 pods the copies were a third of the
/// model). Compares, hashes, orders and serializes as the `str` it holds.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Str(Arc<str>);

impl Str {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Is this the very same allocation as `other` (not merely equal)?
    pub fn shares(&self, other: &Str) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Deref for Str {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Str {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Str {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl From<&str> for Str {
    fn from(s: &str) -> Str {
        Str(Arc::from(s))
    }
}

impl From<String> for Str {
    fn from(s: String) -> Str {
        Str(Arc::from(s))
    }
}

impl From<&String> for Str {
    fn from(s: &String) -> Str {
        Str(Arc::from(s.as_str()))
    }
}

impl From<Str> for String {
    fn from(s: Str) -> String {
        s.0.to_string()
    }
}

impl PartialEq<str> for Str {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for Str {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<String> for Str {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Str> for str {
    fn eq(&self, other: &Str) -> bool {
        *self == *other.0
    }
}

impl PartialEq<Str> for &str {
    fn eq(&self, other: &Str) -> bool {
        **self == *other.0
    }
}

impl PartialEq<Str> for String {
    fn eq(&self, other: &Str) -> bool {
        **self == *other.0
    }
}

impl serde::Serialize for Str {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

/// How long a [`Text`] held inline may be.
const INLINE: usize = 22;

/// A scalar's text as a reader builds it: up to 22 bytes held inline, with no allocation (most of a
/// snapshot's values are short: names, quantities, timestamps, booleans), longer ones on the heap. A tree's
/// scalars are dropped once its object is read, so what this saves is a `malloc` and a `free` per value.
/// Reads, compares and prints as the `str` it holds.
#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    Inline(u8, [u8; INLINE]),
    Heap(Box<str>),
}

impl Text {
    pub fn new(s: &str) -> Text {
        let mut b = [0u8; INLINE];
        match b.get_mut(..s.len()) {
            Some(dst) => {
                dst.copy_from_slice(s.as_bytes());
                Text(Repr::Inline(s.len() as u8, b))
            }
            None => Text(Repr::Heap(s.into())),
        }
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            // Always whole characters of a `str` (copied from one in `new`): the check cannot fail.
            Repr::Inline(n, b) => std::str::from_utf8(b.get(..usize::from(*n)).unwrap_or_default()).unwrap_or_default(),
            Repr::Heap(s) => s,
        }
    }
}

impl Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::new(s)
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        if s.len() <= INLINE {
            Text::new(&s)
        } else {
            Text(Repr::Heap(s.into_boxed_str()))
        }
    }
}

impl From<std::borrow::Cow<'_, str>> for Text {
    fn from(s: std::borrow::Cow<'_, str>) -> Text {
        match s {
            std::borrow::Cow::Borrowed(b) => Text::from(b),
            std::borrow::Cow::Owned(o) => Text::from(o),
        }
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// One shared copy of each string given.
#[derive(Debug, Default)]
pub struct Interner {
    held: FastSet<Str>,
}

/// A multiply-rotate hash for short strings (FxHash's step): the interner hashes every string the model
/// keeps, and SipHash (the standard one, built against flooding, which a local snapshot cannot do to
/// us) made reading a fifth slower. Every hash map of the core uses it ([`FastMap`], [`FastSet`]): it is
/// faster, SipHash's code leaves the wasm, and iteration order no longer changes from run to run (no
/// output depends on it either way).
#[derive(Default)]
pub struct ShortHasher(u64);

/// The hasher of [`FastMap`] and [`FastSet`].
pub type FastHash = BuildHasherDefault<ShortHasher>;
/// A `HashMap` hashed by [`ShortHasher`] (`FastMap::default()` makes one).
pub type FastMap<K, V> = std::collections::HashMap<K, V, FastHash>;
/// A `HashSet` hashed by [`ShortHasher`].
pub type FastSet<T> = HashSet<T, FastHash>;

impl ShortHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for ShortHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let mut w = [0u8; 8];
        let rest = chunks.remainder();
        if let Some(dst) = w.get_mut(..rest.len()) {
            dst.copy_from_slice(rest);
        }
        self.add(u64::from_le_bytes(w));
    }

    fn write_u8(&mut self, b: u8) {
        self.add(u64::from(b));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl Interner {
    pub fn new() -> Interner {
        Interner::default()
    }

    /// The shared copy of `s`.
    pub fn get(&mut self, s: &str) -> Str {
        if let Some(held) = self.held.get(s) {
            return held.clone();
        }
        let new = Str::from(s);
        self.held.insert(new.clone());
        new
    }

    /// How many distinct strings are held.
    pub fn len(&self) -> usize {
        self.held.len()
    }

    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_str_compares_orders_and_prints_as_its_text() {
        let a = Str::from("apps/v1");
        assert_eq!(a, "apps/v1");
        assert_eq!("apps/v1", a);
        assert_eq!(a, "apps/v1".to_owned());
        let (a_, b_) = (Str::from("a"), Str::from("b"));
        assert!(a_ < b_);
        assert_eq!(format!("{a} {a:?}"), "apps/v1 \"apps/v1\"");
        assert_eq!(serde_json::to_string(&a).unwrap(), "\"apps/v1\"");
        assert_eq!(Str::default(), "");
    }

    #[test]
    fn a_text_holds_short_values_inline_and_long_ones_on_the_heap() {
        for s in
            ["", "a", "True", "2026-10-01T08:00:00Z", "exactly-22-bytes-long!", "é日本", "a-value-of-23-bytes-long"]
        {
            let t = Text::new(s);
            assert_eq!(t.as_str(), s);
            assert_eq!(Text::from(s.to_owned()), t);
            assert_eq!(t, s);
            assert_eq!(format!("{t} {t:?}"), format!("{s} {s:?}"));
            assert_eq!(matches!(t.0, Repr::Inline(..)), s.len() <= INLINE, "{s}");
        }
    }

    #[test]
    fn interning_keeps_one_copy_of_each_value() {
        let mut i = Interner::new();
        let first = i.get("Pod");
        assert!(!Str::from("Pod").shares(&first));
        assert!(i.get("Pod").shares(&first));
        let other = i.get("Node");
        assert!(!other.shares(&first));
        assert!(i.get(&String::from("Node")).shares(&other));
        assert_eq!(i.len(), 2);
    }
}
