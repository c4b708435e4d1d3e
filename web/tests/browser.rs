//! The dashboard mounted in headless Chromium (wasm-bindgen-test with run_in_browser).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(target_arch = "wasm32")]

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
async fn the_demo_report_renders() {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let handle = yew::Renderer::<App>::with_root(root.clone()).render();
    tick().await;
    let verdict = document.get_element_by_id("verdict").expect("a verdict");
    let text = verdict.text_content().unwrap_or_default();
    assert!(text == "READY" || text == "BLOCKED", "{text}");
    let path = document.get_element_by_id("summary").unwrap().text_content().unwrap_or_default();
    assert!(path.contains("1.27.6") && path.contains("1.29.2"), "{path}");

    // The Rules tab shows every rule's docs.
    let tab = root.query_selector("button[data-tab=rules]").unwrap().unwrap();
    tab.dyn_into::<web_sys::HtmlElement>().unwrap().click();
    tick().await;
    let rules = document.get_element_by_id("rules").expect("rules view");
    assert!(rules.text_content().unwrap_or_default().contains("version/minor-skip"));
    handle.destroy();
}
