//! The dashboard's entry point (built by trunk from `index.html`).

fn main() {
    #[cfg(target_arch = "wasm32")]
    kube_preflight_web::start();
}
