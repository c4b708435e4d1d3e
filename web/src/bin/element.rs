//! The `<kube-preflight-report>` element's WebAssembly (built by `cargo xtask npm` into the npm package's
//! `report/`): `mountReport(root, reportJson)` shows a report with the dashboard's views.

fn main() {}

#[cfg(target_arch = "wasm32")]
mod exports {
    use std::rc::Rc;

    use kube_preflight_web::components::element::{ElementProps, ReportElement};
    use kube_preflight_web::view::ReportView;
    use wasm_bindgen::prelude::*;

    /// A mounted report; `destroy()` takes it off the page.
    #[wasm_bindgen]
    pub struct ReportMount(yew::AppHandle<ReportElement>);

    #[wasm_bindgen]
    impl ReportMount {
        pub fn destroy(self) {
            self.0.destroy();
        }
    }

    /// Show `report_json` (a report as `check` returns it, as JSON) in `root`.
    #[wasm_bindgen(js_name = mountReport)]
    pub fn mount_report(root: web_sys::Element, report_json: &str) -> Result<ReportMount, JsValue> {
        let report: ReportView = serde_json::from_str(report_json)
            .map_err(|e| JsValue::from_str(&format!("kube-preflight-report: the report cannot be read: {e}")))?;
        let props = ElementProps { report: Rc::new(report), docs: Rc::new(kube_preflight_web::state::rule_docs()) };
        Ok(ReportMount(yew::Renderer::<ReportElement>::with_root_and_props(root, props).render()))
    }
}
