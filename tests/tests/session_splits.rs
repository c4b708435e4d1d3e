//! `check()` and `Session` read alike: for every fixture file, pushed in two parts split at every byte (files
//! up to 512 bytes) or at a spread of points that includes every document boundary, directive and
//! multi-byte character (larger files), the report, or the error, is byte for byte the one `check()` gives. And the
//! hostile cases the issue names: a byte-order mark split across chunks, a `%` directive split from its
//! document, an alias budget spent across documents, a NUL byte, lone CRs.

use std::path::Path;

use kube_preflight::{check, Input, Session, UpgradeOptions};
use kube_preflight_tests::fixtures;

fn opts() -> UpgradeOptions {
    UpgradeOptions::new("1.29.2")
}

fn whole(name: &str, bytes: &[u8]) -> String {
    match check(&[Input::new(name, bytes)], &opts()) {
        Ok(r) => r.to_json(),
        Err(e) => format!("error: {e}"),
    }
}

fn in_parts(name: &str, bytes: &[u8], cuts: &[usize]) -> String {
    let run = || -> Result<String, kube_preflight::Error> {
        let mut s = Session::new(opts())?;
        let mut at = 0;
        for &c in cuts.iter().chain(std::iter::once(&bytes.len())) {
            s.push(name, &bytes[at..c])?;
            at = c;
        }
        Ok(s.finish()?.to_json())
    };
    run().unwrap_or_else(|e| format!("error: {e}"))
}

/// Split points worth trying: every byte of a small file; in a larger one a spread, and around every
/// `---` and `%` line and every byte of a multi-byte character (where a reader in parts can go wrong).
fn cut_points(bytes: &[u8]) -> Vec<usize> {
    if bytes.len() <= 512 {
        return (1..bytes.len()).collect();
    }
    let mut cuts: Vec<usize> = (1..32).map(|k| k * bytes.len() / 32).collect();
    for (i, w) in bytes.windows(4).enumerate() {
        let line_start = i == 0 || bytes[i - 1] == b'\n';
        if (line_start && (w.starts_with(b"---") || w[0] == b'%')) || w[0] >= 0x80 {
            cuts.extend(i.saturating_sub(2)..(i + 4).min(bytes.len()));
        }
    }
    cuts.retain(|c| *c > 0 && *c < bytes.len());
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml" || x == "json")
            && p.file_name().is_some_and(|n| n != "case.yaml" && n != "expected.json")
        {
            out.push(p);
        }
    }
}

// Every fixture, whole and cut in two at many places: thousands of checks, in two tests of half the fixtures each
// (alternate ones), so that the two test threads share them.
#[test]
fn every_fixture_reads_alike_whole_and_in_two_parts_first_half() {
    fixtures_read_alike_in_two_parts(0);
}

#[test]
fn every_fixture_reads_alike_whole_and_in_two_parts_second_half() {
    fixtures_read_alike_in_two_parts(1);
}

fn fixtures_read_alike_in_two_parts(half: usize) {
    let mut all = Vec::new();
    files(&fixtures(), &mut all);
    all.sort();
    assert!(all.len() > 100);
    let mut checked = 0usize;
    for p in all.into_iter().skip(half).step_by(2) {
        let bytes = std::fs::read(&p).unwrap();
        // The 1.7 MB snapshot of the large cluster is left to its own test: its reports take seconds.
        if bytes.len() > 256 << 10 {
            continue;
        }
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let expected = whole(&name, &bytes);
        for c in cut_points(&bytes) {
            let got = in_parts(&name, &bytes, &[c]);
            assert!(
                got == expected,
                "{} split at byte {c} differs:\n{}",
                p.display(),
                first_difference(&expected, &got)
            );
            checked += 1;
        }
    }
    assert!(checked > 1_500, "{checked}");
}

fn first_difference(a: &str, b: &str) -> String {
    let at = a.bytes().zip(b.bytes()).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    let from = at.saturating_sub(120);
    format!(
        "whole:   {}\nparts:   {}",
        a.get(from..(at + 120).min(a.len())).unwrap_or(""),
        b.get(from..(at + 120).min(b.len())).unwrap_or("")
    )
}

fn every_split(name: &str, text: &[u8]) {
    let expected = whole(name, text);
    for c in 1..text.len() {
        assert_eq!(in_parts(name, text, &[c]), expected, "{name} split at {c}");
    }
    // And one byte at a time.
    let all: Vec<usize> = (1..text.len()).collect();
    assert_eq!(in_parts(name, text, &all), expected, "{name} one byte at a time");
}

const NODE: &str = "apiVersion: v1\nkind: Node\nmetadata:\n  name: cp-1\n  labels: {node-role.kubernetes.io/control-plane: \"\"}\nstatus:\n  nodeInfo: {kubeletVersion: v1.28.4}\n";

#[test]
fn a_byte_order_mark_split_anywhere() {
    let yaml = [b"\xef\xbb\xbf".as_slice(), NODE.as_bytes(), b"---\nkind: Pod\napiVersion: v1\nmetadata: {name: p}\n"]
        .concat();
    every_split("bom.yaml", &yaml);
    let json = [b"\xef\xbb\xbf".as_slice(), br#"{"kind":"Node","apiVersion":"v1","metadata":{"name":"n"}}"#].concat();
    every_split("bom.json", &json);
    assert!(whole("bom.json", &json).contains("\"objects\": 1"));
    // Positions are counted after the mark (found by `cargo xtask fuzz`: a column off by one).
    let bad = [b"\xef\xbb\xbf".as_slice(), b"a\x96: 1\n"].concat();
    every_split("bad.yaml", &bad);
    assert!(whole("bad.yaml", &bad).starts_with("error: bad.yaml:1:2: "), "{}", whole("bad.yaml", &bad));
}

#[test]
fn a_directive_stays_with_its_document() {
    let text = format!("%YAML 1.2\n---\n{NODE}...\n%YAML 1.2\n%TAG ! tag:example.com,2000:\n---\nkind: Pod\napiVersion: v1\nmetadata: {{name: p}}\n");
    every_split("directives.yaml", text.as_bytes());
    assert!(whole("directives.yaml", text.as_bytes()).contains("\"objects\": 2"));
}

#[test]
fn lone_crs_nul_bytes_and_multibyte_names() {
    // A JSON file with lone CRs for line ends (old Mac): the error is at the `}` on line 6, where a `]` was due.
    let cr = b"{\r\"kind\": \"Node\",\r\"apiVersion\": \"v1\",\r\"metadata\": {\"name\": \"n\"},\r\"x\": [1, 2\r}";
    every_split("cr.json", cr);
    let e = whole("cr.json", cr);
    assert!(e.starts_with("error: cr.json:6:1: "), "{e}");
    let nul = format!("{NODE}---\nkind: Pod\nmetadata: {{name: a\0b}}\n");
    every_split("nul.yaml", nul.as_bytes());
    assert!(whole("nul.yaml", nul.as_bytes()).contains("NUL"));
    every_split("utf8.yaml", "kind: Pod\napiVersion: v1\nmetadata: {name: café-😀, namespace: 名前}\n".as_bytes());
}

#[test]
fn an_alias_budget_spent_across_documents_is_spent_alike() {
    // Each document alone is within the budget; the file as a whole is not.
    let big = "x".repeat(1 << 20);
    let doc = |k: usize| {
        let mut d = format!("kind: ConfigMap\napiVersion: v1\nmetadata: {{name: c{k}}}\ndata:\n  a: &s {big}\n  l: [");
        d.push_str(&vec!["*s"; 20].join(", "));
        d.push_str("]\n");
        d
    };
    let text = format!("{}---\n{}", doc(1), doc(2));
    let expected = whole("aliases.yaml", text.as_bytes());
    assert!(expected.contains("MAX_ALIAS_BYTES"), "{}", &expected[..expected.len().min(300)]);
    let boundary = text.find("---").unwrap();
    for c in [1, boundary, boundary + 2, boundary + 5, text.len() - 3] {
        assert_eq!(in_parts("aliases.yaml", text.as_bytes(), &[c]), expected, "split at {c}");
    }
}

#[test]
fn errors_come_in_document_order_whole_or_in_parts() {
    // Found by `cargo xtask fuzz`: a syntax error early, a NUL byte later, and a `...` line between them.
    // check() named the NUL, Session the earlier error; both must name the earlier one.
    // Then the same with bytes that are not UTF-8 late in the file.
    // Then a NUL on a `...` line after an unclosed quote: the line begins a document (the quote ends
    // at the end of the one before), which a Session knew only once the line ended (it read the NUL's
    // document early, running the quote into the `...`).
    for (seed, at) in [
        ("regression-nul-after-error", "error: fuzz.yaml:2:"),
        ("regression-utf8-after-error", "error: fuzz.yaml:14:1:"),
        (
            "regression-nul-on-document-marker-line",
            "error: fuzz.yaml:1:1: while scanning a quoted scalar, found unexpected end of stream",
        ),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/check").join(seed);
        let bytes = std::fs::read(path).unwrap();
        let body = &bytes[2..]; // the fuzz target's two header bytes
        every_split("fuzz.yaml", body);
        let e = whole("fuzz.yaml", body);
        assert!(e.starts_with(at), "{seed}: {e}");
    }
}
