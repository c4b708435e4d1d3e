//! The CLI request, as plain Rust: a config file and flags merged into options, a format, an exit status.

use kube_preflight::options::OptionsError;
use kube_preflight::parse::{parse_documents, parse_json};
use kube_preflight::render::{render, Format, RenderOptions};
use kube_preflight::{Error, Input, Report, Severity, UpgradeOptions};

pub struct CliRequest {
    /// The flags, as a JSON object of `UpgradeOptions` fields.
    pub options_json: String,
    /// The `--config` file, if any.
    pub config: Option<Input>,
    pub format: String,
    pub color: bool,
    pub fail_on: String,
    /// `--allow-empty`: a run that reads no Kubernetes object is a report (verdict `nothing-checked`),
    /// not an input error.
    pub allow_empty: bool,
    /// More formats rendered from the same report (`--output sarif=preflight.sarif`), in order.
    pub extra_formats: Vec<String>,
    /// `--max-findings`: Markdown lists at most this many.
    pub max_findings: Option<usize>,
    /// `--baseline`: a previous report (`--format json`); the findings it holds are suppressed.
    pub baseline: Option<Input>,
    /// `--since`: the report taken before the upgrade started (`--format json`).
    pub since: Option<Input>,
    /// `--help-uri`: where the rule catalogue is published (SARIF `helpUri`).
    pub help_uri: Option<String>,
    /// The date exemptions expire by when the options give none (the caller's clock).
    pub today: Option<kube_preflight::options::Date>,
}

pub struct CliOutput {
    pub output: String,
    /// The report in each of `extra_formats`, in order (never coloured).
    pub extra: Vec<String>,
    /// 0: nothing at or above `--fail-on`; 1: at least one finding there; 3: nothing there, but the
    /// verdict is `incomplete`.
    pub exit_code: u8,
}

fn opt_err(field: &str, message: String) -> Error {
    Error::Options(OptionsError { field: field.to_owned(), message })
}

pub fn options_from_json(json: &str) -> Result<UpgradeOptions, Error> {
    let node = parse_json("options", json)?;
    Ok(UpgradeOptions::from_node(&node)?)
}

/// Read a `--config` file (YAML or JSON) as options.
pub fn options_from_config(config: &Input) -> Result<UpgradeOptions, Error> {
    let text = kube_preflight::ingest::decode_utf8(&config.name, &config.content)?;
    let docs = parse_documents(&config.name, text)?;
    let doc = docs.first().ok_or_else(|| opt_err("config", format!("{}: no options in the file", config.name)))?;
    UpgradeOptions::from_node(doc).map_err(|e| {
        opt_err(
            &e.field,
            format!("{} (in {} line {})", e.message, config.name, doc.get(&e.field).line().max(doc.line())),
        )
    })
}

/// Read a `--baseline` report.
pub fn baseline_from(file: &Input) -> Result<kube_preflight::options::Baseline, Error> {
    let not_json = |e: Error| opt_err("baseline", format!("{e} (expected the JSON of a `--format json` report)"));
    let text = kube_preflight::ingest::decode_utf8(&file.name, &file.content).map_err(|e| not_json(e.into()))?;
    let node = parse_json(&file.name, text).map_err(|e| not_json(e.into()))?;
    kube_preflight::options::Baseline::from_node(&node)
        .map_err(|e| opt_err(&e.field, format!("{}: {}", file.name, e.message)))
}

/// Read a `--since` report.
pub fn since_from(file: &Input) -> Result<kube_preflight::options::Since, Error> {
    let not_json = |e: Error| opt_err("since", format!("{e} (expected the JSON of a `--format json` report)"));
    let text = kube_preflight::ingest::decode_utf8(&file.name, &file.content).map_err(|e| not_json(e.into()))?;
    let node = parse_json(&file.name, text).map_err(|e| not_json(e.into()))?;
    kube_preflight::options::Since::from_node(&node)
        .map_err(|e| opt_err(&e.field, format!("{}: {}", file.name, e.message)))
}

pub fn fail_threshold(fail_on: &str) -> Result<Option<Severity>, Error> {
    match fail_on {
        "blocker" => Ok(Some(Severity::Blocker)),
        "warning" => Ok(Some(Severity::Warning)),
        "never" => Ok(None),
        other => Err(opt_err("fail-on", format!("{other:?} is not one of blocker, warning, never"))),
    }
}

/// A request made ready: the options (flags over the config file), the format and the threshold.
pub struct Prepared {
    pub options: UpgradeOptions,
    format: Format,
    extra: Vec<Format>,
    threshold: Option<Severity>,
    max_findings: Option<usize>,
    help_uri: Option<String>,
    color: bool,
    allow_empty: bool,
}

pub fn prepare(req: &CliRequest) -> Result<Prepared, Error> {
    let parse = |f: &str| {
        Format::parse(f).ok_or_else(|| {
            opt_err("format", format!("{f:?} is not one of text, json, markdown, sarif, junit, timings"))
        })
    };
    let format = parse(&req.format)?;
    let extra = req.extra_formats.iter().map(|f| parse(f)).collect::<Result<Vec<_>, _>>()?;
    let threshold = fail_threshold(&req.fail_on)?;
    let flags_node = parse_json("options", &req.options_json)?;
    let flags = UpgradeOptions::from_node(&flags_node)?;
    let options = match &req.config {
        Some(c) => options_from_config(c)?.overlay(&flags, !flags_node.get("profile").is_null()),
        None => flags,
    };
    let mut options = options;
    options.today = options.today.or(req.today);
    if let Some(b) = &req.baseline {
        options.baseline = Some(baseline_from(b)?);
    }
    if let Some(b) = &req.since {
        options.since = Some(since_from(b)?);
    }
    Ok(Prepared {
        options,
        format,
        extra,
        threshold,
        max_findings: req.max_findings,
        help_uri: req.help_uri.clone(),
        color: req.color,
        allow_empty: req.allow_empty,
    })
}

impl Prepared {
    /// The report rendered, and the exit status; an input error when nothing was read (a failed
    /// `kubectl get ... |` step must not pass a gate), unless `--allow-empty`.
    pub fn output(&self, report: &Report) -> Result<CliOutput, Error> {
        let exit_code = self.exit_code(report)?;
        let mut texts = self.renderings().into_iter().map(|(format, opts)| render(report, format, opts));
        Ok(CliOutput { output: texts.next().unwrap_or_default(), extra: texts.collect(), exit_code })
    }

    /// The exit status: 1 with a finding at or above `--fail-on`, else 3 when the verdict is `incomplete`,
    /// else 0 (`--fail-on never`: always 0); an input error when nothing was read, unless `--allow-empty`.
    pub fn exit_code(&self, report: &Report) -> Result<u8, Error> {
        let inv = &report.inventory;
        if inv.objects == 0 && !self.allow_empty {
            let skipped: Vec<String> =
                inv.skipped.iter().take(5).map(|s| format!("{} ({})", s.file, s.reason)).collect();
            let more = inv.skipped.len().saturating_sub(skipped.len());
            let passed_over = if skipped.is_empty() {
                String::new()
            } else {
                format!(
                    "; passed over: {}{}",
                    skipped.join(", "),
                    if more > 0 { format!(" and {more} more") } else { String::new() }
                )
            };
            return Err(Error::Input(kube_preflight::ParseError {
                file: format!("{} input(s)", inv.files),
                line: None,
                col: None,
                message: format!(
                    "no Kubernetes object was read{passed_over}: nothing was checked (give --allow-empty to accept an empty input)"
                ),
            }));
        }
        Ok(match self.threshold {
            None => 0,
            Some(t) if report.count_at_or_above(t) > 0 => 1,
            // Unknown is never a pass (CONTRACT section 6).
            Some(_) if report.summary.verdict == kube_preflight::report::INCOMPLETE => 3,
            Some(_) => 0,
        })
    }

    /// Each output's format and rendering options: `format`'s (coloured when asked), then each of
    /// `extra_formats` (never coloured).
    pub fn renderings(&self) -> Vec<(Format, RenderOptions)> {
        let opts = |color| RenderOptions {
            color,
            fail_on: self.threshold,
            max_findings: self.max_findings,
            help_uri: self.help_uri.clone(),
        };
        std::iter::once((self.format, opts(self.color))).chain(self.extra.iter().map(|f| (*f, opts(false)))).collect()
    }
}

pub fn run(inputs: &[Input], req: &CliRequest) -> Result<CliOutput, Error> {
    let prepared = prepare(req)?;
    let report = kube_preflight::check(inputs, &prepared.options)?;
    prepared.output(&report)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NODES: &str = r#"{"kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"cp",
"labels":{"node-role.kubernetes.io/control-plane":""}},"status":{"conditions":[{"type":"Ready","status":"True"}],
"nodeInfo":{"kubeletVersion":"v1.28.3"}}}]}"#;

    fn req(options: &str, fail_on: &str, config: Option<&str>) -> CliRequest {
        CliRequest {
            options_json: options.to_owned(),
            config: config.map(|c| Input::new("preflight.yaml", c)),
            format: "json".into(),
            color: false,
            fail_on: fail_on.into(),
            allow_empty: false,
            extra_formats: Vec::new(),
            max_findings: None,
            baseline: None,
            since: None,
            help_uri: None,
            today: None,
        }
    }

    #[test]
    fn a_report_of_nothing_is_an_input_error_unless_allowed() {
        // A failed `kubectl get ... |` step gives an empty input: no gate may pass on it.
        let empty = [Input::new("<stdin>", "# nothing\n")];
        let e = run(&empty, &req(r#"{"to":"1.29.2"}"#, "warning", None)).err().unwrap();
        assert!(matches!(e, Error::Input(_)), "{e}");
        assert!(e.to_string().contains("no Kubernetes object was read"), "{e}");
        let mut allowed = req(r#"{"to":"1.29.2"}"#, "blocker", None);
        allowed.allow_empty = true;
        let out = run(&empty, &allowed).unwrap();
        assert_eq!(out.exit_code, 0);
        assert!(out.output.contains("\"verdict\": \"nothing-checked\""), "{}", out.output);
    }

    #[test]
    fn exit_codes_follow_fail_on() {
        let inputs = [Input::new("nodes.json", NODES)];
        // 1.28 -> 1.27: a blocker.
        assert_eq!(run(&inputs, &req(r#"{"to":"1.27.1"}"#, "blocker", None)).unwrap().exit_code, 1);
        assert_eq!(run(&inputs, &req(r#"{"to":"1.27.1"}"#, "never", None)).unwrap().exit_code, 0);
        // 1.28 -> 1.30: a warning only; nodes alone leave the drains, budgets and the API machinery unread:
        // incomplete (3), not a pass, unless those families are skipped by choice.
        assert_eq!(run(&inputs, &req(r#"{"to":"1.30.1"}"#, "blocker", None)).unwrap().exit_code, 3);
        assert_eq!(run(&inputs, &req(r#"{"to":"1.30.1"}"#, "warning", None)).unwrap().exit_code, 1);
        assert_eq!(run(&inputs, &req(r#"{"to":"1.30.1"}"#, "never", None)).unwrap().exit_code, 0);
        let skip = r#"{"to":"1.30.1","skip":["drains","budgets","admission-webhooks","admission-policies","aggregated-apis","custom-resources","helm-charts"]}"#;
        assert_eq!(run(&inputs, &req(skip, "blocker", None)).unwrap().exit_code, 0);
        // An unknown family id is an options error naming the field.
        match run(&inputs, &req(r#"{"to":"1.30.1","skip":["helm"]}"#, "blocker", None)) {
            Err(Error::Options(e)) => assert_eq!(e.field, "skip[0]", "{e}"),
            other => panic!("expected an options error, got {:?}", other.map(|o| o.exit_code)),
        }
        assert!(matches!(run(&inputs, &req(r#"{"to":"1.30.1"}"#, "sometimes", None)), Err(Error::Options(_))));
    }

    #[test]
    fn flags_override_the_config_file() {
        let inputs = [Input::new("nodes.json", NODES)];
        let out = run(&inputs, &req(r#"{"to":"1.29.0"}"#, "blocker", Some("to: 1.27.0\nprofile: rke\n"))).unwrap();
        assert!(out.output.contains("\"to\": \"1.29.0\""), "{}", out.output);
        assert!(out.output.contains("\"profile\": \"rke\""), "{}", out.output);
        let e = run(&inputs, &req("{}", "blocker", Some("to: 1.29.0\nmaxSurge: 150%\n"))).err().unwrap();
        assert!(e.to_string().contains("maxSurge"), "{e}");
    }
}
