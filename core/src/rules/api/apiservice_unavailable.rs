//! `api/apiservice-unavailable`: an aggregated APIService is not Available.

use crate::model::Body;
use crate::report::{Finding, Severity};
use crate::rules::context::display_ref;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "api/apiservice-unavailable",
    severity: Severity::Warning,
    title: "An aggregated APIService is not Available: discovery of its group fails",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Every `APIService` served by a Service in the cluster (`spec.service` set; the API server's own groups have
none) whose `Available` condition is not `True`, as kube-aggregator's availability controller sets it
(`ServiceNotFound`, `ServiceAccessError`, `MissingEndpoints`, `EndpointsNotFound`, `FailedDiscoveryCheck`).
An APIService without status (a manifest) is not judged.

## Why it matters for an upgrade
While an aggregated API is unavailable, discovery of its group fails: `kubectl api-resources` and every
client that walks all APIs report an error, the namespace controller cannot finish deleting a namespace,
and the garbage collector and quota controllers log and retry for the resources they cannot list. An
upgrade restarts the API servers and controllers, which then run their discovery again against a group that
does not answer; the metrics API (`v1beta1.metrics.k8s.io`) is the common case, and the Horizontal Pod
Autoscalers that read it stop scaling during the upgrade.

## Example
`v1beta1.metrics.k8s.io` with `Available=False`, reason `MissingEndpoints`: warning.

## How to fix
Bring the backing Service's pods up (`kubectl get apiservice <name> -o yaml` names the Service and the
reason), or delete the APIService if the add-on that registered it was removed.

## References
- Kubernetes API aggregation layer: <https://kubernetes.io/docs/concepts/extend-kubernetes/api-extension/apiserver-aggregation/>
- kubernetes `staging/src/k8s.io/kube-aggregator/pkg/controllers/status/` (the `Available` condition and its reasons, with its tests)
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    for o in ctx.live_objects() {
        let Body::ApiService(a) = &o.body else { continue };
        let (Some(svc), Some(cond)) = (&a.service, &a.available) else { continue };
        if cond.status == "True" {
            continue;
        }
        let why =
            [cond.reason.as_str(), cond.message.as_str()].iter().filter(|s| !s.is_empty()).copied().collect::<Vec<_>>();
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "{} (service {}/{}) is not Available{}: discovery of its group fails while it is down",
                    display_ref(&o.r),
                    svc.namespace,
                    svc.name,
                    if why.is_empty() { String::new() } else { format!(" ({})", why.join(": ")) }
                ),
                "Bring the Service's pods up, or delete the APIService if its add-on was removed.",
            )
            .object(o)
            .data("service", format!("{}/{}", svc.namespace, svc.name))
            .data("reason", cond.reason.clone()),
        );
    }
}
