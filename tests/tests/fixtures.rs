//! Every fixture case a test of its own (a harness of our own, `harness = false`), so that a failure names
//! its case and one case runs alone: `cargo test -p kube-preflight-tests --test fixtures -- admission/policy`.
//! - `rules/<category>/<rule>/<case>`: a `fail-` case must report the rule (and meet its `case.yaml`), a
//!   `pass-` case must not report it;
//! - `plan/<case>`: the plan and downtime fixtures (`tests/src/lib.rs` gives the format).
//!
//! The arguments are libtest's: names (a case runs when its name contains one; all when none is given),
//! `--exact`, `--skip <text>`, `--list`; the others (`--quiet`, `--test-threads <n>`, ...) change nothing.

use std::path::Path;
use std::process::ExitCode;

use kube_preflight_tests::{case_dirs, fixtures, run_case};

/// A `rules/` case: the rule fires in a `fail-` case and not in a `pass-` one, and the case's expectations
/// hold.
fn rule_case(root: &Path, dir: &Path) -> Result<(), String> {
    let rel = dir.strip_prefix(root).map_err(|e| e.to_string())?;
    let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let [category, rule, case] = parts.as_slice() else {
        return Err(format!("{}: expected rules/<category>/<rule>/<case>", rel.display()));
    };
    let code = format!("{category}/{rule}");
    let c = run_case(dir);
    let mut problems = Vec::new();
    if case.starts_with("fail-") && !c.codes().contains(&code) {
        problems.push(format!("{code} did not fire"));
    } else if case.starts_with("pass-") && c.codes().contains(&code) {
        problems.push(format!("{code} fired"));
    } else if !case.starts_with("fail-") && !case.starts_with("pass-") {
        problems.push("case folders are named fail-* or pass-*".to_owned());
    }
    problems.extend(c.failures());
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// A `plan/` case: its expectations hold (the phases are shown when they do not).
fn plan_case(dir: &Path) -> Result<(), String> {
    let c = run_case(dir);
    let problems = c.failures();
    if problems.is_empty() {
        return Ok(());
    }
    let plan = serde_json::to_string_pretty(&c.json["plan"]["phases"]).unwrap_or_default();
    Err(format!("{}\nphases were:\n{plan}", problems.join("\n")))
}

/// One case: its name, and what runs it.
type Case = (String, Box<dyn Fn() -> Result<(), String>>);

/// libtest's flags that take a value: their value is no case name.
const WITH_VALUE: [&str; 6] = ["--test-threads", "--format", "--color", "--logfile", "--skip", "-Z"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut names = Vec::new();
    let mut skips = Vec::new();
    let (mut exact, mut list) = (false, false);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--exact" => exact = true,
            "--list" => list = true,
            "--skip" => skips.extend(it.next().cloned()),
            f if WITH_VALUE.contains(&f) => {
                it.next();
            }
            f if f.starts_with('-') => {}
            name => names.push(name.to_owned()),
        }
    }
    let selected = |name: &str| {
        let hit = |n: &String| if exact { name == n } else { name.contains(n.as_str()) };
        (names.is_empty() || names.iter().any(hit)) && !skips.iter().any(|s| name.contains(s.as_str()))
    };

    let rules = fixtures().join("rules");
    let plan = fixtures().join("plan");
    let mut cases: Vec<Case> = Vec::new();
    for dir in case_dirs(&rules) {
        let name = format!("rules/{}", dir.strip_prefix(&rules).map(|p| p.display().to_string()).unwrap_or_default());
        let root = rules.clone();
        cases.push((name, Box::new(move || rule_case(&root, &dir))));
    }
    for dir in case_dirs(&plan) {
        let name = format!("plan/{}", dir.strip_prefix(&plan).map(|p| p.display().to_string()).unwrap_or_default());
        cases.push((name, Box::new(move || plan_case(&dir))));
    }
    let total = cases.len();
    let chosen: Vec<_> = cases.into_iter().filter(|(name, _)| selected(name)).collect();
    if list {
        for (name, _) in &chosen {
            println!("{name}: test");
        }
        return ExitCode::SUCCESS;
    }
    println!("\nrunning {} fixture case(s)", chosen.len());
    let mut failed = Vec::new();
    for (name, run) in &chosen {
        // A case that panics (an input it cannot read) fails alone; the others still run.
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run))
            .unwrap_or_else(|p| Err(p.downcast_ref::<String>().cloned().unwrap_or_else(|| "panicked".to_owned())));
        match outcome {
            Ok(()) => println!("test {name} ... ok"),
            Err(why) => {
                println!("test {name} ... FAILED");
                failed.push((name.clone(), why));
            }
        }
    }
    if !failed.is_empty() {
        println!("\nfailures:");
        for (name, why) in &failed {
            println!("\n---- {name} ----\n  {}", why.replace('\n', "\n  "));
        }
    }
    println!(
        "\ntest result: {}. {} passed; {} failed; 0 ignored; 0 measured; {} filtered out\n",
        if failed.is_empty() { "ok" } else { "FAILED" },
        chosen.len() - failed.len(),
        failed.len(),
        total - chosen.len()
    );
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(101)
    }
}
