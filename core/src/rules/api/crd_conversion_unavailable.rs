//! `api/crd-conversion-unavailable`: a CRD's conversion webhook has no ready endpoint.

use crate::model::admission::ServiceRef;
use crate::model::Body;
use crate::report::{Finding, Severity};
use crate::rules::context::display_ref;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "api/crd-conversion-unavailable",
    severity: Severity::Blocker,
    title: "A CustomResourceDefinition's conversion webhook has no ready endpoint",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Every `CustomResourceDefinition` with `spec.conversion.strategy: Webhook` calling a Service in the cluster,
serving more than one version, when no ready endpoint stands behind that Service (its EndpointSlices, or
when none was read, the Ready pods its selector picks; as for `admission/webhook-unavailable`). A CRD whose
Service and endpoints were not read is not judged.

## Why it matters for an upgrade
The API server converts every object read or written at a version other than the one it is stored at
through the webhook. With no endpoint, those requests fail: a controller or client on the other version
cannot list or watch the resource, and the garbage collector and the namespace controller stall on it.
Upgrades restart the controllers, which then cannot start their informers on the resource.

## Example
`certificates.cert-manager.io` serving `v1` and `v1alpha2`, conversion through `cert-manager/cert-manager-webhook`,
whose EndpointSlice has no ready endpoint: blocker.

## How to fix
Bring the conversion webhook's pods up; if only one version is still used, serve only that one (and migrate
the stored objects first, see `api/crd-stored-version-unserved`).

## References
- Versions in CustomResourceDefinitions, webhook conversion: <https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definition-versioning/#webhook-conversion>
- kubernetes `staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/conversion/webhook_converter.go`
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    for o in ctx.live_objects() {
        let Body::Crd(c) = &o.body else { continue };
        let Some(svc) = &c.conversion_service else { continue };
        let served: Vec<&str> = c.versions.iter().filter(|v| v.served).map(|v| v.name.as_str()).collect();
        if served.len() < 2 {
            continue;
        }
        let Some(b) = ctx.service_backends(svc) else { continue };
        if !b.is_empty() {
            continue;
        }
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "{} converts between {} through service {}/{}, which has no ready endpoint: reads and writes at a version other than the stored one fail",
                    display_ref(&o.r),
                    served.join(", "),
                    svc.namespace,
                    svc.name
                ),
                "Bring the conversion webhook's pods up, or serve a single version once the stored objects are migrated.",
            )
            .object(o)
            .data("service", service(svc))
            .data("versions", served.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>()),
        );
    }
}

fn service(s: &ServiceRef) -> String {
    format!("{}/{}", s.namespace, s.name)
}
