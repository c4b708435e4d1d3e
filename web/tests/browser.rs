//! The dashboard in headless Chromium (wasm-bindgen-test with run_in_browser): the worker's engine on the
//! demo, and the page mounted (no worker script is served here: the page must still render its controls
//! and the rule docs, and say that it is reading).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(target_arch = "wasm32")]

use kube_preflight_web::demo::{demo_specs, DEMO_TARGET};
use kube_preflight_web::engine::{Engine, Held};
use kube_preflight_web::protocol::FromWorker;
use kube_preflight_web::view::ReportView;
use kube_preflight_web::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

async fn tick() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window().unwrap().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 50);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

#[wasm_bindgen_test]
fn the_engine_reads_and_checks_the_demo_in_the_browser() {
    let mut e = Engine::default();
    let mut progress = 0;
    let infos =
        e.load(1, &format!("{{\"to\":\"{DEMO_TARGET}\"}}"), demo_specs(), &mut Held, &mut |_| progress += 1).unwrap();
    assert!(progress >= 2);
    assert!(infos.iter().all(|i| i.objects > 0 && i.skipped.is_none()));
    let msgs = e.check(1, None).unwrap();
    let FromWorker::Report { report, .. } = &msgs[0] else { panic!("no report") };
    let r: ReportView = serde_json::from_str(report).unwrap();
    assert_eq!(r.summary.verdict, "blocked");
    assert_eq!(r.upgrade.path, ["1.28", "1.29.2"]);
    let (_, size, ks) = e.curve_plan().unwrap();
    assert_eq!(ks.len() as u32, size);
    assert!(e.curve_point(size).unwrap().total_seconds <= e.curve_point(1).unwrap().total_seconds);
}

#[wasm_bindgen_test]
async fn the_page_renders_its_controls_and_the_rule_docs_while_reading() {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let handle = yew::Renderer::<App>::with_root(root.clone()).render();
    tick().await;
    for id in ["files", "folder", "paste", "to", "profile", "max-unavailable-worker", "theme"] {
        assert!(document.get_element_by_id(id).is_some(), "{id}");
    }
    assert_eq!(
        document.get_element_by_id("to").unwrap().dyn_into::<web_sys::HtmlInputElement>().unwrap().value(),
        DEMO_TARGET
    );
    // Reading (or checking, depending on when the demo's load has been dispatched): no report yet.
    let text = root.text_content().unwrap_or_default();
    assert!(text.contains("Reading the inputs") && text.contains("Cancel"), "{text}");
    let tab = root.query_selector("button[data-tab=rules]").unwrap().unwrap();
    tab.dyn_into::<web_sys::HtmlElement>().unwrap().click();
    tick().await;
    let rules = document.get_element_by_id("rules").expect("rules view");
    assert!(rules.text_content().unwrap_or_default().contains("version/minor-skip"));
    // The tab is kept in the URL with the options.
    let search = web_sys::window().unwrap().location().search().unwrap();
    assert!(search.contains("tab=rules") && search.contains("to=1.29.2"), "{search}");
    handle.destroy();
}
