//! The page: header with the reading's progress, inputs, options, the verdict, and tabs over the report.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::File;
use yew::prelude::*;

use super::downtime::DowntimeView;
use super::export::ExportView;
use super::findings::FindingsView;
use super::inputs::{InputsBar, InputsView};
use super::options_form::OptionsForm;
use super::overview::Overview;
use super::plan::PlanView;
use super::rules::RulesView;
use super::verdict::Verdict;
use super::whatif::WhatIf;
use crate::bridge::Bridge;
use crate::demo::demo_specs;
use crate::options::Opts;
use crate::protocol::{FromWorker, InputSpec};
use crate::state::{demo_rows, Action, InputRow, State, Status, Tab, Theme};
use crate::view::Filter;

/// What every component gets: the state and the worker.
#[derive(Clone, PartialEq)]
pub struct Ctx {
    pub state: UseReducerHandle<State>,
    pub bridge: Bridge,
}

impl Ctx {
    pub fn send(&self, a: Action) {
        self.state.dispatch(a);
    }

    /// Change the options: the worker checks what it read again.
    pub fn set_opts(&self, o: Opts) {
        if self.state.report.is_none() && matches!(self.state.status, Status::Failed(_)) {
            // Nothing was read under the refused options: read the inputs again under these.
            self.bridge.reload(o.to_json());
        } else {
            self.bridge.options(o.to_json());
        }
        self.state.dispatch(Action::SetOpts(o));
    }

    /// Read new inputs (replacing the last ones).
    pub fn load(&self, rows: Vec<InputRow>, specs: Vec<InputSpec>, files: Vec<File>, demo: bool) {
        self.bridge.load(self.state.opts.to_json(), specs, files);
        self.state.dispatch(Action::SetInputs { rows, demo });
    }

    /// Change the options in place.
    pub fn edit_opts(&self, edit: impl FnOnce(&mut Opts)) {
        let mut o = self.state.opts.clone();
        edit(&mut o);
        self.set_opts(o);
    }

    /// The change handler of an options control: its value goes where `set` puts it, and is checked.
    pub fn on_opt<E: AsRef<Event> + 'static>(&self, set: fn(&mut Opts, String)) -> Callback<E> {
        let ctx = self.clone();
        Callback::from(move |e: E| ctx.edit_opts(|o| set(o, value_of(e.as_ref()))))
    }

    /// The change handler of a findings filter control.
    pub fn on_filter<E: AsRef<Event> + 'static>(&self, set: fn(&mut Filter, String)) -> Callback<E> {
        let ctx = self.clone();
        Callback::from(move |e: E| {
            let mut f = ctx.state.filter.clone();
            set(&mut f, value_of(e.as_ref()));
            ctx.send(Action::Filter(f));
        })
    }

    pub fn load_demo(&self) {
        self.load(demo_rows(), demo_specs(), Vec::new(), true);
    }

    pub fn cancel(&self) {
        self.bridge.cancel(self.state.opts.to_json());
        self.state.dispatch(Action::Cancelled);
    }
}

/// The value of the control an event came from (an input or a select).
pub fn value_of(e: &Event) -> String {
    e.target()
        .and_then(|t| js_sys::Reflect::get(&t, &JsValue::from_str("value")).ok())
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// Save an export with the browser's download (a `blob:` URL: nothing leaves the page).
fn download(file_name: &str, mime: &str, text: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let bag = web_sys::BlobPropertyBag::new();
    bag.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &bag) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Ok(a) = doc.create_element("a").map(JsCast::unchecked_into::<web_sys::HtmlAnchorElement>) {
        a.set_href(&url);
        a.set_download(file_name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

fn initial_state() -> State {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let (opts, rest) = Opts::from_query(&search, Opts::default());
    let get = |k: &str| rest.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str()).unwrap_or_default();
    State::new(opts, Tab::parse(get("tab")).unwrap_or(Tab::Overview), Theme::parse(get("theme")))
}

#[component]
pub fn App() -> Html {
    let state = use_reducer(initial_state);
    let bridge = {
        let dispatcher = state.dispatcher();
        use_memo((), move |_| {
            Bridge::new(Callback::from(move |m: FromWorker| {
                if let FromWorker::Export { file_name, mime, text, .. } = &m {
                    download(file_name, mime, text);
                }
                dispatcher.dispatch(Action::Worker(m));
            }))
        })
    };
    let ctx = Ctx { state: state.clone(), bridge: (*bridge).clone() };
    {
        let ctx = ctx.clone();
        use_effect_with((), move |_| ctx.load_demo());
    }
    {
        // Keep the options, the tab and the theme in the URL (never any cluster data).
        let key = (state.opts.clone(), state.tab, state.theme);
        use_effect_with(key, |(opts, tab, theme)| {
            let mut extra = vec![("tab", tab.id())];
            if *theme != Theme::Auto {
                extra.push(("theme", theme.name()));
            }
            let q = opts.to_query(&extra);
            if let Some(w) = web_sys::window() {
                if let Ok(h) = w.history() {
                    let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&format!("?{q}")));
                }
                if let Some(root) = w.document().and_then(|d| d.document_element()) {
                    let _ = root.set_attribute("data-theme", theme.name());
                }
            }
        });
    }
    use_replay_clock(&state);
    let on_theme = {
        let ctx = ctx.clone();
        Callback::from(move |e: Event| ctx.send(Action::Theme(Theme::parse(&value_of(&e)))))
    };
    let progress = match &state.status {
        Status::Reading { bytes, total, objects, file } => {
            let pct = if *total > 0 { (*bytes as f64 / *total as f64 * 100.0).min(100.0) } else { 0.0 };
            let on_cancel = {
                let ctx = ctx.clone();
                Callback::from(move |_| ctx.cancel())
            };
            html! {
                <div class="progress" id="progress" role="status">
                    <progress max="100" value={format!("{pct:.1}")} aria-label="Bytes read"></progress>
                    <span>{ format!("Reading {file}: {} of {} MB, {objects} objects", mb(*bytes), mb(*total)) }</span>
                    <button type="button" id="cancel" onclick={on_cancel}>{ "Cancel" }</button>
                </div>
            }
        }
        Status::Checking => {
            let on_cancel = {
                let ctx = ctx.clone();
                Callback::from(move |_| ctx.cancel())
            };
            html! { <div class="progress" id="progress" role="status"><span class="spinner" aria-hidden="true"></span><span>{ "Checking…" }</span>
            <button type="button" id="cancel" onclick={on_cancel}>{ "Cancel" }</button></div> }
        }
        Status::Failed(m) => {
            html! { <div class="error" role="alert" id="error"><strong>{ "Cannot check: " }</strong><code>{ m.clone() }</code></div> }
        }
        Status::Idle => html! {},
    };
    let body = match (&state.report, state.tab) {
        (_, Tab::Rules) => html! { <RulesView /> },
        (_, Tab::Inputs) => html! { <InputsView /> },
        (None, _) => html! { <p class="empty">{ "Reading the inputs…" }</p> },
        (Some(_), Tab::Overview) => html! { <Overview /> },
        (Some(_), Tab::Findings) => html! { <FindingsView /> },
        (Some(_), Tab::Plan) => html! { <PlanView /> },
        (Some(_), Tab::Downtime) => html! { <DowntimeView /> },
        (Some(_), Tab::WhatIf) => html! { <WhatIf /> },
        (Some(_), Tab::Export) => html! { <ExportView /> },
    };
    html! {
        <ContextProvider<Ctx> context={ctx.clone()}>
            <main data-worker-messages={state.from_worker.to_string()} class={classes!(state.busy().then_some("busy"))}>
                <header class="top">
                    <h1>{ "kube-preflight" }</h1>
                    <p class="tagline">{ "Upgrade preflight: findings, plan and expected downtime. Runs in your browser: nothing leaves this page." }</p>
                    <label class="theme">{ "Theme " }
                        <select id="theme" onchange={on_theme}>
                            { for [Theme::Auto, Theme::Light, Theme::Dark].iter().map(|t| html! {
                                <option value={t.name()} selected={*t == state.theme}>{ t.name() }</option>
                            }) }
                        </select>
                    </label>
                </header>
                <section class="setup" aria-label="Inputs and options">
                    <InputsBar />
                    <OptionsForm />
                </section>
                { progress }
                if state.report.is_some() { <Verdict /> }
                { tabbed(&ctx, &Tab::ALL, body) }
            </main>
        </ContextProvider<Ctx>>
    }
}

/// The tabs over `tabs` (buttons, reached by Tab and pressed by Enter) and the panel showing `body`, the current one's.
pub fn tabbed(ctx: &Ctx, tabs: &[Tab], body: Html) -> Html {
    let current = ctx.state.tab;
    let tab_button = |tab: Tab| {
        let ctx = ctx.clone();
        let active = current == tab;
        let onclick = Callback::from(move |_| ctx.send(Action::Tab(tab)));
        html! {
            <button role="tab" id={format!("tab-{}", tab.id())} aria-selected={active.to_string()} aria-controls="panel"
                class={classes!("tab", active.then_some("active"))} {onclick} data-tab={tab.id()}>{ tab.label() }</button>
        }
    };
    html! {
        <>
            <nav class="tabs" role="tablist" aria-label="Views">{ for tabs.iter().copied().map(tab_button) }</nav>
            <section class="body" id="panel" role="tabpanel" aria-labelledby={format!("tab-{}", current.id())}>{ body }</section>
        </>
    }
}

/// The replay's clock: a tick every 120 ms while the replay plays.
#[hook]
pub fn use_replay_clock(state: &UseReducerHandle<State>) {
    let dispatcher = state.dispatcher();
    use_effect_with(state.playing, move |playing| {
        let mut handle = None;
        let tick = Closure::<dyn Fn()>::new(move || dispatcher.dispatch(Action::Tick));
        if *playing {
            handle = web_sys::window().and_then(|w| {
                w.set_interval_with_callback_and_timeout_and_arguments_0(tick.as_ref().unchecked_ref(), 120).ok()
            });
        }
        move || {
            if let (Some(h), Some(w)) = (handle, web_sys::window()) {
                w.clear_interval_with_handle(h);
            }
            drop(tick);
        }
    });
}

pub fn mb(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / 1_000_000.0)
}

/// The context, from any component under [`App`].
#[hook]
pub fn use_ctx() -> Ctx {
    use_context::<Ctx>().unwrap_or_else(|| unreachable_ctx())
}

fn unreachable_ctx() -> ! {
    // Every component is mounted under App's (or ReportElement's) ContextProvider.
    wasm_bindgen::throw_str("kube-preflight: component mounted outside App")
}
