//! suppression/: findings the user accepted. An annotation on the object (`kube-preflight.io/ignore`), an
//! exemption in the options (`exemptions`), or a previous report (`baseline`) marks a finding
//! `suppressed`: it stays in the report, is counted apart and never gates. `apply` runs after every rule;
//! the rules of this category report suppressions that cannot work (an unknown code, an expired or unused
//! exemption) and are never suppressed themselves.

pub mod expired;
pub mod unknown_rule;
pub mod unused;

use crate::model::{display_ref, Object};
use crate::options::{Date, Exemption, OptionsError, UpgradeOptions};
use crate::parse::FastMap;
use crate::report::{Finding, Suppressed};
use crate::rules::{Context, INFOS};

/// The annotation naming the rules not to report for an object: `<code>[,<code>...]`, where a code may
/// also be `category/*` or `*`.
pub const IGNORE: &str = "kube-preflight.io/ignore";
/// Why, in the annotation's own words (optional).
pub const IGNORE_REASON: &str = "kube-preflight.io/ignore-reason";

/// This category's prefix: its findings are never suppressed.
const OWN: &str = "suppression/";

/// Does `pattern` (a code, `category/*` or `*`) name `code`?
pub fn rule_matches(pattern: &str, code: &str) -> bool {
    pattern == "*"
        || pattern == code
        || pattern.strip_suffix("/*").is_some_and(|cat| code.strip_prefix(cat).is_some_and(|r| r.starts_with('/')))
}

/// Does `pattern` name at least one rule?
pub fn known_pattern(pattern: &str) -> bool {
    INFOS.iter().any(|i| rule_matches(pattern, i.code))
}

/// A shell-style pattern: `*` any run of characters, `?` one character, anything else itself.
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    // Iterative matching with one backtrack point: linear in practice, never exponential.
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while let Some(&c) = t.get(ti) {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(&q) if q == '?' || q == c => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p.get(pi..).unwrap_or_default().iter().all(|c| *c == '*')
}

/// Has the exemption passed its last day?
pub fn expired(e: &Exemption, today: Option<Date>) -> bool {
    matches!((e.expires, today), (Some(last), Some(today)) if today > last)
}

/// Refuse exemptions that name no rule, before anything is read.
pub fn validate(options: &UpgradeOptions) -> Result<(), OptionsError> {
    for (i, e) in options.exemptions.iter().enumerate() {
        if !known_pattern(&e.rule) {
            return Err(OptionsError {
                field: format!("exemptions[{i}].rule"),
                message: format!(
                    "{:?} names no rule (a code such as \"api/removed\", a category such as \"disruption/*\", or \"*\"; \
                     `kube-preflight rules` lists them)",
                    e.rule
                ),
            });
        }
    }
    Ok(())
}

/// The codes an annotation value names, as written (empty entries left out).
pub fn annotation_codes(value: &str) -> impl Iterator<Item = &str> {
    value.split(',').map(str::trim).filter(|c| !c.is_empty())
}

/// Does an exemption cover this finding? Object fields given need an object to match.
fn covers(e: &Exemption, f: &Finding) -> bool {
    if !rule_matches(&e.rule, f.code) {
        return false;
    }
    if e.kind.is_none() && e.namespace.is_none() && e.name.is_none() {
        return true;
    }
    let Some(o) = &f.object else { return false };
    e.kind.as_deref().is_none_or(|k| k == o.kind.as_str())
        && e.namespace.as_deref().is_none_or(|p| glob(p, o.namespace.as_deref().unwrap_or("")))
        && e.name.as_deref().is_none_or(|p| glob(p, o.name.as_str()))
}

/// Mark the findings the user accepted, and report exemptions that matched nothing.
pub fn apply(ctx: &Context<'_>, findings: &mut Vec<Finding>) {
    let options = ctx.options;
    // The few annotated objects, by kind, namespace and name (the first read of each).
    let mut annotated: FastMap<(&str, &str, &str), &Object> = FastMap::default();
    for o in ctx.objects.iter().filter(|o| o.annotations.get(IGNORE).is_some()) {
        annotated.entry((o.r.kind.as_str(), o.r.namespace.as_deref().unwrap_or(""), o.r.name.as_str())).or_insert(o);
    }
    // Each exemption in force, with whether it matched anything yet.
    let mut in_force: Vec<(usize, &Exemption, bool)> = options
        .exemptions
        .iter()
        .enumerate()
        .filter(|(_, e)| !expired(e, options.today))
        .map(|(i, e)| (i, e, false))
        .collect();
    let baseline = options.baseline.as_ref().filter(|b| !b.identities.is_empty());
    for f in findings.iter_mut().filter(|f| !f.code.starts_with(OWN)) {
        f.suppressed = by_annotation(ctx, &annotated, f)
            .or_else(|| {
                let (i, e, used) = in_force.iter_mut().find(|(_, e, _)| covers(e, f))?;
                *used = true;
                Some(Suppressed {
                    by: "config",
                    reason: e.reason.clone(),
                    exemption: Some(*i),
                    expires: e.expires.map(|d| d.to_string()),
                    ..Suppressed::default()
                })
            })
            .or_else(|| {
                baseline.filter(|b| b.contains(&f.identity())).map(|_| Suppressed {
                    by: "baseline",
                    reason: Some("in the baseline report".to_owned()),
                    ..Suppressed::default()
                })
            });
    }
    for (i, e, used) in in_force {
        if !used {
            findings.push(unused::finding(i, e));
        }
    }
}

/// The annotation on the finding's object, else on its pod's workload.
fn by_annotation(
    ctx: &Context<'_>,
    annotated: &FastMap<(&str, &str, &str), &Object>,
    f: &Finding,
) -> Option<Suppressed> {
    if annotated.is_empty() {
        return None;
    }
    let r = f.object.as_ref()?;
    let ns = r.namespace.as_deref().unwrap_or("");
    let mut holders: Vec<&Object> =
        annotated.get(&(r.kind.as_str(), ns, r.name.as_str())).copied().into_iter().collect();
    if r.kind == "Pod" {
        if let Some(w) = ctx.lookup("Pod", ns, &r.name).and_then(|p| ctx.controller_of(p)) {
            holders.extend(annotated.get(&(w.kind, w.namespace, w.name)).copied());
        }
    }
    holders.into_iter().find_map(|o| {
        let value = o.annotations.get(IGNORE)?;
        annotation_codes(value).any(|c| rule_matches(c, f.code)).then(|| Suppressed {
            by: "annotation",
            reason: o.annotations.get(IGNORE_REASON).map(|r| r.trim().to_owned()).filter(|r| !r.is_empty()),
            object: Some(display_ref(&o.r)),
            ..Suppressed::default()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        assert!(rule_matches("*", "api/removed"));
        assert!(rule_matches("api/*", "api/removed"));
        assert!(rule_matches("api/removed", "api/removed"));
        assert!(!rule_matches("ap/*", "api/removed"));
        assert!(!rule_matches("api/remove", "api/removed"));
        assert!(known_pattern("disruption/*") && known_pattern("budget/single-control-plane"));
        assert!(!known_pattern("budget/single-controlplane") && !known_pattern("nope/*"));
        for (p, t, m) in [
            ("web-*", "web-1", true),
            ("web-*", "web", false),
            ("*", "", true),
            ("team-?", "team-a", true),
            ("team-?", "team-ab", false),
            ("*-canary-*", "shop-canary-2", true),
            ("a*b*c", "abxbc", true),
            ("a*b*c", "acb", false),
            ("kube-system", "kube-system", true),
        ] {
            assert_eq!(glob(p, t), m, "{p} {t}");
        }
        let long = "a".repeat(10_000);
        assert!(!glob("*a*a*a*a*b", &long));
    }

    #[test]
    fn expiry_is_inclusive() {
        let e = Exemption {
            rule: "*".into(),
            kind: None,
            namespace: None,
            name: None,
            reason: None,
            expires: Date::parse("2026-11-30"),
        };
        assert!(!expired(&e, Date::parse("2026-11-30")));
        assert!(expired(&e, Date::parse("2026-12-01")));
        assert!(!expired(&e, None));
    }
}
