//! helm/: what Helm itself refuses once the cluster runs the target (the releases' own records, read at
//! ingestion).

pub mod kube_version_refused;
