//! `capacity/insufficient-headroom`: in a window of the plan, pods a drain evicts fit on no node that is up.

use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};
use crate::units::name_list_of;

pub const INFO: RuleInfo = RuleInfo {
    code: "capacity/insufficient-headroom",
    severity: Severity::Warning,
    title: "Pods a drain evicts fit on no node that is up: they stay Pending",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
The plan's windows are replayed through a model of kube-scheduler's filters: at each drain, every pod it
evicts (DaemonSet and mirror pods stay; pods that landed on the node earlier in the plan go too) is placed
on a node that is up and schedulable at that moment (cordoned, draining and upgrading nodes excluded; nodes
back from their upgrade included), as the scheduler's filters allow: NodeUnschedulable, TaintToleration,
NodeAffinity and `nodeSelector`, NodePorts (host ports), NodeResourcesFit (CPU, memory, ephemeral storage,
extended resources such as `nvidia.com/gpu`, and the pod count `status.allocatable.pods`, against what the
pods already there request; a pod's requests computed as the scheduler does: init containers, native
sidecars, `spec.overhead`), the volumes' node affinity and zone, PodTopologySpread (`DoNotSchedule`) and
required inter-pod (anti-)affinity. Among the nodes that pass, one of those with the most room left (the
least-allocated score) with the fewest replicas of the pod's controller takes it (the scheduler's default
spreading). A pod that fits nowhere stays Pending until a node comes back; the
finding names the window (hop, phase, the nodes out), each pod left Pending and why, as the scheduler words
it (`0/6 nodes are available: 1 Insufficient cpu, ...`): at most 50 of them in `data.pending`, with the
whole count in `pendingCount` when there are more. Pods that no other node fits at all, whatever is out,
are `scheduling/no-eligible-node`'s.

## Why it matters for an upgrade
Evicted pods that fit nowhere stay Pending until a node returns: the drain still succeeds, so the outage
is silent. A sum of free CPU over all nodes hides it: the room may be split across nodes too small for the
pod, on nodes at their pod limit, or on nodes the pod does not tolerate. The downtime counts the time such
a workload has no replica running.

## Example
Three workers with 1.5 CPU free each and a 4-CPU pod on the first one drained: warning, `apps/batch-1`
Pending (`0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: },
1 node(s) were unschedulable, 2 Insufficient cpu.`) until its node is back.

## How to fix
Lower the pool's concurrency (`maxUnavailable`), surge nodes before draining (kOps `maxSurge`), add a node
for the upgrade, free the host port, relax the spread or anti-affinity, or right-size the requests.

## References
- Resource management for pods: <https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/>
- Scheduling framework, filter plugins: <https://kubernetes.io/docs/reference/scheduling/config/#scheduling-plugins>
- kubernetes `pkg/scheduler/framework/plugins/noderesources/fit.go`, `k8s.io/component-helpers/resource` (`PodRequests`)
- cluster-autoscaler `simulator/` (can every pod of a node go elsewhere?)
"#;

/// How many Pending pods a finding lists in `data.pending` (with why, each); `pendingCount` gives the whole
/// count when there are more. A drain of a node with hundreds of pods, at every node of a large plan, listed
/// them all: at 150,000 pods that was most of the report and of the memory (a gigabyte in WebAssembly).
pub const LISTED: usize = 50;

/// How many Pending pods the message names.
const NAMED: usize = 5;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let pools = ctx.pools();
    for p in ctx.pending() {
        let Some(w) = ctx.windows().get(p.window) else { continue };
        let Some(node) = ctx.nodes.get(w.node) else { continue };
        let pool = pools.iter().find(|q| q.nodes.contains(&w.node)).map_or_else(String::new, |q| q.name.clone());
        let mut out_names: Vec<&str> = p.nodes_out.iter().filter_map(|i| ctx.nodes.get(*i)).map(|n| n.name()).collect();
        crate::sort::sort(&mut out_names);
        // The message names five (`name_list`'s first five, and how many more).
        let shown: Vec<String> =
            p.pods.iter().take(NAMED).map(|(pod, why)| format!("{pod} ({})", why.message())).collect();
        let pending: Vec<_> = p.pods.iter().take(LISTED).cloned().collect();
        let mut f = Finding::new(
            &INFO,
            format!(
                "Hop {}, {}: draining {} with {} out, {} evicted pod(s) fit on no node that is up and stay Pending until a node is back: {}",
                w.hop,
                w.phase,
                node.name(),
                out_names.join(", "),
                p.pods.len(),
                name_list_of(&shown, p.pods.len())
            ),
            "Lower the pool's concurrency, surge nodes before draining, add a node for the upgrade, or relax what the pods need (requests, host ports, spread, anti-affinity).",
        )
        .object(node.obj)
        // The figures the finding carried before the placement model (kept for whoever reads them): the
        // drained node's pool, what the Pending pods request, what the nodes up have free in all.
        .data("pool", pool.clone())
        .data("neededCpuMillis", p.needed.0)
        .data("neededMemoryBytes", p.needed.1)
        .data("freeCpuMillis", p.free.0)
        .data("freeMemoryBytes", p.free.1)
        .data("hop", w.hop.clone())
        .data("phase", w.phase)
        .data("atSeconds", p.at)
        .data("nodesOut", out_names)
        .data_pending("pending", pending);
        if p.pods.len() > LISTED {
            f = f.data("pendingCount", p.pods.len());
        }
        out.push(f);
    }
}
