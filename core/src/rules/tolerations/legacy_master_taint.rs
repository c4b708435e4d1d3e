//! `tolerations/legacy-master-taint`: a pod for control-plane nodes tolerates only one of the two taints.

use crate::cluster::upgrade::control_plane_taints_after;
use crate::model::{Object, PodSpec};
use crate::options::Profile;
use crate::report::{Finding, Severity};
use crate::rules::context::display_ref;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "tolerations/legacy-master-taint",
    severity: Severity::Warning,
    title: "Tolerates only one of the master / control-plane taints",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Workload templates and unmanaged pods that tolerate `node-role.kubernetes.io/master:NoSchedule` but not
`node-role.kubernetes.io/control-plane:NoSchedule`, or the other way round. A toleration with
`operator: Exists` and no key tolerates both and is fine.

## Why it matters for an upgrade
kubeadm renamed the taint: 1.24 control-plane nodes carry both taints, 1.25 and later only the
control-plane one (the upgrade strips the master taint). A pod tolerating only `master` cannot land on
control-plane nodes from 1.25; one tolerating only `control-plane` cannot land on 1.24 nodes. After the
drain such pods stay Pending; CoreDNS itself dropped its master toleration in 1.26.

Under kubeadm, a toleration of only `master` is reported when the target is 1.25 or later; one of only
`control-plane` while the control plane is still on 1.24 or older. No other distribution renames the
taints: there the rule reads the taints the snapshot's control-plane nodes carry (an OpenShift master
keeps `node-role.kubernetes.io/master`), and reports a pod that lacks a toleration for one of them.

## Example
A DaemonSet for log shipping with `tolerations: [{key: node-role.kubernetes.io/master, effect: NoSchedule}]`,
upgrading to 1.25: warning.

## How to fix
Tolerate both taints until every control-plane node is on 1.25 or later, then keep only
`node-role.kubernetes.io/control-plane`.

## References
- kubeadm 1.24/1.25 release notes: the control-plane taint and label rename
- Well-known taints: <https://kubernetes.io/docs/reference/labels-annotations-taints/#node-role-kubernetes-io-control-plane-taint>
"#;

const MASTER: &str = "node-role.kubernetes.io/master";
const CONTROL_PLANE: &str = "node-role.kubernetes.io/control-plane";

fn tolerates(spec: &PodSpec, key: &str) -> bool {
    spec.tolerations.iter().any(|t| t.tolerates_parts(key, "", "NoSchedule"))
}

fn check_spec(ctx: &Context<'_>, o: &Object, spec: &PodSpec, out: &mut Vec<Finding>) {
    let (m, cp) = (tolerates(spec, MASTER), tolerates(spec, CONTROL_PLANE));
    if m == cp {
        return;
    }
    let (has, lacks) = if m { (MASTER, CONTROL_PLANE) } else { (CONTROL_PLANE, MASTER) };
    // What the control-plane nodes carry once the upgrade is through (kubeadm renames the taints by
    // version, from what the nodes carry now; the others keep them).
    let Some(carried) = control_plane_taints_after(ctx) else { return };
    if !carried.contains(&lacks) {
        return;
    }
    let when = if ctx.profile() == Profile::Kubeadm {
        format!(
            "after the upgrade to {} the control-plane nodes carry the {lacks} taint (kubeadm renames it by version)",
            ctx.to
        )
    } else {
        format!("the control-plane nodes carry the {lacks} taint ({} keeps it through the upgrade)", ctx.profile())
    };
    out.push(
        Finding::new(
            &INFO,
            format!(
                "{} tolerates {has} but not {lacks}: {when}, so it cannot land on control-plane nodes",
                display_ref(&o.r)
            ),
            format!("Add a toleration for {lacks}:NoSchedule beside the one for {has}."),
        )
        .object(o)
        .data("tolerates", has)
        .data("missing", lacks),
    );
}

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    for (o, spec) in ctx.pod_specs() {
        check_spec(ctx, o, spec, out);
    }
}
