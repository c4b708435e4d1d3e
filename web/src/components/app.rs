//! The page: header with the reading's progress, inputs, options, the verdict, and tabs over the report.

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use super::checks::ChecksView;
use super::ctx::{copy_text, download, mb, tabbed, use_replay_clock, value_of, Ctx};
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
use crate::view::fixed;
use wasm_bindgen::JsCast;

fn search() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

fn initial_state() -> State {
    let (opts, rest) = Opts::from_query(&search(), Opts::default());
    let get = |k: &str| rest.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str()).unwrap_or_default();
    let s = State::new(opts, Tab::Overview, Theme::parse(get("theme")));
    let s = yew::Reducible::reduce(std::rc::Rc::new(s), Action::view_of(&rest));
    std::rc::Rc::unwrap_or_clone(s)
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
    let root = use_node_ref();
    let ctx = Ctx { state: state.clone(), bridge: (*bridge).clone(), root: root.clone() };
    {
        let dispatcher = state.dispatcher();
        let bridge = (*bridge).clone();
        use_effect_with((), move |_| {
            bridge.keep_with(Callback::from(move |when| dispatcher.dispatch(Action::Kept(Some(when)))))
        });
    }
    {
        let ctx = ctx.clone();
        use_effect_with((), move |_| ctx.open_kept_or_demo());
    }
    // The tab last put in the URL (a tab reached by going back is not a new entry).
    let last_tab = use_mut_ref(|| state.tab);
    {
        // Keep the options and the view in the URL (never any cluster data): a new tab is a history entry,
        // the rest changes the current one.
        let last_tab = last_tab.clone();
        use_effect_with((state.url_query(), state.tab, state.theme), move |(q, tab, theme)| {
            if let Some(w) = web_sys::window() {
                if let Ok(h) = w.history() {
                    let url = format!("?{q}");
                    if *last_tab.borrow() != *tab {
                        *last_tab.borrow_mut() = *tab;
                        let _ = h.push_state_with_url(&JsValue::NULL, "", Some(&url));
                    } else {
                        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
                    }
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
            let detected = s.report.as_ref().and_then(|r| r.inventory.detected_profile.as_ref());
            let Some(d) = detected.filter(|d| !d.matches && s.opts.profile.trim().is_empty() && !s.stale) else {
                return;
            };
            let Some(p) = d.profile.clone() else { return };
            let said = format!(
                "Distribution set to {p}: these inputs look like it ({}). Choose another under Distribution.",
                d.first()
            );
            ctx.edit_opts(move |o| o.profile = p);
            ctx.send(Action::Notice(Some(said)));
        });
    }
    {
        // Back and forward: the view the URL names.
        let dispatcher = state.dispatcher();
        let last_tab = last_tab.clone();
        use_effect_with((), move |_| {
            let on_pop = Closure::<dyn Fn()>::new(move || {
                let (_, rest) = Opts::from_query(&search(), Opts::default());
                let view = Action::view_of(&rest);
                if let Action::View { tab, .. } = &view {
                    *last_tab.borrow_mut() = *tab;
                }
                dispatcher.dispatch(view);
            });
            let w = web_sys::window();
            if let Some(w) = &w {
                let _ = w.add_event_listener_with_callback("popstate", on_pop.as_ref().unchecked_ref());
            }
            move || {
                if let Some(w) = w {
                    let _ = w.remove_event_listener_with_callback("popstate", on_pop.as_ref().unchecked_ref());
                }
                drop(on_pop);
            }
        });
    }
    use_replay_clock(&state);
    let link_copied = use_state(|| None::<bool>);
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
                    <progress max="100" value={fixed(pct, 1)} aria-label="Bytes read"></progress>
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
            <main ref={root} data-worker-messages={state.from_worker.to_string()} class={classes!(state.busy().then_some("busy"))}>
                <header class="top">
                    <h1>{ "kube-preflight" }</h1>
                    <p class="tagline">{ "Upgrade preflight: findings, plan and expected downtime. Runs in your browser: nothing leaves this page." }</p>
                    <span class="share">
                        <button type="button" id="copy-link" onclick={
                            let link_copied = link_copied.clone();
                            Callback::from(move |_| {
                                let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
                                let link_copied = link_copied.clone();
                                copy_text(&href, Callback::from(move |ok: bool| link_copied.set(Some(ok))));
                            })
                        }>{ "Copy link" }</button>
                        <span id="link-copied" role="status">{ match *link_copied {
                            Some(true) => "Link copied: options and view only, never cluster data.",
                            Some(false) => "The browser refused the clipboard: copy the address bar.",
                            None => "",
                        } }</span>
                    </span>
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
