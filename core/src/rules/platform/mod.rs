//! `platform/*`: what the distribution's own tooling refuses or waits on before any node is touched
//! (OpenShift's cluster-version operator and `oc adm upgrade`, the MCO and OLM, GKE on Bare Metal's
//! `bmctl`). The gates are decided once in `cluster::platform`; the plan stops on the same ones.

pub mod admin_ack_required;
pub mod cluster_version_failing;
pub mod operator_degraded;
pub mod operator_incompatible;
pub mod pool_degraded;
pub mod pool_not_updated;
pub mod preflight_failed;
pub mod update_in_progress;
pub mod update_not_offered;
pub mod update_not_recommended;
pub mod upgradeable_false;
pub mod version_refused;

use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

/// Report every gate of this rule's code, as `cluster::platform` found it.
fn report(ctx: &Context<'_>, info: &'static RuleInfo, out: &mut Vec<Finding>) {
    for g in ctx.platform_gates().iter().filter(|g| g.code == info.code) {
        let mut f = Finding::new(info, g.message.clone(), g.help.clone());
        if !g.blocker {
            f = f.severity(Severity::Warning);
        }
        if let Some(o) = g.object {
            f = f.object(o);
        }
        for (k, v) in &g.data {
            f = f.data(k, v.clone());
        }
        if let Some(stop) = g.stop {
            f = f.data(
                "plan",
                match stop {
                    crate::cluster::platform::GateStop::Refused => "refused: the upgrade does not start",
                    crate::cluster::platform::GateStop::Waits => {
                        "waits: the control plane update stops at this operator"
                    }
                },
            );
        }
        out.push(f);
    }
}
