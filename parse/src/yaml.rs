//! YAML documents to positioned trees, built from yaml-rust2's event stream without recursion.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

use super::{
    block, exact, share_key, unread, Interner, Keep, Node, ParseError, PathFrame, Pos, ScalarKind, Str, Value,
    MAX_DEPTH,
};

/// How much alias expansion may produce in one input before it is refused (a "billion laughs" guard),
/// counted in bytes: every scalar's and key's text, plus [`NODE_BYTES`] a node, so that one alias of a
/// long string costs what it copies.
pub const MAX_ALIAS_BYTES: usize = 32 << 20;
/// What a node costs in [`MAX_ALIAS_BYTES`] besides its text.
const NODE_BYTES: usize = 16;

enum Frame {
    /// `stream`: a document's top-level `items`, handed out item by item (see [`stream_yaml_documents`]).
    Seq {
        pos: Pos,
        anchor: usize,
        items: Vec<Node>,
        stream: bool,
    },
    Map {
        pos: Pos,
        anchor: usize,
        entries: Vec<(Str, Node)>,
        key: Option<Str>,
    },
}

impl PathFrame for Frame {
    fn key(&self) -> Option<&str> {
        match self {
            Frame::Map { key, .. } => key.as_deref(),
            Frame::Seq { .. } => None,
        }
    }
    fn is_seq(&self) -> bool {
        matches!(self, Frame::Seq { .. })
    }
}

pub(crate) fn pos(m: &Marker) -> Pos {
    Pos { line: m.line() as u32, col: m.col() as u32 + 1 }
}

/// The bytes a copy of `n` produces (its text and its nodes), for the alias budget.
fn copy_bytes(n: &Node) -> usize {
    let mut bytes = 0usize;
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        bytes = bytes.saturating_add(NODE_BYTES);
        match &n.value {
            Value::Seq(items) => stack.extend(items.iter()),
            Value::Map(entries) => {
                for (k, v) in entries {
                    bytes = bytes.saturating_add(k.len());
                    stack.push(v);
                }
            }
            Value::Scalar(s, _) => bytes = bytes.saturating_add(s.len()),
            Value::Null => {}
        }
    }
    bytes
}

/// A key's text, shared through `keys` (see [`share_key`]).
fn key_text(n: &Node, keys: &mut Interner) -> Str {
    match &n.value {
        Value::Scalar(s, _) => share_key(keys, s),
        Value::Null => Str::default(),
        // Complex keys never occur in Kubernetes objects; keep a marker rather than fail.
        Value::Seq(_) | Value::Map(_) => Str::from("?"),
    }
}

/// Parse every document of a YAML stream. Documents that hold nothing (comments only, or a bare `---`)
/// are left out.
pub fn parse_yaml_documents(file: &str, text: &str) -> Result<Vec<Node>, ParseError> {
    let mut budget = MAX_ALIAS_BYTES;
    parse_yaml_documents_budgeted(file, text, &mut budget, Keep::All)
}

/// [`parse_yaml_documents`] for one part of a file read in parts (`Session`): the alias budget is the
/// file's, carried from part to part, so a file is refused or read alike whole or in parts.
///
/// With [`Keep::Read`], the values nothing reads ([`super::unread`]: managed fields' field sets,
/// containers' env and probes, container statuses) are parsed, so every error is found at the same place,
/// but never built: a `kubectl get -o yaml` List's tree is then a fraction of its text. A text with an
/// alias is read with [`Keep::All`] instead (an alias may copy an anchored value that was not built, and
/// the alias budget counts what a copy of the whole value costs): the same tree, less what is not read.
pub fn parse_yaml_documents_budgeted(
    file: &str,
    text: &str,
    budget: &mut usize,
    keep: Keep,
) -> Result<Vec<Node>, ParseError> {
    let before = *budget;
    match build(file, text, budget, keep, None) {
        Err(YamlStop::Retry) => {
            *budget = before;
            build(file, text, budget, Keep::All, None).map_err(YamlStop::error)
        }
        other => other.map_err(YamlStop::error),
    }
}

/// A document's `kind` and `apiVersion` as they were when its `items` began (`None`: not given yet).
pub type ListHead = (Option<String>, Option<String>);

/// What [`stream_yaml_documents`] hands out, in the order of the text.
pub enum YamlOut {
    /// An item of a document's top-level `items` sequence, complete, with the document's head as it was
    /// when the sequence began (kubectl writes `kind` after `items`).
    Item(Node, ListHead),
    /// A document, complete. Its streamed items are not in it: its `items` is an empty sequence.
    Document(Node),
}

/// Why a streamed reading stopped.
pub enum YamlStop {
    Error(ParseError),
    /// Read the text again, whole and with every field ([`parse_yaml_documents_budgeted`] with
    /// [`Keep::All`]), after taking back what was handed out: an alias was met under [`Keep::Read`], the
    /// block reader (`block`) stopped after something was handed out, or the receiver asks it.
    Retry,
}

impl YamlStop {
    fn error(self) -> ParseError {
        match self {
            YamlStop::Error(e) => e,
            // Only returned under Keep::Read or with a receiver, which the second reading has neither of.
            YamlStop::Retry => ParseError { file: String::new(), line: None, col: None, message: String::new() },
        }
    }
}

impl From<ParseError> for YamlStop {
    fn from(e: ParseError) -> YamlStop {
        YamlStop::Error(e)
    }
}

/// [`parse_yaml_documents_budgeted`] handing out each document as it ends, and each item of a document's
/// top-level `items` as it ends (never held in its document's tree): a `kubectl get -o yaml` List is read
/// one item at a time. The same nodes as the whole reading gives, in the same order. On
/// [`YamlStop::Retry`] what was handed out must be taken back and the text read whole.
pub fn stream_yaml_documents(
    file: &str,
    text: &str,
    budget: &mut usize,
    keep: Keep,
    out: &mut dyn FnMut(YamlOut) -> Result<(), YamlStop>,
) -> Result<(), YamlStop> {
    build(file, text, budget, keep, Some(out)).map(|_| ())
}

/// The events of the reader that reads `text` (our block reader, or yaml-rust2 for a text it leaves),
/// dropped, nothing built: how many, or `None` for a text yaml-rust2 refuses. The bench's floor for reading
/// YAML (instantiated here, so built as the reader is).
pub fn yaml_event_count(text: &str) -> Option<usize> {
    let mut count = 0usize;
    if block::read(text, &mut |_, _| {
        count += 1;
        Ok(())
    })
    .is_ok()
    {
        return Some(count);
    }
    let mut parser = Parser::new_from_str(text);
    let mut count = 0usize;
    loop {
        count += 1;
        if matches!(parser.next_token().ok()?.0, Event::StreamEnd) {
            return Some(count);
        }
    }
}

fn root_scalar(stack: &[Frame], key: &str) -> Option<String> {
    match stack.first() {
        Some(Frame::Map { entries, .. }) => {
            entries.iter().rev().find(|(k, _)| k == key).and_then(|(_, v)| v.as_str()).map(str::to_owned)
        }
        _ => None,
    }
}

fn build(
    file: &str,
    text: &str,
    budget: &mut usize,
    keep: Keep,
    sink: Option<&mut dyn FnMut(YamlOut) -> Result<(), YamlStop>>,
) -> Result<Vec<Node>, YamlStop> {
    // The YAML scanner stops at a NUL as if the input ended there: everything after it would be lost in
    // silence. YAML does not allow the character, so it is an error at its place.
    if let Some(at) = text.find('\0') {
        let before = text.get(..at).unwrap_or_default();
        // What precedes it is read first: an error there comes first, in this file as in its parts
        // (found by `cargo xtask fuzz`: `check()` and `Session` named different errors).
        let line = u32::try_from(before.matches('\n').count()).unwrap_or(u32::MAX).saturating_add(1);
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count());
        let nul = ParseError {
            file: file.to_owned(),
            line: Some(line),
            col: Some(u32::try_from(col).unwrap_or(u32::MAX).saturating_add(1)),
            message: "a NUL character (U+0000), which YAML does not allow: nothing after it could be read".to_owned(),
        };
        // An error that ends before the NUL comes first (one at the cut is only the cut).
        return match parse_yaml_documents_budgeted(file, before, budget, Keep::All) {
            Err(earlier) if earlier.precedes(&nul) => Err(earlier.into()),
            _ => Err(nul.into()),
        };
    }
    let mut b = Builder {
        file,
        keep,
        sink,
        handed: false,
        alias_budget: budget,
        docs: Vec::new(),
        stack: Vec::new(),
        anchors: HashMap::new(),
        keys: Interner::new(),
        spare_maps: Vec::new(),
        spare_seqs: Vec::new(),
        skipping: 0,
        head: (None, None),
    };
    // The YAML kubectl and Helm write, by a reader of our own (see `block`); any other, by yaml-rust2.
    match block::read(text, &mut |event, at| b.block_event(event, at)) {
        Ok(()) => return Ok(b.docs),
        Err(block::Stop::Yaml(stop)) => return Err(stop),
        // What was handed out is taken back, and the text read whole (as after an alias under Keep::Read).
        Err(block::Stop::Other) if b.handed => return Err(YamlStop::Retry),
        // Nothing handed out: what was built is dropped and yaml-rust2 reads the text.
        Err(block::Stop::Other) => b.reset(),
    }
    let mut parser = Parser::new_from_str(text);
    loop {
        let (event, mark) = parser.next_token().map_err(|e| b.error(pos(e.marker()), e.info()))?;
        if b.event(event, pos(&mark))? {
            return Ok(b.docs);
        }
    }
}

/// The trees of a YAML stream, built from its events.
struct Builder<'f, 's, 'b> {
    file: &'f str,
    keep: Keep,
    sink: Option<&'s mut dyn FnMut(YamlOut) -> Result<(), YamlStop>>,
    /// Has the sink been handed something?
    handed: bool,
    alias_budget: &'b mut usize,
    docs: Vec<Node>,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Node>,
    keys: Interner,
    /// Emptied buffers of closed collections, reused (see [`exact`]).
    spare_maps: Vec<Vec<(Str, Node)>>,
    spare_seqs: Vec<Vec<Node>>,
    /// Under Keep::Read, how deep inside a value that is not built (0: building).
    skipping: usize,
    /// The document's head when its streamed `items` began.
    head: ListHead,
}

impl Builder<'_, '_, '_> {
    /// Back to the stream's start (nothing handed out; the block reader gives no aliases, so the alias
    /// budget is as it was).
    fn reset(&mut self) {
        self.docs.clear();
        self.stack.clear();
        self.anchors.clear();
        self.keys = Interner::new();
        self.skipping = 0;
        self.head = (None, None);
    }

    fn error(&self, at: Pos, msg: &str) -> ParseError {
        ParseError { file: self.file.to_owned(), line: Some(at.line), col: Some(at.col), message: msg.to_owned() }
    }

    /// One of yaml-rust2's events, at its place: `true` at the stream's end.
    fn event(&mut self, event: Event, at: Pos) -> Result<bool, YamlStop> {
        match event {
            Event::Scalar(s, style, anchor, tag) => {
                // `!!str 1.10` is the string "1.10" (sigs.k8s.io/yaml: a string in the JSON it makes), however
                // it is written; other tags leave the scalar as written.
                let is_str = tag.as_ref().is_some_and(|t| {
                    let handle = if t.handle == "!!" { "tag:yaml.org,2002:" } else { t.handle.as_str() };
                    handle.len() + t.suffix.len() == 21 && format!("{handle}{}", t.suffix) == "tag:yaml.org,2002:str"
                });
                let style = if is_str && style == TScalarStyle::Plain { TScalarStyle::SingleQuoted } else { style };
                self.scalar(Cow::Owned(s), style, anchor, at).map(|()| false)
            }
            other => self.other(other, at),
        }
    }

    /// One of the block reader's events (its scalars borrowed from the text).
    fn block_event(&mut self, event: block::Ev<'_>, at: Pos) -> Result<(), YamlStop> {
        match event {
            block::Ev::Scalar(s, style) => self.scalar(s, style, 0, at),
            block::Ev::Other(e) => self.other(e, at).map(|_| ()),
        }
    }

    /// Is the value about to start one nothing reads, not to be built ([`Keep::Read`], [`unread`])?
    fn value_unread(&self) -> bool {
        self.keep == Keep::Read
            && self.stack.last().and_then(PathFrame::key).is_some_and(|k| k != "<<")
            && unread(&self.stack)
    }

    /// A scalar: a key's text is shared, a value's copied into its node (unless nothing reads it).
    fn scalar(&mut self, s: Cow<'_, str>, style: TScalarStyle, anchor: usize, at: Pos) -> Result<(), YamlStop> {
        if self.skipping > 0 {
            return Ok(());
        }
        if self.value_unread() {
            if let Some(Frame::Map { key, .. }) = self.stack.last_mut() {
                *key = None;
            }
            return Ok(());
        }
        let null = style == TScalarStyle::Plain && matches!(&*s, "" | "~" | "null" | "Null" | "NULL");
        // A key without an anchor: no node made (as `key_text` reads the node it would be).
        if anchor == 0 && matches!(self.stack.last(), Some(Frame::Map { key: None, .. })) {
            let k = if null { Str::default() } else { share_key(&mut self.keys, &s) };
            return self.set_key(k);
        }
        let value = match (null, style) {
            (true, _) => Value::Null,
            (false, TScalarStyle::Plain) => Value::Scalar(s.into(), ScalarKind::Plain),
            (false, _) => Value::Scalar(s.into(), ScalarKind::Str),
        };
        self.place(Node::new(at, value), anchor)
    }

    /// The key of the mapping being built (which waits for one).
    fn set_key(&mut self, k: Str) -> Result<(), YamlStop> {
        let root_level = self.stack.len() == 1;
        let streamed = self.sink.is_some();
        if let Some(Frame::Map { entries, key, .. }) = self.stack.last_mut() {
            // A root's `items` given twice: the last one wins (as kubectl's YAML reader, sigs.k8s.io/yaml,
            // reads a key given twice), and the first was handed out already: read the text whole instead.
            if streamed && root_level && k == "items" && entries.iter().any(|(e, _)| e == "items") {
                return Err(YamlStop::Retry);
            }
            *key = Some(k);
        }
        Ok(())
    }

    /// Any event but a scalar: `true` at the stream's end.
    fn other(&mut self, event: Event, at: Pos) -> Result<bool, YamlStop> {
        if self.keep == Keep::Read && matches!(event, Event::Alias(_)) {
            return Err(YamlStop::Retry);
        }
        let starts_value = matches!(event, Event::SequenceStart(..) | Event::MappingStart(..));
        if self.skipping == 0 && starts_value && self.value_unread() {
            if self.stack.len() >= MAX_DEPTH {
                return Err(self.error(at, "nested too deeply").into());
            }
            self.skipping = 1;
            return Ok(false);
        }
        let stack = &mut self.stack;
        if self.skipping > 0 {
            match event {
                Event::SequenceStart(..) | Event::MappingStart(..) => {
                    // The depth the tree would have, as if it were built.
                    if stack.len() + self.skipping >= MAX_DEPTH {
                        return Err(self.error(at, "nested too deeply").into());
                    }
                    self.skipping += 1;
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    self.skipping -= 1;
                    if self.skipping == 0 {
                        if let Some(Frame::Map { key, .. }) = stack.last_mut() {
                            *key = None;
                        }
                    }
                }
                _ => {}
            }
            return Ok(false);
        }
        let (node, anchor) = match event {
            Event::StreamEnd => return Ok(true),
            Event::StreamStart | Event::Nothing | Event::DocumentEnd => return Ok(false),
            Event::DocumentStart => {
                self.anchors.clear();
                return Ok(false);
            }
            // Scalars go to `scalar`.
            Event::Scalar(..) => return Ok(false),
            Event::Alias(id) => {
                let anchored = self.anchors.get(&id).ok_or_else(|| self.error(at, "alias to an unknown anchor"))?;
                // Counted before it is copied: the copy is never made once the budget is spent.
                let n = copy_bytes(anchored);
                let Some(left) = self.alias_budget.checked_sub(n) else {
                    let message = format!(
                        "alias expansion limit: aliases would produce more than {} MiB (MAX_ALIAS_BYTES)",
                        MAX_ALIAS_BYTES >> 20
                    );
                    return Err(self.error(at, &message).into());
                };
                *self.alias_budget = left;
                let node = anchored.clone();
                (Node { pos: at, value: node.value }, 0)
            }
            Event::SequenceStart(anchor, _) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(self.error(at, "nested too deeply").into());
                }
                let stream = self.sink.is_some()
                    && stack.len() == 1
                    && matches!(stack.first(), Some(Frame::Map { key: Some(k), .. }) if k == "items");
                if stream {
                    self.head = (root_scalar(stack, "kind"), root_scalar(stack, "apiVersion"));
                }
                let items = self.spare_seqs.pop().unwrap_or_default();
                stack.push(Frame::Seq { pos: at, anchor, items, stream });
                return Ok(false);
            }
            Event::MappingStart(anchor, _) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(self.error(at, "nested too deeply").into());
                }
                let entries = self.spare_maps.pop().unwrap_or_default();
                stack.push(Frame::Map { pos: at, anchor, entries, key: None });
                return Ok(false);
            }
            Event::SequenceEnd | Event::MappingEnd => match stack.pop() {
                Some(Frame::Seq { pos, anchor, items, .. }) => {
                    (Node::new(pos, Value::Seq(exact(items, &mut self.spare_seqs))), anchor)
                }
                Some(Frame::Map { pos, anchor, mut entries, key }) => {
                    if let Some(k) = key {
                        entries.push((k, Node::new(pos, Value::Null)));
                    }
                    // YAML merge keys (`<<: *defaults`): explicit keys win over merged ones.
                    let entries = apply_merge_keys(exact(entries, &mut self.spare_maps));
                    (Node::new(pos, Value::Map(entries)), anchor)
                }
                None => return Err(self.error(at, "unbalanced collection end").into()),
            },
        };
        self.place(node, anchor)?;
        Ok(false)
    }

    /// A value complete: into its collection, its document, or the receiver.
    fn place(&mut self, node: Node, anchor: usize) -> Result<(), YamlStop> {
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        match self.stack.last_mut() {
            None => {
                if !node.is_null() {
                    match self.sink.as_mut() {
                        Some(sink) => {
                            self.handed = true;
                            sink(YamlOut::Document(node))?;
                        }
                        None => self.docs.push(node),
                    }
                }
            }
            Some(Frame::Seq { stream: true, .. }) => {
                if let Some(sink) = self.sink.as_mut() {
                    self.handed = true;
                    sink(YamlOut::Item(node, self.head.clone()))?;
                }
            }
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map { entries, key, .. }) => match key.take() {
                Some(k) => entries.push((k, node)),
                None => {
                    let k = key_text(&node, &mut self.keys);
                    self.set_key(k)?;
                }
            },
        }
        Ok(())
    }
}

/// YAML merge keys: the maps under `<<` (earlier ones win), under the map's own keys. Linear in the keys.
fn apply_merge_keys(entries: Vec<(Str, Node)>) -> Vec<(Str, Node)> {
    if !entries.iter().any(|(k, _)| k == "<<") {
        return entries;
    }
    let mut merged: Vec<(Str, Node)> = Vec::new();
    let mut own: Vec<(Str, Node)> = Vec::new();
    for (k, v) in entries {
        if k == "<<" {
            match v.value {
                Value::Seq(items) => merged.extend(items.into_iter().flat_map(map_entries)),
                other => merged.extend(map_entries(Node { pos: v.pos, value: other })),
            }
        } else {
            own.push((k, v));
        }
    }
    let mut seen: HashSet<Str> = own.iter().map(|(k, _)| k.clone()).collect();
    for (k, v) in merged {
        if seen.insert(k.clone()) {
            own.push((k, v));
        }
    }
    own
}

fn map_entries(n: Node) -> Vec<(Str, Node)> {
    match n.value {
        Value::Map(es) => es,
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multi_document_with_positions() {
        let text = "# comment only\n---\napiVersion: v1\nkind: List\nitems:\n- kind: Pod\n  metadata: {name: a}\n- kind: Pod\n  replicas: \"3\"\n---\n---\nkind: Node\n";
        let docs = parse_yaml_documents("f.yaml", text).unwrap();
        assert_eq!(docs.len(), 2);
        let items = docs[0].get("items").as_seq();
        assert_eq!(items[0].line(), 6);
        assert_eq!(items[1].line(), 8);
        assert_eq!(items[0].at(&["metadata", "name"]).as_str(), Some("a"));
        assert_eq!(items[1].get("replicas").value, Value::Scalar("3".into(), ScalarKind::Str));
        assert_eq!(docs[1].get("kind").as_str(), Some("Node"));
        assert_eq!(docs[1].line(), 12);
    }

    /// `!!str` makes a string of what would be a number, a boolean or null, as sigs.k8s.io/yaml (kubectl's
    /// reader) converts it to JSON; other tags leave the scalar as written.
    #[test]
    fn a_str_tag_makes_a_string() {
        let text = "a: !!str 1.10\nb: !!str true\nc: !!str null\nd: !<tag:yaml.org,2002:str> 3\ne: !!int 3\nf: 1.10\n";
        let doc = parse_yaml_documents("t.yaml", text).unwrap().remove(0);
        for (k, v) in [("a", "1.10"), ("b", "true"), ("c", "null"), ("d", "3")] {
            assert_eq!(doc.get(k).value, Value::Scalar(v.into(), ScalarKind::Str), "{k}");
        }
        assert_eq!(doc.get("e").value, Value::Scalar("3".into(), ScalarKind::Plain));
        assert_eq!(doc.get("f").value, Value::Scalar("1.10".into(), ScalarKind::Plain));
    }

    #[test]
    fn event_count_is_the_readers_events() {
        // Stream start, document start, mapping start, `a`, `1`, mapping end, document end, stream end: the
        // block reader's, then yaml-rust2's for a flow mapping.
        assert_eq!(yaml_event_count("a: 1\n"), Some(8));
        assert_eq!(yaml_event_count("{a: 1}\n"), Some(8));
        // Two documents: their four markers, and `x` and `y` as scalars.
        assert_eq!(yaml_event_count("x\n---\ny\n"), Some(8));
        assert_eq!(yaml_event_count("a: [1\n"), None);
    }

    #[test]
    fn anchors_aliases_and_merge_keys() {
        let docs = parse_yaml_documents("f", "base: &b {x: 1, y: 2}\nc:\n  <<: *b\n  y: 3\n").unwrap();
        let c = docs[0].get("c");
        assert_eq!(c.get("x").as_str(), Some("1"));
        assert_eq!(c.get("y").as_str(), Some("3"));
    }

    #[test]
    fn errors_have_positions() {
        let e = parse_yaml_documents("bad.yaml", "a: 1\nb: [1, 2\nc: 3\n").unwrap_err();
        assert_eq!(e.file, "bad.yaml");
        assert!(e.line.is_some() && e.col.is_some(), "{e}");
        let e = parse_yaml_documents("bad.yaml", "key: value\n  bad: indent\n").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
    }

    #[test]
    fn billion_laughs_is_refused() {
        let mut s = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            s.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n",
                p = i - 1
            ));
        }
        assert!(parse_yaml_documents("x", &s).is_err());
        assert!(parse_yaml_documents("x", &"[".repeat(5000)).is_err());
    }

    #[test]
    fn aliases_of_long_strings_are_counted_in_bytes() {
        // One 1 MiB string aliased 64 times: few nodes, 64 MiB of copies.
        let big = "x".repeat(1 << 20);
        let mut s = format!("a: &s {big}\nl:\n");
        for _ in 0..64 {
            s.push_str("- *s\n");
        }
        let e = parse_yaml_documents("x", &s).unwrap_err();
        assert!(e.message.contains("MAX_ALIAS_BYTES"), "{e}");
        // Aliases used as keys count too.
        let mut k = format!("a: &s {big}\nm:\n");
        for i in 0..64 {
            k.push_str(&format!("  ? *s\n  : {i}\n"));
        }
        assert!(parse_yaml_documents("x", &k).is_err());
        // A few small aliases are fine.
        assert!(parse_yaml_documents("x", "a: &a {x: 1}\nb: *a\nc: *a\n").is_ok());
    }

    #[test]
    fn a_nul_byte_is_an_error_at_its_place() {
        let e = parse_yaml_documents("n.yaml", "kind: Node\nmetadata:\n  name: a\0b\n---\nkind: Pod\n").unwrap_err();
        assert_eq!((e.line, e.col), (Some(3), Some(10)), "{e}");
        assert!(e.message.contains("NUL"), "{e}");
    }

    #[test]
    fn merge_keys_are_linear() {
        // 20,000 merged keys: quadratic merging took seconds; this must be instant.
        let mut s = String::from("base: &b\n");
        for i in 0..20_000 {
            s.push_str(&format!("  k{i}: {i}\n"));
        }
        s.push_str("m:\n  <<: [*b, *b, *b]\n  k1: own\n");
        let docs = parse_yaml_documents("x", &s).unwrap();
        let m = docs[0].get("m");
        assert_eq!(m.get("k1").as_str(), Some("own"));
        assert_eq!(m.get("k19999").as_str(), Some("19999"));
    }
}
