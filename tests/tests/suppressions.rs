//! Accepted findings: a baseline report (`--baseline`), exemptions in the options, and how every format
//! counts them apart. The annotation and exemption cases are fixtures in `rules/suppression/`.

use kube_preflight::parse::parse_json;
use kube_preflight::render::{render, Format, RenderOptions};
use kube_preflight::{check, Error, Input, Report, Severity, UpgradeOptions};
use kube_preflight_tests::{fixtures, inputs};

fn demo() -> Vec<Input> {
    inputs(&fixtures().join("demo"))
}

fn options(json: &str) -> UpgradeOptions {
    UpgradeOptions::from_node(&parse_json("options", json).unwrap()).unwrap()
}

/// The demo's report with a baseline taken from `baseline`.
fn with_baseline(inputs: &[Input], baseline: &Report) -> Report {
    let json = format!(r#"{{"to":"1.29.2","baseline":{}}}"#, baseline.to_json());
    check(inputs, &options(&json)).unwrap()
}

#[test]
fn a_baseline_accepts_what_it_holds_and_only_that() {
    let before = check(&demo(), &UpgradeOptions::new("1.29.2")).unwrap();
    assert!(before.summary.blocker > 0, "the demo has blockers");
    // Against itself: every finding is in the baseline, nothing counts, the verdict is ready.
    let same = with_baseline(&demo(), &before);
    assert_eq!(same.findings.len(), before.findings.len(), "suppressed findings stay in the report");
    assert!(same.findings.iter().all(|f| f.suppressed.as_ref().is_some_and(|s| s.by == "baseline")));
    assert_eq!((same.summary.blocker, same.summary.warning, same.summary.info), (0, 0, 0));
    assert_eq!(same.summary.suppressed.blocker, before.summary.blocker);
    assert_eq!(same.summary.suppressed.warning, before.summary.warning);
    assert_eq!(same.summary.suppressed.info, before.summary.info);
    // Nothing counts, but the demo reads no webhooks, policies, APIServices, CRDs or Helm releases: not a
    // pass (CONTRACT section 6), incomplete; with those families skipped by choice, ready.
    assert_eq!(same.summary.verdict, "incomplete");
    assert_eq!(same.coverage.incomplete, before.coverage.incomplete);
    let json = format!(
        r#"{{"to":"1.29.2","skip":["admission-webhooks","admission-policies","aggregated-apis","custom-resources","helm-charts"],"baseline":{}}}"#,
        before.to_json()
    );
    assert_eq!(check(&demo(), &options(&json)).unwrap().summary.verdict, "ready");
    assert_eq!(same.count_at_or_above(Severity::Info), 0, "a suppressed finding never gates");

    // Lines moved (a comment above every YAML document): still the same findings.
    let moved: Vec<Input> = kube_preflight_tests::moved_lines(demo());
    assert_eq!(with_baseline(&moved, &before).summary.blocker, 0);

    // A new problem: a manifest on an API the target no longer serves. Only it counts.
    let mut more = demo();
    more.push(Input::new(
        "new/hpa.yaml",
        "apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata: {name: fresh, namespace: shop}\n",
    ));
    let after = with_baseline(&more, &before);
    let open: Vec<_> = after.findings.iter().filter(|f| f.suppressed.is_none()).collect();
    assert_eq!(open.len(), 1, "{open:#?}");
    assert_eq!(open[0].code, "api/removed");
    assert_eq!(open[0].object.as_ref().unwrap().name.as_str(), "fresh");
    assert_eq!(after.summary.blocker, 1);
    assert_eq!(after.summary.verdict, "blocked");
}

#[test]
fn formats_count_suppressed_findings_apart() {
    let before = check(&demo(), &UpgradeOptions::new("1.29.2")).unwrap();
    let r = with_baseline(&demo(), &before);
    let total = r.summary.suppressed.total();
    let opts = RenderOptions { fail_on: Some(Severity::Warning), ..RenderOptions::default() };
    // Text: no finding listed as open, the suppressed counted in the last line.
    let text = render(&r, Format::Text, opts.clone());
    assert!(text.contains(&format!("SUPPRESSED ({total}, not counted)")), "{text}");
    let c = r.summary.suppressed;
    let parts: Vec<String> = [(c.blocker, "blocker"), (c.warning, "warning"), (c.info, "info")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, s)| format!("{n} {s}"))
        .collect();
    let last = format!("INCOMPLETE (not a pass: see NOT CHECKED above; --skip <id> leaves a family out by choice): 0 blocker(s), 0 warning(s), 0 info; {total} suppressed ({})", parts.join(", "));
    assert!(text.trim_end().ends_with(&last), "{text}");
    // Markdown: the count in the header line, the rows in a collapsed group.
    let md = render(&r, Format::Markdown, opts.clone());
    assert!(md.contains(&format!(" · {total} suppressed (")), "{md}");
    assert!(md.contains(&format!("<details><summary>{total} suppressed finding(s), not counted</summary>")), "{md}");
    assert!(md.contains("No findings."), "{md}");
    // SARIF: every result carries an accepted external suppression.
    let sarif: serde_json::Value = serde_json::from_str(&render(&r, Format::Sarif, opts.clone())).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), r.findings.len());
    for res in results {
        assert_eq!(res["suppressions"][0]["kind"], "external", "{res}");
        assert_eq!(res["suppressions"][0]["status"], "accepted", "{res}");
    }
    // JUnit: skipped, never failures, even at --fail-on warning.
    let junit = render(&r, Format::Junit, opts);
    assert!(junit.contains("failures=\"0\" errors=\"0\">"), "{junit}");
    assert_eq!(junit.matches("<skipped message=\"suppressed by the baseline report\"/>").count(), total, "{junit}");
}

#[test]
fn bad_suppression_options_name_the_field() {
    let field = |json: &str| -> String {
        let o = match UpgradeOptions::from_node(&parse_json("options", json).unwrap()) {
            Ok(o) => o,
            Err(e) => return e.field,
        };
        match check(&demo(), &o) {
            Err(Error::Options(e)) => e.field,
            other => panic!("{json}: {:?}", other.map(|r| r.summary)),
        }
    };
    assert_eq!(field(r#"{"to":"1.29.2","baseline":{"findings":[]}}"#), "baseline");
    assert_eq!(field(r#"{"to":"1.29.2","baseline":"old.json"}"#), "baseline");
    assert_eq!(
        field(r#"{"to":"1.29.2","baseline":{"schemaVersion":1,"findings":[{"object":{}}]}}"#),
        "baseline.findings[0].code"
    );
    assert_eq!(field(r#"{"to":"1.29.2","exemptions":[{"rule":"disruption/single-replicas"}]}"#), "exemptions[0].rule");
    assert_eq!(
        field(r#"{"to":"1.29.2","exemptions":[{"rule":"api/*","expires":"2026-02-30"}]}"#),
        "exemptions[0].expires"
    );
    assert_eq!(field(r#"{"to":"1.29.2","exemptions":[{"rule":"api/*","names":"x"}]}"#), "exemptions[0].names");
    assert_eq!(field(r#"{"to":"1.29.2","exemptions":[{"kind":"Pod"}]}"#), "exemptions[0].rule");
    assert_eq!(field(r#"{"to":"1.29.2","exemptions":{"rule":"*"}}"#), "exemptions");
    assert_eq!(field(r#"{"to":"1.29.2","today":"24.11.2026"}"#), "today");
}

/// Suppression findings are about the suppressions themselves: `*` does not hide them.
#[test]
fn a_blanket_exemption_does_not_hide_its_own_problems() {
    let r = check(
        &demo(),
        &options(
            r#"{"to":"1.29.2","today":"2026-11-24","exemptions":[{"rule":"*","reason":"all of it"},{"rule":"api/removed","expires":"2026-01-01"},{"rule":"budget/*","name":"no-such-*"}]}"#,
        ),
    )
    .unwrap();
    assert_eq!(r.summary.blocker, 0);
    let own: Vec<_> = r.findings.iter().filter(|f| f.code.starts_with("suppression/")).collect();
    assert!(own.iter().all(|f| f.suppressed.is_none()));
    let codes: Vec<&str> = own.iter().map(|f| f.code).collect();
    // exemptions[1] expired; exemptions[2] would match, but [0] took everything first: unused.
    assert_eq!(codes, ["suppression/expired", "suppression/unused"], "{own:#?}");
    assert!(r
        .findings
        .iter()
        .filter(|f| f.suppressed.is_some())
        .all(|f| f.suppressed.as_ref().unwrap().exemption == Some(0)));
}

/// Markdown for a pull-request comment: blockers in the open, warnings and info collapsed, and without
/// `--max-findings` as many findings as GitHub's comment limit takes, saying what was left out.
#[test]
fn markdown_fits_a_comment_and_groups_by_severity() {
    let mut inputs = demo();
    let mut many = String::new();
    for i in 0..600 {
        many.push_str(&format!(
            "---\napiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata: {{name: hpa-with-a-rather-long-name-{i:04}, namespace: team-{i:04}}}\n"
        ));
    }
    inputs.push(Input::new("many/hpas.yaml", many));
    let r = check(&inputs, &UpgradeOptions::new("1.29.2")).unwrap();
    assert!(r.findings.len() > 600);
    let md = render(&r, Format::Markdown, RenderOptions::default());
    let limit = kube_preflight::render::markdown::COMMENT_LIMIT;
    assert!(md.chars().count() <= limit, "{} characters", md.chars().count());
    let rows = md.lines().filter(|l| l.starts_with("| 🛑") || l.starts_with("| ⚠️") || l.starts_with("| ℹ️")).count();
    assert!(rows > 100 && rows < r.findings.len(), "{rows}");
    let left = r.findings.len() - rows;
    assert!(
        md.contains(&format!("_{left} more finding(s) not shown (")) && md.contains("comment limit): the JSON"),
        "{}",
        &md[md.len().saturating_sub(3000)..]
    );
    // One more row would not have fitted: the cap is as large as it can be.
    assert!(md.chars().count() > limit - 2_000, "{} characters", md.chars().count());

    // The demo alone fits whole: blockers under a heading, warnings in a collapsed group.
    let demo_md =
        render(&check(&demo(), &UpgradeOptions::new("1.29.2")).unwrap(), Format::Markdown, RenderOptions::default());
    assert!(demo_md.contains("\n### 🛑 8 blocker(s)\n"), "{demo_md}");
    assert!(demo_md.contains("\n<details><summary>⚠️ 16 warning(s)</summary>\n"), "{demo_md}");
    assert!(!demo_md.contains("not shown"), "{demo_md}");
}

/// The limit holds whatever makes the text long, not only findings: 20,000 skipped inputs, and with
/// `--max-findings`, still within it, saying how many were left out.
#[test]
fn markdown_fits_a_comment_whatever_is_long() {
    let mut inputs = demo();
    for i in 0..20_000 {
        inputs.push(Input::new(format!("charts/templates/with-a-long-path-{i:05}.yaml"), "{{ .Values.x }}: 1\n"));
    }
    let r = check(&inputs, &UpgradeOptions::new("1.29.2")).unwrap();
    assert!(r.inventory.skipped.len() >= 20_000);
    let limit = kube_preflight::render::markdown::COMMENT_LIMIT;
    for max_findings in [None, Some(5)] {
        let md = render(&r, Format::Markdown, RenderOptions { max_findings, ..RenderOptions::default() });
        assert!(md.chars().count() <= limit, "{} characters", md.chars().count());
        assert!(md.contains("more skipped input(s) not listed"), "{}", &md[md.len().saturating_sub(2000)..]);
    }
}
