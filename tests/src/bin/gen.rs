//! `cargo xtask gen`: a realistic snapshot of any size, deterministic from a seed (see `gen.rs`).
//!
//! `gen [--nodes N] [--pods N] [--seed N] [--format json|yaml] [--out FILE]`

use std::io::Write;

use kube_preflight_tests::gen::{write, Shape};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut shape = Shape { nodes: 200, pods: 20_000, seed: 1 };
    let (mut format, mut out) = ("json".to_owned(), None::<String>);
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        let number = || value.parse::<u64>().unwrap_or_else(|_| usage(&format!("{} needs a number", args[i])));
        match args[i].as_str() {
            "--nodes" => shape.nodes = usize::try_from(number()).unwrap_or(usize::MAX),
            "--pods" => shape.pods = usize::try_from(number()).unwrap_or(usize::MAX),
            "--seed" => shape.seed = number(),
            "--format" if value == "json" || value == "yaml" => format = value.clone(),
            "--out" => out = Some(value.clone()),
            other => usage(&format!("unknown argument {other}")),
        }
        i += 2;
    }
    // Item by item: a snapshot of any size is written without holding it.
    let yaml = format == "yaml";
    let written = match out {
        Some(path) => std::fs::File::create(&path)
            .map(std::io::BufWriter::new)
            .and_then(|mut w| write(shape, yaml, &mut w).and_then(|()| w.flush()))
            .map_err(|e| format!("{path}: {e}")),
        None => {
            let mut w = std::io::BufWriter::new(std::io::stdout().lock());
            write(shape, yaml, &mut w).and_then(|()| w.flush()).map_err(|e| e.to_string())
        }
    };
    if let Err(e) = written {
        usage(&e);
    }
}

fn usage(why: &str) -> ! {
    eprintln!("gen: {why}\nusage: gen [--nodes N] [--pods N] [--seed N] [--format json|yaml] [--out FILE]");
    std::process::exit(2)
}
