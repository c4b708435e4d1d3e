//! Reports rendered for people and tools. Pure functions: the caller writes the string somewhere.

pub mod text;

use crate::report::Report;
use crate::rules::RuleInfo;

pub use text::render_text;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "text" => Some(Format::Text),
            "json" => Some(Format::Json),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, Default)]
pub struct RenderOptions {
    /// ANSI colours (the CLI turns them on for a TTY without `NO_COLOR`).
    pub color: bool,
}

pub fn render(report: &Report, format: Format, opts: RenderOptions) -> String {
    match format {
        Format::Text => render_text(report, opts),
        Format::Json => report.to_json(),
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
