//! Reports rendered for people and tools. Pure functions: the caller writes the string somewhere.

mod junit;
pub mod markdown;
mod sarif;
pub mod text;

use std::borrow::Cow;

use crate::report::Report;

use crate::report::RuleInfo;
pub use junit::esc as xml_escape;

/// Characters that must never reach a terminal or a document as they are: controls (C0, DEL, C1: ANSI
/// escapes, carriage returns, newlines inside a field), Unicode line and paragraph separators, and the
/// bidirectional marks and overrides that reorder what a reader sees (U+061C, U+200E/F, U+202A-E,
/// U+2066-9), and Unicode noncharacters (XML forbids
/// U+FFFE and U+FFFF).
pub(crate) fn hazardous(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
                | '\u{fdd0}'..='\u{fdef}'
        )
        || (c as u32) & 0xfffe == 0xfffe
}

/// Text from the input as a terminal may show it: every hazardous character written as a visible escape
/// (`\n`, `\u{1b}`), so no input can add a line, colour or move the cursor.
pub fn printable(s: &str) -> Cow<'_, str> {
    if !s.chars().any(hazardous) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if hazardous(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

pub use junit::render_junit;
pub use markdown::render_markdown;
pub use sarif::render_sarif;
pub use text::render_text;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Markdown,
    Sarif,
    Junit,
    /// The step times the run measured per pool (`plan.learned`), as an options file the next run takes
    /// (`--config`): `{"timings": {"pool/<name>": seconds}}`.
    Timings,
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "text" => Some(Format::Text),
            "json" => Some(Format::Json),
            "markdown" | "md" => Some(Format::Markdown),
            "sarif" => Some(Format::Sarif),
            "junit" => Some(Format::Junit),
            "timings" => Some(Format::Timings),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// ANSI colours (the CLI turns them on for a TTY without `NO_COLOR`).
    pub color: bool,
    /// JUnit: findings at or above this are failures (`None`, `--fail-on never`: blockers, so that the test
    /// report still shows them when the exit status is kept at 0).
    pub fail_on: Option<crate::report::Severity>,
    /// Markdown: list at most this many findings (the most severe first) and say how many were left out,
    /// so that a pull-request comment stays under its host's limit (GitHub: 65,536 characters).
    pub max_findings: Option<usize>,
    /// SARIF: where the rule catalogue (`kube-preflight rules --format markdown`, docs/rules.md) is
    /// published; each rule's `helpUri` is this plus `#<code with / as ->` (the catalogue's anchors).
    pub help_uri: Option<String>,
}

pub fn render(report: &Report, format: Format, opts: RenderOptions) -> String {
    match format {
        Format::Text => render_text(report, &opts),
        Format::Json => report.to_json(),
        Format::Markdown => render_markdown(report, opts.max_findings),
        Format::Sarif => render_sarif(report, &crate::rules::rule_infos(), opts.help_uri.as_deref()),
        Format::Junit => render_junit(report, &crate::rules::rule_infos(), opts.fail_on),
        Format::Timings => render_timings(report),
    }
}

/// One `plan.learned` entry in words: `pool workers: 14m00s a node (median of 3; 90th percentile 16m00s),
/// measured from the kubelets' cordon and uncordon events`.
pub fn learned_line(l: &crate::report::Learned) -> String {
    let how = if l.source == "options" {
        "as given in timings".to_owned()
    } else {
        format!(
            "median of {} measured from the kubelets' cordon and uncordon events; 90th percentile {}",
            l.samples,
            crate::units::duration(l.p90_seconds)
        )
    };
    format!("pool {}: {} a node ({how})", l.pool, crate::units::duration(l.median_seconds))
}

/// `plan.learned` as the options file the next run takes: each pool's median step, by `pool/<name>`.
pub fn render_timings(report: &Report) -> String {
    let timings: serde_json::Map<String, serde_json::Value> = report
        .plan
        .learned
        .iter()
        .map(|l| (format!("{}{}", crate::plan::timings::POOL_STEP, l.pool), serde_json::Value::from(l.median_seconds)))
        .collect();
    let mut out = serde_json::json!({ "timings": timings }).to_string();
    out.push('\n');
    out
}

/// [`render`]'s bytes, written to `out`. The JSON report is written as it is serialized, never held whole:
/// at 150,000 pods its 88 MB held as one string, and about twice that while the string grew, were the
/// CLI's peak memory. The other formats are rendered, then written.
pub fn render_to(
    report: &Report,
    format: Format,
    opts: RenderOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    match format {
        Format::Json => report.write_json(out),
        _ => out.write_all(render(report, format, opts).as_bytes()),
    }
}

/// The rule catalogue as one Markdown document.
pub fn rules_markdown(rules: &[&RuleInfo]) -> String {
    let mut s = String::from("# kube-preflight rules\n\n| code | default severity | title |\n|---|---|---|\n");
    for r in rules {
        s.push_str(&format!("| `{}` | {} | {} |\n", r.code, r.severity.name(), r.title));
    }
    for r in rules {
        s.push_str(&format!(
            "\n---\n\n<a id=\"{}\"></a>\n\n# `{}` ({})\n\n{}\n\n",
            anchor(r.code),
            r.code,
            r.severity.name(),
            r.title
        ));
        // Rule docs use `##` headings already; keep them under the rule's own heading.
        s.push_str(crate::rules::docs(r.code).trim_end());
        s.push('\n');
    }
    s
}

/// A rule's anchor in the catalogue: its code with `/` as `-` (`api-removed`).
pub fn anchor(code: &str) -> String {
    code.replace('/', "-")
}

/// The rule catalogue as JSON: `[{code, severity, title, docs}]`.
pub fn rules_json(rules: &[&RuleInfo]) -> String {
    #[derive(serde::Serialize)]
    struct Entry {
        code: &'static str,
        severity: crate::report::Severity,
        title: &'static str,
        docs: &'static str,
    }
    let entries: Vec<Entry> = rules
        .iter()
        .map(|r| Entry { code: r.code, severity: r.severity, title: r.title, docs: crate::rules::docs(r.code) })
        .collect();
    let mut s = serde_json::to_string_pretty(&entries).unwrap_or_else(|_| "[]".to_owned());
    s.push('\n');
    s
}

/// Why a finding is suppressed, in words: `annotation kube-preflight.io/ignore on Deployment shop/web:
/// reason`.
pub fn suppressed_by(s: &crate::report::Suppressed) -> String {
    describe_suppression(s.by, s.reason.as_deref(), s.object.as_deref(), s.exemption, s.expires.as_deref())
}

/// `suppressed_by` from the report's fields as read back (the dashboard reads the report's JSON).
pub fn describe_suppression(
    by: &str,
    reason: Option<&str>,
    object: Option<&str>,
    exemption: Option<usize>,
    expires: Option<&str>,
) -> String {
    let what = match (by, object, exemption) {
        ("annotation", Some(o), _) => format!("annotation kube-preflight.io/ignore on {o}"),
        ("config", _, Some(i)) => match expires {
            Some(d) => format!("exemptions[{i}] (until {d})"),
            None => format!("exemptions[{i}]"),
        },
        ("baseline", ..) => "the baseline report".to_owned(),
        (by, ..) => by.to_owned(),
    };
    match reason {
        Some(r) if by != "baseline" => format!("{what}: {r}"),
        _ => what,
    }
}

/// `3 suppressed (1 blocker, 2 warning)`, or nothing when none is.
pub fn suppressed_count(c: &crate::report::Counts) -> Option<String> {
    if c.total() == 0 {
        return None;
    }
    let parts: Vec<String> = [(c.blocker, "blocker"), (c.warning, "warning"), (c.info, "info")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, s)| format!("{n} {s}"))
        .collect();
    Some(format!("{} suppressed ({})", c.total(), parts.join(", ")))
}

/// The drain the plan assumes, as a sentence: `kubectl drain, without --force, without
/// --delete-emptydir-data, waiting on PodDisruptionBudgets (the options drainForce, drainDeleteLocalData)`;
/// a drain that does not ignore DaemonSet pods (RKE's `ignore_daemonsets: false`) says so after the flags.
pub fn drain_line(d: &crate::report::DrainAssumed) -> String {
    format!(
        "{}, {} --force, {} --delete-emptydir-data, {}{}{}",
        d.by,
        if d.force { "with" } else { "without" },
        if d.delete_empty_dir_data { "with" } else { "without" },
        if d.ignore_daemonsets { "" } else { "without --ignore-daemonsets (DaemonSet pods refused), " },
        if d.honours_budgets { "waiting on PodDisruptionBudgets" } else { "not waiting on PodDisruptionBudgets" },
        if d.flags_from_options {
            " (the flags: drainForce, drainDeleteLocalData)"
        } else {
            " (the distribution's own flags)"
        }
    )
}

/// What a plan that stops leaves out, as a sentence; `None` when it completes.
pub fn partial_line(r: &Report) -> Option<String> {
    if r.plan.complete || r.plan.stops.is_empty() {
        return None;
    }
    let n = r.plan.not_simulated.len();
    Some(if n == 0 {
        "the plan stops: what follows the stop was not simulated, and the downtime counts only what happens before it"
            .to_owned()
    } else {
        format!(
            "the plan stops: {n} node(s) past the stop were never simulated ({}), so their drains, the checks that read the plan there and their downtime are not in this report",
            crate::units::name_list(&r.plan.not_simulated, 5)
        )
    })
}

/// The plan "if the blockers were resolved", as lines: what was lifted and how, the plan, the findings it
/// reveals and the downtime (at most `items` of each list).
pub fn resolved_lines(ir: &crate::report::IfResolved, items: usize) -> Vec<String> {
    use crate::units::duration;
    let mut out = Vec::new();
    for l in &ir.lifted {
        out.push(format!("taken as resolved ({}): {}", l.code, l.how));
    }
    let p = &ir.plan;
    if p.complete {
        out.push(format!("plan: {} in all, {} node step(s), complete", duration(p.total_seconds), p.steps.len()));
    } else {
        let why: Vec<String> = p
            .stops
            .iter()
            .map(|s| {
                format!(
                    "{}{}: {} ({})",
                    if s.outcome == "waits" { "waits for ever" } else { "fails" },
                    s.node.as_deref().map(|n| format!(" on {n}")).unwrap_or_default(),
                    s.reason,
                    s.code
                )
            })
            .collect();
        out.push(format!(
            "plan: {}, {} node step(s), and it still stops: {}",
            duration(p.total_seconds),
            p.steps.len(),
            why.join("; ")
        ));
    }
    let sm = &ir.summary;
    out.push(format!(
        "findings: {} blocker(s), {} warning(s), {} info; {} of them not in this report",
        sm.blocker,
        sm.warning,
        sm.info,
        ir.revealed.len()
    ));
    for f in ir.revealed.iter().take(items) {
        out.push(format!("  {} {}: {}", f.severity.name(), f.code, f.message));
    }
    if ir.revealed.len() > items {
        out.push(format!("  ({} more)", ir.revealed.len() - items));
    }
    let w = &ir.downtime.workloads;
    out.push(format!("downtime: {} workload(s) with no Ready replica at some point", w.len()));
    for d in w.iter().take(items) {
        out.push(format!("  {} {}/{}: {}", d.kind, d.namespace, d.name, duration(d.seconds)));
    }
    if w.len() > items {
        out.push(format!("  ({} more)", w.len() - items));
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::report::DrainAssumed;

    #[test]
    fn the_drain_line_says_when_daemonset_pods_are_refused() {
        let mut d = DrainAssumed {
            by: "RKE's drain",
            force: false,
            delete_empty_dir_data: true,
            ignore_daemonsets: true,
            honours_budgets: true,
            flags_from_options: true,
        };
        assert_eq!(
            super::drain_line(&d),
            "RKE's drain, without --force, with --delete-emptydir-data, waiting on PodDisruptionBudgets \
             (the flags: drainForce, drainDeleteLocalData)"
        );
        d.ignore_daemonsets = false;
        assert_eq!(
            super::drain_line(&d),
            "RKE's drain, without --force, with --delete-emptydir-data, without --ignore-daemonsets (DaemonSet \
             pods refused), waiting on PodDisruptionBudgets (the flags: drainForce, drainDeleteLocalData)"
        );
    }
}
