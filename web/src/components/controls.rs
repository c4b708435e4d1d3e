//! Inputs: the user's files (read locally with the File API), the target, the current version, the profile.

use js_sys::Promise;
use kube_preflight::Profile;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::state::{Action, LoadedFile, State};

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub state: UseReducerHandle<State>,
}

async fn read_all(files: Vec<web_sys::File>) -> Vec<LoadedFile> {
    let mut out = Vec::new();
    for f in files {
        let text: Promise = f.text();
        let content = JsFuture::from(text).await.ok().and_then(|v| v.as_string()).unwrap_or_default();
        out.push(LoadedFile { name: f.name(), content });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

#[component]
pub fn Controls(props: &ControlsProps) -> Html {
    let state = props.state.clone();
    let on_files = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Some(list) = input.files() else { return };
            let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
            if files.is_empty() {
                return;
            }
            let state = state.clone();
            spawn_local(async move {
                let loaded = read_all(files).await;
                state.dispatch(Action::SetFiles(loaded));
            });
        })
    };
    let on_to = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            state.dispatch(Action::SetTo(input.value()));
        })
    };
    let on_from = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            state.dispatch(Action::SetFrom(input.value()));
        })
    };
    let on_profile = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let Some(select) = e.target().and_then(|t| t.dyn_into::<HtmlSelectElement>().ok()) else {
                return;
            };
            if let Some(p) = Profile::parse(&select.value()) {
                state.dispatch(Action::SetProfile(p));
            }
        })
    };
    let on_demo = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::LoadDemo))
    };
    let names: Vec<String> = state.files.iter().map(|f| f.name.clone()).collect();
    html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <label>{"Cluster snapshot and manifests "}
                <input id="files" type="file" multiple=true accept=".yaml,.yml,.json" onchange={on_files} />
            </label>
            <label>{"Target version "}
                <input id="to" type="text" value={state.to.clone()} onchange={on_to} placeholder="1.29.2" size="10" />
            </label>
            <label>{"Current version "}
                <input id="from" type="text" value={state.from.clone()} onchange={on_from} placeholder="from the snapshot" size="14" />
            </label>
            <label>{"Distribution "}
                <select id="profile" onchange={on_profile}>
                    { for Profile::ALL.iter().map(|p| html! {
                        <option value={p.name()} selected={*p == state.profile}>{p.name()}</option>
                    }) }
                </select>
            </label>
            <button type="button" onclick={on_demo} disabled={state.using_demo}>{"Load the demo cluster"}</button>
            <p class="files" id="loaded">
                { if state.using_demo { "Demo cluster: ".to_owned() } else { "Your files: ".to_owned() } }
                { names.join(", ") }
            </p>
        </form>
    }
}
