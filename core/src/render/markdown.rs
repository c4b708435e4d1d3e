//! Markdown for a pull-request comment: verdict, findings table, plan, downtime.

use std::fmt::Write;

use crate::model::display_ref;
use crate::report::{Report, Severity};
use crate::units::duration;

/// Text from the input as Markdown shows it literally, in a table cell or a list item: HTML-significant
/// characters as entities (no raw HTML reaches the page), Markdown syntax backslash-escaped (no emphasis,
/// link, image or code span can be formed), `|` escaped (no extra cell), hazardous characters (newlines,
/// controls, bidi overrides) as visible escapes (no extra row), and URLs broken with a zero-width space
/// after their scheme or `www` so that no autolink is formed from input.
fn md(s: &str) -> String {
    let text = super::printable(s);
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            // A zero-width space after `@`: no @mention (a user or `@org/team`) and no e-mail autolink
            // forms, whatever precedes it.
            '@' => out.push_str("@\u{200b}"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '(' | ')' | '|' | '~' | '!' | '#' | '$' | ':' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    // GitHub's autolinks (`www.`, `https://`, e-mail addresses) are found in the text after escapes are
    // read; a zero-width space breaks each pattern without changing what is shown.
    out.replace("www.", "www\u{200b}.").replace("\\:/", "\\:\u{200b}/")
}

/// GitHub's limit on a pull-request or issue comment, in characters.
pub const COMMENT_LIMIT: usize = 65_536;

/// The Markdown report. At most `max_findings` findings are listed (the most severe first); without it,
/// as many as keep the whole text within GitHub's comment limit (`COMMENT_LIMIT`). Either way, a line
/// says how many of each severity were left out.
pub fn render_markdown(r: &Report, max_findings: Option<usize>) -> String {
    let open = r.findings.iter().filter(|f| f.suppressed.is_none()).count();
    let fits = |t: &String| t.chars().count() <= COMMENT_LIMIT;
    if let Some(n) = max_findings {
        let t = render_with(r, n.min(open), Some(n), true, usize::MAX);
        if fits(&t) {
            return t;
        }
        return shorten_lists(r, n.min(open), Some(n));
    }
    let all = render_with(r, open, None, true, usize::MAX);
    if fits(&all) {
        return all;
    }
    // Suppressed findings are counted but not listed; then the most findings that fit (fewer rows never
    // make the text longer).
    let without = render_with(r, open, None, false, usize::MAX);
    if fits(&without) {
        return without;
    }
    let (mut lo, mut hi) = (0, open);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(&render_with(r, mid, None, false, usize::MAX)) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let t = render_with(r, lo, None, false, usize::MAX);
    if fits(&t) {
        return t;
    }
    shorten_lists(r, 0, None)
}

/// Past the limit with no finding listed (a plan of thousands of nodes, thousands of workloads down, tens of
/// thousands of skipped files): the other lists shortened to the most items that fit, each saying how many
/// it left out; and, should even that not fit, the text cut at the limit with a last line saying so.
fn shorten_lists(r: &Report, shown: usize, cap: Option<usize>) -> String {
    let fits = |t: &String| t.chars().count() <= COMMENT_LIMIT;
    let (mut lo, mut hi) = (0usize, 1usize << 20);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(&render_with(r, shown, cap, false, mid)) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let t = render_with(r, shown, cap, false, lo);
    if fits(&t) {
        return t;
    }
    let note = "\n\n_The rest is cut, to stay within GitHub's comment limit: the JSON report has it all._\n";
    let keep = COMMENT_LIMIT.saturating_sub(note.chars().count());
    let mut cut: String = t.chars().take(keep).collect();
    cut.push_str(note);
    cut
}

/// At most `items` of a list, then how many were left out.
fn first_items<T>(all: &[T], items: usize) -> (&[T], usize) {
    let n = all.len().min(items);
    (all.get(..n).unwrap_or_default(), all.len() - n)
}

fn left_out(s: &mut String, n: usize, what: &str) {
    if n > 0 {
        let _ = writeln!(
            s,
            "- _{n} more {what} not listed, to stay within GitHub's comment limit: the JSON report lists them all._"
        );
    }
}

fn mark(sev: Severity) -> &'static str {
    match sev {
        Severity::Blocker => "🛑 blocker",
        Severity::Warning => "⚠️ warning",
        Severity::Info => "ℹ️ info",
    }
}

/// One table row.
fn row(s: &mut String, f: &crate::report::Finding, last: &str) {
    let object = f.object.as_ref().map(display_ref).unwrap_or_default();
    let loc = f.source.as_ref().map(|src| format!("<br>{}", md(&src.location()))).unwrap_or_default();
    let hop = f.hop.as_ref().map(|h| format!(" (hop {})", md(h))).unwrap_or_default();
    let _ = writeln!(
        s,
        "| {} | `{}` | {}{} | {}{} | {} |",
        mark(f.severity),
        f.code,
        md(&object),
        loc,
        md(&f.message),
        hop,
        last
    );
}

const TABLE_HEAD: &str = "| | Rule | Object | Finding | Fix |\n|---|---|---|---|---|\n";

fn render_with(r: &Report, shown: usize, cap: Option<usize>, list_suppressed: bool, items: usize) -> String {
    let mut s = String::new();
    let u = &r.upgrade;
    let sm = &r.summary;
    let icon = match sm.verdict {
        "blocked" => "❌",
        "ready" => "✅",
        _ => "⚠️",
    };
    if sm.verdict == crate::report::NOTHING_CHECKED {
        let _ = writeln!(s, "## {icon} kube-preflight: NOTHING CHECKED (no Kubernetes object was read)");
    } else {
        let _ = writeln!(s, "## {icon} kube-preflight: {}", sm.verdict.to_ascii_uppercase());
    }
    let _ = writeln!(
        s,
        "\n**{}** → **{}** with `{}`{} · {} blocker(s), {} warning(s), {} info{}\n",
        md(u.from_shown()),
        md(u.to_shown()),
        u.profile,
        if u.path.len() > 1 { format!(" (hops: {})", md(&u.path_shown().join(" → "))) } else { String::new() },
        sm.blocker,
        sm.warning,
        sm.info,
        super::suppressed_count(&sm.suppressed).map(|c| format!(" · {c}")).unwrap_or_default()
    );
    if sm.verdict != crate::report::NOTHING_CHECKED {
        if let Some(note) = r.coverage.scope_note() {
            let _ = writeln!(s, "> **{}**\n", md(note));
        }
        let not = r.coverage.not_checked();
        if !not.is_empty() {
            let _ = writeln!(s, "> **Not checked**: {}.\n", md(&not.join("; ")));
        }
        if let Some(b) = r.coverage.beyond(&r.upgrade.to) {
            let _ = writeln!(s, "> **Note**: {}.\n", md(&b));
        }
    }
    if let Some(d) = r.inventory.detected_profile.as_ref().filter(|d| !d.matches) {
        match d.profile {
            Some(p) => {
                let _ = writeln!(
                    s,
                    "> **Profile**: {}; this report is for `{}`: run with `--profile {p}`.\n",
                    md(&d.describe()),
                    u.profile
                );
            }
            None => {
                let _ = writeln!(s, "> **Profile**: {}; its provider upgrades the control plane.\n", md(&d.describe()));
            }
        }
    }
    let open: Vec<&crate::report::Finding> = r.findings.iter().filter(|f| f.suppressed.is_none()).collect();
    if open.is_empty() {
        s.push_str("No findings.\n");
    }
    // Blockers in the open; warnings and info each in a collapsed group (findings are sorted by severity).
    let listed = open.get(..shown.min(open.len())).unwrap_or_default();
    for sev in [Severity::Blocker, Severity::Warning, Severity::Info] {
        let group: Vec<_> = listed.iter().filter(|f| f.severity == sev).collect();
        if group.is_empty() {
            continue;
        }
        let total = sm.of(sev);
        let (emoji, word) = mark(sev).split_once(' ').unwrap_or_default();
        let shown_part = if group.len() < total { format!(", {} shown", group.len()) } else { String::new() };
        let title = format!("{emoji} {total} {word}(s){shown_part}");
        if sev == Severity::Blocker {
            let _ = writeln!(s, "### {title}\n");
        } else {
            let _ = writeln!(s, "<details><summary>{title}</summary>\n");
        }
        s.push_str(TABLE_HEAD);
        for f in group {
            row(&mut s, f, &md(&f.help));
        }
        if sev != Severity::Blocker {
            s.push_str("\n</details>\n");
        }
        s.push('\n');
    }
    let left = open.get(shown..).unwrap_or_default();
    if !left.is_empty() {
        let count = |sev: Severity| left.iter().filter(|f| f.severity == sev).count();
        let why = match cap {
            Some(n) => format!("`--max-findings {n}`"),
            None => format!("to stay within GitHub's {COMMENT_LIMIT}-character comment limit"),
        };
        let _ = writeln!(
            s,
            "_{} more finding(s) not shown ({} blocker(s), {} warning(s), {} info; {why}): the JSON, SARIF and JUnit reports list them all._\n",
            left.len(),
            count(Severity::Blocker),
            count(Severity::Warning),
            count(Severity::Info)
        );
    }
    let suppressed: Vec<_> = r.findings.iter().filter_map(|f| Some((f, f.suppressed.as_ref()?))).collect();
    if !suppressed.is_empty() {
        let _ = writeln!(
            s,
            "<details><summary>{} suppressed finding(s), not counted</summary>\n\n| | Rule | Object | Finding | Suppressed by |\n|---|---|---|---|---|",
            suppressed.len()
        );
        // Past the comment limit they are counted, not listed.
        let budget = if list_suppressed { suppressed.len() } else { 0 };
        for (f, why) in suppressed.iter().take(budget) {
            row(&mut s, f, &md(&super::suppressed_by(why)));
        }
        if budget < suppressed.len() {
            let _ = writeln!(
                s,
                "\n_{} not shown, to stay within GitHub's {COMMENT_LIMIT}-character comment limit._",
                suppressed.len() - budget
            );
        }
        s.push_str("\n</details>\n");
    }
    if let Some(pr) = &r.progress {
        // A status comment for the change ticket: done, in progress, stuck, the expected end.
        let _ = writeln!(s, "\n### Progress\n\n{}\n", md(&pr.summary));
        if let Some(o) = &pr.operators {
            let _ = writeln!(s, "Control plane: {}.\n", md(&crate::plan::progress::operators_line(o)));
        }
        if let Some(since) = &pr.since {
            let _ = writeln!(s, "Against the plan made before it started: {}\n", md(&since.summary));
        }
        let open: Vec<_> =
            pr.nodes.iter().filter(|n| n.stage == "in-progress" || pr.stuck.iter().any(|x| x.node == n.node)).collect();
        if !open.is_empty() || !pr.stuck.is_empty() {
            let _ = writeln!(s, "| node | pool | step | stuck on |\n|---|---|---|---|");
            for n in open.iter().take(30) {
                let stuck = pr.stuck.iter().find(|x| x.node == n.node).map_or_else(String::new, |x| {
                    // The finding that names it is listed with the findings (its code is not repeated here).
                    format!(
                        "{} ({})",
                        md(&x.cause),
                        if x.predicted { "predicted by the checks" } else { "not predicted" }
                    )
                });
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {stuck} |",
                    md(&n.node),
                    md(n.pool.as_deref().unwrap_or("")),
                    n.step.unwrap_or("")
                );
            }
            if open.len() > 30 {
                let _ = writeln!(s, "\n_and {} more in progress._", open.len() - 30);
            }
        }
        if let Some(c) = &pr.caveat {
            let _ = writeln!(s, "\n_{}_", md(c));
        }
    }
    if !r.plan.phases.is_empty() || !r.plan.stops.is_empty() {
        if r.plan.stops.is_empty() {
            let _ = writeln!(s, "\n### Plan ({} in all)\n", duration(r.plan.total_seconds));
        } else {
            let _ = writeln!(
                s,
                "\n### Plan ({}, then it stops: the upgrade does not complete)\n",
                duration(r.plan.total_seconds)
            );
            for st in &r.plan.stops {
                let _ = writeln!(
                    s,
                    "- **{}** at {} in {} {} (hop {}){}: {} (`{}`){}",
                    if st.outcome == "waits" { "Waits for ever" } else { "Fails" },
                    duration(st.at_seconds),
                    st.phase,
                    md(st.pool.as_deref().unwrap_or("")),
                    md(&st.hop),
                    st.node.as_deref().map(|n| format!(" on {}", md(n))).unwrap_or_default(),
                    md(&st.reason),
                    st.code,
                    if st.pending.is_empty() {
                        String::new()
                    } else {
                        let (names, more) = first_items(&st.pending, items);
                        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
                        format!("; never upgraded: {}{more}", md(&names.join(", ")))
                    }
                );
            }
            s.push('\n');
        }
        s.push_str("| Hop | Phase | Pool | At once | Nodes | Start | End |\n|---|---|---|---|---|---|---|\n");
        let (phases, more_phases) = first_items(&r.plan.phases, items);
        for p in phases {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} |",
                md(p.hop.as_deref().unwrap_or("")),
                p.name,
                md(p.pool.as_deref().unwrap_or("")),
                p.concurrency,
                p.nodes.len(),
                duration(p.start_seconds),
                duration(p.end_seconds)
            );
        }
        if more_phases > 0 {
            let _ = writeln!(s, "\n_{more_phases} more phase(s) not listed, to stay within GitHub's comment limit._");
        }
        if let Some(d) = &r.plan.drain {
            let _ = writeln!(s, "\nDrain: {}.", md(&super::drain_line(d)));
        }
        for l in &r.plan.learned {
            let _ = writeln!(s, "\nStep time measured, {}.", md(&super::learned_line(l)));
        }
        for l in &r.plan.left_out {
            let _ = writeln!(
                s,
                "\n> **Left out:** pool {}: {}: {}.",
                md(&l.pool),
                md(&l.reason),
                md(&crate::units::name_list(&l.nodes, 10))
            );
        }
        if let Some(line) = super::partial_line(r) {
            let _ = writeln!(s, "\n> **Partial:** {}.", md(&line));
        }
        if let Some(ir) = &r.plan.if_resolved {
            s.push_str("\n#### If the blockers that stop it were resolved\n\n");
            for line in super::resolved_lines(ir, items) {
                match line.strip_prefix("  ") {
                    Some(sub) => _ = writeln!(s, "  - {}", md(sub)),
                    None => _ = writeln!(s, "- {}", md(&line)),
                }
            }
        }
    }
    if !r.downtime.components.is_empty() || !r.downtime.workloads.is_empty() || r.downtime.partial {
        s.push_str(if r.downtime.partial {
            "\n### Expected downtime (partial: only what happens before the plan stops)\n\n"
        } else {
            "\n### Expected downtime\n\n"
        });
        for c in &r.downtime.components {
            let _ = writeln!(
                s,
                "- **{}**: {}{}",
                md(&c.component),
                md(&c.expected),
                if c.when.is_empty() { String::new() } else { format!(" ({})", md(&c.when)) }
            );
        }
        let (workloads, more_workloads) = first_items(&r.downtime.workloads, items);
        for w in workloads {
            let _ = writeln!(
                s,
                "- **{} {}/{}**: {} ({})",
                md(&w.kind),
                md(&w.namespace),
                md(&w.name),
                if w.until_intervention {
                    format!("until someone intervenes (at least {})", duration(w.seconds))
                } else {
                    duration(w.seconds)
                },
                md(&w.reason)
            );
        }
        left_out(&mut s, more_workloads, "workload(s) with downtime");
    }
    let inv = &r.inventory;
    if !inv.skipped.is_empty() || !r.not_run.is_empty() {
        s.push_str("\n<details><summary>Skipped inputs and checks that did not run</summary>\n\n");
        let (skipped, more_skipped) = first_items(&inv.skipped, items);
        for k in skipped {
            let _ = writeln!(s, "- skipped {}: {}", md(&k.file), md(&k.reason));
        }
        left_out(&mut s, more_skipped, "skipped input(s)");
        let (not_run, more_not_run) = first_items(&r.not_run, items);
        for n in not_run {
            let _ = writeln!(s, "- not run `{}`: {}", n.code, md(&n.reason));
        }
        left_out(&mut s, more_not_run, "check(s) not run");
        s.push_str("\n</details>\n");
    }
    let _ = writeln!(
        s,
        "\n<sub>{} file(s), {} object(s) read · kube-preflight {}</sub>",
        inv.files, inv.objects, r.tool.version
    );
    s
}
