//! The dashboard's web worker (built by trunk as `data-type="worker"`).

fn main() {
    #[cfg(target_arch = "wasm32")]
    kube_preflight_web::worker::start();
}
