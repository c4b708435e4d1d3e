//! The API removal table (`data/removed-apis.tsv`, a copy of `shared/domain/removed-apis.tsv`: 111
//! group/version/kind rows from 1.16 to 1.39), compiled into the core.

/// The table as shipped.
pub const TABLE_TSV: &str = include_str!("../data/removed-apis.tsv");

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiRow {
    pub group_version: &'static str,
    pub kind: &'static str,
    /// Kubernetes minor the version was deprecated in (`None`: never announced).
    pub deprecated_in: Option<u32>,
    /// Kubernetes minor that no longer serves it (`None`: not removed in Kubernetes itself).
    pub removed_in: Option<u32>,
    pub replacement: &'static str,
    pub sources: &'static str,
}

/// What the table says of an apiVersion/kind at a target minor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Removed,
    Deprecated,
    Served,
}

fn minor(s: &str) -> Option<u32> {
    s.trim().strip_prefix("1.")?.parse().ok()
}

/// Every row of the table (the header left out). Lines that do not have six fields are ignored, which the
/// table test rules out.
pub fn table() -> Vec<ApiRow> {
    TABLE_TSV
        .lines()
        .skip(1)
        .filter_map(|line| {
            let f: Vec<&'static str> = line.split('\t').collect();
            let [gv, kind, dep, rem, repl, src] = f.as_slice() else {
                return None;
            };
            Some(ApiRow {
                group_version: gv,
                kind,
                deprecated_in: minor(dep),
                removed_in: minor(rem),
                replacement: repl,
                sources: src,
            })
        })
        .collect()
}

impl ApiRow {
    pub fn status_at(&self, target_minor: u32) -> Status {
        match (self.deprecated_in, self.removed_in) {
            (_, Some(r)) if target_minor >= r => Status::Removed,
            (Some(d), _) if target_minor >= d => Status::Deprecated,
            // Deprecated by its provider with no Kubernetes version attached (CRD-served APIs).
            (None, None) => Status::Deprecated,
            _ => Status::Served,
        }
    }
}

/// The table's rows by kind and apiVersion, found by a binary search: the API rules ask for the row of
/// every object and of each apiVersion recorded in it (at 150,000 pods a walk of the 111 rows served each
/// of about 500,000 asks).
pub struct Index<'t> {
    rows: &'t [ApiRow],
    /// (kind, apiVersion, position in `rows`), sorted.
    keys: Vec<(&'static str, &'static str, usize)>,
}

impl<'t> Index<'t> {
    pub fn new(rows: &'t [ApiRow]) -> Index<'t> {
        let mut keys: Vec<_> = rows.iter().enumerate().map(|(i, r)| (r.kind, r.group_version, i)).collect();
        crate::sort::sort(&mut keys);
        Index { rows, keys }
    }

    /// The row for an apiVersion and kind, if the table has one (the first, as a walk of it finds).
    pub fn get(&self, api_version: &str, kind: &str) -> Option<&'t ApiRow> {
        let first = self.keys.partition_point(|(k, v, _)| (*k, *v) < (kind, api_version));
        let (k, v, at) = self.keys.get(first)?;
        (*k == kind && *v == api_version).then(|| self.rows.get(*at)).flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The row for an apiVersion and kind, by a walk of the table: what [`Index::get`] answers.
    fn lookup<'t>(rows: &'t [ApiRow], api_version: &str, kind: &str) -> Option<&'t ApiRow> {
        rows.iter().find(|r| r.group_version == api_version && r.kind == kind)
    }

    /// The index answers as a walk of the table does, for every row's own apiVersion and kind and for
    /// pairs the table does not have.
    #[test]
    fn the_index_answers_as_the_walk_does() {
        let rows = table();
        let index = Index::new(&rows);
        let mut asked: Vec<(&str, &str)> = Vec::new();
        for r in &rows {
            asked.extend([(r.group_version, r.kind), ("v1", r.kind), (r.group_version, "Pod"), (r.group_version, "")]);
        }
        asked.extend([("", ""), ("v1", "Pod"), ("zzz/v9", "Zzz"), ("apps/v1", "Deployment")]);
        for (v, k) in asked {
            assert_eq!(index.get(v, k), lookup(&rows, v, k), "{v} {k}");
        }
        assert!(rows.iter().all(|r| index.get(r.group_version, r.kind) == Some(r)));
    }

    #[test]
    fn the_table_has_111_well_formed_rows() {
        assert_eq!(
            TABLE_TSV.lines().next().unwrap(),
            "group_version\tkind\tdeprecated_in\tremoved_in\treplacement\tsource"
        );
        let rows = table();
        assert_eq!(rows.len(), 111);
        assert_eq!(TABLE_TSV.lines().count(), 112);
        for r in &rows {
            if let (Some(d), Some(rem)) = (r.deprecated_in, r.removed_in) {
                assert!(d <= rem, "{r:?}");
            }
        }
    }

    #[test]
    fn the_embedded_table_is_the_shared_one() {
        // In a checkout with ../shared beside it (as in CI), the copy must not drift.
        let shared = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/domain/removed-apis.tsv");
        if let Ok(text) = std::fs::read_to_string(shared) {
            assert_eq!(text, TABLE_TSV, "core/data/removed-apis.tsv differs from shared/domain/removed-apis.tsv");
        }
    }

    #[test]
    fn where_pluto_is_wrong_the_table_is_right() {
        let rows = table();
        let at = |gv: &str, k: &str, m: u32| lookup(&rows, gv, k).unwrap().status_at(m);
        assert_eq!(at("flowcontrol.apiserver.k8s.io/v1beta1", "FlowSchema", 26), Status::Removed);
        assert_eq!(at("flowcontrol.apiserver.k8s.io/v1beta1", "FlowSchema", 25), Status::Deprecated);
        assert_eq!(at("authorization.k8s.io/v1beta1", "SubjectAccessReview", 22), Status::Removed);
        assert_eq!(at("resource.k8s.io/v1beta1", "ResourceClaim", 36), Status::Deprecated);
        assert_eq!(at("resource.k8s.io/v1beta1", "ResourceClaim", 37), Status::Deprecated);
        assert_eq!(at("resource.k8s.io/v1beta1", "ResourceClaim", 38), Status::Removed);
        assert_eq!(at("admissionregistration.k8s.io/v1alpha1", "ValidatingAdmissionPolicy", 32), Status::Removed);
        assert_eq!(at("admissionregistration.k8s.io/v1alpha1", "ValidatingAdmissionPolicy", 31), Status::Deprecated);
    }
}
