//! What a change review takes away: the summary to paste into a change ticket, and a self-contained HTML
//! report file (no script, no request: it opens from disk without the app). Both say what the verdict
//! stands on: the date, the tool's version, the inputs and the options. Pure: tested natively.

use std::fmt::Write as _;

use kube_preflight::coverage::MANIFESTS_SCOPE;
use kube_preflight::render::xml_escape as esc;
use kube_preflight::units::duration;

use crate::protocol::NodeFacts;
use crate::view::{checks, findings_on_node, CheckSort, Headline, Outcome, ReportView};

/// The findings a summary names, worst first.
pub const SUMMARY_FINDINGS: usize = 5;
/// The findings an HTML report lists (the exports hold them all).
pub const HTML_FINDINGS: usize = 5_000;

/// What the report alone does not say: when, by which version, from which inputs, under which options.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Meta {
    /// UTC, `2026-11-24 02:45`.
    pub date: String,
    pub version: String,
    /// Each input: name and objects read (`None` when it was left out, with why).
    pub inputs: Vec<(String, Result<u64, String>)>,
    pub demo: bool,
    /// The options as `name=value` pairs (the target as checked, when the page chose it).
    pub options: Vec<(String, String)>,
}

impl Meta {
    fn options_line(&self) -> String {
        if self.options.is_empty() {
            return "defaults".to_owned();
        }
        self.options.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ")
    }

    fn inputs_line(&self) -> String {
        let mut parts: Vec<String> = self
            .inputs
            .iter()
            .map(|(n, r)| match r {
                Ok(objects) => format!("{n} ({objects} objects)"),
                Err(why) => format!("{n} (left out: {why})"),
            })
            .collect();
        if self.demo {
            parts.push("the built-in demo cluster".to_owned());
        }
        parts.join("; ")
    }
}

fn path(r: &ReportView) -> String {
    if r.upgrade.path.is_empty() && !r.plan.steps.is_empty() {
        // The API server is at the target already; the plan finishes the upgrade under way.
        format!("finishing the upgrade to {} ({})", r.upgrade.to, r.upgrade.profile)
    } else if r.upgrade.path.is_empty() {
        let from = r.upgrade.from.clone().unwrap_or_else(|| "unknown".into());
        format!("{from}, no upgrade ({})", r.upgrade.profile)
    } else {
        format!("{} ({})", r.upgrade.hops(), r.upgrade.profile)
    }
}

/// `74 object(s) from 2 input(s): demo/cluster.yaml (40 objects); ...`.
fn inputs_fact(r: &ReportView, m: &Meta) -> String {
    format!("{} object(s) from {} input(s): {}", r.inventory.objects, r.inventory.files, m.inputs_line())
}

fn plan_line(r: &ReportView) -> String {
    let p = &r.plan;
    if p.phases.is_empty() && p.stops.is_empty() {
        return "not planned".to_owned();
    }
    let mut s = format!("{}, {} node step(s)", duration(p.total_seconds), p.steps.len());
    for stop in &p.stops {
        let _ = write!(s, "; it stops ({}) at {}: {}", stop.outcome, duration(stop.at_seconds), stop.reason);
    }
    s
}

fn downtime_line(r: &ReportView) -> String {
    let w = &r.downtime.workloads;
    // Quoted only for what was simulated: a plan that stops (or never ran) says so.
    let partial = if r.downtime.partial || !r.plan.stops.is_empty() {
        "partial, only what happens before the plan stops (past the stop nothing was simulated): "
    } else {
        ""
    };
    if r.plan.phases.is_empty() && r.plan.stops.is_empty() {
        return "not simulated: there is no plan".to_owned();
    }
    match w.first() {
        None if partial.is_empty() => "no workload expected to lose its last Ready replica".to_owned(),
        None => format!("{partial}no workload loses its last Ready replica before the stop"),
        Some(first) => {
            format!("{partial}{} workload(s) down, longest {} ({})", w.len(), first.display(), duration(first.seconds))
        }
    }
}

/// Each family of checks in scope that was not checked, as `admission webhooks (not read): why`.
fn unchecked_lines(r: &ReportView) -> Vec<String> {
    r.coverage
        .unchecked()
        .iter()
        .map(|f| format!("{} ({}, {}): {}", f.family, f.id, f.state_words(), f.reason.clone().unwrap_or_default()))
        .collect()
}

fn counts(r: &ReportView) -> String {
    let s = &r.summary;
    let mut c = format!("{} blocker(s), {} warning(s), {} info", s.blocker, s.warning, s.info);
    if s.suppressed.total() > 0 {
        let _ = write!(c, ", {} suppressed", s.suppressed.total());
    }
    c
}

/// The summary for a change ticket: plain text, one fact a line.
pub fn summary_text(r: &ReportView, m: &Meta) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "kube-preflight {} upgrade review, {} UTC", m.version, m.date);
    let _ = writeln!(s, "Verdict: {} ({})", Headline::of(r).label(), counts(r));
    let _ = writeln!(s, "Path: {}", path(r));
    let _ = writeln!(s, "Plan: {}", plan_line(r));
    let _ = writeln!(s, "Downtime: {}", downtime_line(r));
    let open: Vec<_> = r.findings.iter().filter(|f| f.suppressed.is_none()).collect();
    if !open.is_empty() {
        let _ = writeln!(s, "Worst findings ({} of {}):", open.len().min(SUMMARY_FINDINGS), open.len());
        for f in open.iter().take(SUMMARY_FINDINGS) {
            let at = f.source.as_ref().map(|x| format!(" ({})", x.location())).unwrap_or_default();
            let _ = writeln!(s, "- [{}] {}: {}{at}", f.severity, f.code, f.message);
        }
    }
    for n in &r.not_run {
        let _ = writeln!(s, "Not run: {}: {}", n.code, n.reason);
    }
    for line in unchecked_lines(r) {
        let _ = writeln!(s, "Not checked: {line}");
    }
    if r.coverage.scope == "manifests" {
        let _ = writeln!(s, "{MANIFESTS_SCOPE}");
    }
    let _ = writeln!(s, "Inputs: {}", inputs_fact(r, m));
    let _ = writeln!(s, "Options: {}", m.options_line());
    s
}

/// The pods a runbook names per node (the counts are whole).
pub const RUNBOOK_PODS: usize = 10;

/// Every assumption a number of the plan rests on, one line each, with where it changes a number.
fn assumptions(r: &ReportView) -> Vec<String> {
    let p = &r.plan;
    let mut out = Vec::new();
    match &p.drain {
        Some(d) => out.push(format!(
            "Drain: {}{}. It decides which drains fail: a pod with no controller fails the drain without --force, a pod with an emptyDir without --delete-emptydir-data.",
            d.describe(),
            if d.flags_from_options { " (set in the options: drainForce, drainDeleteLocalData)" } else { " (the distribution's own flags)" }
        )),
        None => out.push("No drain: nodes are upgraded in place (pods are not evicted).".to_owned()),
    }
    let t = |k: &str| p.timings.get(k).copied().unwrap_or(0);
    out.push(format!(
        "Grace periods are taken in full: a node's drain lasts as long as the longest terminationGracePeriodSeconds of its pods ({} when a pod sets none: podEvictionSeconds), and a StatefulSet's pod is re-created only once that grace period is over.",
        duration(t("podEvictionSeconds"))
    ));
    out.push(format!(
        "An evicted pod is back {} after it is placed again (podStartSeconds); a drain held by a PodDisruptionBudget waits {} (drainTimeoutSeconds).",
        duration(t("podStartSeconds")),
        duration(t("drainTimeoutSeconds"))
    ));
    let all: Vec<String> = p.timings.iter().map(|(k, v)| format!("{k}={v}")).collect();
    out.push(format!("Timings (seconds): {}.", all.join(", ")));
    out.push("The snapshot is taken as it was read: pods, budgets and nodes as the inputs state them when they were captured; a change since then is not seen.".to_owned());
    out
}

/// A node's step as a runbook row: start, end, the pods its drain moves (named up to [`RUNBOOK_PODS`]), and
/// the rules of the findings about it.
fn runbook_rows(r: &ReportView, nodes: &[NodeFacts]) -> Vec<[String; 7]> {
    let drains = r.plan.drain.is_some();
    let mut steps: Vec<_> = r.plan.steps.iter().collect();
    kube_preflight::sort::sort_by(&mut steps, |a, b| (a.start_seconds, &a.node).cmp(&(b.start_seconds, &b.node)));
    steps
        .into_iter()
        .map(|s| {
            let pods = match nodes.iter().find(|n| n.name == s.node) {
                Some(n) if drains && n.pods > 0 => {
                    let named: Vec<&str> = n.pod_names.iter().take(RUNBOOK_PODS).map(String::as_str).collect();
                    let more = (n.pods as usize).saturating_sub(named.len());
                    format!(
                        "{}: {}{}",
                        n.pods,
                        named.join(", "),
                        if more > 0 { format!(" and {more} more") } else { String::new() }
                    )
                }
                Some(_) if drains => "none".to_owned(),
                _ => "none moved (upgraded in place)".to_owned(),
            };
            let mut codes: Vec<String> =
                findings_on_node(r, &s.node).iter().map(|f| format!("{} {}", f.severity, f.code)).collect();
            codes.dedup();
            [
                s.node.clone(),
                format!(
                    "{}{}{}",
                    s.phase,
                    s.pool.as_ref().map(|p| format!(" · {p}")).unwrap_or_default(),
                    s.hop.as_ref().map(|h| format!(" · hop {h}")).unwrap_or_default()
                ),
                duration(s.start_seconds),
                duration(s.end_seconds),
                s.split(),
                pods,
                if codes.is_empty() { "none".to_owned() } else { codes.join("; ") },
            ]
        })
        .collect()
}

/// The runbook for a change ticket, in Markdown: what it stands on, the assumptions, every node's step
/// in order (start, end, pods moved, its findings), the stops and what was never simulated, the plan if the
/// blockers were resolved, and the downtime.
pub fn runbook_markdown(r: &ReportView, m: &Meta, nodes: &[NodeFacts]) -> String {
    let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    let mut s = String::new();
    let _ = writeln!(s, "# Upgrade runbook: {}\n", path(r));
    let _ = writeln!(s, "- Verdict: {} ({})", Headline::of(r).label(), counts(r));
    let _ = writeln!(s, "- Plan: {}", plan_line(r));
    let _ = writeln!(s, "- Downtime: {}", downtime_line(r));
    let _ = writeln!(s, "- Made: {} UTC by kube-preflight {}", m.date, m.version);
    let _ = writeln!(s, "- Inputs: {}", inputs_fact(r, m));
    let _ = writeln!(s, "- Options: {}", m.options_line());
    for line in unchecked_lines(r) {
        let _ = writeln!(s, "- Not checked: {}", cell(&line));
    }
    if r.coverage.scope == "manifests" {
        let _ = writeln!(s, "- {MANIFESTS_SCOPE}");
    }
    if let Some(p) = &r.progress {
        // What to do next, while the upgrade runs: unblock what is stuck, then the nodes in progress, then the rest.
        let c = &p.counts;
        let _ = writeln!(
            s,
            "\n## Progress\n\n- Upgrade to {} {}: {}% ({} of {} nodes done, {} in progress, {} not started{})",
            p.target,
            p.state,
            p.completion_percent,
            c.done,
            c.total,
            c.in_progress,
            c.not_started,
            if c.left_out > 0 { format!(", {} left out", c.left_out) } else { String::new() }
        );
        let _ = writeln!(s, "- Read from: {}", cell(&p.read_from));
        if let Some(since) = &p.since {
            let _ = writeln!(s, "- Against the plan made before it started: {}", cell(&since.summary));
        }
        let mut next = 1;
        for st in &p.stuck {
            let _ = writeln!(
                s,
                "{next}. Unblock {}: {} (`{}`; {}).",
                st.node,
                cell(&st.cause),
                st.code,
                if st.predicted {
                    "the checks predicted it: its finding says how to fix it"
                } else {
                    "not predicted by the checks"
                }
            );
            next += 1;
        }
        let moving: Vec<&str> = p
            .nodes
            .iter()
            .filter(|n| n.stage == "in-progress" && !p.stuck.iter().any(|x| x.node == n.node))
            .map(|n| n.node.as_str())
            .collect();
        if !moving.is_empty() {
            let _ = writeln!(s, "{next}. Watch the nodes in progress finish: {}.", moving.join(", "));
            next += 1;
        }
        if c.not_started > 0 {
            let _ = writeln!(
                s,
                "{next}. Then the {} node(s) not started, in the order of \"Node by node\" below.",
                c.not_started
            );
        }
    }
    s.push_str("\n## Assumptions\n\n");
    for a in assumptions(r) {
        let _ = writeln!(s, "- {a}");
    }
    s.push_str("\n## Node by node\n\n| Node | Phase | Start | End | Where the time goes | Pods moved | Findings |\n|---|---|---|---|---|---|---|\n");
    for row in runbook_rows(r, nodes) {
        let _ = writeln!(s, "| {} |", row.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | "));
    }
    if !r.plan.stops.is_empty() {
        s.push_str("\n## Where it stops\n\n");
        for st in &r.plan.stops {
            let _ = writeln!(
                s,
                "- At {}: {} (`{}`){}",
                duration(st.at_seconds),
                st.describe(),
                st.code,
                if st.pending.is_empty() {
                    String::new()
                } else {
                    format!("; never upgraded: {}", st.pending.join(", "))
                }
            );
        }
        if !r.plan.not_simulated.is_empty() {
            let _ = writeln!(s, "\nNot simulated (partial): {}.", r.plan.not_simulated.join(", "));
        }
    }
    if let Some(ir) = &r.plan.if_resolved {
        s.push_str("\n## If the blockers that stop it were resolved\n\n");
        for l in &ir.lifted {
            let _ = writeln!(s, "- Taken as resolved (`{}`): {}", l.code, l.how);
        }
        let _ = writeln!(
            s,
            "- Plan: {}, {} node step(s){}",
            duration(ir.plan.total_seconds),
            ir.plan.steps.len(),
            if ir.plan.stops.is_empty() { ", complete" } else { ", and it still stops" }
        );
        for f in &ir.revealed {
            let _ = writeln!(s, "- Revealed: [{}] {}: {}", f.severity, f.code, f.message);
        }
        for w in &ir.downtime.workloads {
            let _ = writeln!(s, "- Down then: {} for {}", w.display(), duration(w.seconds));
        }
    }
    s.push_str(if r.downtime.partial { "\n## Expected downtime (partial)\n\n" } else { "\n## Expected downtime\n\n" });
    for c in &r.downtime.components {
        let _ = writeln!(s, "- {}: {} ({})", c.component, c.expected, c.when);
    }
    for w in &r.downtime.workloads {
        let _ = writeln!(s, "- {}: {} ({})", w.display(), duration(w.seconds), w.reason);
    }
    if r.downtime.components.is_empty() && r.downtime.workloads.is_empty() {
        s.push_str("- none expected\n");
    }
    s
}

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:1.5rem auto;max-width:70rem;padding:0 1rem;color:#111;background:#fff}\
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:1.6rem}table{border-collapse:collapse;width:100%;font-size:.9rem}\
th,td{text-align:left;border-bottom:1px solid #ccc;padding:.25rem .45rem;vertical-align:top}\
.verdict{font-size:1.6rem;font-weight:800;letter-spacing:.05em}.blocked{color:#b42318}.ready{color:#067647}\
.incomplete,.nothing-checked{color:#8a3b05}.blocker{color:#b42318;font-weight:700}.warning{color:#8a3b05}.info{color:#175cd3}\
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{color:#555}dd{margin:0}\
code{font-size:.9em}@media print{body{margin:0}}";

/// A self-contained HTML report: no script, no request (its policy allows none), readable offline and printed.
pub fn offline_html(r: &ReportView, m: &Meta, nodes: &[NodeFacts]) -> String {
    let h = Headline::of(r);
    let mut s = String::new();
    s.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    s.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n",
    );
    s.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(s, "<title>kube-preflight: {} {}</title>", h.label(), esc(&path(r)));
    let _ = writeln!(s, "<style>{STYLE}</style>\n</head>\n<body>");
    let _ = writeln!(s, "<h1>Upgrade review: {}</h1>", esc(&path(r)));
    let _ = writeln!(s, "<p class=\"verdict {}\" id=\"verdict\">{}</p>", h.class(), h.label());
    s.push_str("<dl id=\"facts\">\n");
    for (k, v) in [
        ("Findings", counts(r)),
        ("Plan", plan_line(r)),
        ("Downtime", downtime_line(r)),
        ("Date", format!("{} UTC", m.date)),
        ("Tool", format!("kube-preflight {}", m.version)),
        ("Inputs", inputs_fact(r, m)),
        ("Options", m.options_line()),
    ] {
        let _ = writeln!(s, "<dt>{k}</dt><dd>{}</dd>", esc(&v));
    }
    s.push_str("</dl>\n");
    if r.coverage.scope == "manifests" {
        let _ = writeln!(s, "<p id=\"scope\">{}</p>", esc(MANIFESTS_SCOPE));
    }
    let unchecked = unchecked_lines(r);
    if !r.not_run.is_empty() || !r.inventory.skipped.is_empty() || !unchecked.is_empty() {
        s.push_str("<h2>Not checked</h2>\n<ul id=\"not-checked\">\n");
        for line in &unchecked {
            let _ = writeln!(s, "<li>Family {}</li>", esc(line));
        }
        for k in &r.inventory.skipped {
            let _ = writeln!(s, "<li>Input <code>{}</code> left out: {}</li>", esc(&k.file), esc(&k.reason));
        }
        for n in &r.not_run {
            let _ = writeln!(s, "<li>Check <code>{}</code> not run: {}</li>", esc(&n.code), esc(&n.reason));
        }
        s.push_str("</ul>\n");
    }
    let _ = writeln!(s, "<h2>Findings ({})</h2>", r.findings.len());
    s.push_str("<table id=\"findings\"><thead><tr><th>Severity</th><th>Rule</th><th>Finding and fix</th><th>Where</th></tr></thead><tbody>\n");
    for f in r.findings.iter().take(HTML_FINDINGS) {
        let sev = if f.suppressed.is_some() { format!("{} (suppressed)", f.severity) } else { f.severity.clone() };
        let _ = writeln!(
            s,
            "<tr data-code=\"{}\"><td class=\"{}\">{}</td><td><code>{}</code></td><td>{}<br>Fix: {}</td><td>{}<br>{}</td></tr>",
            esc(&f.code),
            esc(&f.severity),
            esc(&sev),
            esc(&f.code),
            esc(&f.message),
            esc(&f.help),
            esc(&f.object.as_ref().map(|o| o.display()).unwrap_or_default()),
            esc(&f.source.as_ref().map(|x| x.location()).unwrap_or_default()),
        );
    }
    s.push_str("</tbody></table>\n");
    if r.findings.len() > HTML_FINDINGS {
        let _ = writeln!(s, "<p>… and {} more: see the JSON export.</p>", r.findings.len() - HTML_FINDINGS);
    }
    s.push_str("<h2>Checks</h2>\n<table id=\"checks\"><thead><tr><th>Rule</th><th>Outcome</th><th>Details</th></tr></thead><tbody>\n");
    for c in checks(r, "", CheckSort::Outcome) {
        let detail = match &c.outcome {
            Outcome::Failed { blocker, warning, info } => format!("{blocker} blocker, {warning} warning, {info} info"),
            Outcome::Accepted(n) => format!("{n} suppressed"),
            Outcome::NotRun(why) | Outcome::NotChecked(why) => why.clone(),
            Outcome::Passed => String::new(),
        };
        let _ = writeln!(
            s,
            "<tr><td><code>{}</code> {}</td><td>{}</td><td>{}</td></tr>",
            c.code,
            esc(c.title),
            c.outcome.name(),
            esc(&detail)
        );
    }
    s.push_str("</tbody></table>\n");
    s.push_str("<h2>Plan</h2>\n<table id=\"plan\"><thead><tr><th>Hop</th><th>Phase</th><th>Pool</th><th>At once</th><th>Nodes</th><th>Start</th><th>End</th></tr></thead><tbody>\n");
    for p in &r.plan.phases {
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(p.hop.as_deref().unwrap_or_default()),
            esc(&p.name),
            esc(p.pool.as_deref().unwrap_or_default()),
            p.concurrency,
            esc(&p.nodes.join(", ")),
            duration(p.start_seconds),
            duration(p.end_seconds)
        );
    }
    s.push_str("</tbody></table>\n");
    s.push_str("<h2>Assumptions</h2>\n<ul id=\"assumptions\">\n");
    for a in assumptions(r) {
        let _ = writeln!(s, "<li>{}</li>", esc(&a));
    }
    s.push_str("</ul>\n<h2>Runbook: node by node</h2>\n<table id=\"runbook\"><thead><tr><th>Node</th><th>Phase</th><th>Start</th><th>End</th><th>Where the time goes</th><th>Pods moved</th><th>Findings</th></tr></thead><tbody>\n");
    for row in runbook_rows(r, nodes) {
        let _ = writeln!(s, "<tr>{}</tr>", row.iter().map(|c| format!("<td>{}</td>", esc(c))).collect::<String>());
    }
    s.push_str("</tbody></table>\n");
    if !r.plan.stops.is_empty() {
        s.push_str("<h2>Where it stops</h2>\n<ul id=\"stops\">\n");
        for st in &r.plan.stops {
            let never = if st.pending.is_empty() {
                String::new()
            } else {
                format!("; never upgraded: {}", st.pending.join(", "))
            };
            let _ = writeln!(
                s,
                "<li>At {}: {} (<code>{}</code>){}</li>",
                duration(st.at_seconds),
                esc(&st.describe()),
                esc(&st.code),
                esc(&never)
            );
        }
        s.push_str("</ul>\n");
        if !r.plan.not_simulated.is_empty() {
            let _ = writeln!(
                s,
                "<p id=\"not-simulated\">Not simulated (partial): {}.</p>",
                esc(&r.plan.not_simulated.join(", "))
            );
        }
    }
    if let Some(ir) = &r.plan.if_resolved {
        s.push_str("<h2>If the blockers that stop it were resolved</h2>\n<ul id=\"if-resolved\">\n");
        for l in &ir.lifted {
            let _ = writeln!(s, "<li>Taken as resolved (<code>{}</code>): {}</li>", esc(&l.code), esc(&l.how));
        }
        let _ = writeln!(
            s,
            "<li>Plan: {}, {} node step(s){}</li>",
            duration(ir.plan.total_seconds),
            ir.plan.steps.len(),
            if ir.plan.stops.is_empty() { ", complete" } else { ", and it still stops" }
        );
        for f in &ir.revealed {
            let _ = writeln!(
                s,
                "<li>Revealed: [{}] <code>{}</code>: {}</li>",
                esc(&f.severity),
                esc(&f.code),
                esc(&f.message)
            );
        }
        for w in &ir.downtime.workloads {
            let _ = writeln!(s, "<li>Down then: {} for {}</li>", esc(&w.display()), duration(w.seconds));
        }
        s.push_str("</ul>\n");
    }
    s.push_str(if r.downtime.partial {
        "<h2>Expected downtime (partial)</h2>\n"
    } else {
        "<h2>Expected downtime</h2>\n"
    });
    s.push_str("<table id=\"downtime\"><thead><tr><th>Workload</th><th>Down</th><th>Why</th></tr></thead><tbody>\n");
    for c in &r.downtime.components {
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&c.component),
            esc(&c.expected),
            esc(&c.when)
        );
    }
    for w in &r.downtime.workloads {
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&w.display()),
            duration(w.seconds),
            esc(&w.reason)
        );
    }
    s.push_str("</tbody></table>\n</body>\n</html>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::tests::demo_view;

    fn meta() -> Meta {
        Meta {
            date: "2026-11-24 02:45".into(),
            version: kube_preflight::version().to_owned(),
            inputs: vec![("demo/cluster.yaml".into(), Ok(40)), ("notes.txt".into(), Err("not .yaml".into()))],
            demo: true,
            options: vec![("to".into(), "1.29.2".into()), ("profile".into(), "kubeadm".into())],
        }
    }

    #[test]
    fn the_summary_says_verdict_path_plan_worst_findings_downtime_inputs_options_date_and_version() {
        let v = demo_view();
        let t = summary_text(&v, &meta());
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(
            lines[0],
            format!("kube-preflight {} upgrade review, 2026-11-24 02:45 UTC", kube_preflight::version())
        );
        assert_eq!(
            lines[1],
            format!(
                "Verdict: BLOCKED ({} blocker(s), {} warning(s), {} info)",
                v.summary.blocker, v.summary.warning, v.summary.info
            )
        );
        assert_eq!(lines[2], "Path: 1.27.6 → 1.28 → 1.29.2 (kubeadm)");
        assert!(lines[3].starts_with(&format!("Plan: {}", duration(v.plan.total_seconds))));
        assert!(t.contains(&format!(
            "Worst findings (5 of {}):\n- [blocker] ",
            v.summary.blocker + v.summary.warning + v.summary.info
        )));
        assert!(
            t.contains("Inputs: ") && t.contains("demo/cluster.yaml (40 objects); notes.txt (left out: not .yaml)")
        );
        assert!(t.ends_with("Options: to=1.29.2, profile=kubeadm\n"));
    }

    #[test]
    fn the_runbook_lists_every_step_with_its_pods_and_findings_the_stops_and_the_assumptions() {
        let v = demo_view();
        let nodes = vec![NodeFacts {
            name: v.plan.steps[0].node.clone(),
            control_plane: true,
            pods: 12,
            pod_names: (0..12).map(|i| format!("ns/p-{i}")).collect(),
        }];
        let md = runbook_markdown(&v, &meta(), &nodes);
        assert!(md.starts_with("# Upgrade runbook: 1.27.6 → 1.28 → 1.29.2 (kubeadm)\n"));
        assert_eq!(md.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| Node")).count(), v.plan.steps.len());
        assert!(md.contains("| 12: ns/p-0, ns/p-1,") && md.contains("ns/p-9 and 2 more |"), "{md}");
        assert!(md.contains("- Drain: kubectl drain, without --force, without --delete-emptydir-data"), "{md}");
        assert!(md.contains("Grace periods are taken in full") && md.contains("Timings (seconds): "));
        assert!(md.contains("- Options: to=1.29.2, profile=kubeadm"));
        let html = offline_html(&v, &meta(), &nodes);
        assert_eq!(
            html.matches("<tr><td>").count()
                - html.matches("<tr><td><code>").count()
                - v.downtime.workloads.len()
                - v.downtime.components.len(),
            v.plan.steps.len() + v.plan.phases.len()
        );
        assert!(html.contains("<ul id=\"assumptions\">"));
    }

    /// Unknown is never a pass: a stopped plan's downtime is partial wherever it is quoted, and every family
    /// of checks not checked is said in the summary, the runbook and the HTML report.
    #[test]
    fn a_stopped_plan_s_downtime_is_partial_and_families_not_checked_are_said() {
        let mut v = demo_view();
        v.downtime.workloads.clear();
        v.downtime.partial = true;
        let t = summary_text(&v, &meta());
        assert!(t.contains("Downtime: partial, only what happens before the plan stops"), "{t}");
        assert!(!t.contains("no workload expected to lose"), "{t}");
        assert!(
            t.contains("Not checked: aggregated APIs (aggregated-apis, not read): no APIService was read\n"),
            "{t}"
        );
        let md = runbook_markdown(&v, &meta(), &[]);
        assert!(
            md.contains("- Downtime: partial,") && md.contains("- Not checked: Helm charts (helm-charts, not read)"),
            "{md}"
        );
        let html = offline_html(&v, &meta(), &[]);
        assert!(html.contains(
            "<li>Family custom resources (custom-resources, not read): no CustomResourceDefinition was read</li>"
        ));
        // No plan at all: nothing simulated, never "no workload".
        v.plan.phases.clear();
        v.plan.stops.clear();
        assert!(summary_text(&v, &meta()).contains("Downtime: not simulated: there is no plan\n"));
        // Manifests alone: every export says what the verdict is about.
        v.coverage.scope = "manifests".into();
        assert!(summary_text(&v, &meta()).contains(&format!("{MANIFESTS_SCOPE}\n")));
        assert!(runbook_markdown(&v, &meta(), &[]).contains(&format!("- {MANIFESTS_SCOPE}\n")));
        assert!(offline_html(&v, &meta(), &[]).contains("<p id=\"scope\">Scope: manifests."));
    }

    #[test]
    fn the_html_report_stands_alone_and_escapes_what_it_quotes() {
        let mut v = demo_view();
        v.findings[0].message = "<script>alert(1)</script> & \"x\"".into();
        let html = offline_html(&v, &meta(), &[]);
        assert!(html.starts_with("<!doctype html>"));
        assert!(!html.contains("<script"), "no script at all");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;"));
        assert!(html.contains("default-src 'none'"));
        assert!(!html.contains("http://") && !html.contains("https://"), "no request anywhere");
        assert_eq!(html.matches("<tr data-code=").count(), v.findings.len());
        assert!(html.contains("<p class=\"verdict blocked\" id=\"verdict\">BLOCKED</p>"));
        assert_eq!(html.matches("<tr><td><code>").count(), kube_preflight::rules().len());
    }
}
