//! SARIF 2.1.0, as GitHub code scanning reads it: every rule with its help, every finding a result with
//! its rule, level and (when it comes from a file) a physical location.

use serde_json::{json, Map, Value};

use crate::report::RuleInfo;
use crate::report::{Report, Severity};

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Blocker => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A SARIF artifact URI: relative paths with forward slashes, absolute ones as `file://` URIs.
fn uri(file: &str) -> String {
    let f = file.replace('\\', "/");
    if f.starts_with('/') {
        format!("file://{}", percent_encode(&f))
    } else {
        percent_encode(f.trim_start_matches("./"))
    }
}

/// A path as a URI reference (RFC 3986): unreserved characters, `/` and the sub-delimiters that are safe in
/// a path stay; everything else (spaces, newlines, `%`, `#`, `?`, non-ASCII) is percent-encoded as UTF-8.
fn percent_encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'.'
            | b'_'
            | b'~'
            | b'/'
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'='
            | b'@' => out.push(char::from(b)),
            // A colon in a relative path's first segment would read as a scheme.
            b':' if out.contains('/') => out.push(':'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn rule_name(code: &str) -> String {
    code.split(['/', '-'])
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
}

/// The SARIF 2.1.0 log; with `help_base`, each rule's `helpUri` is its anchor in the catalogue there.
pub fn render_sarif(r: &Report, rules: &[&RuleInfo], help_base: Option<&str>) -> String {
    let rule_index = |code: &str| rules.iter().position(|x| x.code == code);
    // GitHub wants a location on every result: a finding about the whole upgrade (a target given with
    // --from and no node) points at the first file any finding comes from.
    let fallback = r.findings.iter().find_map(|f| f.source.clone());
    let driver_rules: Vec<Value> = rules
        .iter()
        .map(|x| {
            let mut rule = json!({
                "id": x.code,
                "name": rule_name(x.code),
                "shortDescription": { "text": x.title },
                "fullDescription": { "text": x.title },
                "help": { "text": crate::rules::docs(x.code), "markdown": crate::rules::docs(x.code) },
                "defaultConfiguration": { "level": level(x.severity) },
                "properties": { "tags": [x.code.split('/').next().unwrap_or_default()] }
            });
            if let (Some(base), Some(o)) = (help_base, rule.as_object_mut()) {
                o.insert("helpUri".into(), json!(format!("{base}#{}", super::anchor(x.code))));
            }
            rule
        })
        .collect();
    let results: Vec<Value> = r
        .findings
        .iter()
        .map(|f| {
            let mut res = Map::new();
            res.insert("ruleId".into(), json!(f.code));
            if let Some(i) = rule_index(f.code) {
                res.insert("ruleIndex".into(), json!(i));
            }
            res.insert("level".into(), json!(level(f.severity)));
            res.insert("message".into(), json!({ "text": message_text(&format!("{} Fix: {}", f.message, f.help)) }));
            if let Some(src) = f.source.as_ref().or(fallback.as_ref()) {
                let mut artifact = Map::new();
                artifact.insert("uri".into(), json!(uri(&src.file)));
                if !src.file.starts_with('/') {
                    artifact.insert("uriBaseId".into(), json!("%SRCROOT%"));
                }
                let mut physical = Map::new();
                physical.insert("artifactLocation".into(), Value::Object(artifact));
                if let Some(line) = src.line.filter(|l| *l > 0) {
                    physical.insert("region".into(), json!({ "startLine": line }));
                }
                let mut loc = Map::new();
                loc.insert("physicalLocation".into(), Value::Object(physical));
                if let Some(o) = &f.object {
                    loc.insert(
                        "logicalLocations".into(),
                        json!([{ "name": o.name, "fullyQualifiedName": crate::model::display_ref(o), "kind": "object" }]),
                    );
                }
                res.insert("locations".into(), json!([Value::Object(loc)]));
            }
            // What identifies a finding from one run to the next, whatever moved in the files (SARIF
            // 3.27.17): its identity (rule, object, hop, the API, annotation or node it is about; never lines
            // or wording) hashed, so that an edit above a manifest or a reworded message is no new alert.
            res.insert("partialFingerprints".into(), json!({ "kubePreflight/v1": f.identity().fingerprint() }));
            if let Some(why) = &f.suppressed {
                // SARIF 3.35: an annotation in the object is "inSource"; the options and a baseline are
                // "external". Readers that honour suppressions (GitHub code scanning) hide such results.
                let kind = if why.by == "annotation" { "inSource" } else { "external" };
                res.insert(
                    "suppressions".into(),
                    json!([{ "kind": kind, "status": "accepted", "justification": super::suppressed_by(why) }]),
                );
            }
            let mut props = Map::new();
            props.insert("severity".into(), json!(f.severity.name()));
            if let Some(h) = &f.hop {
                props.insert("hop".into(), json!(h));
            }
            if !f.data.is_empty() {
                props.insert("data".into(), json!(f.data));
            }
            res.insert("properties".into(), Value::Object(props));
            Value::Object(res)
        })
        .collect();
    // Families of checks in scope that were not checked: tool notifications (CONTRACT section 6), never
    // results, and never silent.
    let notifications: Vec<Value> = r
        .coverage
        .families
        .iter()
        .filter(|f| f.in_scope && f.state != crate::coverage::State::Checked)
        .map(|f| {
            json!({
                "descriptor": { "id": f.id },
                "level": if f.state.makes_incomplete() { "warning" } else { "note" },
                "message": { "text": message_text(&format!("{} ({}): {}", f.family, f.state.name(), f.reason.as_deref().unwrap_or(""))) },
                "properties": { "state": f.state.name() }
            })
        })
        .collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": r.tool.name,
                "version": r.tool.version,
                "semanticVersion": r.tool.version,
                "informationUri": "https://www.npmjs.com/package/kube-preflight",
                "rules": driver_rules
            } },
            "results": results,
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications
            }],
            "properties": {
                "coverage": { "scope": r.coverage.scope, "incomplete": r.coverage.incomplete },
                "upgrade": { "from": r.upgrade.from, "to": r.upgrade.to, "profile": r.upgrade.profile, "path": r.upgrade.path },
                "verdict": r.summary.verdict,
                "suppressed": r.summary.suppressed
            }
        }]
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// A plain-text SARIF message string: literal braces doubled (placeholders, SARIF 2.1.0 section 3.11.5) and
/// backslashes and square brackets escaped (embedded links, section 3.11.6), so that nothing from the input
/// reads as a placeholder or a link.
fn message_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '{' => out.push_str("{{"),
            '}' => out.push_str("}}"),
            '\\' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}
