//! api/: objects on group/versions the target no longer serves, or has deprecated.
//!
//! The apiVersion an object was *written* in survives in the manifest itself, in the
//! `kubectl.kubernetes.io/last-applied-configuration` annotation (ignored when its kind differs), in kapp's
//! `kapp.k14s.io/original` and any annotation the user names (`additionalAnnotations`), in
//! `metadata.managedFields[].apiVersion`, and in Helm 3 release records (decoded at ingestion). Each is
//! checked against the table in `apis.rs`.

pub mod apiservice_unavailable;
pub mod crd_conversion_unavailable;
pub mod crd_stored_version_unserved;
pub mod deprecated;
pub mod removed;

use crate::apis::{self, ApiRow, Status};
use crate::model::{Object, Source, Str, Via};
use crate::report::Finding;
use crate::rules::context::display_ref;
use crate::rules::{Context, RuleInfo};

/// One place an object names an apiVersion.
pub struct Usage<'a> {
    pub obj: &'a Object,
    pub api_version: Str,
    pub via: Via,
    /// The annotation it was read from, for `Via::Annotation`.
    pub annotation: Option<String>,
    /// Where it was read, when not where the object itself was (another copy of the object).
    pub source: Option<Source>,
}

/// kubectl's record of the applied manifest.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";
/// kapp's record of the original manifest (carvel-dev/kapp).
pub const KAPP_ORIGINAL: &str = "kapp.k14s.io/original";

/// The apiVersion of the manifest an annotation records (JSON or YAML), when it is of this object's kind.
fn recorded_api_version(ctx: &Context<'_>, o: &Object, key: &str) -> Option<String> {
    let text = o.annotations.get(key)?;
    let (kind, api_version) = ctx.recorded_head(text)?;
    // A stale annotation from another kind (the name was reused) says nothing about this object.
    (kind == o.r.kind.as_str()).then_some(api_version)
}

/// Every distinct apiVersion each object was written in, with where it was found.
pub fn usages<'a>(ctx: &Context<'a>) -> Vec<Usage<'a>> {
    let mut out: Vec<Usage<'a>> = Vec::new();
    for o in ctx.objects {
        let base = o.source.via.unwrap_or(Via::Manifest);
        let mut seen: Vec<Str> = vec![o.r.api_version.clone()];
        out.push(Usage { obj: o, api_version: o.r.api_version.clone(), via: base, annotation: None, source: None });
        // Another copy of the object (a manifest beside the live object) written in another apiVersion.
        for c in o.copies.iter().filter(|c| c.api_version != o.r.api_version) {
            if !seen.contains(&c.api_version) {
                seen.push(c.api_version.clone());
                let via = c.source.via.unwrap_or(Via::Manifest);
                out.push(Usage {
                    obj: o,
                    api_version: c.api_version.clone(),
                    via,
                    annotation: None,
                    source: Some(c.source.clone()),
                });
            }
        }
        if base == Via::HelmRelease {
            continue;
        }
        let mut extra = |v: Str, via: Via, annotation: Option<&str>, out: &mut Vec<Usage<'a>>| {
            if !v.is_empty() && !seen.contains(&v) {
                seen.push(v.clone());
                out.push(Usage {
                    obj: o,
                    api_version: v,
                    via,
                    annotation: annotation.map(str::to_owned),
                    source: None,
                });
            }
        };
        if let Some(v) = recorded_api_version(ctx, o, LAST_APPLIED) {
            extra(v.into(), Via::LastApplied, None, &mut out);
        }
        let named = ctx.options.additional_annotations.iter().map(String::as_str);
        for key in std::iter::once(KAPP_ORIGINAL).chain(named) {
            if key != LAST_APPLIED {
                if let Some(v) = recorded_api_version(ctx, o, key) {
                    extra(v.into(), Via::Annotation, Some(key), &mut out);
                }
            }
        }
        for v in &o.managed_api_versions {
            extra(v.clone(), Via::ManagedFields, None, &mut out);
        }
    }
    out
}

fn via_text(u: &Usage<'_>) -> String {
    match u.via {
        Via::Manifest => String::new(),
        Via::LastApplied => " (per its last-applied-configuration)".to_owned(),
        Via::ManagedFields => " (per its managedFields)".to_owned(),
        Via::HelmRelease => format!(" (in Helm release {})", release_name(u.obj)),
        Via::Annotation => format!(" (per its {} annotation)", u.annotation.as_deref().unwrap_or("?")),
    }
}

fn release_name(o: &Object) -> String {
    let name = o.annotations.get(crate::ingest::HELM_RELEASE_NAME).map_or("?", Str::as_str);
    match o.annotations.get(crate::ingest::HELM_RELEASE_NAMESPACE) {
        Some(ns) if !ns.is_empty() => format!("{ns}/{name}"),
        _ => name.to_owned(),
    }
}

/// Findings of `want` status for every usage, at the target; the hop where it first bites is named.
pub fn report(ctx: &Context<'_>, out: &mut Vec<Finding>, want: Status, info: &RuleInfo) {
    let rows = apis::table();
    let index = apis::Index::new(&rows);
    for u in usages(ctx) {
        let Some(row) = index.get(&u.api_version, &u.obj.r.kind) else {
            continue;
        };
        if row.status_at(ctx.to.minor) != want {
            continue;
        }
        // The hop where it first bites; none when the current version already has it so (a stale
        // annotation of an API removed long ago).
        let already = ctx.from.as_ref().is_some_and(|f| row.status_at(f.minor) == want);
        let hop = if already {
            None
        } else {
            ctx.path.iter().find(|h| row.status_at(h.minor) == want).map(ToString::to_string)
        };
        let f = finding(ctx, &u, row, want, info, hop);
        // An annotation or managed field naming an API the current version already does not serve is old
        // news, not something this upgrade breaks: a warning.
        let stale = already
            && want == Status::Removed
            && matches!(u.via, Via::LastApplied | Via::ManagedFields | Via::Annotation);
        out.push(if stale { f.severity(crate::report::Severity::Warning) } else { f });
    }
}

fn finding(
    ctx: &Context<'_>,
    u: &Usage<'_>,
    row: &ApiRow,
    want: Status,
    info: &RuleInfo,
    hop: Option<String>,
) -> Finding {
    let what = display_ref(&u.obj.r);
    let replacement =
        if row.replacement.is_empty() { "no direct replacement".to_owned() } else { row.replacement.to_owned() };
    let message = match want {
        Status::Removed => format!(
            "{what} uses {}{}, which Kubernetes {} no longer serves (removed in 1.{}{})",
            u.api_version,
            via_text(u),
            ctx.to.minor_string(),
            row.removed_in.unwrap_or(0),
            match &ctx.from {
                Some(f) if row.status_at(f.minor) == Status::Removed =>
                    format!(", so not by the current {} either", f.minor_string()),
                _ => String::new(),
            }
        ),
        _ => match (row.deprecated_in, row.removed_in) {
            (Some(d), Some(r)) => {
                format!("{what} uses {}{}, deprecated since 1.{d} and removed in 1.{r}", u.api_version, via_text(u))
            }
            (None, Some(r)) => format!("{what} uses {}{}, removed in 1.{r}", u.api_version, via_text(u)),
            _ => format!("{what} uses {}{}, deprecated by its provider", u.api_version, via_text(u)),
        },
    };
    let help = match u.via {
        Via::Manifest if row.replacement.is_empty() => {
            "There is no direct replacement: remove the object, or move to the feature that superseded it (for PodSecurityPolicy, Pod Security Admission).".to_owned()
        }
        Via::Manifest => format!("Change apiVersion to {replacement} (check the schema changes), or convert with `kubectl convert`."),

        Via::HelmRelease => format!(
            "Upgrade the chart to {}; if the release must stay, rewrite it with `helm mapkubeapis {}` before the upgrade, or Helm cannot upgrade or roll it back afterwards.",
            if row.replacement.is_empty() { "one without it".to_owned() } else { format!("one that uses {replacement}") },
            u.obj.annotations.get(crate::ingest::HELM_RELEASE_NAME).map_or("<release>", Str::as_str)
        ),
        _ => format!(
            "The stored object is served at newer versions, but the manifest that applies it still says {}: update it to {replacement} in its source (Git, CI) before it is applied again.",
            u.api_version
        ),
    };
    let mut f = Finding::new(info, message, help).object(u.obj).data("apiVersion", u.api_version.to_string());
    if let Some(s) = &u.source {
        f.source = Some(s.clone());
    } else if u.via != Via::Manifest {
        f.source = Some(Source { via: Some(u.via), ..u.obj.source.clone() });
    }
    if u.via == Via::HelmRelease {
        f = f.data("helmRelease", release_name(u.obj));
    }
    if let Some(a) = &u.annotation {
        f = f.data("annotation", a.clone());
    }
    if let Some(d) = row.deprecated_in {
        f = f.data("deprecatedIn", format!("1.{d}"));
    }
    if let Some(r) = row.removed_in {
        f = f.data("removedIn", format!("1.{r}"));
    }
    f = f.data("replacement", row.replacement);
    if let Some(h) = hop {
        f = f.hop(h);
    }
    f
}
