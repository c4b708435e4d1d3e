//! Reports rendered for people and tools. Pure functions: the caller writes the string somewhere.

mod junit;
mod markdown;
mod sarif;
pub mod text;

use crate::report::Report;
use crate::report::RuleInfo;

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
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "text" => Some(Format::Text),
            "json" => Some(Format::Json),
            "markdown" | "md" => Some(Format::Markdown),
            "sarif" => Some(Format::Sarif),
            "junit" => Some(Format::Junit),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, Default)]
pub struct RenderOptions {
    /// ANSI colours (the CLI turns them on for a TTY without `NO_COLOR`).
    pub color: bool,
    /// JUnit: findings at or above this are failures (`None`: never).
    pub fail_on: Option<crate::report::Severity>,
}

pub fn render(report: &Report, format: Format, opts: RenderOptions) -> String {
    match format {
        Format::Text => render_text(report, opts),
        Format::Json => report.to_json(),
        Format::Markdown => render_markdown(report),
        Format::Sarif => render_sarif(report, &crate::rules::rule_infos()),
        Format::Junit => render_junit(report, &crate::rules::rule_infos(), opts.fail_on),
    }
}

/// The rule catalogue as one Markdown document.
pub fn rules_markdown(rules: &[&RuleInfo]) -> String {
    let mut s = String::from("# kube-preflight rules\n\n| code | default severity | title |\n|---|---|---|\n");
    for r in rules {
        s.push_str(&format!("| `{}` | {} | {} |\n", r.code, r.severity.name(), r.title));
    }
    for r in rules {
        s.push_str(&format!("\n---\n\n# `{}` ({})\n\n{}\n\n", r.code, r.severity.name(), r.title));
        // Rule docs use `##` headings already; keep them under the rule's own heading.
        s.push_str(r.docs.trim_end());
        s.push('\n');
    }
    s
}

/// The rule catalogue as JSON: `[{code, severity, title, docs}]`.
pub fn rules_json(rules: &[&RuleInfo]) -> String {
    let mut s = serde_json::to_string_pretty(rules).unwrap_or_else(|_| "[]".to_owned());
    s.push('\n');
    s
}
