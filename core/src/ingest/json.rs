//! One JSON file read in parts, its objects taken as they come: the reader of `check()` and `Session`.
//!
//! The file goes through [`JsonStream`] with only the read fields kept ([`Keep::Read`]). The items of a
//! top-level List (what `kubectl get -o json` prints) are read one by one, each made an object at once and
//! its tree dropped, so memory follows the objects kept, not the file. Since kubectl writes the List's
//! `kind` after its `items`, an item is read before it is known that the file is a List; what was read is
//! taken back (see [`Mark`]) when the file turns out not to be one, or not to be readable.

use super::list::ListItems;
use super::{read_in_order, FileIngest, Ingested};
use crate::parse::{parse_yaml_documents, JsonStream, Keep, ParseError};

/// A JSON-looking file that is not JSON is read again as YAML (YAML's flow style, `{kind: Pod}`), when it
/// is at most this long: its bytes are kept until then.
pub const YAML_FALLBACK_BYTES: usize = 8 << 20;

pub struct JsonFile {
    stream: JsonStream,
    kept: Option<Vec<u8>>,
    error: Option<ParseError>,
    /// The root's items taken as they come (taken back if it is no List or not readable).
    list: ListItems,
    /// The root's `items` keys seen when items were last taken (see [`JsonStream::items_keys`]).
    items_keys: u32,
}

impl JsonFile {
    /// Begin reading a file (its byte-order mark already dropped).
    pub fn new(out: &Ingested, f: &FileIngest) -> JsonFile {
        JsonFile {
            stream: JsonStream::new(&f.name, Keep::Read, true),
            // Flow-style YAML that looks like JSON is read as YAML after a JSON error, except in a `.json` file.
            kept: (!super::named_json(&f.name)).then(Vec::new),
            error: None,
            list: ListItems::new(out, f),
            items_keys: 0,
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
        let keys = self.stream.items_keys();
        if keys != self.items_keys {
            // `items` given again: as kubectl's JSON reader (encoding/json), the last one is the one read,
            // so what the earlier one added is taken back.
            if self.items_keys > 0 {
                self.list.restore(out, f);
                self.list = ListItems::new(out, f);
            }
            self.items_keys = keys;
        }
        let items = self.stream.take_items();
        let head = self.stream.list_head().cloned().unwrap_or_default();
        self.list.take(items, &head, out, f);
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
                self.list.restore(out, f);
                let Some(kept) = self.kept else { return Err(e) };
                // JSON-looking YAML (flow style) is still YAML.
                let docs = read_in_order(&f.name, &kept, |text| parse_yaml_documents(&f.name, text)).map_err(|_| e)?;
                out.add_documents(f, &docs);
                return Ok(());
            }
        };
        self.list.finish(&root, out, f)
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

    /// A `.json` file is JSON only, as kubectl's decoder reads a stream that starts with `{`: a comment is an
    /// error at its place, not a YAML mapping that swallows the next key and leaves the object without a kind.
    #[test]
    fn a_comment_in_a_json_file_is_an_error_at_its_place() {
        let text = "{\"apiVersion\": \"v1\", // a comment\n\"kind\": \"Node\", \"metadata\": {\"name\": \"n1\"}}\n";
        let e = ingest(&[Input::new("c.json", text)]).unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("c.json", Some(1)));
        // Found in a folder: skipped with that reason, never read as something else.
        let found = ingest(&[Input::new("c.json", text).discovered()]).unwrap();
        assert!(found.inventory.skipped.iter().any(|s| s.reason.starts_with("not Kubernetes YAML or JSON")));
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

    /// A List's `items` given twice: the last one is read, as kubectl's readers (encoding/json,
    /// sigs.k8s.io/yaml) read a key given twice; never both.
    #[test]
    fn items_given_twice_read_the_last_only() {
        let q = POD.replace(r#""name": "p""#, r#""name": "q""#);
        let json = [
            format!(r#"{{"apiVersion": "v1", "items": [{POD}, {NODE}], "items": [{q}], "kind": "List"}}"#),
            format!(r#"{{"kind": "List", "apiVersion": "v1", "items": [{POD}], "items": [{q}]}}"#),
            format!(r#"{{"apiVersion": "v1", "items": [{POD}, {NODE}], "kind": "List", "items": null}}"#),
        ];
        let yaml = [
            "apiVersion: v1\nkind: List\nitems:\n- {kind: Pod, apiVersion: v1, metadata: {name: p}}\n- {kind: Node, apiVersion: v1, metadata: {name: n1}}\nitems:\n- {kind: Pod, apiVersion: v1, metadata: {name: q}}\n".to_owned(),
            "apiVersion: v1\nitems:\n- {kind: Pod, apiVersion: v1, metadata: {name: p}}\nkind: List\nitems: []\n".to_owned(),
        ];
        let names = |text: &str, file: &str| -> Vec<String> {
            let r = streamed(file, text);
            r.objects.iter().map(|o| o.r.name.to_string()).collect()
        };
        assert_eq!(names(&json[0], "a.json"), ["q"]);
        assert_eq!(names(&json[1], "b.json"), ["q"]);
        assert!(names(&json[2], "c.json").is_empty());
        assert_eq!(names(&yaml[0], "a.yaml"), ["q"]);
        assert!(names(&yaml[1], "b.yaml").is_empty());
        // A chunk boundary anywhere gives the same.
        for text in &json {
            let whole_read = names(text, "w.json");
            for cut in (1..text.len()).step_by(7) {
                let mut s = crate::session::Session::new(crate::UpgradeOptions::new("1.29.2")).unwrap();
                s.push("w.json", &text.as_bytes()[..cut]).unwrap();
                s.push("w.json", &text.as_bytes()[cut..]).unwrap();
                let got: Vec<String> =
                    s.finish_ingested().unwrap().objects.iter().map(|o| o.r.name.to_string()).collect();
                assert_eq!(got, whole_read, "cut at {cut}");
            }
        }
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
        let files: Vec<_> = crate::ingest::tests::fixture_files(&["json"])
            .into_iter()
            .filter(|p| !p.ends_with("expected.json"))
            .collect();
        for p in &files {
            let text = std::fs::read_to_string(p).unwrap();
            let name = p.display().to_string();
            assert_eq!(objects(&whole(&name, &text)), objects(&streamed(&name, &text)), "{name}");
        }
        assert!(files.len() >= 4, "{}", files.len());
    }
}
