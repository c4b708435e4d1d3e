//! Positioned document trees read from JSON or YAML text.
//!
//! Both readers produce the same [`Node`] tree, which keeps the line and column of every value so that
//! findings can point at the object's place in the user's file. Scalars keep their raw text: quantities
//! (`500m`, `1e3`) and versions are parsed by the code that knows what they mean.
//!
//! The core's lowest layer, its own crate only so that it alone is built for speed (opt-level 2) while
//! the rest of the core is built for size; the core re-exports it as `kube_preflight::parse`.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing))]

mod block;
mod json;
mod lines;
mod map;
mod text;
mod yaml;

use std::fmt;

pub use json::{parse_json, JsonStream, Keep};
pub use lines::{count_newlines, find_byte, find_line_beginning, find_newline, has_control};
pub use map::StringMap;
pub use text::{FastHash, FastMap, FastSet, Interner, ShortHasher, Str, Text};
pub use yaml::{
    parse_yaml_documents, parse_yaml_documents_budgeted, stream_yaml_documents, yaml_event_count, ListHead, YamlOut,
    YamlStop, MAX_ALIAS_BYTES,
};

/// A reader's open collection, as [`unread`] sees it: a map with the key whose value is being read, or
/// a sequence.
pub(crate) trait PathFrame {
    fn key(&self) -> Option<&str>;
    fn is_seq(&self) -> bool;
}

/// Is the value about to start under `stack` one that no check reads? Paths are relative to an object: the
/// document, or an item of a top-level `items` array (nested Lists' items too). The JSON and YAML readers
/// both skip these under [`Keep::Read`]:
/// - `metadata.managedFields[].*` except `apiVersion` (the managers' field sets are most of a live object);
/// - `status.images`, `status.containerStatuses`, `status.initContainerStatuses`,
///   `status.ephemeralContainerStatuses`;
/// - any `spec.containers[].*`, `spec.initContainers[].*`, `spec.ephemeralContainers[].*` except `name`
///   and `resources` (env, probes, mounts, commands), and `spec.containers[].image`, at any depth (pod
///   templates).
pub(crate) fn unread<F: PathFrame>(stack: &[F]) -> bool {
    let n = stack.len();
    let Some(key) = stack.last().and_then(PathFrame::key) else { return false };
    let key_at = |k: usize| n.checked_sub(k).and_then(|i| stack.get(i)).and_then(PathFrame::key);
    let is_seq = |k: usize| n.checked_sub(k).and_then(|i| stack.get(i)).is_some_and(PathFrame::is_seq);
    // Is stack[..end] an object's root: the document, or items of (nested) top-level Lists?
    let object_root = |end: usize| {
        let below = stack.get(..end).unwrap_or_default();
        below.len() % 2 == 0
            && below.chunks(2).all(|p| match p {
                [map, seq] => map.key() == Some("items") && seq.is_seq(),
                _ => false,
            })
    };
    match key {
        "images" | "containerStatuses" | "initContainerStatuses" | "ephemeralContainerStatuses" => {
            key_at(2) == Some("status") && object_root(n - 2)
        }
        "apiVersion" => false,
        _ if is_seq(2) && key_at(3) == Some("managedFields") && key_at(4) == Some("metadata") => {
            object_root(n.saturating_sub(4))
        }
        // A container's resources, host ports and (for init containers) restart policy: what the scheduler
        // reads of it.
        "name" | "resources" | "ports" | "restartPolicy" => false,
        // A container's image: the kube-apiserver mirror pod's tag is the API server's version.
        "image" if key_at(3) == Some("containers") => false,
        _ => {
            is_seq(2)
                && matches!(key_at(3), Some("containers" | "initContainers" | "ephemeralContainers"))
                && key_at(4) == Some("spec")
        }
    }
}

/// How many distinct map keys a reader shares; past it (no Kubernetes object comes near: keys are field
/// names and label and annotation keys) each new key is its own copy.
const MAX_SHARED_KEYS: usize = 1 << 14;

/// A map key as both readers keep it: the copy `keys` holds (the same few hundred repeat in every object),
/// up to [`MAX_SHARED_KEYS`].
pub(crate) fn share_key(keys: &mut Interner, k: &str) -> Str {
    if keys.len() < MAX_SHARED_KEYS {
        keys.get(k)
    } else {
        Str::from(k)
    }
}

/// A collection built in `buf` (a reader's reused buffer) as a list of its exact length; `buf`, emptied,
/// goes back to `spare` for the next collection. So a collection costs one allocation, not one per
/// doubling, and the heap is not left with the doublings' holes.
pub(crate) fn exact<T>(mut buf: Vec<T>, spare: &mut Vec<Vec<T>>) -> Vec<T> {
    let mut out = Vec::with_capacity(buf.len());
    out.append(&mut buf);
    spare.push(buf);
    out
}

/// A label value is at most 63 characters; longer values (annotations) are seldom repeated, and are not
/// interned.
const MAX_INTERNED_VALUE: usize = 63;

/// How deep documents may nest before they are refused (no real Kubernetes object comes close).
pub const MAX_DEPTH: usize = 200;

/// A position in an input, 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

/// An input that could not be read, with where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub file: String,
    pub line: Option<u32>,
    pub col: Option<u32>,
    pub message: String,
}

impl ParseError {
    /// Does this error lie strictly before `other` in the file (by line, then column; an unknown place
    /// counts as the end)?
    pub fn precedes(&self, other: &ParseError) -> bool {
        let at = |e: &ParseError| (e.line.unwrap_or(u32::MAX), e.col.unwrap_or(u32::MAX));
        at(self) < at(other)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.col) {
            (Some(l), Some(c)) => write!(f, "{}:{}:{}: {}", self.file, l, c, self.message),
            (Some(l), None) => write!(f, "{}:{}: {}", self.file, l, self.message),
            _ => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// What kind of scalar the source had: it decides how the raw text is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarKind {
    /// A quoted or block string: always text.
    Str,
    /// An unquoted YAML scalar or a JSON number/literal: may be null, a bool or a number.
    Plain,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Scalar(Text, ScalarKind),
    Seq(Vec<Node>),
    /// Keys are shared: the same few hundred repeat in every object.
    Map(Vec<(Str, Node)>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub pos: Pos,
    pub value: Value,
}

static NULL_NODE: Node = Node { pos: Pos { line: 0, col: 0 }, value: Value::Null };

impl Node {
    pub fn new(pos: Pos, value: Value) -> Self {
        Node { pos, value }
    }

    /// The line of this node (1-based), or 0 for a synthesised node.
    pub fn line(&self) -> u32 {
        self.pos.line
    }

    /// The value under `key` in a mapping (the last one wins, as in the API server), else a null node.
    pub fn get(&self, key: &str) -> &Node {
        match &self.value {
            Value::Map(entries) => entries.iter().rev().find(|(k, _)| k == key).map_or(&NULL_NODE, |(_, v)| v),
            _ => &NULL_NODE,
        }
    }

    /// Walk a path of keys.
    pub fn at(&self, path: &[&str]) -> &Node {
        path.iter().fold(self, |n, k| n.get(k))
    }

    pub fn is_null(&self) -> bool {
        matches!(self.value, Value::Null)
    }

    /// Text of a scalar (any scalar: `replicas: "3"` and `replicas: 3` both read as "3").
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Scalar(s, _) => Some(s.as_str()),
            _ => None,
        }
    }

    /// A non-empty string.
    pub fn as_string(&self) -> Option<String> {
        self.as_str().filter(|s| !s.is_empty()).map(str::to_owned)
    }

    /// A boolean as a YAML 1.1 reader (go-yaml v2, which RKE reads `cluster.yml` with) takes it: besides
    /// `true`/`false`, a plain `y`, `yes`, `on`, `n`, `no`, `off` in any of their three spellings.
    pub fn as_bool_yaml11(&self) -> Option<bool> {
        match &self.value {
            Value::Scalar(s, ScalarKind::Plain) => match s.as_str() {
                "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Some(true),
                "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => Some(false),
                _ => self.as_bool(),
            },
            _ => self.as_bool(),
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match &self.value {
            Value::Scalar(s, ScalarKind::Plain) => match s.as_str() {
                "true" | "True" | "TRUE" => Some(true),
                "false" | "False" | "FALSE" => Some(false),
                _ => None,
            },
            Value::Scalar(s, ScalarKind::Str) => match s.as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }

    /// An integer, from a plain number or a string holding one.
    pub fn as_i64(&self) -> Option<i64> {
        let s = self.as_str()?.trim();
        if let Ok(v) = s.parse::<i64>() {
            return Some(v);
        }
        // `3.0` is an integer too; `3.5` is not.
        let f = s.parse::<f64>().ok()?;
        if f.fract() == 0.0 && f.abs() < 9.0e15 {
            Some(f as i64)
        } else {
            None
        }
    }

    /// Is this a scalar that YAML/JSON reads as a number (not a quoted string)?
    pub fn is_number(&self) -> bool {
        matches!(&self.value, Value::Scalar(s, ScalarKind::Plain) if s.trim().parse::<f64>().is_ok())
    }

    pub fn as_seq(&self) -> &[Node] {
        match &self.value {
            Value::Seq(items) => items,
            _ => &[],
        }
    }

    pub fn as_map(&self) -> &[(Str, Node)] {
        match &self.value {
            Value::Map(entries) => entries,
            _ => &[],
        }
    }

    pub fn is_map(&self) -> bool {
        matches!(self.value, Value::Map(_))
    }

    /// A map of string to string (labels, annotations, nodeSelector); other values are read as their text.
    /// Its keys and short values (a label's, not a whole manifest kept in an annotation) are shared
    /// through `strings`.
    pub fn string_map_in(&self, strings: &mut Interner) -> StringMap {
        self.as_map()
            .iter()
            .map(|(k, v)| {
                let v = v.as_str().unwrap_or_default();
                let v = if v.len() <= MAX_INTERNED_VALUE { strings.get(v) } else { Str::from(v) };
                (strings.get(k), v)
            })
            .collect()
    }
}

/// Does the text look like JSON (first non-blank character is `{` or `[`)?
pub fn looks_like_json(text: &str) -> bool {
    matches!(text.trim_start_matches('\u{feff}').trim_start().chars().next(), Some('{') | Some('['))
}

/// Read a whole input as a list of documents: JSON gives one, YAML one per `---` document.
/// Empty YAML documents (only comments) are left out.
pub fn parse_documents(file: &str, text: &str) -> Result<Vec<Node>, ParseError> {
    parse_documents_budgeted(file, text, &mut { MAX_ALIAS_BYTES })
}

/// [`parse_documents`] with YAML aliases expanding to at most `budget` bytes (what is used is taken from it).
pub fn parse_documents_budgeted(file: &str, text: &str, budget: &mut usize) -> Result<Vec<Node>, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let yaml = |budget: &mut usize| parse_yaml_documents_budgeted(file, text, budget, Keep::All);
    if looks_like_json(text) {
        match parse_json(file, text) {
            Ok(node) => Ok(vec![node]),
            // JSON-looking YAML flow (`[a, b]` or `{a: 1}`) is still valid YAML: fall back before failing.
            Err(json_err) => yaml(budget).map_err(|_| json_err),
        }
    } else {
        yaml(budget)
    }
}
