//! What every rule sees: the cluster (indexed, with its semantics, from `cluster/`) and the outcome of the
//! plan's simulation. Rules read both; the plan never calls a rule.

use std::ops::Deref;

use crate::cluster::Cluster;
use crate::plan::downtime::WorkloadOutcome;
use crate::plan::placement::{Pending, Placed, Refusal};
use crate::plan::NodeWindow;

pub use crate::cluster::{NodeView, WorkloadKey};
pub use crate::model::display_ref;
pub use crate::units::name_list;

/// What the rules see. The simulation's outcome is read through its accessors, which note the read
/// ([`Cluster::note_variable_read`]): a rule that read none of it, nor anything a lifted cause changes, gives
/// the same findings in the run if resolved.
pub struct Context<'a> {
    cluster: Cluster<'a>,
    workload_outcomes: Option<Vec<WorkloadOutcome<'a>>>,
    pending: Vec<Pending>,
    refused: Vec<Refusal>,
    windows: Vec<NodeWindow>,
    /// The deployed Helm releases read (their charts' `kubeVersion` among what they say).
    pub helm_releases: Vec<crate::report::HelmRelease>,
}

impl<'a> Context<'a> {
    pub fn new(
        cluster: Cluster<'a>,
        workload_outcomes: Option<Vec<WorkloadOutcome<'a>>>,
        placed: Placed,
        windows: Vec<NodeWindow>,
        helm_releases: Vec<crate::report::HelmRelease>,
    ) -> Self {
        Context { cluster, workload_outcomes, pending: placed.pending, refused: placed.refused, windows, helm_releases }
    }

    /// The cluster alone, the simulation's outcome let go (the run if resolved simulates it again).
    pub fn into_cluster(self) -> Cluster<'a> {
        self.cluster
    }

    /// The outcome in the plan's simulation of each workload that is down at some time (`None` when there
    /// is no plan).
    pub fn workload_outcomes(&self) -> Option<&[WorkloadOutcome<'a>]> {
        self.cluster.note_variable_read();
        self.workload_outcomes.as_deref()
    }

    /// The pods the plan's drains leave Pending, window by window (the placement replay), with the
    /// windows they refer to.
    pub fn pending(&self) -> &[Pending] {
        self.cluster.note_variable_read();
        &self.pending
    }

    /// The pods' re-creations fail-closed admission webhooks refused in the same replay.
    pub fn refused(&self) -> &[Refusal] {
        self.cluster.note_variable_read();
        &self.refused
    }

    /// The plan's windows, node by node, that `pending` and `refused` refer to.
    pub fn windows(&self) -> &[NodeWindow] {
        self.cluster.note_variable_read();
        &self.windows
    }

    /// The pools the profile budgets over.
    pub fn pools(&self) -> Vec<crate::budget::Pool> {
        crate::budget::pools(&self.cluster)
    }

    /// A pool's resolved budget.
    pub fn limit(&self, pool: &crate::budget::Pool) -> crate::budget::Limit {
        crate::budget::limit(&self.cluster, pool)
    }
}

impl<'a> Deref for Context<'a> {
    type Target = Cluster<'a>;

    fn deref(&self) -> &Cluster<'a> {
        &self.cluster
    }
}
