//! admission/: fail-closed admission webhooks, and ValidatingAdmissionPolicy bindings whose parameters
//! fail, that refuse the pods the upgrade's drains make the
//! controllers re-create. The webhooks and their backends are found in `cluster::admission`; the
//! refusals in the plan's own replay (`plan::placement::replay`), so that what the findings say is what
//! the downtime counts.

pub mod policy_misconfigured;
pub mod webhook_down_in_window;
pub mod webhook_unavailable;

use crate::cluster::admission::PodWebhook;
use crate::report::Severity;
use crate::rules::context::{display_ref, name_list};
use crate::rules::Context;

/// `ValidatingWebhookConfiguration/name, webhook w.example.com (service ns/svc)`.
pub fn describe(h: &PodWebhook<'_>) -> String {
    format!(
        "{}, webhook {} (failurePolicy Fail, service {}/{})",
        display_ref(&h.config.r),
        h.webhook.name,
        h.service.namespace,
        h.service.name
    )
}

/// What gate `k` (`Cluster::pod_gate`) refused in the plan's replay: the pods refused and those it only may
/// refuse (`namespace/name`, sorted), with the finding's severity and its effect as words. `decide` names
/// what decides a "may"; `never_back` how the refused pods end.
pub fn refusal_effect(
    ctx: &Context<'_>,
    k: usize,
    decide: &str,
    never_back: &str,
) -> (Severity, String, Vec<String>, Vec<String>) {
    let pods = |may: bool| -> Vec<String> {
        let mut set: Vec<&str> =
            ctx.refused().iter().filter(|r| r.webhook == k && r.may == may).map(|r| r.pod.as_str()).collect();
        crate::sort::sort_dedup(&mut set);
        set.into_iter().map(str::to_owned).collect()
    };
    let (refused, may) = (pods(false), pods(true));
    let (severity, effect) = if !refused.is_empty() {
        (
            Severity::Blocker,
            format!(
                "the plan's drains evict {} pod(s) whose re-creation it refuses, {never_back}: {}",
                refused.len(),
                name_list(&refused, 5)
            ),
        )
    } else if !may.is_empty() {
        (
            Severity::Warning,
            format!(
                "it may refuse the re-creation of {} pod(s) the plan's drains evict ({decide} decide): {}",
                may.len(),
                name_list(&may, 5)
            ),
        )
    } else {
        (Severity::Warning, "it refuses every pod created in its scope now".to_owned())
    };
    (severity, effect, refused, may)
}
