//! From named inputs to objects: JSON or YAML, single objects, multi-document YAML and `List` wrappers.
//!
//! Every object read is kept with its source; every document or file that is not a Kubernetes object is
//! listed in the inventory's `skipped` with the reason. Nothing is dropped silently.

use crate::parse::FastMap;

mod json;
mod list;

pub use json::{JsonFile, YAML_FALLBACK_BYTES};

/// `check()` hands a JSON file to its reader in parts of this size.
const JSON_PART_BYTES: usize = 1 << 20;

use crate::helm;
use crate::model::{CopyOf, Object, Source, Str, Via};
use crate::parse::{Node, ParseError, Value};
use crate::report::{DistributionConfig, Duplicate, HelmRelease, Inventory, Skipped};

/// The annotations Helm puts on the objects of a release.
pub const HELM_RELEASE_NAME: &str = "meta.helm.sh/release-name";
pub const HELM_RELEASE_NAMESPACE: &str = "meta.helm.sh/release-namespace";

/// One input: a name (a path, `-` for stdin, or any label) and its bytes.
#[derive(Debug, Clone)]
pub struct Input {
    pub name: String,
    pub content: Vec<u8>,
    /// Found by walking a directory rather than named by the user: a file that cannot be read is then
    /// skipped with the reason instead of failing the whole run.
    pub discovered: bool,
    /// Passed over without being read (a walked folder's file of another kind): listed in
    /// `inventory.skipped` with this reason, so that nothing is left out in silence.
    pub passed_over: Option<String>,
}

impl Input {
    pub fn new(name: impl Into<String>, content: impl Into<Vec<u8>>) -> Input {
        Input { name: name.into(), content: content.into(), discovered: false, passed_over: None }
    }

    pub fn discovered(mut self) -> Input {
        self.discovered = true;
        self
    }
}

/// What ingestion produced.
#[derive(Debug, Default)]
pub struct Ingested {
    pub objects: Vec<Object>,
    pub inventory: Inventory,
    /// The first RKE `cluster.yml` among the inputs.
    pub rke: Option<crate::model::distro::RkeConfig>,
    /// The API server's version from every `kubectl version -o json|yaml` output among the inputs
    /// (`serverVersion.gitVersion`), with where it was read (`file:line`; the `kubectl-version` entries of
    /// `inventory.distributionConfigs`): `current` takes one by a rule, never by file order.
    pub server_versions: Vec<(String, String)>,
    /// One copy of each distinct toleration list read (most pods carry the same two): at 150,000 pods,
    /// a copy each was a tenth of the model.
    tolerations: crate::parse::FastSet<std::sync::Arc<[crate::model::Toleration]>>,
    /// One copy of each string that repeats across objects (kinds, namespaces, labels, owners, the file
    /// name): `Object::from_node_in`. Dropped when reading ends.
    strings: crate::model::Interner,
    /// For each entry of `inventory.helm_releases`: where its objects begin in `objects` (they follow one
    /// another), so that a release Helm does not read (an older deployed revision) can be taken out.
    helm_first: Vec<usize>,
    /// Bytes Helm release records have decompressed to so far, across all records (at most
    /// `MAX_HELM_TOTAL_BYTES`).
    helm_spent: usize,
    /// The lists snapshots say they could not make, as read (merged into `inventory.denied` at the end).
    snapshot_denied: Vec<crate::report::Denied>,
}

/// Decode UTF-8, naming the line and column of the first bad byte.
pub fn decode_utf8<'a>(name: &str, bytes: &'a [u8]) -> Result<&'a str, ParseError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let good = bytes.get(..e.valid_up_to()).unwrap_or_default();
        let line = crate::parse::count_newlines(good) as u32 + 1;
        let line_start = good.iter().rposition(|b| *b == b'\n').map_or(0, |p| p + 1);
        let col = String::from_utf8_lossy(good.get(line_start..).unwrap_or_default()).chars().count() as u32 + 1;
        ParseError { file: name.to_owned(), line: Some(line), col: Some(col), message: "not UTF-8 text".to_owned() }
    })
}

/// Decode and parse, errors in document order: when the bytes are not UTF-8 (or hold a NUL, for YAML),
/// what precedes the bad byte is parsed first, and an error there (one that ends before the bad byte) is
/// the one reported. `check()` and `Session` both read through this, whole or in parts, so both name the
/// same error (found by `cargo xtask fuzz`).
pub fn read_in_order<T>(
    name: &str,
    bytes: &[u8],
    mut parse: impl FnMut(&str) -> Result<T, ParseError>,
) -> Result<T, ParseError> {
    let e = match decode_utf8(name, bytes) {
        Ok(text) => return parse(text),
        Err(e) => e,
    };
    let valid = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(bad) => std::str::from_utf8(bytes.get(..bad.valid_up_to()).unwrap_or_default()).unwrap_or_default(),
    };
    match parse(valid) {
        Err(earlier) if earlier.precedes(&e) => Err(earlier),
        _ => Err(e),
    }
}

/// A line that starts a new document: `---` or `...` at its start, alone or followed by a blank.
pub(crate) fn begins_document(line: &[u8]) -> bool {
    let is_marker = |m: &[u8]| line.starts_with(m) && matches!(line.get(3), None | Some(b' ' | b'\t' | b'\r'));
    is_marker(b"---") || is_marker(b"...")
}

/// Move a parsed part's positions down by `by` lines (where the part starts in its file).
pub fn shift(node: &mut Node, by: u32) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        n.pos.line += by;
        match &mut n.value {
            Value::Seq(items) => stack.extend(items.iter_mut()),
            Value::Map(entries) => stack.extend(entries.iter_mut().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// The lines after `from` (a line start; itself too when it is not the first) that begin a new document
/// (see [`begins_document`]) and end within `buf` (a last line without a line break is never one): where
/// each starts. Only lines that begin with `-` or `.` are looked at, found without a step per line.
fn document_markers(buf: &[u8], from: usize) -> impl Iterator<Item = usize> + '_ {
    let first = if from > 0 { Some(from) } else { crate::parse::find_line_beginning(buf, from, b'-', b'.') };
    std::iter::successors(first, move |at| crate::parse::find_line_beginning(buf, *at, b'-', b'.')).filter(move |at| {
        crate::parse::find_newline(buf, *at).is_some_and(|end| begins_document(buf.get(*at..end).unwrap_or_default()))
    })
}

/// Scan `buf` from `from` (a line start) for lines that begin a new document (`---` or `...` at the
/// start of a line): the last one found (a line start after the first byte), and where the scan stopped
/// (the start of the unfinished last line), so that the next push scans only what is new.
pub fn scan_boundaries(buf: &[u8], from: usize) -> (Option<usize>, usize) {
    let whole = buf.get(from..).and_then(|rest| rest.iter().rposition(|b| *b == b'\n'));
    let Some(last_break) = whole else { return (None, from) };
    let stop = from + last_break + 1;
    (document_markers(buf.get(..stop).unwrap_or_default(), from).last(), stop)
}

/// Directives (`%YAML 1.2`) belong to the document after them: a cut at `cut` moves before them.
pub fn before_directives(buf: &[u8], mut cut: usize) -> usize {
    while cut > 0 {
        // `cut - 1` is the newline that ends the line before the cut.
        let prev = buf.get(..cut - 1).and_then(|b| b.iter().rposition(|c| *c == b'\n')).map_or(0, |p| p + 1);
        if !buf.get(prev..).is_some_and(|l| l.starts_with(b"%")) {
            break;
        }
        cut = prev;
    }
    cut
}

/// Where the documents of a YAML text start: 0, and every later line that begins one (`---`, `...`),
/// moved before the directives that belong to it. Linear in the text.
fn document_starts(buf: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    for at in document_markers(buf, 0) {
        let cut = before_directives(buf, at);
        if starts.last().is_some_and(|last| cut > *last) {
            starts.push(cut);
        }
    }
    starts
}

/// Read the YAML documents of `bytes` (a whole file `f`, or a part of one ending at a document boundary,
/// that starts at line `first_line + 1` of its file) into `out`, document by document: each is decoded and
/// parsed on its own, in order, with the file's alias budget. `check()` reads a whole file and `Session` its
/// parts through this one function, so both meet the same documents, the same errors, in the same order.
///
/// Only the fields the checks read are built ([`Keep::Read`](crate::parse::Keep)), and the items of a
/// document's top-level `items` become objects as each is read ([`list::ListItems`], as for JSON), so a
/// `kubectl get -o yaml` List is never one tree. A document part with an alias, or a List whose `kind`
/// changes after its items (a key given twice), is taken back and read whole with every field instead:
/// the objects are those of the whole tree either way (tests below).
///
/// Returns the lines of `bytes` (its line breaks), counted once here for the caller.
pub fn read_yaml_into(
    bytes: &[u8],
    first_line: u32,
    budget: &mut usize,
    out: &mut Ingested,
    f: &mut FileIngest,
) -> Result<u32, ParseError> {
    use crate::parse::{stream_yaml_documents, Keep, YamlOut, YamlStop};
    let name = &f.name.clone();
    let starts = document_starts(bytes);
    let mut line = first_line;
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(bytes.len());
        let part = bytes.get(start..end).unwrap_or_default();
        let at_line = |e: ParseError| ParseError { line: e.line.map(|l| l.saturating_add(line)), ..e };
        let mark = Mark::at(out, f.not_objects.len());
        let (docs_before, budget_before) = (f.docs, *budget);
        let mut retry = false;
        read_in_order(name, part, |text| {
            let mut list: Option<list::ListItems> = None;
            let mut sink = |o: YamlOut| -> Result<(), YamlStop> {
                match o {
                    YamlOut::Item(mut item, head) => {
                        shift(&mut item, line);
                        list.get_or_insert_with(|| list::ListItems::new(out, f)).take(vec![item], &head, out, f);
                    }
                    YamlOut::Document(mut root) => {
                        shift(&mut root, line);
                        let taken = list.take().unwrap_or_else(|| list::ListItems::new(out, f));
                        taken.finish(&root, out, f).map_err(|_| YamlStop::Retry)?;
                    }
                }
                Ok(())
            };
            match stream_yaml_documents(name, text, budget, Keep::Read, &mut sink) {
                Ok(()) => Ok(()),
                Err(YamlStop::Error(e)) => Err(e),
                Err(YamlStop::Retry) => {
                    retry = true;
                    Ok(())
                }
            }
        })
        .map_err(at_line)?;
        if retry {
            mark.restore(out, f);
            f.docs = docs_before;
            *budget = budget_before;
            let docs = read_in_order(name, part, |text| {
                crate::parse::parse_yaml_documents_budgeted(name, text, budget, Keep::All)
            })
            .map_err(at_line)?;
            let mut docs = docs;
            for d in &mut docs {
                shift(d, line);
            }
            out.add_documents(f, &docs);
        }
        line = line.saturating_add(u32::try_from(crate::parse::count_newlines(part)).unwrap_or(u32::MAX));
    }
    Ok(line.saturating_sub(first_line))
}

/// A byte-order mark: not part of the text, dropped from the start of a file (positions count after it).
pub const BOM: &[u8] = b"\xef\xbb\xbf";

/// Does this file (its byte-order mark dropped) read as JSON? A file named `*.json` does, whatever it
/// starts with (JSON has no comments: a `//` line is an input error at its place, never a YAML document
/// that swallows what follows); another on its first byte that is not blank. `None` while there is none yet.
pub fn json_file(name: &str, bytes: &[u8]) -> Option<bool> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace())?;
    Some(named_json(name) || crate::parse::looks_like_json(&String::from_utf8_lossy(&[*first])))
}

/// A file named `*.json`: read as JSON only, as kubectl's decoder reads a JSON stream (no YAML after a JSON
/// error: a comment is an error at its place).
pub fn named_json(name: &str) -> bool {
    name.len() >= 5 && name.get(name.len() - 5..).is_some_and(|ext| ext.eq_ignore_ascii_case(".json"))
}

/// What the inventory held before a file's objects were added: the point to go back to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    objects: usize,
    helm: usize,
    skipped: usize,
    configs: usize,
    rke: bool,
    server_versions: usize,
    not_objects: usize,
    helm_spent: usize,
    listed: usize,
    denied: usize,
    snapshot: bool,
}

impl Mark {
    /// The inventory now, and a file's `not_objects` so far.
    pub(crate) fn at(out: &Ingested, not_objects: usize) -> Mark {
        Mark {
            objects: out.objects.len(),
            helm: out.inventory.helm_releases.len(),
            skipped: out.inventory.skipped.len(),
            configs: out.inventory.distribution_configs.len(),
            rke: out.rke.is_some(),
            server_versions: out.server_versions.len(),
            not_objects,
            helm_spent: out.helm_spent,
            listed: out.inventory.listed.len(),
            denied: out.snapshot_denied.len(),
            snapshot: out.inventory.snapshot.is_some(),
        }
    }

    pub(crate) fn restore(&self, out: &mut Ingested, f: &mut FileIngest) {
        out.objects.truncate(self.objects);
        out.inventory.helm_releases.truncate(self.helm);
        out.helm_first.truncate(self.helm);
        out.helm_spent = self.helm_spent;
        out.inventory.skipped.truncate(self.skipped);
        out.inventory.distribution_configs.truncate(self.configs);
        if !self.rke {
            out.rke = None;
        }
        out.server_versions.truncate(self.server_versions);
        out.inventory.listed.truncate(self.listed);
        out.snapshot_denied.truncate(self.denied);
        if !self.snapshot {
            out.inventory.snapshot = None;
        }
        f.not_objects.truncate(self.not_objects);
    }
}

/// One file being read (its documents may arrive in several parts: see `Session`).
pub struct FileIngest {
    pub name: String,
    /// What the inventory held when the file began.
    mark: Mark,
    before: usize,
    docs: usize,
    not_objects: Vec<String>,
}

impl Ingested {
    /// Add an object read, its toleration list shared with the objects that carry the same.
    fn push_object(&mut self, mut o: Object) {
        let spec = match &mut o.body {
            crate::model::Body::Pod(p) => Some(&mut p.spec),
            crate::model::Body::Workload(w) => Some(&mut w.template),
            _ => None,
        };
        if let Some(spec) = spec {
            match self.tolerations.get(&*spec.tolerations) {
                Some(shared) => spec.tolerations = std::sync::Arc::clone(shared),
                None => {
                    self.tolerations.insert(std::sync::Arc::clone(&spec.tolerations));
                }
            }
        }
        self.objects.push(o);
    }

    fn recognised(&self) -> usize {
        self.objects.len() + self.inventory.distribution_configs.len()
    }

    /// A file listed without being read (a walked folder's file of another kind), with the reason.
    pub fn passed_over(&mut self, name: &str, reason: &str) {
        self.inventory.skipped.push(Skipped { file: name.to_owned(), reason: reason.to_owned() });
    }

    pub fn begin_file(&mut self, name: &str) -> FileIngest {
        self.inventory.files += 1;
        let mark = Mark::at(self, 0);
        FileIngest { name: name.to_owned(), mark, before: self.recognised(), docs: 0, not_objects: Vec::new() }
    }

    pub fn add_documents(&mut self, f: &mut FileIngest, docs: &[Node]) {
        f.docs += docs.len();
        for doc in docs {
            add_document(&f.name, doc, self, &mut f.not_objects);
        }
    }

    /// A file that could not be read: skipped (with the reason) when it was found by walking a
    /// directory, else the error. What was read of it before the error is taken back (a file counts whole
    /// or not at all, however it arrived).
    pub fn unreadable(&mut self, e: ParseError, mut f: FileIngest, discovered: bool) -> Result<(), ParseError> {
        let mark = f.mark;
        mark.restore(self, &mut f);
        if !discovered {
            return Err(e);
        }
        self.inventory
            .skipped
            .push(Skipped { file: e.file.clone(), reason: format!("not Kubernetes YAML or JSON: {e}") });
        Ok(())
    }

    pub fn end_file(&mut self, f: FileIngest) {
        if f.docs == 0 {
            self.inventory.skipped.push(Skipped { file: f.name, reason: "empty: no documents".into() });
        } else if self.recognised() == f.before {
            self.inventory.skipped.push(Skipped {
                file: f.name,
                reason: format!(
                    "no Kubernetes objects ({}; a Helm template or values file?)",
                    f.not_objects.join("; ")
                ),
            });
        } else {
            for why in f.not_objects {
                self.inventory.skipped.push(Skipped { file: f.name.clone(), reason: why });
            }
        }
    }

    /// Helm reads one deployed revision of a release, the latest (`storage.Deployed`: when several are
    /// marked deployed, it sorts them by revision and takes the highest). The others' objects are taken
    /// out, and each such record is listed as skipped, saying which revision Helm reads instead.
    fn latest_helm_revisions(&mut self) {
        let releases = &self.inventory.helm_releases;
        // Each record's release's latest (the first of the highest revision): the records sorted stably by
        // release, then each run's best given to its members (lists rather than B-tree maps and sets).
        let mut by_release: Vec<usize> = (0..releases.len()).collect();
        let release = |i: &usize| releases.get(*i).map(|r| (r.namespace.as_str(), r.name.as_str()));
        crate::sort::sort_by(&mut by_release, |a, b| release(a).cmp(&release(b)));
        let mut latest: Vec<usize> = (0..releases.len()).collect();
        for run in by_release.chunk_by(|a, b| release(a) == release(b)) {
            let mut best = run.first().copied().unwrap_or(0);
            for &i in run {
                if releases.get(i).zip(releases.get(best)).is_some_and(|(r, b)| r.revision > b.revision) {
                    best = i;
                }
            }
            for &i in run {
                if let Some(l) = latest.get_mut(i) {
                    *l = best;
                }
            }
        }
        let kept: Vec<bool> = latest.iter().enumerate().map(|(i, l)| *l == i).collect();
        if kept.iter().all(|k| *k) {
            return;
        }
        let mut superseded = vec![false; self.objects.len()];
        let mut skipped = Vec::new();
        for (i, r) in releases.iter().enumerate() {
            if kept.get(i) != Some(&false) {
                continue;
            }
            let first = self.helm_first.get(i).copied().unwrap_or(0);
            for d in superseded.iter_mut().skip(first).take(r.objects) {
                *d = true;
            }
            let newer = latest.get(i).and_then(|j| releases.get(*j));
            skipped.push(Skipped {
                file: r.file.clone(),
                reason: format!(
                    "Helm release record {} (release {}/{}, revision {}, deployed) not read: revision {} of the \
                     same release is deployed too, and Helm reads the latest deployed revision",
                    r.record,
                    r.namespace,
                    r.name,
                    r.revision,
                    newer.map_or(0, |n| n.revision)
                ),
            });
        }
        let mut dropped = superseded.into_iter();
        self.objects.retain(|_| !dropped.next().unwrap_or(false));
        let mut index = 0..;
        self.inventory.helm_releases.retain(|_| index.next().is_some_and(|i| kept.get(i) == Some(&true)));
        self.helm_first.clear();
        self.inventory.skipped.extend(skipped);
    }

    /// Count every object once: copies of the same object (same kind, namespace and name) become one, the live copy (with a uid) kept for the checks when there is one; the others are kept on it
    /// (`Object::copies`) and listed in `inventory.duplicates`. Helm release contents are manifests of
    /// their own and never merged.
    fn merge_copies(&mut self) {
        // Each object's group: the position of the group's first member (in place, no copy of the model:
        // moving every object into a group of its own held the model three times over at its peak).
        let mut leader: Vec<usize> = (0..self.objects.len()).collect();
        // Objects that carry the uid of a different object (another kind, namespace or name): each is
        // checked as read, and said (input/unreadable-value), never merged.
        let mut clashes: Vec<(usize, String)> = Vec::new();
        {
            // Sized for every object at once: growing them rehashed every key several times over (at
            // 150,000 pods that was two thirds of the time this took).
            let n = self.objects.len();
            let mut by_key: FastMap<(&str, Option<&str>, &str), usize> =
                FastMap::with_capacity_and_hasher(n, Default::default());
            let mut by_uid: FastMap<&crate::model::Uid, usize> =
                FastMap::with_capacity_and_hasher(n, Default::default());
            for (j, o) in self.objects.iter().enumerate() {
                if o.source.via == Some(Via::HelmRelease) {
                    continue;
                }
                // One identity however a copy was written: kind, the namespace as the API server stores it
                // (`default` for a namespaced manifest written without one), name.
                let key = (
                    o.r.kind.as_str(),
                    crate::model::namespace_as_stored(&o.r.kind, o.r.namespace.as_deref()),
                    o.r.name.as_str(),
                );
                let l = by_key.get(&key).copied().unwrap_or(j);
                if let Some(u) = o.uid.as_ref() {
                    match by_uid.get(u).and_then(|k| self.objects.get(*k).map(|other| (*k, other))) {
                        Some((k, other)) if leader.get(k).copied() != Some(l) => {
                            clashes.push((
                                j,
                                format!(
                                    "metadata.uid: the same uid as {} {} ({}): two objects cannot share a uid, so each is checked as read",
                                    other.r.kind,
                                    other.r.name,
                                    other.source.location()
                                ),
                            ));
                        }
                        Some(_) => {}
                        None => {
                            by_uid.insert(u, l);
                        }
                    }
                }
                by_key.entry(key).or_insert(l);
                if let Some(slot) = leader.get_mut(j) {
                    *slot = l;
                }
            }
        }
        for (j, problem) in clashes {
            if let Some(o) = self.objects.get_mut(j) {
                o.problems.push(problem);
            }
        }
        // The groups of more than one, by their first member's position: (leader, member) pairs sorted
        // stably by leader, so that each group's members stay in order (a list rather than a B-tree map).
        let mut pairs: Vec<(usize, usize)> =
            leader.iter().enumerate().filter(|(j, l)| *j != **l).map(|(j, &l)| (l, j)).collect();
        if pairs.is_empty() {
            return;
        }
        crate::sort::sort_by_key(&mut pairs, |p| p.0);
        let mut gone = vec![false; self.objects.len()];
        let mut listed: Vec<(Str, Option<u32>, Duplicate)> = Vec::new();
        for run in pairs.chunk_by(|a, b| a.0 == b.0) {
            let Some(&(l, _)) = run.first() else { continue };
            let mut g: Vec<usize> = std::iter::once(l).chain(run.iter().map(|p| p.1)).collect();
            // The copy checked, in the group's place: the one read from the live cluster (it has a uid),
            // else the first by file and line, whatever order the inputs came in (the report does not
            // depend on it: the merge fuzz target reads the same bytes as two files in both orders); the
            // others after it in that order. Ties (one file read twice) keep the order read.
            let objects = &self.objects;
            let rank = |j: &usize| objects.get(*j).map(|o| (o.uid.is_none(), o.source.file.as_str(), o.source.line));
            crate::sort::sort_by(&mut g, |a, b| rank(a).cmp(&rank(b)));
            let Some(&kept_at) = g.first() else { continue };
            let Some(kept) = self.objects.get(kept_at) else { continue };
            let copies: Vec<CopyOf> = g
                .iter()
                .filter(|j| **j != kept_at)
                .filter_map(|j| self.objects.get(*j))
                .map(|c| CopyOf {
                    source: c.source.clone(),
                    api_version: c.r.api_version.clone(),
                    differs: c.differs_from(kept),
                })
                .collect();
            self.objects.swap(l, kept_at);
            for j in g.iter().filter(|j| **j != l) {
                if let Some(x) = gone.get_mut(*j) {
                    *x = true;
                }
            }
            let Some(kept) = self.objects.get_mut(l) else { continue };
            kept.copies = copies;
            listed.push((
                kept.source.file.clone(),
                kept.source.line,
                Duplicate {
                    kind: kept.r.kind.to_string(),
                    namespace: kept.r.namespace.as_ref().map(Str::to_string),
                    name: kept.r.name.to_string(),
                    copies: std::iter::once(kept.source.location())
                        .chain(kept.copies.iter().map(|c| c.source.location()))
                        .collect(),
                    identical: kept.copies.iter().all(|c| !c.differs),
                },
            ));
        }
        // By the checked copy's file and line, not by where the first copy came in the inputs.
        crate::sort::sort_by(&mut listed, |a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        self.inventory.duplicates.extend(listed.into_iter().map(|(_, _, d)| d));
        let mut at = 0;
        self.objects.retain(|_| {
            let keep = !gone.get(at).copied().unwrap_or(false);
            at += 1;
            keep
        });
    }

    /// Count the objects by kind.
    pub fn finish(mut self) -> Ingested {
        self.strings = crate::model::Interner::new();
        self.tolerations = Default::default();
        self.latest_helm_revisions();
        self.merge_copies();
        // By file, whatever order the inputs came in (the rest of the report is independent of it; the
        // merge fuzz target reads the same bytes as two files in both orders). Stable: two inputs of one
        // name keep their order.
        crate::sort::sort_by(&mut self.inventory.skipped, |a, b| a.file.cmp(&b.file));
        // Counted in a sorted list (a few dozen kinds against every object: a binary search each).
        let mut by_kind: Vec<(&str, usize)> = Vec::new();
        for o in &self.objects {
            let kind = o.r.kind.as_str();
            crate::sort::upsert(&mut by_kind, kind, || (kind, 1), |n| *n += 1);
        }
        self.inventory.by_kind = by_kind.into_iter().map(|(k, n)| (k.to_owned(), n)).collect();
        self.inventory.objects = self.objects.len();
        crate::sort::sort(&mut self.inventory.listed);
        self.inventory.listed.dedup();
        let denied = &mut self.inventory.denied;
        denied.append(&mut self.snapshot_denied);
        crate::sort::sort(denied);
        denied.dedup();
        self
    }
}

pub fn ingest(inputs: &[Input]) -> Result<Ingested, ParseError> {
    let mut out = Ingested::default();
    for input in inputs {
        if let Some(reason) = &input.passed_over {
            out.passed_over(&input.name, reason);
            continue;
        }
        let mut f = out.begin_file(&input.name);
        let bytes = input.content.strip_prefix(BOM).unwrap_or(&input.content);
        let read = if json_file(&input.name, bytes) == Some(true) {
            // In parts, as `Session` reads it: the reader's buffer stays small (and in cache) however large
            // the file.
            let mut j = JsonFile::new(&out, &f);
            bytes
                .chunks(JSON_PART_BYTES)
                .try_for_each(|part| j.push(part, &mut out, &mut f))
                .and_then(|()| j.finish(&mut out, &mut f))
        } else {
            let mut budget = crate::parse::MAX_ALIAS_BYTES;
            read_yaml_into(bytes, 0, &mut budget, &mut out, &mut f).map(|_| ())
        };
        match read {
            Ok(()) => out.end_file(f),
            Err(e) => out.unreadable(e, f, input.discovered)?,
        }
    }
    Ok(out.finish())
}

fn describe(doc: &Node) -> String {
    let what = if doc.is_map() {
        "a mapping with no `kind`"
    } else if matches!(doc.value, crate::parse::Value::Seq(_)) {
        "a sequence"
    } else {
        "a scalar"
    };
    format!("document at line {} is {what}", doc.line())
}

fn add_object(file: &str, doc: &Node, out: &mut Ingested) {
    let source = Source { file: out.strings.get(file), line: Some(doc.line()), via: Some(Via::Manifest) };
    if helm::is_release_record(doc) {
        add_helm_release(file, doc, &source, out);
    }
    let o = Object::from_node_in(doc, source, &mut out.strings);
    out.push_object(o);
}

/// A Helm release record: when it is deployed, the objects of its manifest, as Helm's client builds them
/// (a `List` flattened into its items).
fn add_helm_release(file: &str, doc: &Node, source: &Source, out: &mut Ingested) {
    let record = doc.at(&["metadata", "name"]).as_str().unwrap_or_default().to_owned();
    // Helm finds deployed revisions by the record's `status` label (`status=deployed`): a record labelled
    // otherwise is not one, and is not decompressed at all.
    if doc.at(&["metadata", "labels", "status"]).as_str().is_some_and(|s| s != "deployed") {
        return;
    }
    let mut budget = helm::MAX_HELM_TOTAL_BYTES.saturating_sub(out.helm_spent);
    let decoded = helm::decode(doc, &mut budget);
    out.helm_spent = helm::MAX_HELM_TOTAL_BYTES - budget;
    match decoded {
        Ok(Some(rel)) => {
            let first = out.objects.len();
            let mut count = 0;
            let mut add = |d: &Node| {
                if !d.is_map() || !has_kind(d) {
                    return;
                }
                let source = Source { via: Some(Via::HelmRelease), ..source.clone() };
                let mut o = Object::from_node_in(d, source, &mut out.strings);
                if o.r.namespace.is_none() && !rel.namespace.is_empty() {
                    o.r.namespace = Some(out.strings.get(&rel.namespace));
                }
                // What Helm itself stamps on the live objects it owns.
                o.annotations.insert_if_absent(HELM_RELEASE_NAME, || rel.name.clone());
                o.annotations.insert_if_absent(HELM_RELEASE_NAMESPACE, || rel.namespace.clone());
                out.push_object(o);
                count += 1;
            };
            for d in &rel.documents {
                flatten(d, 0, &mut add);
            }
            out.helm_first.push(first);
            out.inventory.helm_releases.push(HelmRelease {
                name: rel.name,
                namespace: rel.namespace,
                revision: rel.revision,
                chart: rel.chart,
                record,
                file: file.to_owned(),
                objects: count,
                kube_version: rel.kube_version,
            });
        }
        Ok(None) => {}
        Err(why) => out.inventory.skipped.push(Skipped {
            file: file.to_owned(),
            reason: format!("Helm release record {record} at line {} not read: {why}", doc.line()),
        }),
    }
}

/// A release manifest's document as Helm's client builds it (the resource builder's `Flatten`): a `List`
/// (or a typed list, `PodList`) is its items, each read the same way, an item without a `kind` taking the
/// typed list's; any other document is itself.
fn flatten(doc: &Node, depth: usize, add: &mut dyn FnMut(&Node)) {
    match classify(doc) {
        Doc::List { item_kind, list_api } if depth < 8 => {
            for item in doc.get("items").as_seq() {
                match item_kind {
                    Some(k) if item.is_map() && !has_kind(item) => add(&with_kind(item, k, list_api)),
                    _ => flatten(item, depth + 1, add),
                }
            }
        }
        _ => add(doc),
    }
}

/// What a document is, for reading.
enum Doc<'a> {
    /// An RKE `cluster.yml`.
    RkeConfig,
    /// `kubectl version -o json|yaml`: the client's and the API server's versions.
    KubectlVersion,
    /// A snapshot's own document (`apiVersion: kube-preflight.io/v1`, `kind: Snapshot`): when, from where,
    /// what was listed and what could not be.
    Snapshot,
    /// Not an object: no `kind`, or not a mapping.
    NotObject,
    /// A `List` (or a typed list, `PodList`): its items are the objects.
    List {
        item_kind: Option<&'a str>,
        list_api: &'a str,
    },
    Object,
}

fn classify(doc: &Node) -> Doc<'_> {
    let kind = doc.get("kind").as_str().unwrap_or_default();
    if crate::model::distro::is_rke_cluster_yml(doc) {
        return Doc::RkeConfig;
    }
    if doc.is_map() && kind.is_empty() && doc.at(&["serverVersion", "gitVersion"]).as_str().is_some() {
        return Doc::KubectlVersion;
    }
    if !doc.is_map() || kind.is_empty() {
        return Doc::NotObject;
    }
    if kind == "Snapshot" && doc.get("apiVersion").as_str() == Some(SNAPSHOT_API_VERSION) {
        return Doc::Snapshot;
    }
    let items = doc.get("items");
    let items_is_seq = matches!(items.value, Value::Seq(_));
    if (kind == "List" && (items_is_seq || items.is_null())) || (kind.ends_with("List") && items_is_seq) {
        // Typed lists (`PodList`) may leave out the items' kind and apiVersion.
        let item_kind = kind.strip_suffix("List").filter(|k| !k.is_empty());
        return Doc::List { item_kind, list_api: doc.get("apiVersion").as_str().unwrap_or_default() };
    }
    Doc::Object
}

/// A distribution config (or other kind-less document) read at `doc`: listed in the inventory, the first of
/// its kind used and any later one said to be ignored (`earlier` names it).
fn add_config(file: &str, line: u32, out: &mut Ingested, kind: &'static str, first: bool, note: String, earlier: &str) {
    out.inventory.distribution_configs.push(DistributionConfig {
        file: file.to_owned(),
        line,
        kind,
        note: if first { note } else { format!("ignored: an earlier {earlier} was read first") },
    });
}

fn add_rke_config(file: &str, doc: &Node, out: &mut Ingested) {
    let cfg = crate::model::distro::RkeConfig::from_node(doc);
    let note =
        format!("{} host(s); upgrade_strategy read as options (flags win) with --profile rke or rke-legacy", cfg.nodes);
    add_config(file, doc.line(), out, "rke-cluster-yml", out.rke.is_none(), note, "cluster.yml");
    out.rke.get_or_insert(cfg);
}

/// `kubectl version` output (at `line`: its own, or its snapshot's): the API server's version, the current
/// version of the upgrade.
fn add_kubectl_version(file: &str, line: u32, doc: &Node, out: &mut Ingested) {
    let version = doc.at(&["serverVersion", "gitVersion"]).as_str().unwrap_or_default().to_owned();
    let note = format!("the API server runs {version} (serverVersion.gitVersion): the current version");
    add_config(file, line, out, "kubectl-version", true, note, "kubectl version output");
    out.server_versions.push((format!("{file}:{line}"), version));
}

/// The `apiVersion` of a snapshot's own document.
pub const SNAPSHOT_API_VERSION: &str = "kube-preflight.io/v1";

/// A snapshot's own document: where and when it was taken (the first one read; a later one is said to
/// be ignored), the API server's version (as `kubectl version` output), the kinds it listed across the
/// cluster (`lists`, each with its `kind`, no `namespace`; a Secret list with the selector `owner=helm`
/// is the Helm release records) and the lists it could not make (`denied`, as `Session.pushDenied`).
fn add_snapshot(file: &str, doc: &Node, out: &mut Ingested, not_objects: &mut Vec<String>) {
    let text = |k: &str| doc.get(k).as_str().filter(|s| !s.is_empty()).map(str::to_owned);
    let first = out.inventory.snapshot.is_none();
    let taken = crate::report::SnapshotTaken {
        file: file.to_owned(),
        line: doc.line(),
        taken_at: text("takenAt"),
        context: text("context"),
        server: text("server"),
        tool: text("tool"),
    };
    let note = format!(
        "a snapshot taken {} from context {}{}",
        taken.taken_at.as_deref().map_or("at a time it does not state".to_owned(), |t| format!("at {t}")),
        taken.context.as_deref().unwrap_or("(not stated)"),
        taken.tool.as_deref().map_or(String::new(), |t| format!(" by {t}")),
    );
    add_config(file, doc.line(), out, "kube-preflight-snapshot", first, note, "snapshot");
    if !first {
        return;
    }
    out.inventory.snapshot = Some(taken);
    let version = doc.get("version");
    if matches!(classify(version), Doc::KubectlVersion) {
        // Named by the snapshot's line (what the objects path numbers too: an item, not its fields).
        add_kubectl_version(file, doc.line(), version, out);
    }
    for (i, l) in doc.get("lists").as_seq().iter().enumerate() {
        let kind = l.get("kind").as_str().unwrap_or_default();
        if kind.is_empty() || !l.get("namespace").is_null() {
            if kind.is_empty() {
                not_objects.push(format!("snapshot list {} at line {} names no `kind`", i + 1, l.line()));
            }
            continue;
        }
        let helm = kind == "Secret" && l.get("labelSelector").as_str() == Some("owner=helm");
        out.inventory.listed.push(if helm { crate::coverage::HELM_RELEASE.to_owned() } else { kind.to_owned() });
    }
    for (i, d) in doc.get("denied").as_seq().iter().enumerate() {
        let kind = d.get("kind").as_str().unwrap_or_default();
        let reason = d.get("reason").as_str().unwrap_or_default();
        let Some(reason) =
            crate::report::DENIED_REASONS.into_iter().find(|r| *r == reason).filter(|_| !kind.is_empty())
        else {
            not_objects.push(format!(
                "snapshot denied list {} at line {} not read: expected a `kind` and a `reason` (forbidden or not-served)",
                i + 1,
                d.line()
            ));
            continue;
        };
        let namespace = d.get("namespace").as_str().filter(|n| !n.is_empty()).map(str::to_owned);
        out.snapshot_denied.push(crate::report::Denied { kind: kind.to_owned(), namespace, reason });
    }
}

fn add_document(file: &str, doc: &Node, out: &mut Ingested, not_objects: &mut Vec<String>) {
    match classify(doc) {
        Doc::RkeConfig => add_rke_config(file, doc, out),
        Doc::KubectlVersion => add_kubectl_version(file, doc.line(), doc, out),
        Doc::Snapshot => add_snapshot(file, doc, out, not_objects),
        Doc::NotObject => not_objects.push(describe(doc)),
        Doc::List { item_kind, list_api } => {
            if let Some(k) = item_kind {
                out.inventory.listed.push(k.to_owned());
            }
            for (i, item) in doc.get("items").as_seq().iter().enumerate() {
                add_list_item(file, i, item, item_kind, list_api, out, not_objects);
            }
        }
        Doc::Object => add_object(file, doc, out),
    }
}

/// Item `i` (from 0) of a list whose items' kind, when they leave it out, is `item_kind`.
fn add_list_item(
    file: &str,
    i: usize,
    item: &Node,
    item_kind: Option<&str>,
    list_api: &str,
    out: &mut Ingested,
    not_objects: &mut Vec<String>,
) {
    if !item.is_map() {
        not_objects.push(format!("list item {} at line {} is not an object", i + 1, item.line()));
        return;
    }
    if has_kind(item) {
        // An item may be a List itself (`kubectl get` output concatenated into one): read it too.
        add_document(file, item, out, not_objects);
        return;
    }
    match item_kind {
        Some(k) => add_object(file, &with_kind(item, k, list_api), out),
        None => not_objects.push(format!("list item {} at line {} has no `kind`", i + 1, item.line())),
    }
}

fn has_kind(item: &Node) -> bool {
    item.get("kind").as_str().is_some_and(|k| !k.is_empty())
}

fn with_kind(item: &Node, kind: &str, api_version: &str) -> Node {
    use crate::parse::ScalarKind;
    let mut entries = item.as_map().to_vec();
    entries.push(("kind".into(), Node::new(item.pos, Value::Scalar(kind.into(), ScalarKind::Str))));
    if item.get("apiVersion").is_null() && !api_version.is_empty() {
        entries.push(("apiVersion".into(), Node::new(item.pos, Value::Scalar(api_version.into(), ScalarKind::Str))));
    }
    Node::new(item.pos, Value::Map(entries))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Document boundaries found without a step per line, as a line-by-line reading finds them: texts of
    /// markers, near-markers, directives, blanks and CRs, from every line start.
    #[test]
    fn document_markers_are_those_line_by_line() {
        let by_line = |buf: &[u8], from: usize| -> (Vec<usize>, usize) {
            let (mut found, mut start) = (Vec::new(), from);
            while let Some(end) = crate::parse::find_newline(buf, start) {
                if start > 0 && begins_document(&buf[start..end]) {
                    found.push(start);
                }
                start = end + 1;
            }
            (found, start.max(from))
        };
        let pieces: [&[u8]; 12] =
            [b"---", b"...", b"--- x", b"---x", b"-- ", b"- a", b".", b"%YAML 1.2", b"a: 1", b" ", b"\r", b"\t"];
        let mut seed = 5u32;
        for _ in 0..3000 {
            let mut text = Vec::new();
            for _ in 0..(seed % 9) {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                text.extend_from_slice(pieces[(seed >> 16) as usize % pieces.len()]);
                if (seed >> 8) % 3 > 0 {
                    text.push(b'\n');
                }
            }
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let starts: Vec<usize> =
                std::iter::once(0).chain((1..=text.len()).filter(|&i| text[i - 1] == b'\n')).collect();
            for &from in &starts {
                let (found, stop) = by_line(&text, from);
                assert_eq!(scan_boundaries(&text, from), (found.last().copied(), stop), "{text:?} from {from}");
            }
            let mut want = vec![0];
            for at in by_line(&text, 0).0 {
                let cut = before_directives(&text, at);
                if cut > *want.last().unwrap() {
                    want.push(cut);
                }
            }
            assert_eq!(document_starts(&text), want, "{text:?}");
        }
    }

    #[test]
    fn lists_documents_and_skips() {
        let inputs = vec![
            Input::new(
                "snap.json",
                r#"{"kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"a"}},
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"x"}}]}"#,
            ),
            Input::new("m.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n---\nfoo: bar\n"),
            Input::new("pods.yaml", "apiVersion: v1\nkind: PodList\nitems:\n- metadata: {name: q}\n"),
            Input::new("values.yaml", "replicaCount: 3\n").discovered(),
            Input::new("tpl.yaml", "kind: {{ .Values.kind }}\n  x: [\n").discovered(),
        ];
        let got = ingest(&inputs).unwrap();
        assert_eq!(got.inventory.files, 5);
        assert_eq!(got.inventory.objects, 4);
        assert_eq!(got.inventory.by_kind.get("Pod"), Some(&2));
        assert_eq!(got.objects[1].source.line, Some(2));
        assert_eq!(got.objects[3].r.kind, "Pod");
        assert_eq!(got.objects[3].r.api_version, "v1");
        let reasons: Vec<String> = got.inventory.skipped.iter().map(|s| format!("{}: {}", s.file, s.reason)).collect();
        assert_eq!(reasons.len(), 3, "{reasons:?}");
        // Listed by file name, whatever order the inputs came in.
        assert!(reasons[0].starts_with("m.yaml: document at line 5"), "{reasons:?}");
        assert!(reasons[1].starts_with("tpl.yaml: not Kubernetes YAML or JSON: tpl.yaml:"), "{reasons:?}");
        assert!(reasons[2].starts_with("values.yaml: no Kubernetes objects"), "{reasons:?}");
    }

    #[test]
    fn skipped_inputs_are_listed_alike_in_either_order() {
        // Found by the merge fuzz target: the list followed the inputs' order, the rest of the report did not.
        let a = Input::new("a.yaml", "just a scalar\n");
        let b = Input::new("b.yaml", "- a\n- sequence\n");
        let forward = ingest(&[a.clone(), b.clone()]).unwrap();
        let backward = ingest(&[b, a]).unwrap();
        let files = |g: &Ingested| g.inventory.skipped.iter().map(|s| s.file.clone()).collect::<Vec<_>>();
        assert_eq!(files(&forward), ["a.yaml", "b.yaml"]);
        assert_eq!(files(&forward), files(&backward));
    }

    #[test]
    fn a_list_inside_a_list_is_read() {
        // `kubectl get` outputs concatenated into one List: every object counts, none is a "List" object.
        let text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: List\n  items:\n  - {apiVersion: v1, kind: Node, metadata: {name: a}}\n  - {apiVersion: v1, kind: Node, metadata: {name: b}}\n- apiVersion: v1\n  kind: PodList\n  items:\n  - {metadata: {name: p, namespace: x}}\n";
        let got = ingest(&[Input::new("l.yaml", text)]).unwrap();
        assert_eq!(got.inventory.objects, 3);
        assert_eq!(got.inventory.by_kind.get("Node"), Some(&2));
        assert_eq!(got.inventory.by_kind.get("Pod"), Some(&1));
        assert!(!got.inventory.by_kind.contains_key("List"));
    }

    #[test]
    fn a_named_unreadable_file_is_an_error() {
        let e = ingest(&[Input::new("bad.yaml", "a: [1\n")]).unwrap_err();
        assert_eq!(e.file, "bad.yaml");
        let e = ingest(&[Input::new("bin.yaml", b"kind: Pod\nname: \xff\n".to_vec())]).unwrap_err();
        assert_eq!((e.line, e.col), (Some(2), Some(7)));
    }

    /// JSON has no comments: a `.json` file whose comment line would make the YAML reader swallow the
    /// object after it (an `extensions/v1beta1` Ingress passing unseen) is an input error at the comment,
    /// as kubectl refuses it; in a Session too.
    #[test]
    fn a_json_file_is_read_as_json_whatever_it_starts_with() {
        let text = "// the ingress\n{\"apiVersion\": \"extensions/v1beta1\", \"kind\": \"Ingress\", \"metadata\": {\"name\": \"web\"}}\n";
        for name in ["ingress.json", "INGRESS.JSON"] {
            let e = ingest(&[Input::new(name, text)]).unwrap_err();
            assert_eq!((e.file.as_str(), e.line, e.col), (name, Some(1), Some(1)), "{e:?}");
        }
        let mut s = crate::session::Session::new(crate::options::UpgradeOptions::new("1.29.2")).unwrap();
        let r = s.push("ingress.json", text.as_bytes()).and_then(|()| s.end_input());
        assert!(r.is_err(), "{r:?}");
        // Blank, or the same object without the comment: read as before.
        assert_eq!(ingest(&[Input::new("empty.json", "  \n")]).unwrap().objects.len(), 0);
        assert_eq!(
            ingest(&[Input::new("ok.json", text.trim_start_matches("// the ingress\n"))]).unwrap().objects.len(),
            1
        );
    }

    /// The objects of a YAML text with every field built (Keep::All): what reading only the read fields
    /// (Keep::Read, the ingest path) must give.
    fn yaml_whole(name: &str, text: &str) -> Ingested {
        let mut out = Ingested::default();
        let mut f = out.begin_file(name);
        let docs = crate::parse::parse_yaml_documents(name, text).unwrap();
        out.add_documents(&mut f, &docs);
        out.end_file(f);
        out.finish()
    }

    const KUBECTL_YAML: &str = "apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    labels: {app: a}
    managedFields:
    - apiVersion: extensions/v1beta1
      fieldsType: FieldsV1
      fieldsV1:
        f:spec:
          f:containers: {}
      manager: kubectl
    name: p
    namespace: x
  spec:
    containers:
    - env:
      - {name: A, value: '1'}
      image: nginx
      livenessProbe: {httpGet: {path: /}}
      name: c
      resources:
        requests: {cpu: 250m, memory: 64Mi}
    nodeName: n1
    volumes:
    - emptyDir: {}
      name: d
  status:
    conditions:
    - {status: 'True', type: Ready}
    containerStatuses:
    - {name: c, ready: true}
    phase: Running
- apiVersion: v1
  kind: Node
  metadata: {name: n1}
  status:
    images:
    - names: [a, b]
    nodeInfo: {kubeletVersion: v1.28.4}
kind: List
metadata: {}
";

    /// A kubectl List (its items streamed); the same with a merge key under a container; an anchor inside a
    /// field that is not read, aliased from one that is (read whole instead); a List retyped after its
    /// items; a List that is not one; Lists around another document; a syntax error and deep nesting
    /// inside fields that are not read: the same objects and skips, or the same error, as the whole tree.
    #[test]
    fn yaml_read_fields_only_gives_the_whole_trees_objects() {
        let merged = KUBECTL_YAML.replace("    - env:\n", "    - <<: {resources: {requests: {cpu: 2}}}\n      env:\n");
        let aliased = KUBECTL_YAML
            .replace("livenessProbe: {httpGet", "livenessProbe: &probe {httpGet")
            .replace("metadata: {name: n1}", "metadata: {name: n1, annotations: *probe}");
        // `kind` given twice around the items (the last one counts, as in the whole tree): read again whole.
        let retyped = "apiVersion: v1\nkind: List\nitems:\n- metadata: {name: a, namespace: x}\nkind: PodList\n";
        // Not a List after all: its items are no objects.
        let not_list = KUBECTL_YAML.replace("kind: List\n", "kind: Thing\n");
        // Two documents, each a List, with a document between them.
        let three =
            format!("{KUBECTL_YAML}---\nkind: Namespace\napiVersion: v1\nmetadata: {{name: x}}\n---\n{KUBECTL_YAML}");
        for text in [KUBECTL_YAML, &merged, &aliased, retyped, &not_list, &three] {
            let read = ingest(&[Input::new("k.yaml", text)]).unwrap();
            let whole = yaml_whole("k.yaml", text);
            assert_eq!(read.objects, whole.objects, "{text}");
            assert_eq!(read.inventory.skipped, whole.inventory.skipped, "{text}");
        }
        let bad = KUBECTL_YAML.replace("      image: nginx\n", "      image: [nginx\n");
        let deep = KUBECTL_YAML.replace("      image: nginx\n", &format!("      image: {}\n", "[".repeat(300)));
        for text in [bad, deep] {
            let e = ingest(&[Input::new("k.yaml", text.as_str())]).unwrap_err();
            let whole = crate::parse::parse_yaml_documents("k.yaml", &text).unwrap_err();
            assert_eq!((e.line, e.col, &e.message), (whole.line, whole.col, &whole.message), "{e}");
        }
    }

    /// The files under `tests/fixtures` with one of these extensions, in a stable order.
    pub(crate) fn fixture_files(extensions: &[&str]) -> Vec<std::path::PathBuf> {
        let mut dirs = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")];
        let mut out = Vec::new();
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| extensions.iter().any(|e| x == *e)) {
                    out.push(p);
                }
            }
        }
        out.sort();
        out
    }

    /// Every YAML fixture reads as the whole tree does.
    #[test]
    fn the_yaml_fixtures_read_as_the_whole_tree_does() {
        let mut seen = 0;
        for p in fixture_files(&["yaml", "yml"]) {
            let text = std::fs::read_to_string(&p).unwrap();
            let name = p.display().to_string();
            if crate::parse::parse_yaml_documents(&name, &text).is_err() {
                continue;
            }
            let read = ingest(&[Input::new(name.as_str(), text.as_str())]).map(|i| i.objects);
            assert_eq!(read.ok(), Some(yaml_whole(&name, &text).objects), "{name}");
            seen += 1;
        }
        assert!(seen >= 100, "{seen}");
    }

    /// The strings that repeat across objects are held once: two pods of one ReplicaSet share their kind,
    /// namespace, file, labels, owner and node (the same allocation, not merely equal text), whether read
    /// from JSON or YAML; their own names and uids stay their own.
    #[test]
    fn repeated_strings_are_held_once() {
        let pod = |n: &str, uid: &str| {
            format!(
                r#"{{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"web-abc-{n}","namespace":"shop","uid":"{uid}","labels":{{"app":"web","pod-template-hash":"abc"}},"ownerReferences":[{{"kind":"ReplicaSet","name":"web-abc","controller":true}}]}},"spec":{{"nodeName":"w-1","volumes":[{{"name":"cache","emptyDir":{{}}}},{{"name":"token","projected":{{}}}}]}},"status":{{"phase":"Running"}}}}"#
            )
        };
        let json = format!(
            r#"{{"apiVersion":"v1","kind":"List","items":[{},{}]}}"#,
            pod("1", "0f3c9a2e-1b4d-4e8f-9a6b-7c5d3e2f1a01"),
            pod("2", "0f3c9a2e-1b4d-4e8f-9a6b-7c5d3e2f1a02")
        );
        let yaml = format!("{}\n---\n{}\n", pod("1", "a"), pod("2", "b"));
        for (name, text) in [("pods.json", json), ("pods.yaml", yaml)] {
            let i = ingest(&[Input::new(name, text.as_str())]).unwrap();
            let [a, b] = i.objects.as_slice() else { panic!("{name}: {:?}", i.objects.len()) };
            assert!(a.r.kind.shares(&b.r.kind), "{name}");
            assert!(a.r.api_version.shares(&b.r.api_version));
            assert!(a.r.namespace.as_ref().unwrap().shares(b.r.namespace.as_ref().unwrap()));
            assert!(a.source.file.shares(&b.source.file));
            for ((ka, va), (kb, vb)) in a.labels.iter().zip(b.labels.iter()) {
                assert!(ka.shares(kb) && va.shares(vb), "{name}: label {ka}");
            }
            assert!(a.owners[0].name.shares(&b.owners[0].name));
            let (Some(pa), Some(pb)) = (a.pod(), b.pod()) else { panic!() };
            assert!(pa.spec.node_name.as_ref().unwrap().shares(pb.spec.node_name.as_ref().unwrap()));
            assert!(pa.phase.as_ref().unwrap().shares(pb.phase.as_ref().unwrap()));
            assert!(!a.r.name.shares(&b.r.name));
            assert_ne!(a.uid, b.uid);
            // Only the volumes a drain or the downtime reads are kept.
            assert_eq!(pa.spec.volumes.iter().map(|v| v.name.as_str()).collect::<Vec<_>>(), ["cache"]);
        }
    }

    /// Copies in two inputs, given in either order: the same copy checked (the first by file and line),
    /// the same copies listed in the same order (found by the merge fuzz target: the first read was kept).
    #[test]
    fn copies_merge_alike_whatever_order_the_inputs_come_in() {
        let node = "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n";
        let psp = "apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata: {name: r}\n";
        let a = format!("{psp}---\n{node}");
        let b = format!("# b\n---\n{node}---\n{psp}");
        let read = |first: (&str, &str), second: (&str, &str)| {
            let i = ingest(&[Input::new(first.0, first.1), Input::new(second.0, second.1)]).unwrap();
            let kept: Vec<String> = i.objects.iter().map(|o| o.source.location()).collect();
            let listed: Vec<Vec<String>> = i.inventory.duplicates.iter().map(|d| d.copies.clone()).collect();
            (kept, listed)
        };
        let forward = read(("a.yaml", &a), ("b.yaml", &b));
        let backward = read(("b.yaml", &b), ("a.yaml", &a));
        assert_eq!(forward.1, [["a.yaml:1", "b.yaml:7"], ["a.yaml:5", "b.yaml:3"]]);
        assert_eq!(backward.1, forward.1);
        let sorted = |mut v: Vec<String>| {
            v.sort();
            v
        };
        assert_eq!(sorted(backward.0), sorted(forward.0.clone()));
        assert_eq!(sorted(forward.0), ["a.yaml:1", "a.yaml:5"]);
    }

    /// Copies of one object: the live one (with a uid) is checked, in the place of the first copy read;
    /// the others are its `copies`, and the rest keep their order.
    #[test]
    fn copies_merge_into_the_live_object_in_the_first_ones_place() {
        let manifest = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a, namespace: x}\n";
        let live = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a, namespace: x, uid: u-1}\n";
        let other = |n: &str| format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: {n}, namespace: x}}\n");
        let text = format!("{manifest}---\n{}---\n{live}---\n{}", other("b"), other("c"));
        let i = ingest(&[Input::new("m.yaml", text.as_str())]).unwrap();
        let names: Vec<(&str, Option<String>)> =
            i.objects.iter().map(|o| (o.r.name.as_str(), o.uid.as_ref().map(ToString::to_string))).collect();
        assert_eq!(names, [("a", Some("u-1".to_owned())), ("b", None), ("c", None)]);
        let copies: Vec<Option<u32>> = i.objects[0].copies.iter().map(|c| c.source.line).collect();
        assert_eq!(copies, [Some(1)]);
        assert_eq!(i.inventory.duplicates.len(), 1);
        assert_eq!(i.inventory.duplicates[0].copies, ["m.yaml:9", "m.yaml:1"]);
    }
}
