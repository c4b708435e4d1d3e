//! admission/: fail-closed admission webhooks, and ValidatingAdmissionPolicy bindings whose parameters
//! fail, that refuse the pods the upgrade's drains make the
//! controllers re-create. The webhooks and their backends are found in `cluster::admission`; the
//! refusals in the plan's own replay (`plan::placement::replay`), so that what the findings say is what
//! the downtime counts.

pub mod policy_misconfigured;
pub mod webhook_down_in_window;
pub mod webhook_unavailable;

use crate::cluster::admission::PodWebhook;
use crate::rules::context::display_ref;

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
