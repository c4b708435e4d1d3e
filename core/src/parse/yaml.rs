//! YAML documents to positioned trees, built from yaml-rust2's event stream without recursion.

use std::collections::HashMap;

use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

use super::{Node, ParseError, Pos, ScalarKind, Value, MAX_DEPTH};

/// How many nodes alias expansion may add in one input before it is refused (a "billion laughs" guard).
const MAX_ALIAS_NODES: usize = 1_000_000;

enum Frame {
    Seq { pos: Pos, anchor: usize, items: Vec<Node> },
    Map { pos: Pos, anchor: usize, entries: Vec<(String, Node)>, key: Option<String> },
}

fn pos(m: &Marker) -> Pos {
    Pos { line: m.line() as u32, col: m.col() as u32 + 1 }
}

fn count_nodes(n: &Node) -> usize {
    let mut count = 0;
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        count += 1;
        match &n.value {
            Value::Seq(items) => stack.extend(items.iter()),
            Value::Map(entries) => stack.extend(entries.iter().map(|(_, v)| v)),
            _ => {}
        }
    }
    count
}

fn key_text(n: &Node) -> String {
    match &n.value {
        Value::Scalar(s, _) => s.clone(),
        Value::Null => String::new(),
        // Complex keys never occur in Kubernetes objects; keep a marker rather than fail.
        Value::Seq(_) | Value::Map(_) => "?".to_owned(),
    }
}

/// Parse every document of a YAML stream. Documents that hold nothing (comments only, or a bare `---`)
/// are left out.
pub fn parse_yaml_documents(file: &str, text: &str) -> Result<Vec<Node>, ParseError> {
    let err = |m: &Marker, msg: &str| {
        let p = pos(m);
        ParseError { file: file.to_owned(), line: Some(p.line), col: Some(p.col), message: msg.to_owned() }
    };
    let mut parser = Parser::new_from_str(text);
    let mut docs = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: HashMap<usize, Node> = HashMap::new();
    let mut alias_budget = MAX_ALIAS_NODES;
    loop {
        let (event, mark) = parser.next_token().map_err(|e| err(e.marker(), e.info()))?;
        let mut done: Option<(Node, usize)> = None;
        match event {
            Event::StreamEnd => break,
            Event::StreamStart | Event::Nothing | Event::DocumentEnd => {}
            Event::DocumentStart => anchors.clear(),
            Event::Alias(id) => {
                let node = anchors.get(&id).cloned().ok_or_else(|| err(&mark, "alias to an unknown anchor"))?;
                let n = count_nodes(&node);
                alias_budget = alias_budget.checked_sub(n).ok_or_else(|| err(&mark, "too many alias expansions"))?;
                done = Some((Node { pos: pos(&mark), value: node.value }, 0));
            }
            Event::Scalar(s, style, anchor, _tag) => {
                let value = if style == TScalarStyle::Plain {
                    match s.as_str() {
                        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
                        _ => Value::Scalar(s, ScalarKind::Plain),
                    }
                } else {
                    Value::Scalar(s, ScalarKind::Str)
                };
                done = Some((Node::new(pos(&mark), value), anchor));
            }
            Event::SequenceStart(anchor, _) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(err(&mark, "nested too deeply"));
                }
                stack.push(Frame::Seq { pos: pos(&mark), anchor, items: Vec::new() });
            }
            Event::MappingStart(anchor, _) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(err(&mark, "nested too deeply"));
                }
                stack.push(Frame::Map { pos: pos(&mark), anchor, entries: Vec::new(), key: None });
            }
            Event::SequenceEnd | Event::MappingEnd => match stack.pop() {
                Some(Frame::Seq { pos, anchor, items }) => done = Some((Node::new(pos, Value::Seq(items)), anchor)),
                Some(Frame::Map { pos, anchor, mut entries, key }) => {
                    if let Some(k) = key {
                        entries.push((k, Node::new(pos, Value::Null)));
                    }
                    // YAML merge keys (`<<: *defaults`): explicit keys win over merged ones.
                    entries = apply_merge_keys(entries);
                    done = Some((Node::new(pos, Value::Map(entries)), anchor));
                }
                None => return Err(err(&mark, "unbalanced collection end")),
            },
        }
        if let Some((node, anchor)) = done {
            if anchor != 0 {
                anchors.insert(anchor, node.clone());
            }
            match stack.last_mut() {
                None => {
                    if !node.is_null() {
                        docs.push(node);
                    }
                }
                Some(Frame::Seq { items, .. }) => items.push(node),
                Some(Frame::Map { entries, key, .. }) => match key.take() {
                    None => *key = Some(key_text(&node)),
                    Some(k) => entries.push((k, node)),
                },
            }
        }
    }
    Ok(docs)
}

fn apply_merge_keys(entries: Vec<(String, Node)>) -> Vec<(String, Node)> {
    if !entries.iter().any(|(k, _)| k == "<<") {
        return entries;
    }
    let mut merged: Vec<(String, Node)> = Vec::new();
    let mut own: Vec<(String, Node)> = Vec::new();
    for (k, v) in entries {
        if k == "<<" {
            let sources: Vec<Node> = match v.value {
                Value::Seq(items) => items,
                other => vec![Node { pos: v.pos, value: other }],
            };
            for src in sources {
                if let Value::Map(es) = src.value {
                    for (mk, mv) in es {
                        if !merged.iter().any(|(k2, _)| *k2 == mk) {
                            merged.push((mk, mv));
                        }
                    }
                }
            }
        } else {
            own.push((k, v));
        }
    }
    merged.retain(|(k, _)| !own.iter().any(|(k2, _)| k2 == k));
    own.extend(merged);
    own
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
}
