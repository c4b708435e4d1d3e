//! `cargo xtask setup`: install every tool the build and the tests need, skipping what is already right.
//!
//! Pins (see ../shared/TOOLCHAIN.md): wasm-bindgen-cli equal to the `wasm-bindgen` crate in Cargo.lock,
//! trunk 0.21.14, wasm-opt from npm `binaryen` 132 (never Debian's binaryen: it corrupts today's wasm),
//! Debian's chromium, chromium-driver and shellcheck, and the npm dev tools of the root `package.json` (playwright-core
//! driving that Chromium, TypeScript, fast-xml-parser, Microsoft's SARIF multitool).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{output, run, Failure};

pub const WASM_BINDGEN: &str = "0.2.130";
pub const TRUNK: &str = "0.21.14";
pub const WASM_OPT: &str = "version 132";
/// The packed wasm's size budget, gzipped, checked by `cargo xtask bench`.
pub const WASM_GZIP_BUDGET: u64 = 300 * 1024;

/// What the other commands need from set-up.
pub struct Env {
    /// PATH with the project's npm tools and cargo's bin first.
    pub path: OsString,
    pub chromium: PathBuf,
    pub chromedriver: PathBuf,
}

impl Env {
    /// The environment of a command that needs none of the installed tools (PATH only).
    pub fn bare(root: &Path) -> Env {
        Env { path: tool_path(root), chromium: PathBuf::new(), chromedriver: PathBuf::new() }
    }
}

fn say(msg: &str) {
    println!("setup: {msg}");
}

fn cargo_bin() -> PathBuf {
    match std::env::var_os("CARGO_HOME") {
        Some(h) => PathBuf::from(h).join("bin"),
        None => PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cargo/bin"),
    }
}

pub fn tool_path(root: &Path) -> OsString {
    let mut parts = vec![root.join("node_modules/.bin"), cargo_bin()];
    if let Some(p) = std::env::var_os("PATH") {
        parts.extend(std::env::split_paths(&p));
    }
    std::env::join_paths(parts).unwrap_or_default()
}

fn quiet(program: &str, args: &[&str], path: &OsString) -> Option<String> {
    output(Command::new(program).args(args).env("PATH", path))
}

pub fn setup(root: &Path) -> Result<Env, Failure> {
    let path = tool_path(root);
    check_prerequisites(&path)?;
    check_lock_pin(root)?;
    wasm_target(&path)?;
    wasm_bindgen(&path)?;
    trunk(&path)?;
    npm_tools(root, &path)?;
    let (chromium, chromedriver) = chromium(&path)?;
    say("everything is installed");
    Ok(Env { path, chromium, chromedriver })
}

fn check_prerequisites(path: &OsString) -> Result<(), Failure> {
    for (tool, hint) in [
        ("cargo", "install Rust with rustup"),
        ("rustup", "install Rust with rustup"),
        ("node", "install Node.js 18 or newer"),
        ("npm", "install npm"),
    ] {
        if quiet(tool, &["--version"], path).is_none() {
            return Err(Failure::new(format!("`{tool}` is not on PATH: {hint}, then run this again")));
        }
    }
    Ok(())
}

/// The wasm-bindgen CLI must equal the crate exactly: check the lock file agrees with the pin.
fn check_lock_pin(root: &Path) -> Result<(), Failure> {
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap_or_default();
    let mut lines = lock.lines();
    while let Some(l) = lines.next() {
        if l == "name = \"wasm-bindgen\"" {
            let v = lines.next().unwrap_or_default();
            if v != format!("version = \"{WASM_BINDGEN}\"") {
                return Err(Failure::new(format!(
                    "Cargo.lock has wasm-bindgen {v}, but xtask pins the CLI to {WASM_BINDGEN}: keep them equal"
                )));
            }
        }
    }
    Ok(())
}

fn wasm_target(path: &OsString) -> Result<(), Failure> {
    let installed = quiet("rustup", &["target", "list", "--installed"], path).unwrap_or_default();
    if installed.lines().any(|l| l.trim() == "wasm32-unknown-unknown") {
        say("wasm32-unknown-unknown target: present");
        return Ok(());
    }
    say("installing the wasm32-unknown-unknown target (a few seconds)");
    run(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]).env("PATH", path))
}

fn wasm_bindgen(path: &OsString) -> Result<(), Failure> {
    let want = format!("wasm-bindgen {WASM_BINDGEN}");
    let have = quiet("wasm-bindgen", &["--version"], path);
    let runner = quiet("wasm-bindgen-test-runner", &["--version"], path);
    if have.as_deref() == Some(want.as_str()) && runner.is_some() {
        say(&format!("{want}: present"));
        return Ok(());
    }
    say(&format!("installing wasm-bindgen-cli {WASM_BINDGEN} from crates.io (about 4 minutes on 2 cores)"));
    let version = format!("={WASM_BINDGEN}");
    let locked = run(Command::new("cargo")
        .args(["install", "--locked", "wasm-bindgen-cli", "--version", &version, "--force"])
        .env("PATH", path));
    if locked.is_err() {
        // Its lock file pins a crate version the registry no longer serves: fall back to a fresh resolve.
        say("the locked install failed; retrying without --locked");
        run(Command::new("cargo")
            .args(["install", "wasm-bindgen-cli", "--version", &version, "--force"])
            .env("PATH", path))
        .map_err(|e| Failure::new(format!("could not install wasm-bindgen-cli {WASM_BINDGEN}: {e}")))?;
    }
    Ok(())
}

fn trunk(path: &OsString) -> Result<(), Failure> {
    let want = format!("trunk {TRUNK}");
    if quiet("trunk", &["--version"], path).as_deref() == Some(want.as_str()) {
        say(&format!("{want}: present"));
        return Ok(());
    }
    say(&format!("installing trunk {TRUNK} from crates.io (about 6 minutes on 2 cores)"));
    run(Command::new("cargo")
        .args([
            "install",
            "--locked",
            "trunk",
            "--version",
            &format!("={TRUNK}"),
            "--no-default-features",
            "--features",
            "rustls",
            "--force",
        ])
        .env("PATH", path)
        .env("CARGO_PROFILE_RELEASE_LTO", "off")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "1")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "0"))
    .map_err(|e| Failure::new(format!("could not install trunk {TRUNK}: {e}")))
}

/// The root package.json's devDependencies, as (name, version) pairs.
fn dev_dependencies(root: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(root.join("package.json")).unwrap_or_default();
    let Some(start) = text.find("\"devDependencies\"") else { return Vec::new() };
    let body = text.get(start..).and_then(|t| t.split_once('{')).map(|(_, b)| b).unwrap_or_default();
    let body = body.split('}').next().unwrap_or_default();
    body.split(',')
        .filter_map(|entry| {
            let mut parts = entry.split(':').map(|p| p.trim().trim_matches('"').to_owned());
            Some((parts.next()?, parts.next()?)).filter(|(n, v)| !n.is_empty() && !v.is_empty())
        })
        .collect()
}

fn npm_tools(root: &Path, path: &OsString) -> Result<(), Failure> {
    let wanted = dev_dependencies(root);
    let missing: Vec<String> = wanted
        .iter()
        .filter(|(name, version)| {
            let manifest =
                std::fs::read_to_string(root.join("node_modules").join(name).join("package.json")).unwrap_or_default();
            !manifest.contains(&format!("\"version\": \"{version}\""))
        })
        .map(|(n, v)| format!("{n}@{v}"))
        .collect();
    let wasm_opt = quiet(&root.join("node_modules/.bin/wasm-opt").to_string_lossy(), &["--version"], path);
    if missing.is_empty() && wasm_opt.as_deref().is_some_and(|v| v.contains(WASM_OPT)) {
        say(&format!(
            "npm tools ({}): present",
            wanted.iter().map(|(n, v)| format!("{n}@{v}")).collect::<Vec<_>>().join(", ")
        ));
        return make_multitool_executable(root);
    }
    say(&format!(
        "installing the npm tools with npm ci (missing: {})",
        if missing.is_empty() { "wasm-opt".to_owned() } else { missing.join(", ") }
    ));
    run(Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
        .current_dir(root)
        .env("PATH", path)
        // playwright-core never downloads a browser; this says so to any of its install hooks.
        .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1"))
    .map_err(|e| Failure::new(format!("could not install the npm tools: {e}")))?;
    make_multitool_executable(root)
}

/// npm 11 holds back install scripts, among them the SARIF multitool's `chmod u+x`: do it here.
fn make_multitool_executable(root: &Path) -> Result<(), Failure> {
    use std::os::unix::fs::PermissionsExt;
    let multitool = root.join("node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool");
    if let Ok(meta) = std::fs::metadata(&multitool) {
        let mut perms = meta.permissions();
        if perms.mode() & 0o100 == 0 {
            perms.set_mode(perms.mode() | 0o755);
            std::fs::set_permissions(&multitool, perms)
                .map_err(|e| Failure::new(format!("cannot make {} executable: {e}", multitool.display())))?;
        }
    }
    Ok(())
}

/// Debian's chromium and chromium-driver (the browser tests), shellcheck (the CI recipes' and the GitHub
/// Action's shell steps) and, where no kubectl is installed, kubernetes-client (the live snapshot's test
/// runs the real kubectl), installed together when any is missing.
fn chromium(path: &OsString) -> Result<(PathBuf, PathBuf), Failure> {
    let chromium = PathBuf::from("/usr/bin/chromium");
    let driver = PathBuf::from("/usr/bin/chromedriver");
    let works = |p: &str| quiet(p, &["--version"], path).is_some();
    let kubectl = || quiet("kubectl", &["version", "--client"], path).is_some();
    let all = |c: &Path, d: &Path| {
        works(&c.to_string_lossy()) && works(&d.to_string_lossy()) && works("shellcheck") && kubectl()
    };
    if all(&chromium, &driver) {
        say("chromium, chromedriver, shellcheck and kubectl: present");
        return Ok((chromium, driver));
    }
    let root = quiet("id", &["-u"], path).as_deref() == Some("0");
    if !root {
        return Err(Failure::new(
            "Chromium, shellcheck or kubectl is missing and installing them needs root: run `apt-get install -y chromium chromium-driver shellcheck kubernetes-client` as root (or install kubectl your way), then this again",
        ));
    }
    say("installing Debian's chromium, chromium-driver, shellcheck and (where no kubectl is) kubernetes-client (about a minute)");
    let apt = |args: &[&str]| {
        run(Command::new("apt-get")
            .args(args)
            .env("PATH", path)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdin(std::process::Stdio::null()))
    };
    apt(&["update", "-q"]).map_err(|e| Failure::new(format!("apt-get update failed: {e}")))?;
    let mut packages = vec!["install", "-y", "-q", "chromium", "chromium-driver", "shellcheck"];
    if !kubectl() {
        packages.push("kubernetes-client");
    }
    apt(&packages).map_err(|e| Failure::new(format!("could not install chromium, shellcheck and kubectl: {e}")))?;
    if all(&chromium, &driver) {
        Ok((chromium, driver))
    } else {
        Err(Failure::new("chromium, shellcheck and kubectl were installed but one of them still fails to start"))
    }
}
