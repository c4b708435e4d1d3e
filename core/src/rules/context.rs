//! What every rule sees: the objects read, indexed, and the resolved request.

use crate::model::{Object, ObjectRef};
use crate::options::UpgradeOptions;
use crate::version::Version;

pub struct Context<'a> {
    pub objects: &'a [Object],
    pub options: &'a UpgradeOptions,
    pub to: Version,
    /// The current control-plane version, when given or inferable.
    pub from: Option<Version>,
    /// Each hop's target, in order (empty when there is nothing to upgrade or `from` is unknown).
    pub path: Vec<Version>,
}

impl<'a> Context<'a> {
    pub fn nodes(&self) -> impl Iterator<Item = &'a Object> + 'a {
        self.objects.iter().filter(|o| o.node().is_some())
    }

    pub fn pods(&self) -> impl Iterator<Item = &'a Object> + 'a {
        self.objects.iter().filter(|o| o.pod().is_some())
    }

    pub fn path_strings(&self) -> Vec<String> {
        self.path.iter().map(ToString::to_string).collect()
    }
}

/// A reference for messages: `Kind namespace/name` or `Kind name`.
pub fn display_ref(r: &ObjectRef) -> String {
    match &r.namespace {
        Some(ns) => format!("{} {ns}/{}", r.kind, r.name),
        None => format!("{} {}", r.kind, r.name),
    }
}
