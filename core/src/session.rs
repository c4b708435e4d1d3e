//! Streaming input: `push(name, chunk)` any number of times (chunks split anywhere, even inside a UTF-8
//! character), then `finish()`. YAML is parsed document by document as soon as a `---` line closes one,
//! and only the typed objects are kept: memory follows what the checks keep plus the largest single
//! document, not the input's size. A JSON file is read as it comes ([`JsonFile`]): the items of a List are
//! made objects one by one, the fields no check reads are never built.

use crate::error::Error;
use crate::ingest::{
    before_directives, json_file, read_yaml_into, scan_boundaries, FileIngest, Ingested, JsonFile, BOM,
};
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
    /// The reader of a JSON file, once the file is known to be one.
    reader: Option<JsonFile>,
    /// Found by walking a folder (`push_found`): an error skips the file instead of failing the session.
    discovered: bool,
    /// The error that ended the reading of a found file: the rest of it is passed over.
    failed: Option<crate::parse::ParseError>,
    /// The input's size in bytes, when told ([`Session::size_hint`]).
    size: Option<u64>,
    /// Bytes of the input pushed so far.
    pushed: u64,
}

impl Current {
    /// Room in `pending` for `more` bytes. When its buffer must grow, in an input of known size, a
    /// document gets room for the rest of the input at once if that is at most four times what it then
    /// needs, or if it is a List past [`LIST_HELD`] bytes (a `kubectl get -o yaml` List, one document, runs
    /// to the input's end): it is held in its own size rather than up to twice it, and copied fewer times
    /// while it grows (a List is then copied once, at [`LIST_HELD`], rather than at a quarter of its size,
    /// when both buffers are held at once).
    fn make_room(&mut self, more: usize) {
        let (len, cap) = (self.pending.len(), self.pending.capacity());
        let need = len.saturating_add(more);
        let Some(size) = self.size.filter(|_| need > cap) else { return };
        // The rest of the input from the start of `pending`: the document held may run to its end.
        let left = usize::try_from(size.saturating_sub(self.pushed)).unwrap_or(usize::MAX);
        let whole = len.saturating_add(left).max(need);
        if whole <= need.saturating_mul(4) || (len >= LIST_HELD && begins_list(&self.pending)) {
            // A size told wrong (larger than memory allows) leaves the buffer to grow as it would have.
            let _ = self.pending.try_reserve_exact(whole - len);
        }
    }

    /// Parse the first `upto` pending bytes (whole YAML documents) into `ingested`.
    fn parse_pending(&mut self, upto: usize, ingested: &mut Ingested) -> Result<(), Error> {
        let rest = self.pending.split_off(upto.min(self.pending.len()));
        let chunk = std::mem::replace(&mut self.pending, rest);
        // A byte-order mark starts the file, never a part of it after the first (check() drops it too).
        let body = if self.started { &chunk[..] } else { chunk.strip_prefix(BOM).unwrap_or(&chunk) };
        self.started = true;
        // Through the reader check() uses for a whole file (a byte-order mark holds no line break).
        let lines = read_yaml_into(body, self.line_offset, &mut self.alias_budget, ingested, &mut self.file)?;
        self.line_offset = self.line_offset.saturating_add(lines);
        Ok(())
    }
}

/// How large a held YAML document must be before it is asked whether it is a List (and so runs to the
/// input's end): a small List among other documents is never given the input's size. (`pending` begins
/// with the document held: the documents before it are cut from it as each ends.)
const LIST_HELD: usize = 256 << 10;

/// Does this YAML text begin as a List: a top-level `items:` key in its first 64 KiB (`kubectl get -o yaml`
/// writes it on its second line)? Read only for memory: a wrong answer changes no result.
fn begins_list(text: &[u8]) -> bool {
    let head = text.get(..64 << 10).unwrap_or(text);
    // The lines that begin with `i` (the readers' own line scan), then whether one is `items:`.
    let next = |from: usize| crate::parse::find_line_beginning(head, from, b'i', b'i');
    std::iter::once(0)
        .chain(std::iter::successors(next(0), |at| next(*at)))
        .any(|at| head.get(at..).is_some_and(|line| line.starts_with(b"items:")))
}

/// May the document holding the first NUL of `pending` be read now, its start known? `nul` is the first
/// NUL of the chunk just added, `last_line` where the unfinished last line begins (all before it is whole
/// lines). Known when the NUL is on a whole line (so is any earlier one), or when the last line cannot
/// begin a document (see [`crate::ingest::begins_document`]). Otherwise the reading waits, which is
/// always safe. Constant time: this runs on every chunk that holds a NUL.
fn nul_document_known(pending: &[u8], nul: usize, last_line: usize) -> bool {
    nul < last_line || last_line == 0 || !crate::ingest::begins_document(pending.get(last_line..).unwrap_or_default())
}

pub struct Session {
    options: UpgradeOptions,
    ingested: Ingested,
    current: Option<Current>,
    /// The first error met; `finish` returns it.
    error: Option<Error>,
    /// Bytes pushed so far, over all inputs.
    bytes: u64,
    /// The size of the input named, for when it begins ([`Session::size_hint`]).
    size_hint: Option<(String, u64)>,
    /// The input of objects being pushed ([`Session::push_objects`]): its name, its file, and how many
    /// items its pages held so far.
    objects: Option<(String, crate::ingest::FileIngest, u32)>,
}

impl Session {
    /// A new session; bad options are refused at once.
    pub fn new(options: UpgradeOptions) -> Result<Session, Error> {
        check_options(&options)?;
        Ok(Session {
            options,
            ingested: Ingested::default(),
            current: None,
            error: None,
            bytes: 0,
            size_hint: None,
            objects: None,
        })
    }

    fn parse_pending(&mut self, upto: usize) -> Result<(), Error> {
        match self.current.as_mut() {
            Some(cur) => cur.parse_pending(upto, &mut self.ingested),
            None => Ok(()),
        }
    }

    fn close_file(&mut self) -> Result<(), Error> {
        if let Some((_, f, _)) = self.objects.take() {
            self.ingested.end_file(f);
        }
        let Some(mut cur) = self.current.take() else { return Ok(()) };
        let result = if let Some(e) = cur.failed.take() {
            Err(e)
        } else if cur.reader.is_some() || cur.json == Some(true) {
            // (Only blanks or a byte-order mark before the end: an empty JSON file.)
            let reader = cur.reader.take().unwrap_or_else(|| JsonFile::new(&self.ingested, &cur.file));
            reader.finish(&mut self.ingested, &mut cur.file)
        } else {
            let len = cur.pending.len();
            match cur.parse_pending(len, &mut self.ingested) {
                Ok(()) => Ok(()),
                Err(Error::Input(e)) => Err(e),
                Err(e) => return Err(e),
            }
        };
        match result {
            Ok(()) => self.ingested.end_file(cur.file),
            Err(e) => self.ingested.unreadable(e, cur.file, cur.discovered)?,
        }
        Ok(())
    }

    /// The size in bytes of the input `name` whose first chunk comes next (a file's, known before it is
    /// read). Optional, and read only for memory: a YAML document is held until it ends, and one that
    /// runs to the input's end (a `kubectl get -o yaml` List) is then held in its own size rather than in a
    /// buffer grown by doublings. A wrong size changes no report, only the memory held (a size too large,
    /// for a List, up to the size told; one larger than memory allows, nothing).
    pub fn size_hint(&mut self, name: &str, bytes: u64) {
        self.size_hint = Some((name.to_owned(), bytes));
    }

    /// Add a chunk of the named input. A new name ends the previous input.
    pub fn push(&mut self, name: &str, chunk: &[u8]) -> Result<(), Error> {
        self.push_input(name, chunk, false)
    }

    /// Add a chunk of an input found by walking a folder rather than named by the user: if it cannot be
    /// read, it is listed in `inventory.skipped` with the reason (and none of it counts) instead of
    /// failing the session, as `check()` treats [`crate::Input::discovered`].
    pub fn push_found(&mut self, name: &str, chunk: &[u8]) -> Result<(), Error> {
        self.push_input(name, chunk, true)
    }

    /// End the current input now rather than at the next name or at `finish` (so that `progress` counts
    /// its objects, or none if it was a found file that could not be read).
    pub fn end_input(&mut self) -> Result<(), Error> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let r = self.close_file();
        if let Err(e) = &r {
            self.error = Some(e.clone());
        }
        r
    }

    /// A list the reader could not make (`inventory.denied`): the API refused it (`forbidden`) or the cluster
    /// does not serve the kind (`not-served`), across the cluster or in one namespace. `coverage` then says
    /// what each family could not see ("not visible to you", "not served by this cluster").
    pub fn deny(&mut self, kind: &str, namespace: Option<&str>, reason: &str) -> Result<(), Error> {
        let reason = crate::report::DENIED_REASONS.into_iter().find(|r| *r == reason).ok_or_else(|| {
            Error::Options(crate::options::OptionsError {
                field: "reason".to_owned(),
                message: format!("{reason:?} is not one of forbidden, not-served"),
            })
        })?;
        if kind.trim().is_empty() {
            return Err(Error::Options(crate::options::OptionsError {
                field: "kind".to_owned(),
                message: "expected a kind (\"PodDisruptionBudget\")".to_owned(),
            }));
        }
        let d = crate::report::Denied {
            kind: kind.to_owned(),
            namespace: namespace.filter(|n| !n.is_empty()).map(str::to_owned),
            reason,
        };
        let denied = &mut self.ingested.inventory.denied;
        if !denied.contains(&d) {
            denied.push(d);
            crate::sort::sort(denied);
        }
        Ok(())
    }

    /// A page of objects as the API returns them (a List such as `PodList` with its `items`, which may leave
    /// out their `kind`; or one object), already read by the caller: no text in between. Pages pushed
    /// under one name are one input; another name, a text chunk or `end_input` ends it. Each item's
    /// `source.line` is its position in the input (1 for the first item of the first page), as in a JSON
    /// text of the List with one item a line (only an item's own line is read: its fields keep theirs).
    pub fn push_objects(&mut self, name: &str, mut page: crate::parse::Node) -> Result<(), Error> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        if self.objects.as_ref().is_some_and(|(n, _, _)| n != name) || self.current.is_some() {
            self.end_input()?;
        }
        if self.objects.is_none() {
            let f = self.ingested.begin_file(name);
            self.objects = Some((name.to_owned(), f, 0));
        }
        let Some((_, f, count)) = self.objects.as_mut() else { return Ok(()) };
        page.pos = crate::parse::Pos { line: 1, col: 1 };
        if let crate::parse::Value::Map(entries) = &mut page.value {
            for (k, v) in entries.iter_mut() {
                if k.as_str() != "items" {
                    continue;
                }
                if let crate::parse::Value::Seq(items) = &mut v.value {
                    for item in items.iter_mut() {
                        *count = count.saturating_add(1);
                        item.pos = crate::parse::Pos { line: *count, col: 1 };
                    }
                }
            }
        }
        self.ingested.add_documents(f, std::slice::from_ref(&page));
        Ok(())
    }

    /// List an input without reading it (a walked folder's file of another kind), with the reason, as
    /// `check()` lists an [`crate::Input`] with `passed_over`. Ends the previous input.
    pub fn skip(&mut self, name: &str, reason: &str) -> Result<(), Error> {
        self.end_input()?;
        self.ingested.passed_over(name, reason);
        Ok(())
    }

    fn push_input(&mut self, name: &str, chunk: &[u8], discovered: bool) -> Result<(), Error> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        // Text after objects: the input of objects ends.
        if let Some((_, f, _)) = self.objects.take() {
            self.ingested.end_file(f);
        }
        let mut r = self.push_inner(name, chunk, discovered);
        if let Err(Error::Input(e)) = &r {
            // A found file that cannot be read is passed over from here on, and skipped when it ends.
            if let Some(cur) = self.current.as_mut().filter(|c| c.discovered && c.file.name == name) {
                cur.failed = Some(e.clone());
                cur.pending = Vec::new();
                cur.reader = None;
                r = Ok(());
            }
        }
        if let Err(e) = &r {
            self.error = Some(e.clone());
        }
        r
    }

    fn push_inner(&mut self, name: &str, chunk: &[u8], discovered: bool) -> Result<(), Error> {
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
                reader: None,
                discovered,
                failed: None,
                size: self.size_hint.take().filter(|(n, _)| n == name).map(|(_, bytes)| bytes),
                pushed: 0,
            });
        }
        self.bytes = self.bytes.saturating_add(chunk.len() as u64);
        let Some(cur) = self.current.as_mut() else { return Ok(()) };
        if cur.failed.is_some() {
            return Ok(());
        }
        if let Some(reader) = cur.reader.as_mut() {
            return reader.push(chunk, &mut self.ingested, &mut cur.file).map_err(Error::Input);
        }
        cur.make_room(chunk.len());
        cur.pending.extend_from_slice(chunk);
        cur.pushed = cur.pushed.saturating_add(chunk.len() as u64);
        if cur.json.is_none() {
            // Decide once the first non-blank byte after a byte-order mark is in (a mark split across
            // chunks waits for its last byte).
            let head = &cur.pending[..];
            let bom_pending = !head.is_empty() && head.len() < BOM.len() && BOM.starts_with(head);
            if !bom_pending {
                cur.json = json_file(&cur.file.name, head.strip_prefix(BOM).unwrap_or(head));
            }
        }
        if cur.json == Some(true) {
            let mut reader = JsonFile::new(&self.ingested, &cur.file);
            let head = std::mem::take(&mut cur.pending);
            let body = head.strip_prefix(BOM).unwrap_or(&head);
            let r = reader.push(body, &mut self.ingested, &mut cur.file);
            cur.reader = Some(reader);
            return r.map_err(Error::Input);
        }
        // A line (and so a document) can only end in a chunk with a newline: an endless line is not rescanned.
        if cur.json == Some(false) && chunk.contains(&b'\n') {
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
        // A NUL ends what YAML can read: the document that holds it is an error at the latest there, whatever
        // follows (so `/dev/zero` fails at once, with the error check() names). Unless the NUL is on a line
        // that begins like a document marker (`...   x\0`) and has not ended: whether it begins a document,
        // and so where the NUL's document starts, is known only when the line ends (found by
        // `cargo xtask fuzz`: an unclosed quote before such a line ran into it here, not in check()).
        let early = match (self.current.as_ref(), crate::parse::find_byte(chunk, 0, 0)) {
            (Some(c), Some(n)) if c.json == Some(false) => {
                // The chunk ends the pending bytes (whatever a cut above left of them).
                let at = c.pending.len().checked_sub(chunk.len() - n);
                at.is_none_or(|at| nul_document_known(&c.pending, at, c.scanned))
            }
            _ => false,
        };
        if early {
            let len = self.current.as_ref().map_or(0, |c| c.pending.len());
            self.parse_pending(len)?;
        }
        Ok(())
    }

    /// Bytes pushed so far (all inputs) and objects read so far (the objects of a YAML document or JSON
    /// List item count once it is complete): for a progress display.
    pub fn progress(&self) -> (u64, usize) {
        (self.bytes, self.ingested.objects.len())
    }

    /// End the last input and build the report.
    pub fn finish(self) -> Result<Report, Error> {
        let options = self.options.clone();
        report_from(self.finish_ingested()?, &options)
    }

    /// End the session and keep what was read rather than a report: [`crate::pipeline::report_for`]
    /// checks it under any options, as many times as asked (the dashboard's what-if).
    pub fn finish_ingested(mut self) -> Result<crate::ingest::Ingested, Error> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.close_file()?;
        Ok(self.ingested.finish())
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

    /// A YAML List of one document, its size told: held in a buffer of the input's size (not a doubling
    /// past it), the same report; a size that is wrong changes only the buffer.
    #[test]
    fn a_size_hint_holds_a_yaml_list_in_its_size() {
        let opts = UpgradeOptions::new("1.22.0");
        let mut text = String::from("apiVersion: v1\nitems:\n");
        for i in 0..400 {
            text.push_str(&format!("- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p{i}\n    namespace: n\n"));
        }
        text.push_str("kind: List\n");
        let whole = check(&[Input::new("l.yaml", text.as_str())], &opts).unwrap().to_json();
        let size = text.len() as u64;
        for (hint, most) in
            [(Some(size), text.len()), (Some(size / 3), usize::MAX), (Some(size * 100), usize::MAX), (None, usize::MAX)]
        {
            let mut s = Session::new(opts.clone()).unwrap();
            if let Some(h) = hint {
                s.size_hint("l.yaml", h);
            }
            let mut largest = 0;
            for c in text.as_bytes().chunks(1000) {
                s.push("l.yaml", c).unwrap();
                largest = largest.max(s.current.as_ref().map_or(0, |c| c.pending.capacity()));
            }
            assert!(largest <= most, "{hint:?}: {largest} bytes held for {}", text.len());
            // Without the size, the doublings pass it.
            if hint.is_none() {
                assert!(largest > text.len(), "{largest}");
            }
            assert_eq!(s.finish().unwrap().to_json(), whole, "{hint:?}");
        }
    }

    /// A large YAML List, its size told, is given its size once it passes [`LIST_HELD`] bytes (copied
    /// then, small), not when the four-times rule would (at a quarter of its size, both buffers held); a
    /// large input of small documents, a List among them, never is.
    #[test]
    fn a_large_yaml_list_gets_its_size_early_and_small_documents_never_do() {
        let opts = UpgradeOptions::new("1.22.0");
        let value = "v".repeat(1000);
        let item = |i: usize| {
            format!(
                "apiVersion: v1\n  kind: ConfigMap\n  metadata: {{name: c{i}, namespace: n}}\n  data: {{k: {value}}}\n"
            )
        };
        let mut list = String::from("apiVersion: v1\nitems:\n");
        for i in 0..4000 {
            list.push_str(&format!("- {}", item(i)));
        }
        list.push_str("kind: List\n");
        let mut documents =
            String::from("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n");
        for i in 0..4000 {
            documents.push_str(&format!("---\n{}", item(i).replace("\n  ", "\n")));
        }
        let whole = check(&[Input::new("l.yaml", list.as_str())], &opts).unwrap().to_json();
        // A size told wrong: much too large (the reservation refused: the buffer grows as untold), or ten
        // times the input (held): the same report.
        for hint in [u64::MAX / 2, list.len() as u64 * 10] {
            let mut s = Session::new(opts.clone()).unwrap();
            s.size_hint("l.yaml", hint);
            for c in list.as_bytes().chunks(64 << 10) {
                s.push("l.yaml", c).unwrap();
            }
            assert_eq!(s.finish().unwrap().to_json(), whole, "{hint}");
        }
        for (text, is_list) in [(&list, true), (&documents, false)] {
            let whole = check(&[Input::new("l.yaml", text.as_str())], &opts).unwrap().to_json();
            let mut s = Session::new(opts.clone()).unwrap();
            s.size_hint("l.yaml", text.len() as u64);
            let mut held: Vec<usize> = Vec::new();
            for c in text.as_bytes().chunks(64 << 10) {
                s.push("l.yaml", c).unwrap();
                let cap = s.current.as_ref().map_or(0, |c| c.pending.capacity());
                if held.last() != Some(&cap) {
                    held.push(cap);
                }
            }
            let largest = held.iter().copied().max().unwrap_or(0);
            if is_list {
                // Small buffers, then one of the input's size.
                assert_eq!(largest, text.len());
                let before = held.iter().copied().filter(|c| *c < largest).max().unwrap_or(0);
                assert!(before <= 2 * LIST_HELD, "{held:?}");
            } else {
                assert!(largest < 4 * LIST_HELD, "{held:?}");
            }
            assert_eq!(s.finish().unwrap().to_json(), whole);
        }
        assert!(begins_list(b"items:\n- a\n") && begins_list(b"# c\napiVersion: v1\nitems:\n"));
        assert!(!begins_list(b"apiVersion: v1\nkind: ConfigMap\ndata:\n  items: x\n"));
    }

    #[test]
    fn a_json_list_split_anywhere_reads_as_check_reads_it() {
        let opts = UpgradeOptions::new("1.22.0");
        let item = r#"{"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "p\u00e9", "namespace": "x", "managedFields": [{"apiVersion": "extensions/v1beta1", "fieldsV1": {"f:a": {}}}]}}"#;
        let typed = r#"{"metadata": {"name": "q"}}"#;
        for text in [
            format!("{{\"apiVersion\": \"v1\", \"items\": [{item}, {typed}, {item}], \"kind\": \"PodList\"}}"),
            format!("{{\"kind\": \"Widget\", \"items\": [{item}], \"kind\": \"List\"}}"),
            format!("{{\"kind\": \"List\", \"items\": [{item}], \"kind\": \"Widget\"}}"),
            format!("{{\"kind\": \"List\", \"items\": [{item}, {{\"kind\": [}}]}}"),
            format!("{{kind: List, items: [{item}]}}"),
        ] {
            let whole =
                check(&[Input::new("l.json", text.as_str())], &opts).map(|r| r.to_json()).map_err(|e| e.to_string());
            let bytes = text.as_bytes();
            for size in [1, 5, 64] {
                let mut s = Session::new(opts.clone()).unwrap();
                let mut r = Ok(());
                for c in bytes.chunks(size) {
                    r = r.and_then(|()| s.push("l.json", c));
                }
                let got = r.and_then(|()| s.finish()).map(|r| r.to_json()).map_err(|e| e.to_string());
                assert_eq!(got, whole, "{text} in chunks of {size}");
            }
        }
    }

    #[test]
    fn found_files_that_do_not_read_are_skipped_whole_as_check_skips_them() {
        let opts = UpgradeOptions::new("1.29.2");
        let good = "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n";
        let bad_yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: b}\n---\nkind: Pod\nmetadata: [\n";
        let bad_json =
            r#"{"apiVersion": "v1", "items": [{"kind": "Pod", "metadata": {"name": "c"}}, [}], "kind": "List"}"#;
        let mut other = Input::new("README.md", "");
        other.passed_over = Some("not .yaml, .yml or .json: not read".into());
        let inputs = [
            Input::new("bad.yaml", bad_yaml).discovered(),
            other,
            Input::new("bad.json", bad_json).discovered(),
            Input::new("good.yaml", good),
        ];
        let whole = check(&inputs, &opts).unwrap().to_json();
        for size in [1, 7, 4096] {
            let mut s = Session::new(opts.clone()).unwrap();
            for c in bad_yaml.as_bytes().chunks(size) {
                s.push_found("bad.yaml", c).unwrap();
            }
            s.skip("README.md", "not .yaml, .yml or .json: not read").unwrap();
            for c in bad_json.as_bytes().chunks(size) {
                s.push_found("bad.json", c).unwrap();
            }
            s.push("good.yaml", good.as_bytes()).unwrap();
            let got = s.finish().unwrap().to_json();
            assert_eq!(got, whole, "chunks of {size}");
        }
        assert!(whole.contains("\"objects\": 1"), "{whole}");
    }

    #[test]
    fn ending_each_input_counts_its_objects_and_what_was_read_checks_again_under_other_options() {
        let opts = UpgradeOptions::new("1.29.2");
        let two =
            "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\n";
        let bad = "kind: Pod\nmetadata: [\n";
        let mut s = Session::new(opts.clone()).unwrap();
        s.push_found("two.yaml", two.as_bytes()).unwrap();
        s.end_input().unwrap();
        assert_eq!(s.progress().1, 2);
        s.push_found("bad.yaml", bad.as_bytes()).unwrap();
        s.end_input().unwrap();
        assert_eq!(s.progress().1, 2, "a found file that cannot be read adds nothing");
        let ingested = s.finish_ingested().unwrap();
        let inputs = [Input::new("two.yaml", two), Input::new("bad.yaml", bad).discovered()];
        for to in ["1.29.2", "1.30.0"] {
            let o = UpgradeOptions::new(to);
            let expected = check(&inputs, &o).unwrap().to_json();
            assert_eq!(crate::pipeline::report_for(&ingested, &o).unwrap().to_json(), expected, "{to}");
        }
        // A named input that cannot be read ends the session with its error.
        let mut s = Session::new(opts).unwrap();
        s.push("bad.yaml", bad.as_bytes()).unwrap();
        let e = s.end_input().unwrap_err().to_string();
        assert!(e.starts_with("bad.yaml:3:1: "), "{e}");
        assert_eq!(s.finish_ingested().unwrap_err().to_string(), e);
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
