//! Inputs: files picked or dropped, a whole folder (where the browser allows), pasted text, or the demo;
//! and the list of what each turned out to be.

use wasm_bindgen::JsValue;
use web_sys::{File, FileList, HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::app::{mb, use_ctx, Ctx};
use crate::protocol::{InputSpec, Source};
use crate::state::InputRow;

const NOT_READ: &str = "not .yaml, .yml or .json: not read";

fn readable(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.ends_with(".yaml") || n.ends_with(".yml") || n.ends_with(".json")
}

/// Read picked or dropped files; from a folder, files of other kinds are listed and passed over.
fn load_files(ctx: &Ctx, list: Option<FileList>, folder: bool) {
    let Some(list) = list else { return };
    let mut files: Vec<(String, File)> = (0..list.length())
        .filter_map(|i| list.get(i))
        .map(|f| {
            let rel =
                js_sys::Reflect::get(&f, &JsValue::from_str("webkitRelativePath")).ok().and_then(|v| v.as_string());
            (rel.filter(|r| !r.is_empty()).unwrap_or_else(|| f.name()), f)
        })
        .collect();
    if files.is_empty() {
        return;
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let mut rows = Vec::new();
    let mut specs = Vec::new();
    let mut kept = Vec::new();
    for (name, f) in files {
        let passed_over = (folder && !readable(&name)).then(|| NOT_READ.to_owned());
        let source = if passed_over.is_some() {
            Source::Text { text: String::new() }
        } else {
            kept.push(f.clone());
            Source::File { index: kept.len() - 1 }
        };
        rows.push(InputRow { name: name.clone(), size: f.size() as u64, info: None });
        specs.push(InputSpec { name, source, passed_over });
    }
    ctx.load(rows, specs, kept, false);
}

#[component]
pub fn InputsBar() -> Html {
    let ctx = use_ctx();
    let pasting = use_state(|| false);
    let dragging = use_state(|| false);
    let on_files = {
        let ctx = ctx.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            load_files(&ctx, input.files(), false);
            input.set_value("");
        })
    };
    let on_folder = {
        let ctx = ctx.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            load_files(&ctx, input.files(), true);
            input.set_value("");
        })
    };
    let on_drop = {
        let (ctx, dragging) = (ctx.clone(), dragging.clone());
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            load_files(&ctx, e.data_transfer().and_then(|d| d.files()), false);
        })
    };
    let on_over = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(true);
        })
    };
    let on_leave = {
        let dragging = dragging.clone();
        Callback::from(move |_: DragEvent| dragging.set(false))
    };
    let on_paste = {
        let ctx = ctx.clone();
        let pasting = pasting.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let Some(area) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id("paste-text"))
                .map(wasm_bindgen::JsCast::unchecked_into::<HtmlTextAreaElement>)
            else {
                return;
            };
            let text = area.value();
            if text.trim().is_empty() {
                return;
            }
            let name = "pasted.yaml".to_owned();
            let rows = vec![InputRow { name: name.clone(), size: text.len() as u64, info: None }];
            let specs = vec![InputSpec { name, source: Source::Text { text }, passed_over: None }];
            ctx.load(rows, specs, Vec::new(), false);
            pasting.set(false);
        })
    };
    let toggle_paste = {
        let pasting = pasting.clone();
        Callback::from(move |_| pasting.set(!*pasting))
    };
    let on_demo = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.load_demo())
    };
    let s = &ctx.state;
    let objects: u64 = s.inputs.iter().filter_map(|r| r.info.as_ref()).map(|i| i.objects).sum();
    let left_out = s.inputs.iter().filter(|r| r.info.as_ref().is_some_and(|i| i.skipped.is_some())).count();
    html! {
        <div class={classes!("inputs-bar", (*dragging).then_some("dragging"))} ondrop={on_drop} ondragover={on_over} ondragleave={on_leave} id="dropzone">
            <span class="drop-hint">{ "Drop files here, or " }</span>
            <label class="button">{ "Pick files" }
                <input id="files" class="visually-hidden" type="file" multiple=true accept=".yaml,.yml,.json" onchange={on_files} />
            </label>
            <label class="button">{ "Pick a folder" }
                <input id="folder" class="visually-hidden" type="file" multiple=true webkitdirectory=true onchange={on_folder} />
            </label>
            <button type="button" id="paste" aria-expanded={pasting.to_string()} onclick={toggle_paste}>{ "Paste" }</button>
            <button type="button" id="demo" onclick={on_demo} disabled={s.using_demo}>{ "Demo cluster" }</button>
            <span class="loaded" id="loaded">
                { if s.using_demo { "Demo cluster: " } else { "Your inputs: " } }
                { format!("{} input(s), {} object(s)", s.inputs.len(), objects) }
                if left_out > 0 { <strong class="left-out">{ format!(", {left_out} left out (see Inputs)") }</strong> }
            </span>
            if *pasting {
                <form class="paste" onsubmit={on_paste}>
                    <label for="paste-text">{ "Paste the output of kubectl get … -o yaml or -o json" }</label>
                    <textarea id="paste-text" rows="6" />
                    <button type="submit" id="paste-check">{ "Check the pasted text" }</button>
                </form>
            }
        </div>
    }
}

#[component]
pub fn InputsView() -> Html {
    let ctx = use_ctx();
    let s = &ctx.state;
    let row = |r: &InputRow| {
        let (objects, why) = match &r.info {
            Some(i) => (i.objects.to_string(), i.skipped.clone()),
            None => ("…".to_owned(), None),
        };
        html! {
            <tr class={classes!(why.is_some().then_some("left-out"))} data-input={r.name.clone()}>
                <td><code>{ r.name.clone() }</code></td>
                <td class="num">{ mb(r.size) }{ " MB" }</td>
                <td class="num">{ objects }</td>
                <td>{ match why { Some(w) => html! { <span class="skip-reason">{ "Left out: " }{ w }</span> }, None => html! { "read" } } }</td>
            </tr>
        }
    };
    html! {
        <div id="inputs">
            <table class="inputs">
                <caption>{ "Each input, its objects, and anything left out and why" }</caption>
                <thead><tr><th>{ "Input" }</th><th>{ "Size" }</th><th>{ "Objects" }</th><th>{ "Status" }</th></tr></thead>
                <tbody>{ for s.inputs.iter().map(row) }</tbody>
            </table>
            if let Some(r) = &s.report {
                <h3>{ "Objects by kind" }</h3>
                <table class="kinds">
                    <thead><tr><th>{ "Kind" }</th><th>{ "Objects" }</th></tr></thead>
                    <tbody>{ for r.inventory.by_kind.iter().map(|(k, n)| html! { <tr><td>{ k.clone() }</td><td class="num">{ *n }</td></tr> }) }</tbody>
                </table>
            }
        </div>
    }
}
