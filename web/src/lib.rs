//! The kube-preflight dashboard: a Yew app whose reading and checking run in a web worker. No request
//! leaves the page: files are read with the File API and checked in WebAssembly.
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing))]

#[cfg(target_arch = "wasm32")]
pub mod bridge;
#[cfg(target_arch = "wasm32")]
pub mod components;
pub mod demo;
pub mod engine;
pub mod markdown;
pub mod options;
pub mod progress;
pub mod protocol;
pub mod review;
pub mod state;
pub mod view;

#[cfg(test)]
mod contrast;
#[cfg(test)]
mod size_guard;
#[cfg(target_arch = "wasm32")]
pub mod worker;

#[cfg(target_arch = "wasm32")]
pub use components::app::App;

/// Mount the app on `<body>`.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    yew::Renderer::<App>::new().render();
}
