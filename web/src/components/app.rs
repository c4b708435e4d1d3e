//! The page: header with the reading's progress, inputs, options, the verdict, and tabs over the report.

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use super::checks::ChecksView;
use super::ctx::{download, mb, tabbed, use_replay_clock, value_of, Ctx};
use super::downtime::DowntimeView;
use super::export::{ExportView, PrintMeta};
use super::findings::FindingsView;
use super::inputs::{InputsBar, InputsView};
use super::options_form::OptionsForm;
use super::overview::Overview;
use super::plan::PlanView;
use super::rules::RulesView;
use super::verdict::Verdict;
use super::whatif::WhatIf;
use crate::bridge::Bridge;
use crate::options::Opts;
use crate::protocol::FromWorker;
use crate::state::{Action, State, Status, Tab, Theme};

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
    {
        // A report under the default distribution of inputs that look like another: switch to it, and say so
        // (a distribution the user chose is only offered, on the verdict card).
        let ctx = ctx.clone();
        let key = state.report.as_ref().map(|r| std::rc::Rc::as_ptr(r) as usize);
        use_effect_with(key, move |_| {
            let s = &ctx.state;
            let detected = s.report.as_ref().and_then(|r| r.inventory.detected_profile.clone());
            if let Some((d, p)) = detected.and_then(|d| d.profile.clone().map(|p| (d, p))) {
                if !d.matches && s.opts.profile.trim().is_empty() && !s.stale {
                    let first = d.first();
                    let p2 = p.clone();
                    ctx.edit_opts(move |o| o.profile = p2);
                    ctx.send(Action::Notice(Some(format!(
                        "Distribution set to {p}: these inputs look like it ({first}). Choose another under Distribution."
                    ))));
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
        (None, _) if matches!(state.status, Status::Failed(_)) => {
            html! { <p class="empty" id="no-report">{ "No report: what is set could not be checked (see above)." }</p> }
        }
        (None, _) if !state.busy() => {
            html! { <p class="empty" id="no-report">{ "Nothing read yet: pick files, paste, or open the demo." }</p> }
        }
        (None, _) => html! { <p class="empty">{ "Reading the inputs…" }</p> },
        (Some(_), Tab::Overview) => html! { <Overview /> },
        (Some(_), Tab::Findings) => html! { <FindingsView /> },
        (Some(_), Tab::Checks) => html! { <ChecksView /> },
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
                if let Some(n) = state.notice.clone() {
                    <div class="notice" id="notice" role="status">
                        <span>{ n }</span>
                        <button type="button" class="link" aria-label="Dismiss" onclick={
                            let ctx = ctx.clone();
                            Callback::from(move |_| ctx.send(Action::Notice(None)))
                        }>{ "Dismiss" }</button>
                    </div>
                }
                if state.report.is_some() { <Verdict /> }
                <PrintMeta />
                { tabbed(&ctx, &Tab::ALL, body) }
            </main>
        </ContextProvider<Ctx>>
    }
}
