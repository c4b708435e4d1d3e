//! The built-in demo cluster: a snapshot and manifests of our own making (see `tests/fixtures/demo/`).

use kube_preflight::Input;

use crate::protocol::{InputSpec, Source};

pub const DEMO_TARGET: &str = "1.29.2";

/// The demo's inputs: name and text.
pub const DEMO_FILES: [(&str, &str); 2] = [
    ("demo/cluster.yaml", include_str!("../../tests/fixtures/demo/cluster.yaml")),
    ("demo/manifests.yaml", include_str!("../../tests/fixtures/demo/manifests.yaml")),
];

/// The text of the demo's input of that name.
pub fn demo_text(name: &str) -> Option<&'static str> {
    DEMO_FILES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The demo as the worker is asked to read it.
pub fn demo_specs() -> Vec<InputSpec> {
    DEMO_FILES
        .iter()
        .map(|(n, _)| InputSpec { name: (*n).to_owned(), source: Source::Demo, passed_over: None })
        .collect()
}

/// The demo as `check()` reads it (what the tests compare the worker's answers with).
pub fn demo_inputs() -> Vec<Input> {
    DEMO_FILES.iter().map(|(n, t)| Input::new(*n, *t)).collect()
}
