//! `admission/policy-misconfigured`: a fail-closed ValidatingAdmissionPolicy binding whose parameters
//! fail refuses every pod creation it matches.

use crate::cluster::admission::{PolicyFault, POLICY_MISCONFIGURED};
use crate::report::{Finding, Severity};
use crate::rules::context::display_ref;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: POLICY_MISCONFIGURED,
    severity: Severity::Blocker,
    title: "A fail-closed ValidatingAdmissionPolicy binding whose parameters fail refuses every pod it matches",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Every `ValidatingAdmissionPolicyBinding` whose `validationActions` hold `Deny`, bound to a
`ValidatingAdmissionPolicy` with `failurePolicy: Fail` (the default) whose `matchConstraints` cover the
creation of pods (the same rule matching as webhooks, `excludeResourceRules`, the namespace and object
selectors of the policy and of the binding's `matchResources`), when the binding's parameters fail as the
API server collects them (`CollectParams`):
- the policy's `paramKind` names a kind nothing serves (no CustomResourceDefinition read defines it, and it
  is not a built-in group): "paramKind kind ... not known";
- the binding's `paramRef.namespace` is set for a cluster-scoped `paramKind`;
- `parameterNotFoundAction: Deny` and no object matches `paramRef` (its `name` or `selector`, in
  `paramRef.namespace`, or for a namespaced kind with none, in the namespace of the pod being created):
  "no params found for policy binding with `Deny` parameterNotFoundAction".

A missing parameter is judged only where its kind was listed: some object of that kind read in that
namespace (not the ConfigMaps read by name, not Helm's release records). A binding without `paramRef`, or
with `parameterNotFoundAction: Allow`, validates with no parameter and is not judged (its CEL is not run
offline). The plan's replay refuses the pods it covers when the drains make their controllers re-create
them, for good: nothing brings the parameter back.

A blocker when the plan's drains evict pods whose re-creation it refuses; a warning when it covers none of
them, or covers them only maybe (its `matchConditions`, a namespace selector on labels of a Namespace
that was not read, `resourceNames`).

## Why it matters for an upgrade
The API server applies the policy's `failurePolicy` to a configuration error before any CEL runs: with
`Fail` and a `Deny` binding, every matching request is refused. A parameter deleted with its tool's
namespace, a CRD uninstalled, leaves a policy that refuses every pod the drains make the controllers
re-create: the workloads shrink node by node and the budgets over them then stall the next drains.

## Example
`ValidatingAdmissionPolicy/image-registries` with `paramKind: v1 ConfigMap`, bound with
`paramRef: {name: allowed, namespace: policy, parameterNotFoundAction: Deny}`; the ConfigMaps of `policy`
were read and `allowed` is not among them: blocker, naming the pods re-created in the plan that it refuses.

## How to fix
Restore the parameter (or the CRD of its kind), set `parameterNotFoundAction: Allow` on the binding or
`failurePolicy: Ignore` on the policy, or delete a binding left behind by an uninstalled tool.

## References
- Validating Admission Policy, parameter resources and failure policy: <https://kubernetes.io/docs/reference/access-authn-authz/validating-admission-policy/>
- kubernetes `staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/generic/policy_dispatcher.go` (`CollectParams`), and its `validating/admission_test.go`
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let offset = ctx.pod_webhooks().len();
    for (i, p) in ctx.pod_policies().iter().enumerate() {
        let k = offset + i;
        let (severity, effect, refused, may) =
            super::refusal_effect(ctx, k, "its matchConditions, resourceNames or namespace labels", "for good");
        // A missing parameter known to be missing somewhere: where the binding names its namespace (or the
        // kind is cluster-scoped); a per-namespace one shows only through the pods it refuses.
        let fixed = p.cluster_scoped || p.bind.param_ref.as_ref().is_some_and(|r| r.namespace.is_some());
        let known = p.fault != PolicyFault::ParamNotFound || (fixed && ctx.param_found(p, "") == Some(false));
        if refused.is_empty() && may.is_empty() && !known {
            continue;
        }
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "{}, binding {} (failurePolicy Fail, validationActions Deny): {}, so the API server refuses every pod creation it matches: {effect}",
                    display_ref(&p.policy.r),
                    p.binding.r.name,
                    p.fault_text()
                ),
                "Restore the parameter (or the CRD of its kind), set parameterNotFoundAction: Allow on the binding or failurePolicy: Ignore on the policy, or delete the binding if its tool is gone.",
            )
            .severity(severity)
            .object(p.binding)
            .data("policy", p.policy.r.name.to_string())
            .data("paramKind", p.param_kind.1)
            .data("refused", refused)
            .data("mayRefuse", may),
        );
    }
}
