//! JUnit XML: a test suite per rule, a test case per rule and object; findings at or above `--fail-on`
//! (blockers when `--fail-on never` keeps the exit status 0: the test report still shows them) are
//! failures, those below pass with their message as output; rules that did not run, rules without findings
//! whose family of checks was not checked, and suppressed findings are skipped; a last suite, `coverage`,
//! has a case per family of checks, skipped unless it was checked. Only the
//! elements and attributes of the common JUnit schema (Jenkins' `junit-10.xsd`, which GitLab and GitHub
//! readers accept): where a finding was read (`file:line`) is in its text, not in attributes.

use std::fmt::Write;

use crate::model::display_ref;
use crate::report::RuleInfo;
use crate::report::{Report, Severity};

/// Text for XML (and HTML): markup characters as entities, and the characters XML 1.0 forbids replaced.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 forbids most control characters, and U+FFFE and U+FFFF.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{fffd}'),
            '\u{fffe}' | '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

pub fn render_junit(r: &Report, rules: &[&RuleInfo], fail_on: Option<Severity>) -> String {
    let threshold = fail_on.unwrap_or(Severity::Blocker);
    let fails = |s: Severity| s <= threshold;
    let mut suites = String::new();
    let (mut total, mut failures) = (0usize, 0usize);
    for rule in rules {
        let findings: Vec<_> = r.findings.iter().filter(|f| f.code == rule.code).collect();
        let not_run = r.not_run.iter().find(|n| n.code == rule.code);
        let mut cases = String::new();
        let (mut t, mut f, mut k) = (0usize, 0usize, 0usize);
        // A skipped case of this rule, named and with why.
        let mut skipped = |name: &str, why: &str| {
            t += 1;
            k += 1;
            let _ = writeln!(
                cases,
                "    <testcase classname=\"{}\" name=\"{name}\">\n      <skipped message=\"{}\"/>\n    </testcase>",
                esc(rule.code),
                esc(why)
            );
        };
        if let Some(n) = not_run {
            skipped("not run", &n.reason);
        } else if let Some(fam) = r.coverage.unchecked_for(rule.code).filter(|_| findings.is_empty()) {
            // No finding from a family that was not checked is not a pass.
            skipped(
                "not checked",
                &format!("{} {}: {}", fam.id, fam.state.name(), fam.reason.as_deref().unwrap_or("")),
            );
        } else if findings.is_empty() {
            t += 1;
            let _ = writeln!(cases, "    <testcase classname=\"{}\" name=\"no findings\"/>", esc(rule.code));
        }
        for x in &findings {
            t += 1;
            let name = x.object.as_ref().map(display_ref).unwrap_or_else(|| "cluster".to_owned());
            let name = match &x.hop {
                Some(h) => format!("{name} (hop {h})"),
                None => name,
            };
            let at = x.source.as_ref().map(|s| format!("\nAt: {}", s.location())).unwrap_or_default();
            let body = format!("{}\nFix: {}{at}", x.message, x.help);
            if let Some(why) = &x.suppressed {
                // Accepted: shown as skipped, never a failure.
                k += 1;
                let _ = writeln!(
                    cases,
                    "    <testcase classname=\"{}\" name=\"{}\">\n      <skipped message=\"suppressed by {}\"/>\n      <system-out>{}: {}</system-out>\n    </testcase>",
                    esc(rule.code),
                    esc(&name),
                    esc(&super::suppressed_by(why)),
                    x.severity.name(),
                    esc(&body)
                );
            } else if fails(x.severity) {
                f += 1;
                let _ = writeln!(
                    cases,
                    "    <testcase classname=\"{}\" name=\"{}\">\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>",
                    esc(rule.code),
                    esc(&name),
                    x.severity.name(),
                    esc(&x.message),
                    esc(&body)
                );
            } else {
                let _ = writeln!(
                    cases,
                    "    <testcase classname=\"{}\" name=\"{}\">\n      <system-out>{}: {}</system-out>\n    </testcase>",
                    esc(rule.code),
                    esc(&name),
                    x.severity.name(),
                    esc(&body)
                );
            }
        }
        total += t;
        failures += f;
        let _ = write!(
            suites,
            "  <testsuite name=\"{}\" tests=\"{t}\" failures=\"{f}\" errors=\"0\" skipped=\"{k}\">\n{cases}  </testsuite>\n",
            esc(rule.code)
        );
    }
    // What each family of checks stands on: a family not checked is a skipped test case, never a passed one.
    let (mut t, mut k) = (0usize, 0usize);
    let mut cases = String::new();
    for fam in &r.coverage.families {
        t += 1;
        if fam.state == crate::coverage::State::Checked {
            let _ = writeln!(cases, "    <testcase classname=\"coverage\" name=\"{}\"/>", esc(fam.id));
        } else {
            k += 1;
            let scope = if fam.in_scope { "" } else { " (out of scope)" };
            let _ = writeln!(
                cases,
                "    <testcase classname=\"coverage\" name=\"{}\">\n      <skipped message=\"{}{scope}: {}\"/>\n    </testcase>",
                esc(fam.id),
                fam.state.name(),
                esc(fam.reason.as_deref().unwrap_or(""))
            );
        }
    }
    total += t;
    let _ = write!(
        suites,
        "  <testsuite name=\"coverage\" tests=\"{t}\" failures=\"0\" errors=\"0\" skipped=\"{k}\">\n{cases}  </testsuite>\n"
    );
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"kube-preflight {} -> {}\" tests=\"{total}\" failures=\"{failures}\" errors=\"0\">\n{suites}</testsuites>\n",
        esc(r.upgrade.from.as_deref().unwrap_or("unknown")),
        esc(&r.upgrade.to)
    )
}
