//! One JSON file read in parts, its objects taken as they come: the reader of `check()` and `Session`.
//!
//! The file goes through [`JsonStream`] with only the read fields kept ([`Keep::Read`]). The items of a
//! top-level List (what `kubectl get -o json` prints) are read one by one, each made an object at once and
//! its tree dropped, so memory follows the objects kept, not the file. Since kubectl writes the List's
//! `kind` after its `items`, an item is read before it is known that the file is a List; what was read is
//! taken back (see [`Mark`]) when the file turns out not to be one, or not to be readable.

use super::{add_document, add_list_item, classify, has_kind, read_in_order, Doc, FileIngest, Ingested, Mark};
use crate::parse::{parse_yaml_documents, JsonStream, Keep, Node, ParseError};

/// A JSON-looking file that is not JSON is read again as YAML (YAML's flow style, `{kind: Pod}`), when it
/// is at most this long: its bytes are kept until then.
pub const YAML_FALLBACK_BYTES: usize = 8 << 20;

/// How the items read so far were taken.
struct Assumed {
    /// The root's `kind` and `apiVersion` when its `items` began (when written before them).
    kind: Option<String>,
    api: Option<String>,
    /// Items held back until the List's kind is known (an item without its own `kind`, and all after it).
    held: Vec<(usize, Node)>,
    next: usize,
}

pub struct JsonFile {
    stream: JsonStream,
    kept: Option<Vec<u8>>,
    error: Option<ParseError>,
    /// Where this file's objects begin (taken back if it is no List or not readable).
    mark: Mark,
    assumed: Option<Assumed>,
}

impl JsonFile {
    /// Begin reading a file (its byte-order mark already dropped).
    pub fn new(out: &Ingested, f: &FileIngest) -> JsonFile {
        JsonFile {
            stream: JsonStream::new(&f.name, Keep::Read, true),
            kept: Some(Vec::new()),
            error: None,
            mark: Mark::at(out, f.not_objects.len()),
            assumed: None,
        }
    }

    /// Bytes read so far.
    pub fn bytes_read(&self) -> u64 {
        self.stream.bytes_read()
    }

    /// Read more of the file. An error is returned as soon as the file can no longer be read as YAML
    /// instead; until then it waits for the end of the file.
    pub fn push(&mut self, chunk: &[u8], out: &mut Ingested, f: &mut FileIngest) -> Result<(), ParseError> {
        if let Some(kept) = &mut self.kept {
            if kept.len() + chunk.len() <= YAML_FALLBACK_BYTES {
                kept.extend_from_slice(chunk);
            } else {
                self.kept = None;
            }
        }
        if self.error.is_none() {
            if let Err(e) = self.stream.push(chunk) {
                self.error = Some(e);
            }
            self.take_items(out, f);
        }
        match &self.error {
            Some(e) if self.kept.is_none() => Err(e.clone()),
            _ => Ok(()),
        }
    }

    fn take_items(&mut self, out: &mut Ingested, f: &mut FileIngest) {
        let items = self.stream.take_items();
        if items.is_empty() {
            return;
        }
        let (kind, api) = self.stream.list_head().cloned().unwrap_or_default();
        let a = self.assumed.get_or_insert_with(|| Assumed { kind, api, held: Vec::new(), next: 0 });
        let list_kind = a.kind.as_deref().map(|k| k == "List" || k.ends_with("List"));
        for item in items {
            let i = a.next;
            a.next += 1;
            match list_kind {
                // Known not to be a List: its items are not objects (nothing reads them).
                Some(false) => {}
                Some(true) if a.held.is_empty() && (has_kind(&item) || a.api.is_some()) => {
                    let kind = a.kind.as_deref().unwrap_or_default();
                    let item_kind = kind.strip_suffix("List").filter(|k| !k.is_empty());
                    add_list_item(
                        &f.name,
                        i,
                        &item,
                        item_kind,
                        a.api.as_deref().unwrap_or_default(),
                        out,
                        &mut f.not_objects,
                    );
                }
                // The List's kind is not known yet; an item with its own kind is read the same either way.
                None if a.held.is_empty() && item.is_map() && has_kind(&item) => {
                    add_document(&f.name, &item, out, &mut f.not_objects);
                }
                _ => a.held.push((i, item)),
            }
        }
    }

    /// End the file: its objects are in `out`, or it is an error (and nothing of it is).
    pub fn finish(mut self, out: &mut Ingested, f: &mut FileIngest) -> Result<(), ParseError> {
        let root = match self.error.take() {
            Some(e) => Err(e),
            None => self.stream.finish(),
        };
        let root = match root {
            Ok(root) => root,
            Err(e) => {
                self.mark.restore(out, f);
                let Some(kept) = self.kept else { return Err(e) };
                // JSON-looking YAML (flow style) is still YAML.
                let docs = read_in_order(&f.name, &kept, |text| parse_yaml_documents(&f.name, text)).map_err(|_| e)?;
                out.add_documents(f, &docs);
                return Ok(());
            }
        };
        f.docs += 1;
        let Some(a) = self.assumed else {
            // No items handed out: the whole document is here.
            add_document(&f.name, &root, out, &mut f.not_objects);
            return Ok(());
        };
        match classify(&root) {
            Doc::List { item_kind, list_api } => {
                let kind = root.get("kind").as_str();
                let api = root.get("apiVersion").as_str();
                // Items were read as the root said when they came: a later duplicate key that says otherwise
                // cannot be honoured any more.
                if a.kind.as_deref().is_some_and(|k| Some(k) != kind)
                    || a.api.as_deref().is_some_and(|v| Some(v) != api)
                {
                    self.mark.restore(out, f);
                    return Err(ParseError {
                        file: f.name.clone(),
                        line: Some(root.line()),
                        col: Some(root.pos.col),
                        message: "the List's `kind` or `apiVersion` is given twice, differently, around its `items`"
                            .to_owned(),
                    });
                }
                for (i, item) in &a.held {
                    add_list_item(&f.name, *i, item, item_kind, list_api, out, &mut f.not_objects);
                }
            }
            _ => {
                // Not a List after all: the items were no objects (nothing reads `items` of an object).
                self.mark.restore(out, f);
                add_document(&f.name, &root, out, &mut f.not_objects);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::ingest::{ingest, Ingested, Input};
    use crate::model::Object;
    use crate::parse::parse_json;

    /// The objects of a JSON text read whole, every field built, the way documents were read before
    /// streaming: what the streamed reading must give.
    fn whole(name: &str, text: &str) -> Ingested {
        let mut out = Ingested::default();
        let mut f = out.begin_file(name);
        let doc = parse_json(name, text).unwrap();
        out.add_documents(&mut f, &[doc]);
        out.end_file(f);
        out.finish()
    }

    fn objects(i: &Ingested) -> Vec<Object> {
        i.objects.clone()
    }

    fn streamed(name: &str, text: &str) -> Ingested {
        ingest(&[Input::new(name, text)]).unwrap()
    }

    const POD: &str = r#"{"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "p", "namespace": "x",
  "labels": {"app": "a"}, "ownerReferences": [{"kind": "ReplicaSet", "name": "rs", "controller": true}],
  "managedFields": [{"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:containers": {}}}, "manager": "kubelet"},
                    {"apiVersion": "extensions/v1beta1", "fieldsV1": {}}]},
  "spec": {"nodeName": "n1", "nodeSelector": {"disk": "ssd"}, "tolerations": [{"key": "k", "operator": "Exists"}],
    "containers": [{"name": "c", "image": "nginx", "env": [{"name": "A", "value": "1"}],
      "livenessProbe": {"httpGet": {"path": "/"}}, "resources": {"requests": {"cpu": "250m", "memory": "64Mi"}},
      "volumeMounts": [{"name": "d", "mountPath": "/d"}]}],
    "initContainers": [{"name": "i", "command": ["sh"], "resources": {"requests": {"cpu": "1"}}}],
    "volumes": [{"name": "d", "emptyDir": {}}, {"name": "v", "persistentVolumeClaim": {"claimName": "c"}}]},
  "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}],
    "containerStatuses": [{"name": "c", "ready": true}]}}"#;

    const NODE: &str = r#"{"kind": "Node", "apiVersion": "v1", "metadata": {"name": "n1", "labels": {"node-role.kubernetes.io/worker": ""}},
  "spec": {"taints": [{"key": "t", "effect": "NoSchedule"}], "unschedulable": true},
  "status": {"images": [{"names": ["a", "b"], "sizeBytes": 1}], "nodeInfo": {"kubeletVersion": "v1.28.4"},
    "allocatable": {"cpu": "4", "memory": "16Gi"}, "conditions": [{"type": "Ready", "status": "Unknown"}]}}"#;

    #[test]
    fn a_kubectl_list_reads_as_the_whole_tree_does() {
        // kubectl writes `kind` after `items`; the API server writes it first.
        let after = format!(r#"{{"apiVersion": "v1", "items": [{POD}, {NODE}, 7], "kind": "List", "metadata": {{}}}}"#);
        let before = format!(r#"{{"kind": "List", "apiVersion": "v1", "items": [{NODE}, {POD}]}}"#);
        let single = POD.to_owned();
        for text in [after, before, single] {
            let (a, b) = (whole("s.json", &text), streamed("s.json", &text));
            assert_eq!(objects(&a), objects(&b), "{text}");
            assert_eq!(a.inventory, b.inventory, "{text}");
        }
        let b = streamed("s.json", &format!(r#"{{"apiVersion": "v1", "items": [{POD}], "kind": "List"}}"#));
        assert_eq!(b.objects[0].managed_api_versions, ["v1", "extensions/v1beta1"]);
    }

    #[test]
    fn typed_lists_without_item_kinds_and_objects_with_items() {
        let pod =
            r#"{"metadata": {"name": "q", "namespace": "x"}, "spec": {"containers": [{"name": "c", "env": []}]}}"#;
        let texts = [
            // Typed list, kind first (as the API server writes it).
            format!(r#"{{"kind": "PodList", "apiVersion": "v1", "items": [{pod}, {pod}]}}"#),
            // Typed list, kind last: items wait for it.
            format!(r#"{{"apiVersion": "v1", "items": [{POD}, {pod}, {POD}], "kind": "PodList"}}"#),
            // No apiVersion before the items.
            format!(r#"{{"kind": "PodList", "items": [{pod}], "apiVersion": "v1"}}"#),
            // Not a List: an object that happens to have `items`, and a mapping with no kind.
            format!(r#"{{"apiVersion": "x/v1", "items": [{POD}], "kind": "Widget", "metadata": {{"name": "w"}}}}"#),
            format!(r#"{{"kind": "Widget", "items": [{POD}], "metadata": {{"name": "w"}}}}"#),
            format!(r#"{{"items": [{POD}]}}"#),
            format!(r#"{{"kind": "List", "items": [{POD}], "kind": "Widget"}}"#),
            // A List inside a List.
            format!(
                r#"{{"apiVersion": "v1", "items": [{{"kind": "List", "items": [{POD}]}}, {{"kind": "PodList", "items": [{pod}]}}], "kind": "List"}}"#
            ),
        ];
        for text in texts {
            let (a, b) = (whole("l.json", &text), streamed("l.json", &text));
            assert_eq!(objects(&a), objects(&b), "{text}");
            assert_eq!(a.inventory, b.inventory, "{text}");
        }
    }

    #[test]
    fn a_kind_given_twice_differently_around_the_items_is_an_error() {
        // (The other way round, a List's kind overridden after its items, is an object, and reads as one.)
        let text = format!(r#"{{"kind": "Widget", "items": [{POD}], "kind": "List"}}"#);
        let e = ingest(&[Input::new("d.json", text.as_str())]).unwrap_err();
        assert_eq!((e.line, e.col), (Some(1), Some(1)));
        assert!(e.message.contains("given twice"), "{e}");
        // Found by walking a folder: skipped, and none of its items counted.
        let r = ingest(&[Input::new("d.json", text.as_str()).discovered(), Input::new("p.json", POD)]).unwrap();
        assert_eq!(r.inventory.objects, 1);
        assert_eq!(r.inventory.skipped.len(), 1);
    }

    #[test]
    fn an_unreadable_list_leaves_nothing_behind() {
        let text = format!(
            r#"{{"apiVersion": "v1", "items": [{POD}, {NODE}, {{"kind": "Pod", "metadata": {{"name": [}}}}], "kind": "List"}}"#
        );
        let r = ingest(&[Input::new("bad.json", text.as_str()).discovered()]).unwrap();
        assert_eq!(r.inventory.objects, 0);
        assert!(r.inventory.skipped[0].reason.contains("expected a JSON value"), "{:?}", r.inventory.skipped);
    }

    #[test]
    fn json_looking_yaml_is_read_as_yaml() {
        let r = ingest(&[Input::new("flow.yaml", "{kind: Pod, apiVersion: v1, metadata: {name: f}}\n")]).unwrap();
        assert_eq!(r.inventory.objects, 1);
        let e = ingest(&[Input::new("bad.json", "{\"kind\": \"Pod\",\n \"x\": [}")]).unwrap_err();
        assert_eq!((e.line, e.col), (Some(2), Some(8)), "{e}");
    }

    /// Every JSON fixture reads as the whole tree does.
    #[test]
    fn the_json_fixtures_read_as_the_whole_tree_does() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
        let mut dirs = vec![root];
        let mut seen = 0;
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "json") && !p.ends_with("expected.json") {
                    let text = std::fs::read_to_string(&p).unwrap();
                    let name = p.display().to_string();
                    assert_eq!(objects(&whole(&name, &text)), objects(&streamed(&name, &text)), "{name}");
                    seen += 1;
                }
            }
        }
        assert!(seen >= 4, "{seen}");
    }
}
