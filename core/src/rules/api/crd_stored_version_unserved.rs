//! `api/crd-stored-version-unserved`: a CRD's `status.storedVersions` holds a version it no longer serves.

use crate::model::Body;
use crate::report::{Finding, Severity};
use crate::rules::context::display_ref;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "api/crd-stored-version-unserved",
    severity: Severity::Warning,
    title: "A CustomResourceDefinition still has objects stored at a version it no longer serves",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Every `CustomResourceDefinition` whose `status.storedVersions` lists a version that is not served
(`served: false`) or no longer in `spec.versions`, beside the current storage version. A CRD without status
(a manifest) is not judged.

## Why it matters for an upgrade
`storedVersions` records every version objects may still be stored at in etcd. The API server refuses to
drop a version from `spec.versions` while it is listed there, so the chart or operator upgrade that removes
the old version (often shipped with, or required by, the Kubernetes upgrade) fails until the objects are
rewritten at the storage version and the old version is removed from `storedVersions`.

## Example
`widgets.example.com` serves only `v1` (`v1beta1` has `served: false`), `storedVersions: [v1beta1, v1]`:
warning.

## How to fix
Migrate the stored objects (read and write each one back, or run kube-storage-version-migrator), then remove
the old version from the CRD's `status.storedVersions` (`kubectl patch --subresource=status`).

## References
- Versions in CustomResourceDefinitions, upgrade existing objects to a new stored version: <https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definition-versioning/#upgrade-existing-objects-to-a-new-stored-version>
- kubernetes `staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go` (every stored version must stay in `spec.versions`)
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    for o in ctx.live_objects() {
        let Body::Crd(c) = &o.body else { continue };
        let Some(stored) = &c.stored_versions else { continue };
        let storage = c.versions.iter().find(|v| v.storage).map(|v| v.name.as_str());
        let stale: Vec<String> = stored
            .iter()
            .filter(|s| Some(s.as_str()) != storage)
            .filter(|s| !c.versions.iter().any(|v| &v.name == *s && v.served))
            .cloned()
            .collect();
        if stale.is_empty() {
            continue;
        }
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "{} has objects stored at {} ({}), which it no longer serves: removing that version fails until they are migrated to {}",
                    display_ref(&o.r),
                    stale.join(", "),
                    "status.storedVersions",
                    storage.unwrap_or("the storage version")
                ),
                "Rewrite the stored objects at the storage version (kube-storage-version-migrator), then drop the old version from status.storedVersions.",
            )
            .object(o)
            .data("storedVersions", stored.clone())
            .data("unserved", stale),
        );
    }
}
