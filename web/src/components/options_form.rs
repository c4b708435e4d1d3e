//! Options: the target, the current version, the distribution, the budgets, the drain and the plan's times.
//! Every change is checked again at once by the worker, and kept in the URL.

use kube_preflight::Profile;
use yew::prelude::*;

use super::ctx::{use_ctx, value_of, Ctx};
use crate::options::{timing_label, Drain, Opts, SinceReport};

fn field(
    ctx: &Ctx,
    id: &'static str,
    label: &'static str,
    value: &str,
    placeholder: &'static str,
    set: fn(&mut Opts, String),
) -> Html {
    let ctx = ctx.clone();
    let commit = Callback::from(move |v: String| ctx.edit_opts(|o| set(o, v)));
    html! {
        <label class="field">{ label }
            <OptField id={Some(id)} value={value.to_owned()} placeholder={placeholder.to_owned()} size="9" {commit} />
        </label>
    }
}

#[derive(Properties, PartialEq)]
struct OptFieldProps {
    #[prop_or_default]
    id: Option<&'static str>,
    /// The option's value in the state.
    value: String,
    placeholder: String,
    size: &'static str,
    #[prop_or_default]
    timing: Option<String>,
    /// Hears the value when it is committed (the `change` event).
    commit: Callback<String>,
}

/// An option's text field. What is being typed is kept as a draft until it is committed, so that a render in
/// between (the reading's progress, every few milliseconds during a load) does not put the state's value back
/// under the user's fingers: yew sets a field's value on every render where it differs from the page's. The
/// draft gives way when the state's value changes (a load, Cancel, a link, What-if's "Use these options").
#[component]
fn OptField(p: &OptFieldProps) -> Html {
    let draft = use_state(|| None::<String>);
    {
        let draft = draft.clone();
        use_effect_with(p.value.clone(), move |_| {
            if draft.is_some() {
                draft.set(None);
            }
        });
    }
    let oninput = {
        let draft = draft.clone();
        Callback::from(move |e: InputEvent| draft.set(Some(value_of(&e))))
    };
    let onchange = {
        let commit = p.commit.clone();
        Callback::from(move |e: Event| commit.emit(value_of(&e)))
    };
    let value = (*draft).clone().unwrap_or_else(|| p.value.clone());
    let inputmode = p.timing.as_ref().map(|_| "numeric");
    html! {
        <input id={p.id} type="text" {inputmode} data-timing={p.timing.clone()} {value} placeholder={p.placeholder.clone()} {oninput} {onchange} size={p.size} />
    }
}

#[component]
pub fn OptionsForm() -> Html {
    let ctx = use_ctx();
    let o = ctx.state.opts.clone();
    let on_profile = ctx.on_opt::<Event>(|o, v| o.profile = v);
    let on_drain = ctx.on_opt::<Event>(|o, v| o.drain = Drain::parse(&v));
    let on_force = ctx.on_opt::<Event>(|o, v| o.drain_force = Drain::parse(&v));
    let on_emptydir = ctx.on_opt::<Event>(|o, v| o.drain_delete_local_data = Drain::parse(&v));
    // What the distribution's default is, as the report states it (`plan.drain`).
    let assumed = ctx.state.report.as_ref().and_then(|r| r.plan.drain.clone());
    let flag_default = |on: Option<bool>| match on {
        Some(true) => "default (on)",
        Some(false) => "default (off)",
        None => "default",
    };
    let force_default = flag_default(assumed.as_ref().map(|d| d.force));
    let emptydir_default = flag_default(assumed.as_ref().map(|d| d.delete_empty_dir_data));
    let timings = ctx.state.report.as_ref().map(|r| r.plan.timings.clone()).unwrap_or_default();
    let timing_row = |(name, default): (&String, &u64)| {
        let ctx = ctx.clone();
        let key = name.clone();
        let value = o.timings.get(name).cloned().unwrap_or_default();
        let commit = Callback::from(move |v: String| {
            ctx.edit_opts(|o| {
                if v.trim().is_empty() {
                    o.timings.remove(&key);
                } else {
                    o.timings.insert(key.clone(), v);
                }
            });
        });
        html! {
            <label class="field timing" title={name.clone()}>{ timing_label(name) }
                <OptField timing={Some(name.clone())} {value} placeholder={default.to_string()} size="6" {commit} />
            </label>
        }
    };
    // The earlier report is read here (it is options, not an input: never listed nor checked as one).
    let on_since = {
        let ctx = ctx.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else { return };
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            let ctx = ctx.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let name = file.name();
                let text = wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|t| t.as_string());
                let json: std::rc::Rc<str> = text.unwrap_or_default().into();
                ctx.edit_opts(|o| o.since = Some(SinceReport { name, json }));
            });
        })
    };
    let clear_since = ctx.on_opt::<MouseEvent>(|o, _| o.since = None);
    let profile = if o.profile.is_empty() { "kubeadm".to_owned() } else { o.profile.clone() };
    html! {
        <form class="options" aria-label="Options" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            { field(&ctx, "to", "Target", &o.to, "next minor", |o, v| o.to = v) }
            { field(&ctx, "from", "Current", &o.from, "from cluster", |o, v| o.from = v) }
            <label class="field">{ "Distribution" }
                <select id="profile" onchange={on_profile}>
                    { for Profile::ALL.iter().map(|p| html! { <option value={p.name()} selected={p.name() == profile}>{ p.name() }</option> }) }
                    // A distribution this tool does not know (from a link's `profile=`) is shown as it was
                    // given, beside the error that refuses it, never as another one.
                    if Profile::parse(&profile).is_none() {
                        <option value={profile.clone()} selected=true disabled=true>{ format!("{profile} (unknown)") }</option>
                    }
                </select>
            </label>
            { field(&ctx, "max-unavailable-worker", "maxUnavailable workers", &o.max_unavailable_worker, "default", |o, v| o.max_unavailable_worker = v) }
            { field(&ctx, "max-unavailable-cp", "maxUnavailable control plane", &o.max_unavailable_control_plane, "default", |o, v| o.max_unavailable_control_plane = v) }
            { field(&ctx, "max-surge", "maxSurge", &o.max_surge, "default", |o, v| o.max_surge = v) }
            <label class="field">{ "Drain" }
                <select id="drain" onchange={on_drain}>
                    { for [Drain::Default, Drain::On, Drain::Off].iter().map(|d| html! { <option value={d.name()} selected={*d == o.drain}>{ d.name() }</option> }) }
                </select>
            </label>
            <label class="field" title="drainForce: kubectl drain --force (pods with no controller are deleted, else they fail the drain)">{ "Drain --force" }
                <select id="drain-force" onchange={on_force}>
                    { for [Drain::Default, Drain::On, Drain::Off].iter().map(|d| html! { <option value={d.name()} selected={*d == o.drain_force}>{ if *d == Drain::Default { force_default } else { d.name() } }</option> }) }
                </select>
            </label>
            <label class="field" title="drainDeleteLocalData: kubectl drain --delete-emptydir-data (emptyDir data is deleted, else the pod fails the drain)">{ "Drain --delete-emptydir-data" }
                <select id="drain-delete-local-data" onchange={on_emptydir}>
                    { for [Drain::Default, Drain::On, Drain::Off].iter().map(|d| html! { <option value={d.name()} selected={*d == o.drain_delete_local_data}>{ if *d == Drain::Default { emptydir_default } else { d.name() } }</option> }) }
                </select>
            </label>
            <label class="field" title="Families of checks left out by choice (their ids in the report's coverage, separated by commas): listed as skipped, they do not make the run incomplete">{ "Skip families" }
                <OptField id={Some("skip")} value={o.skip.clone()} placeholder={"none".to_owned()} size="18" commit={{
                    let ctx = ctx.clone();
                    Callback::from(move |v: String| ctx.edit_opts(|o| o.skip = v))
                }} />
            </label>
            <label class="field" title="The --format json report taken before the upgrade started: a snapshot taken while it runs is checked against its plan (the Progress view, in Plan & replay)">{ "Compare with an earlier report" }
                <input id="since" type="file" accept=".json,application/json" onchange={on_since} />
            </label>
            if let Some(since) = &o.since {
                <span class="field" id="since-name">{ format!("since: {}", since.name) }
                    <button type="button" class="link" id="since-clear" onclick={clear_since}>{ "clear" }</button>
                </span>
            }
            if !timings.is_empty() {
                <details class="timings">
                    <summary>{ "Times of the plan, in seconds" }</summary>
                    <div class="timing-grid">{ for timings.iter().map(timing_row) }</div>
                </details>
            }
        </form>
    }
}
