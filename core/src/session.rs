//! Streaming input: `push(name, chunk)` any number of times (chunks split anywhere, even inside a UTF-8
//! character), then `finish()`. YAML is parsed document by document as soon as a `---` line closes one,
//! and only the typed objects are kept: memory follows what the checks keep plus the largest single
//! document, not the input's size. A JSON file is one document and is held until its end.

use crate::error::Error;
use crate::ingest::{before_directives, json_file, read_part, scan_boundaries, FileIngest, Ingested, BOM};
use crate::options::UpgradeOptions;
use crate::parse::MAX_ALIAS_BYTES;
use crate::pipeline::{check_options, report_from};
use crate::report::Report;

struct Current {
    file: FileIngest,
    /// Bytes not yet parsed: the start of an unfinished document.
    pending: Vec<u8>,
    /// Lines before `pending` in the file.
    line_offset: u32,
    json: Option<bool>,
    /// The file's alias budget, carried from part to part (`parse_yaml_documents_budgeted`).
    alias_budget: usize,
    /// Has any part of the file been parsed yet (a byte-order mark is dropped from the first)?
    started: bool,
    /// How far `pending` has been scanned for document boundaries (a line start).
    scanned: usize,
}

pub struct Session {
    options: UpgradeOptions,
    ingested: Ingested,
    current: Option<Current>,
    /// The first error met; `finish` returns it.
    error: Option<Error>,
}

impl Session {
    /// A new session; bad options are refused at once.
    pub fn new(options: UpgradeOptions) -> Result<Session, Error> {
        check_options(&options)?;
        Ok(Session { options, ingested: Ingested::default(), current: None, error: None })
    }

    fn parse_pending(&mut self, upto: usize) -> Result<(), Error> {
        let Some(cur) = self.current.as_mut() else { return Ok(()) };
        let rest = cur.pending.split_off(upto.min(cur.pending.len()));
        let chunk = std::mem::replace(&mut cur.pending, rest);
        let name = cur.file.name.clone();
        // A byte-order mark starts the file, never a part of it after the first (check() drops it too).
        let body = if cur.started { &chunk[..] } else { chunk.strip_prefix(BOM).unwrap_or(&chunk) };
        cur.started = true;
        let lines = u32::try_from(chunk.iter().filter(|b| **b == b'\n').count()).unwrap_or(u32::MAX);
        let offset = cur.line_offset;
        // Through the reader check() uses for a whole file.
        let docs = read_part(&name, body, offset, cur.json == Some(true), &mut cur.alias_budget)?;
        cur.line_offset = offset.saturating_add(lines);
        let file = &mut cur.file;
        self.ingested.add_documents(file, &docs);
        Ok(())
    }

    fn close_file(&mut self) -> Result<(), Error> {
        let len = self.current.as_ref().map_or(0, |c| c.pending.len());
        let result = self.parse_pending(len);
        if let Some(cur) = self.current.take() {
            match result {
                Ok(()) => self.ingested.end_file(cur.file),
                Err(Error::Input(e)) => self.ingested.unreadable(e, false)?,
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Add a chunk of the named input. A new name ends the previous input.
    pub fn push(&mut self, name: &str, chunk: &[u8]) -> Result<(), Error> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let r = self.push_inner(name, chunk);
        if let Err(e) = &r {
            self.error = Some(e.clone());
        }
        r
    }

    fn push_inner(&mut self, name: &str, chunk: &[u8]) -> Result<(), Error> {
        if self.current.as_ref().is_some_and(|c| c.file.name != name) {
            self.close_file()?;
        }
        if self.current.is_none() {
            let file = self.ingested.begin_file(name);
            self.current = Some(Current {
                file,
                pending: Vec::new(),
                line_offset: 0,
                json: None,
                alias_budget: MAX_ALIAS_BYTES,
                started: false,
                scanned: 0,
            });
        }
        let Some(cur) = self.current.as_mut() else { return Ok(()) };
        cur.pending.extend_from_slice(chunk);
        if cur.json.is_none() {
            // Decide once the first non-blank byte after a byte-order mark is in (a mark split across
            // chunks waits for its last byte).
            let head = &cur.pending[..];
            let bom_pending = !head.is_empty() && head.len() < BOM.len() && BOM.starts_with(head);
            if !bom_pending {
                cur.json = json_file(head.strip_prefix(BOM).unwrap_or(head));
            }
        }
        if cur.json == Some(false) {
            let (found, upto) = scan_boundaries(&cur.pending, cur.scanned);
            cur.scanned = upto;
            let cut = found.map_or(0, |b| before_directives(&cur.pending, b));
            if cut > 0 {
                self.parse_pending(cut)?;
                if let Some(cur) = self.current.as_mut() {
                    cur.scanned = cur.scanned.saturating_sub(cut);
                }
            }
        }
        Ok(())
    }

    /// End the last input and build the report.
    pub fn finish(mut self) -> Result<Report, Error> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.close_file()?;
        report_from(self.ingested.finish(), &self.options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{check, Input};

    const SNAPSHOT: &str = "# nodes\napiVersion: v1\nkind: Node\nmetadata:\n  name: cp-1\n  labels: {node-role.kubernetes.io/control-plane: \"\"}\nstatus:\n  nodeInfo: {kubeletVersion: v1.28.4}\n---\napiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: café, namespace: shop}\n---\n--- \n...\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n";

    #[test]
    fn any_split_gives_the_same_report_as_check() {
        let opts = UpgradeOptions::new("1.22.0");
        let whole = check(
            &[
                Input::new("a.yaml", SNAPSHOT),
                Input::new("b.json", r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"q"}}"#),
            ],
            &opts,
        )
        .unwrap()
        .to_json();
        let bytes = SNAPSHOT.as_bytes();
        for size in [1, 2, 3, 7, 64, bytes.len()] {
            let mut s = Session::new(opts.clone()).unwrap();
            for c in bytes.chunks(size) {
                s.push("a.yaml", c).unwrap();
            }
            s.push("b.json", br#"{"kind":"Pod","apiVersion":"v1","#).unwrap();
            s.push("b.json", br#""metadata":{"name":"q"}}"#).unwrap();
            assert_eq!(s.finish().unwrap().to_json(), whole, "chunks of {size}");
        }
    }

    #[test]
    fn errors_name_the_line_in_the_whole_file() {
        let mut s = Session::new(UpgradeOptions::new("1.29.2")).unwrap();
        s.push("x.yaml", b"kind: Pod\nmetadata: {name: a}\n---\nkind: Pod\n").unwrap();
        let e = s.push("x.yaml", b"metadata: [\n---\nkind: Pod\n").unwrap_err();
        let Error::Input(p) = e else { panic!() };
        assert_eq!(p.file, "x.yaml");
        assert!(p.line.is_some_and(|l| l >= 5), "{p}");
        assert!(Session::new(UpgradeOptions::new("later")).is_err());
    }
}
