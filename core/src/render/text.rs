//! The terminal summary: verdict, findings by severity, what was skipped, the plan and the downtime.

use std::fmt::Write;

use super::{printable, RenderOptions};
use crate::model::display_ref;
use crate::report::{Report, Severity};
use crate::units::duration;

struct Paint(bool);

impl Paint {
    fn wrap(&self, code: &str, s: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }
    fn bold(&self, s: &str) -> String {
        self.wrap("1", s)
    }
    fn sev(&self, s: Severity) -> String {
        let code = match s {
            Severity::Blocker => "1;31",
            Severity::Warning => "33",
            Severity::Info => "36",
        };
        self.wrap(code, &s.name().to_ascii_uppercase())
    }
    fn dim(&self, s: &str) -> String {
        self.wrap("2", s)
    }
}

pub fn render_text(r: &Report, opts: &RenderOptions) -> String {
    // Everything that comes from the input goes through `t`: no input can add a line or an escape code.
    let t = printable;
    let p = Paint(opts.color);
    let mut s = String::new();
    let u = &r.upgrade;
    let from = t(u.from_shown());
    let _ = writeln!(s, "{} {from} -> {} (profile {})", p.bold("kube-preflight:"), t(u.to_shown()), u.profile);
    if u.path.len() > 1 {
        let _ = writeln!(s, "  path: {}", t(&u.path_shown().join(" -> ")));
    }
    let inv = &r.inventory;
    let kinds: Vec<String> = inv.by_kind.iter().map(|(k, n)| format!("{n} {}", t(k))).collect();
    let _ = writeln!(
        s,
        "  read {} file(s), {} object(s){}",
        inv.files,
        inv.objects,
        if kinds.is_empty() { String::new() } else { format!(": {}", kinds.join(", ")) }
    );
    if let Some(d) = inv.detected_profile.as_ref().filter(|d| !d.matches) {
        let advice = match d.profile {
            Some(p) => format!("this report is for profile {}: give --profile {p}", u.profile),
            None => "its provider upgrades the control plane; the plan here is only an estimate".to_owned(),
        };
        let _ = writeln!(s, "  {} {}: {}", p.wrap("33", "profile"), t(&d.describe()), advice);
    }
    for c in &inv.distribution_configs {
        let _ = writeln!(s, "  {} {}:{} ({}): {}", p.dim("config"), t(&c.file), c.line, t(c.kind), t(&c.note));
    }
    for h in &inv.helm_releases {
        let _ = writeln!(
            s,
            "  {} {}/{} revision {} ({}): {} object(s)",
            p.dim("helm release"),
            t(&h.namespace),
            t(&h.name),
            h.revision,
            t(&h.chart),
            h.objects
        );
    }
    for sk in &inv.skipped {
        let _ = writeln!(s, "  {} {}: {}", p.dim("skipped"), t(&sk.file), t(&sk.reason));
    }
    for n in &r.not_run {
        let _ = writeln!(s, "  {} {}: {}", p.dim("not run"), n.code, t(&n.reason));
    }
    s.push('\n');
    for sev in [Severity::Blocker, Severity::Warning, Severity::Info] {
        let fs: Vec<_> = r.findings.iter().filter(|f| f.severity == sev && f.suppressed.is_none()).collect();
        if fs.is_empty() {
            continue;
        }
        let _ = writeln!(s, "{} ({})", p.sev(sev), fs.len());
        for f in fs {
            let _ = writeln!(s, "  {} {}", p.bold(f.code), t(&f.message));
            if let Some(o) = &f.object {
                let loc = f.source.as_ref().map(|src| format!(" ({})", t(&src.location()))).unwrap_or_default();
                let _ = writeln!(s, "      {}{}", t(&display_ref(o)), p.dim(&loc));
            }
            if let Some(h) = &f.hop {
                let _ = writeln!(s, "      at hop {}", t(h));
            }
            let _ = writeln!(s, "      {} {}", p.dim("fix:"), t(&f.help));
        }
        s.push('\n');
    }
    let suppressed: Vec<_> = r.findings.iter().filter_map(|f| Some((f, f.suppressed.as_ref()?))).collect();
    if !suppressed.is_empty() {
        let _ = writeln!(s, "{} ({}, not counted)", p.bold("SUPPRESSED"), suppressed.len());
        for (f, why) in suppressed {
            let object = f.object.as_ref().map(|o| format!(" {}", t(&display_ref(o)))).unwrap_or_default();
            let _ = writeln!(s, "  {} {}{object}", f.severity.name(), p.bold(f.code));
            let _ = writeln!(s, "      {} {}", p.dim("by"), t(&super::suppressed_by(why)));
        }
        s.push('\n');
    }
    if let Some(pr) = &r.progress {
        let _ = writeln!(s, "{} {}", p.bold("PROGRESS"), t(&pr.summary));
        let _ = writeln!(s, "  {} {}", p.dim("read from:"), t(&pr.read_from));
        if let Some(o) = &pr.operators {
            let _ = writeln!(s, "  {} {}", p.dim("control plane:"), t(&crate::plan::progress::operators_line(o)));
        }
        for st in &pr.stuck {
            let how = if st.predicted { "predicted" } else { "not predicted" };
            let _ = writeln!(s, "  stuck {} ({how}, {}): {}", t(&st.node), st.code, t(&st.cause));
        }
        for n in pr.nodes.iter().filter(|n| n.stage == "in-progress") {
            let step = n.step.map(|x| format!(" ({x})")).unwrap_or_default();
            let detail = n.detail.as_deref().map(|d| format!(": {}", t(d))).unwrap_or_default();
            let _ = writeln!(s, "  in progress {}{step}{detail}", t(&n.node));
        }
        if let Some(since) = &pr.since {
            let _ = writeln!(s, "  {} {}", p.dim("against the plan:"), t(&since.summary));
        }
        if let Some(c) = &pr.caveat {
            let _ = writeln!(s, "  {} {}", p.dim("caveat:"), t(c));
        }
        s.push('\n');
    }
    if !r.plan.phases.is_empty() || !r.plan.stops.is_empty() {
        if r.plan.stops.is_empty() {
            let _ = writeln!(s, "{} ({} in all)", p.bold("PLAN"), duration(r.plan.total_seconds));
        } else {
            let _ = writeln!(
                s,
                "{} ({}, then it stops: the upgrade does not complete)",
                p.bold("PLAN"),
                duration(r.plan.total_seconds)
            );
        }
        for ph in &r.plan.phases {
            let pool = ph.pool.as_deref().map(|x| format!(" [{}]", t(x))).unwrap_or_default();
            let hop = ph.hop.as_deref().map(|x| format!(" hop {}", t(x))).unwrap_or_default();
            let _ = writeln!(
                s,
                "  {:>8} - {:>8}  {}{pool}{hop}: {} node(s), {} at a time",
                duration(ph.start_seconds),
                duration(ph.end_seconds),
                ph.name,
                ph.nodes.len(),
                ph.concurrency
            );
            for st in r.plan.steps.iter().filter(|st| st.phase == ph.name && st.pool == ph.pool && st.hop == ph.hop) {
                let _ = writeln!(
                    s,
                    "  {:>8} - {:>8}    {}",
                    p.dim(&duration(st.start_seconds)),
                    p.dim(&duration(st.end_seconds)),
                    t(&st.node)
                );
            }
        }
        for st in &r.plan.stops {
            let pool = st.pool.as_deref().map(|x| format!(" [{}]", t(x))).unwrap_or_default();
            let node = st.node.as_deref().map(|x| format!(" on {}", t(x))).unwrap_or_default();
            let verb = if st.outcome == "waits" { "WAITS FOR EVER" } else { "FAILS" };
            let _ = writeln!(
                s,
                "  {:>8}             {} in {}{pool} hop {}{node}: {} ({})",
                duration(st.at_seconds),
                p.wrap("1;31", verb),
                st.phase,
                t(&st.hop),
                t(&st.reason),
                st.code
            );
            if !st.pending.is_empty() {
                let _ = writeln!(s, "                        never upgraded: {}", t(&st.pending.join(", ")));
            }
        }
        if let Some(d) = &r.plan.drain {
            let _ = writeln!(s, "  {} {}", p.dim("drain:"), t(&super::drain_line(d)));
        }
        for l in &r.plan.learned {
            let _ = writeln!(s, "  {} {}", p.dim("measured:"), t(&super::learned_line(l)));
        }
        for l in &r.plan.left_out {
            let _ = writeln!(
                s,
                "  {} pool {}: {}: {}",
                p.wrap("33", "LEFT OUT"),
                t(&l.pool),
                t(&l.reason),
                t(&crate::units::name_list(&l.nodes, 10))
            );
        }
        if let Some(line) = super::partial_line(r) {
            let _ = writeln!(s, "  {} {}", p.wrap("33", "PARTIAL"), t(&line));
        }
        s.push('\n');
        if let Some(ir) = &r.plan.if_resolved {
            let _ = writeln!(s, "{}", p.bold("IF THE BLOCKERS THAT STOP IT WERE RESOLVED"));
            for line in super::resolved_lines(ir, 5) {
                let _ = writeln!(s, "  {}", t(&line));
            }
            s.push('\n');
        }
    }
    if !r.downtime.components.is_empty() || !r.downtime.workloads.is_empty() || r.downtime.partial {
        let _ = writeln!(
            s,
            "{}{}",
            p.bold("EXPECTED DOWNTIME"),
            if r.downtime.partial { " (partial: only what happens before the plan stops)" } else { "" }
        );
        for c in &r.downtime.components {
            let _ = writeln!(s, "  {}: {} ({})", t(&c.component), t(&c.expected), t(&c.when));
        }
        for w in &r.downtime.workloads {
            let how_long = if w.until_intervention {
                format!("until someone intervenes (at least {})", duration(w.seconds))
            } else {
                duration(w.seconds)
            };
            let _ = writeln!(s, "  {} {}/{}: {how_long} ({})", t(&w.kind), t(&w.namespace), t(&w.name), t(&w.reason));
        }
        s.push('\n');
    }
    let sm = &r.summary;
    // What the verdict does not cover, right above it (nothing, when nothing was read: the verdict says
    // so).
    if sm.verdict != crate::report::NOTHING_CHECKED {
        for f in r.coverage.families.iter().filter(|f| f.in_scope && f.state != crate::coverage::State::Checked) {
            let label = match f.state {
                crate::coverage::State::Skipped => "SKIPPED",
                crate::coverage::State::Partial => "PARTIAL",
                _ => "NOT CHECKED",
            };
            let _ = writeln!(
                s,
                "{} {} ({}, {}): {}",
                p.wrap("33", label),
                f.family,
                f.id,
                f.state.name(),
                t(f.reason.as_deref().unwrap_or(""))
            );
        }
        if let Some(note) = r.coverage.scope_note() {
            let _ = writeln!(s, "{} {note}", p.wrap("33", "SCOPE"));
        }
        if let Some(b) = r.coverage.beyond(&r.upgrade.to) {
            let _ = writeln!(s, "{} {}", p.wrap("33", "NOTE"), t(&b));
        }
    }
    let verdict = if sm.verdict == "blocked" {
        p.wrap("1;31", "BLOCKED")
    } else if sm.verdict == crate::report::NOTHING_CHECKED {
        p.wrap("1;33", "NOTHING CHECKED (no Kubernetes object was read)")
    } else if sm.verdict == crate::report::INCOMPLETE {
        p.wrap("1;33", "INCOMPLETE (not a pass: see NOT CHECKED above; --skip <id> leaves a family out by choice)")
    } else {
        p.wrap("1;32", "READY")
    };
    let _ = writeln!(
        s,
        "{verdict}: {} blocker(s), {} warning(s), {} info{}",
        sm.blocker,
        sm.warning,
        sm.info,
        super::suppressed_count(&sm.suppressed).map(|c| format!("; {c}")).unwrap_or_default()
    );
    s
}
