//! The dashboard's entry point (built by trunk from `index.html`).

fn main() {
    kube_preflight_web::start();
}
