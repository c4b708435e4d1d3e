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

pub struct Context<'a> {
    cluster: Cluster<'a>,
    /// Each workload's outcome in the plan's simulation (`None` when there is no plan).
    pub workload_outcomes: Option<Vec<WorkloadOutcome>>,
    /// The pods the plan's drains leave Pending, window by window (the placement replay), with the
    /// windows they refer to.
    pub pending: Vec<Pending>,
    /// The pods' re-creations fail-closed admission webhooks refused in the same replay.
    pub refused: Vec<Refusal>,
    pub windows: Vec<NodeWindow>,
    /// The deployed Helm releases read (their charts' `kubeVersion` among what they say).
    pub helm_releases: Vec<crate::report::HelmRelease>,
}

impl<'a> Context<'a> {
    pub fn new(
        cluster: Cluster<'a>,
        workload_outcomes: Option<Vec<WorkloadOutcome>>,
        placed: Placed,
        windows: Vec<NodeWindow>,
        helm_releases: Vec<crate::report::HelmRelease>,
    ) -> Self {
        Context { cluster, workload_outcomes, pending: placed.pending, refused: placed.refused, windows, helm_releases }
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
