//! What the page and its worker say to each other. Every message is one JSON text (`{"json": ...}`), with
//! the picked `File`s beside it in a `files` array (a `File` goes to a worker by reference, not by copy).

use serde::{Deserialize, Serialize};

/// Where one input's bytes come from. Written `{"kind": "file", "index": 0}` (kept so in IndexedDB), and
/// read through [`SourceWire`], a plain struct: serde reads an internally tagged enum by buffering it in a
/// tree, which made this small type's reader 3 KB of the page's gzipped wasm.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", try_from = "SourceWire")]
pub enum Source {
    /// The `files[index]` beside the message.
    File { index: usize },
    /// Pasted text.
    Text { text: String },
    /// One of the built-in demo cluster's files.
    Demo,
}

/// [`Source`] as JSON has it: its `kind` and the fields of every kind.
#[derive(Deserialize)]
pub struct SourceWire {
    kind: String,
    #[serde(default)]
    index: Option<usize>,
    #[serde(default)]
    text: Option<String>,
}

impl TryFrom<SourceWire> for Source {
    type Error = String;

    fn try_from(w: SourceWire) -> Result<Source, String> {
        match (w.kind.as_str(), w.index, w.text) {
            ("file", Some(index), _) => Ok(Source::File { index }),
            ("text", _, Some(text)) => Ok(Source::Text { text }),
            ("demo", _, _) => Ok(Source::Demo),
            (kind, ..) => Err(format!("an input source of kind `{kind}` without its field")),
        }
    }
}

/// One input as the page lists it before it is read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputSpec {
    pub name: String,
    pub source: Source,
    /// Listed but not read (a folder's file of another kind), with the reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passed_over: Option<String>,
}

/// From the page to the worker. `generation` numbers requests: an answer to an older one is dropped.
/// Externally tagged, as [`FromWorker`] (and for the same reason: the worker's reader of it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ToWorker {
    /// Read these inputs (replacing what was read) and check them under `options` (the options JSON).
    Load { generation: u32, options: String, inputs: Vec<InputSpec> },
    /// Check what was read again under other options.
    Options { generation: u32, options: String },
    /// Render the last report in a format of the CLI (`json`, `markdown`, `sarif`, `junit`, `text`).
    Export { format: String },
    /// The lines around `line` of an input, for a finding's source.
    Lines { file: String, line: u32 },
    /// Check what was read under other options too, beside the current report.
    Compare { options: String },
}

/// One side of a comparison.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    pub verdict: String,
    pub blocker: u64,
    pub warning: u64,
    pub info: u64,
    pub plan_seconds: u64,
    pub plan_stops: bool,
    pub workloads_down: u64,
    pub downtime_seconds: u64,
    pub path: String,
    /// The families of checks in scope that make the verdict incomplete (`coverage.incomplete`).
    #[serde(default)]
    pub incomplete: Vec<String>,
}

impl Side {
    /// The verdict as the comparison shows it: with the families that stand on nothing, when incomplete.
    pub fn verdict_words(&self) -> String {
        let v = self.verdict.to_ascii_uppercase();
        if self.incomplete.is_empty() {
            v
        } else {
            format!("{v} (not checked: {})", self.incomplete.join(", "))
        }
    }
}

/// The current report against the same inputs under other options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comparison {
    /// The other options, as `name=value` pairs that differ.
    pub options: Vec<(String, String)>,
    pub current: Side,
    pub other: Side,
    /// Findings only under the other options (`severity code object: message`), and only under the current.
    pub only_other: Vec<String>,
    pub only_current: Vec<String>,
    /// The other report's upgrade, summary, plan and downtime (JSON), for the what-if to draw.
    #[serde(default)]
    pub other_report: String,
}

/// What one input turned out to be.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputInfo {
    pub name: String,
    pub bytes: u64,
    pub objects: u64,
    /// Why it was left out (cannot be read: file, line and column), if it was.
    pub skipped: Option<String>,
    /// A distribution's own config read as options (an RKE `cluster.yml`): what was made of it.
    #[serde(default)]
    pub config: Option<String>,
}

/// A node as the replay needs it: its pods (those a drain moves), counted and named (the first 50).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeFacts {
    pub name: String,
    pub control_plane: bool,
    pub pods: u32,
    pub pod_names: Vec<String>,
}

/// One point of the what-if curve: the plan's length and the workloads' downtime at one concurrency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurvePoint {
    pub concurrency: u32,
    pub total_seconds: u64,
    pub downtime_seconds: u64,
    pub workloads_down: u32,
}

/// From the worker to the page. Externally tagged (`{"progress": {...}}`), not by a `type` field: serde reads
/// an internally tagged enum by buffering each message in a tree and reading every variant's types from it
/// a second way, which made this type's reader 30 KB of the page's code. Nothing keeps these messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FromWorker {
    /// Reading: bytes read of all, objects so far, the file being read.
    Progress { generation: u32, bytes: u64, total: u64, objects: u64, file: String },
    /// Every input, once read, and the nodes read (they change only with the inputs, not the options).
    Inputs { generation: u32, inputs: Vec<InputInfo>, nodes: Vec<NodeFacts> },
    /// The report (the contract's JSON, its findings sent after it in `Findings` parts).
    Report { generation: u32, report: String, findings: u32 },
    /// Some of the report's findings (a JSON array), in order; `last` on the final part. With `revealed`,
    /// some of `plan.ifResolved.revealed` (sent before the findings): at 150,000 pods they are 52 MB of
    /// JSON, read in one task of 765 ms when they came inside the report.
    Findings {
        generation: u32,
        part: String,
        last: bool,
        #[serde(default)]
        revealed: bool,
    },
    /// The inputs or the options cannot be checked.
    Failed { generation: u32, message: String },
    /// What-if points so far for the largest worker pool (`size` nodes); `done` once all are in.
    Curve { generation: u32, pool: String, size: u32, points: Vec<CurvePoint>, done: bool },
    /// An export, ready to download.
    Export { format: String, file_name: String, mime: String, text: String },
    /// Lines of an input from `first` (1-based).
    Lines { file: String, first: u32, lines: Vec<String> },
    /// The comparison asked for, or why it cannot be made (two fields, not a `Result`: serde's reader of a
    /// `Result` was 2 KB of the page's gzipped wasm).
    Compared {
        #[serde(default)]
        comparison: Option<Box<Comparison>>,
        #[serde(default)]
        error: Option<String>,
    },
    /// Every rule's docs by code (Markdown), sent once as the worker starts: the page links none.
    Docs { docs: Vec<(String, String)> },
}

impl ToWorker {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl FromWorker {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_go_through_json_and_back() {
        let m = ToWorker::Load {
            generation: 3,
            options: "{\"to\":\"1.29\"}".into(),
            inputs: vec![
                InputSpec { name: "a.yaml".into(), source: Source::File { index: 0 }, passed_over: None },
                InputSpec {
                    name: "pasted".into(),
                    source: Source::Text { text: "kind: Pod".into() },
                    passed_over: None,
                },
            ],
        };
        let back: ToWorker = serde_json::from_str(&m.to_json()).unwrap();
        assert_eq!(back, m);
        let f = FromWorker::Progress { generation: 1, bytes: 5, total: 10, objects: 2, file: "a".into() };
        assert!(f.to_json().starts_with("{\"progress\":{"));
        assert_eq!(serde_json::from_str::<FromWorker>(&f.to_json()).unwrap(), f);
        let c = FromWorker::Compared { comparison: None, error: Some("bad options".into()) };
        assert_eq!(serde_json::from_str::<FromWorker>(&c.to_json()).unwrap(), c);
    }

    #[test]
    fn a_source_is_written_and_read_as_inputs_kept_in_indexeddb_have_it() {
        for (json, source) in [
            (r#"{"kind":"file","index":2}"#, Source::File { index: 2 }),
            (r#"{"kind":"text","text":"kind: Pod"}"#, Source::Text { text: "kind: Pod".into() }),
            (r#"{"kind":"demo"}"#, Source::Demo),
        ] {
            assert_eq!(serde_json::to_string(&source).unwrap(), json);
            assert_eq!(serde_json::from_str::<Source>(json).unwrap(), source);
        }
        for bad in [r#"{"kind":"file"}"#, r#"{"kind":"folder","index":1}"#, r#"{"index":1}"#] {
            assert!(serde_json::from_str::<Source>(bad).is_err(), "{bad}");
        }
    }
}
