//! Markdown for a pull-request comment: verdict, findings table, plan, downtime.

use std::fmt::Write;

use crate::model::display_ref;
use crate::report::{Report, Severity};
use crate::units::duration;

/// Escape what would break a table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

pub fn render_markdown(r: &Report) -> String {
    let mut s = String::new();
    let u = &r.upgrade;
    let sm = &r.summary;
    let icon = if sm.verdict == "blocked" { "❌" } else { "✅" };
    let _ = writeln!(s, "## {icon} kube-preflight: {}", sm.verdict.to_uppercase());
    let _ = writeln!(
        s,
        "\n**{}** → **{}** with `{}`{} · {} blocker(s), {} warning(s), {} info\n",
        u.from.as_deref().unwrap_or("unknown"),
        u.to,
        u.profile,
        if u.path.len() > 1 { format!(" (hops: {})", u.path.join(" → ")) } else { String::new() },
        sm.blocker,
        sm.warning,
        sm.info
    );
    if r.findings.is_empty() {
        s.push_str("No findings.\n");
    } else {
        s.push_str("| | Rule | Object | Finding | Fix |\n|---|---|---|---|---|\n");
        for f in &r.findings {
            let mark = match f.severity {
                Severity::Blocker => "🛑 blocker",
                Severity::Warning => "⚠️ warning",
                Severity::Info => "ℹ️ info",
            };
            let object = f.object.as_ref().map(display_ref).unwrap_or_default();
            let loc = f.source.as_ref().map(|src| format!("<br>`{}`", src.location())).unwrap_or_default();
            let hop = f.hop.as_ref().map(|h| format!(" (hop {h})")).unwrap_or_default();
            let _ = writeln!(
                s,
                "| {mark} | `{}` | {}{} | {}{} | {} |",
                f.code,
                cell(&object),
                loc,
                cell(&f.message),
                hop,
                cell(&f.help)
            );
        }
    }
    if !r.plan.phases.is_empty() {
        let _ = writeln!(s, "\n### Plan ({} in all)\n", duration(r.plan.total_seconds));
        s.push_str("| Hop | Phase | Pool | At once | Nodes | Start | End |\n|---|---|---|---|---|---|---|\n");
        for p in &r.plan.phases {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} |",
                p.hop.as_deref().unwrap_or(""),
                p.name,
                cell(p.pool.as_deref().unwrap_or("")),
                p.concurrency,
                p.nodes.len(),
                duration(p.start_seconds),
                duration(p.end_seconds)
            );
        }
    }
    if !r.downtime.components.is_empty() || !r.downtime.workloads.is_empty() {
        s.push_str("\n### Expected downtime\n\n");
        for c in &r.downtime.components {
            let _ = writeln!(
                s,
                "- **{}**: {}{}",
                c.component,
                c.expected,
                if c.when.is_empty() { String::new() } else { format!(" ({})", c.when) }
            );
        }
        for w in &r.downtime.workloads {
            let _ = writeln!(s, "- **{} {}/{}**: {} ({})", w.kind, w.namespace, w.name, duration(w.seconds), w.reason);
        }
    }
    let inv = &r.inventory;
    if !inv.skipped.is_empty() || !r.not_run.is_empty() {
        s.push_str("\n<details><summary>Skipped inputs and checks that did not run</summary>\n\n");
        for k in &inv.skipped {
            let _ = writeln!(s, "- skipped `{}`: {}", k.file, k.reason);
        }
        for n in &r.not_run {
            let _ = writeln!(s, "- not run `{}`: {}", n.code, n.reason);
        }
        s.push_str("\n</details>\n");
    }
    let _ = writeln!(
        s,
        "\n<sub>{} file(s), {} object(s) read · kube-preflight {}</sub>",
        inv.files, inv.objects, r.tool.version
    );
    s
}
