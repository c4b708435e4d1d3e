//! A List's items made objects as they are read, before the List is complete: the one piece of logic
//! the JSON and the YAML readers share for `kubectl get` output.
//!
//! kubectl writes a List's `kind` after its `items`, so an item is read before it is known that the
//! document is a List. An item with its own `kind` is read the same either way and becomes an object at
//! once; an item without one (a typed List may leave it out) is held, with every item after it, until
//! the List's kind is known. When the document ends it is classified whole: not a List after all, and
//! what was taken is taken back (see [`Mark`]).

use super::{add_document, add_list_item, classify, has_kind, Doc, FileIngest, Ingested, Mark};
use crate::parse::{Node, ParseError};

/// A document's root `kind` and `apiVersion` as they were when its `items` began (`None`: not yet given).
pub type ListHead = (Option<String>, Option<String>);

/// How the items read so far were taken.
struct Assumed {
    /// The root's `kind` and `apiVersion` when its `items` began (when written before them).
    kind: Option<String>,
    api: Option<String>,
    /// Items held back until the List's kind is known (an item without its own `kind`, and all after it).
    held: Vec<(usize, Node)>,
    next: usize,
}

/// The items of one document taken as they come.
pub(crate) struct ListItems {
    /// Where this document's objects begin.
    mark: Mark,
    assumed: Option<Assumed>,
}

impl ListItems {
    pub(crate) fn new(out: &Ingested, f: &FileIngest) -> ListItems {
        ListItems { mark: Mark::at(out, f.not_objects.len()), assumed: None }
    }

    /// Take back everything this document added.
    pub(crate) fn restore(&self, out: &mut Ingested, f: &mut FileIngest) {
        self.mark.restore(out, f);
    }

    /// Items of the document's top-level `items`, in order, read while its root said `head`.
    pub(crate) fn take(&mut self, items: Vec<Node>, head: &ListHead, out: &mut Ingested, f: &mut FileIngest) {
        if items.is_empty() {
            return;
        }
        let a = self.assumed.get_or_insert_with(|| Assumed {
            kind: head.0.clone(),
            api: head.1.clone(),
            held: Vec::new(),
            next: 0,
        });
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

    /// The document is complete (its root, without the items taken): its objects are in `out`. Or, when
    /// the List's `kind` or `apiVersion` at its end differs from what its items were read by (a key given
    /// twice), what it added is taken back and that is the error.
    pub(crate) fn finish(self, root: &Node, out: &mut Ingested, f: &mut FileIngest) -> Result<(), ParseError> {
        f.docs += 1;
        let Some(a) = self.assumed else {
            // No items taken: the whole document is here.
            add_document(&f.name, root, out, &mut f.not_objects);
            return Ok(());
        };
        match classify(root) {
            Doc::List { item_kind, list_api } => {
                let kind = root.get("kind").as_str();
                let api = root.get("apiVersion").as_str();
                // Items were read as the root said when they came: a later duplicate key that says otherwise
                // cannot be honoured any more.
                if a.kind.as_deref().is_some_and(|k| Some(k) != kind)
                    || a.api.as_deref().is_some_and(|v| Some(v) != api)
                {
                    self.mark.restore(out, f);
                    f.docs -= 1;
                    return Err(ParseError {
                        file: f.name.clone(),
                        line: Some(root.line()),
                        col: Some(root.pos.col),
                        message: "the List's `kind` or `apiVersion` is given twice, differently, around its `items`"
                            .to_owned(),
                    });
                }
                if let Some(k) = item_kind {
                    out.inventory.listed.push(k.to_owned());
                }
                for (i, item) in &a.held {
                    add_list_item(&f.name, *i, item, item_kind, list_api, out, &mut f.not_objects);
                }
            }
            _ => {
                // Not a List after all: the items were no objects (nothing reads `items` of an object).
                self.mark.restore(out, f);
                add_document(&f.name, root, out, &mut f.not_objects);
            }
        }
        Ok(())
    }
}
