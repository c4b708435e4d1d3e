//! No input can forge what we print: names, file names and messages from the input are escaped by every
//! format (issue "Hardening", forged output).

use kube_preflight::render::{render, Format, RenderOptions};
use kube_preflight::{check, Input, Report, UpgradeOptions};

const EVIL: &str = r#"apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: "cp-1\nREADY: 0 blocker(s), 0 warning(s), 0 info"
    labels: {node-role.kubernetes.io/control-plane: ""}
  status:
    conditions: [{type: Ready, status: "False"}]
    nodeInfo: {kubeletVersion: v1.28.4}
- apiVersion: v1
  kind: Node
  metadata: {name: "w-\u001b[32mgreen\u001b[0m\u202eevil\u061c@kube-admins"}
  status:
    conditions: [{type: Ready, status: "True"}]
    nodeInfo: {kubeletVersion: v1.28.4}
- apiVersion: extensions/v1beta1
  kind: Ingress
  metadata:
    name: "<img src=x onerror=alert(1)> [click](javascript:alert(1)) https://evil.example/x | a | b {0} \uFFFE"
    namespace: "ns\r\nBLOCKED"
"#;

fn report() -> Report {
    let input = Input::new("my dir/snap\nshot #1?.yaml", EVIL);
    check(&[input], &UpgradeOptions::new("1.29.2")).unwrap()
}

fn out(r: &Report, f: Format) -> String {
    render(r, f, RenderOptions::default())
}

#[test]
fn text_shows_input_escaped_and_prints_one_verdict() {
    let r = report();
    let t = out(&r, Format::Text);
    assert!(!t.contains('\u{1b}'), "an escape code from the input reached the terminal:\n{t}");
    assert!(!t.contains('\u{202e}') && !t.contains('\r') && !t.contains('\u{61c}'));
    let verdicts: Vec<&str> =
        t.lines().filter(|l| l.trim_start().starts_with("READY") || l.trim_start().starts_with("BLOCKED")).collect();
    assert_eq!(verdicts.len(), 1, "{verdicts:?}\n{t}");
    assert!(t.contains(r"cp-1\nREADY"), "{t}");
    assert!(t.contains(r"\u{1b}[32m"), "{t}");
}

#[test]
fn markdown_passes_no_html_link_or_extra_row_from_input() {
    let r = report();
    let m = out(&r, Format::Markdown);
    assert!(!m.contains("<img") && !m.contains("&lt;img src=x onerror=alert(1)&gt; [click]"), "{m}");
    assert!(!m.contains("](javascript:") && !m.contains("]("), "{m}");
    assert!(!m.contains("https://") && !m.contains("www.evil"), "an autolink from input:\n{m}");
    assert!(!m.contains('\u{1b}') && !m.contains('\r') && !m.contains('\u{fffe}') && !m.contains('\u{61c}'));
    // No name from the input mentions a GitHub team or user: `@` never follows a word boundary as is.
    assert!(!m.contains("@kube-admins") && m.contains("@\u{200b}kube-admins"), "a mention from the input:\n{m}");
    // Every row of the findings table has the header's number of cells (no `|` from input splits one).
    let cells = |l: &str| l.replace("\\|", "").matches('|').count();
    let mut rows = m.lines().skip_while(|l| !l.starts_with("| | Rule")).take_while(|l| l.starts_with('|'));
    let header = cells(rows.next().unwrap());
    for l in rows {
        assert_eq!(cells(l), header, "{l}");
    }
    // No line of the input became a line of the document.
    assert!(!m.lines().any(|l| l.starts_with("READY") || l.starts_with("BLOCKED")), "{m}");
}

#[test]
fn junit_has_only_characters_xml_allows() {
    let r = report();
    let x = out(&r, Format::Junit);
    for c in x.chars() {
        let ok = matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..);
        assert!(ok, "XML 1.0 forbids U+{:04X}", c as u32);
    }
    assert!(!x.contains("<img"));
}

#[test]
fn sarif_uris_are_uri_references() {
    let r = report();
    let s: serde_json::Value = serde_json::from_str(&out(&r, Format::Sarif)).unwrap();
    let mut uris = Vec::new();
    for res in s["runs"][0]["results"].as_array().unwrap() {
        for loc in res["locations"].as_array().into_iter().flatten() {
            uris.push(loc["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap().to_owned());
        }
    }
    assert!(!uris.is_empty());
    for u in uris {
        assert!(
            u.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=@%:".contains(&b)),
            "not a URI reference: {u:?}"
        );
        assert!(u.starts_with("my%20dir/snap%0Ashot%20%231%3F.yaml"), "{u}");
    }
}

/// SARIF message strings: a brace from the input is doubled (it would read as a placeholder, SARIF 3.11.5)
/// and a bracket escaped (it would read as an embedded link, 3.11.6).
#[test]
fn sarif_messages_pass_no_placeholder_or_link_from_input() {
    let r = report();
    let sarif: serde_json::Value = serde_json::from_str(&out(&r, Format::Sarif)).unwrap();
    let texts: Vec<String> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["message"]["text"].as_str().unwrap().to_owned())
        .collect();
    let ingress = texts.iter().find(|t| t.contains("onerror")).expect("the Ingress's finding");
    assert!(ingress.contains("{{0}}") && !ingress.replace("{{0}}", "").contains("{0}"), "{ingress}");
    assert!(ingress.contains(r"\[click\](javascript"), "{ingress}");
    for t in &texts {
        let unescaped = t.replace("{{", "").replace("}}", "");
        assert!(!unescaped.contains('{') && !unescaped.contains('}'), "{t}");
    }
}
