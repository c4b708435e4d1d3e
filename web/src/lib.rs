//! The kube-preflight dashboard: a Yew app that runs the core in the page. No request leaves the page:
//! files are read with the File API and checked in WebAssembly.
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing))]

pub mod components;
pub mod demo;
pub mod markdown;
pub mod state;

pub use components::app::App;

/// Mount the app on `<body>`.
pub fn start() {
    yew::Renderer::<App>::new().render();
}
