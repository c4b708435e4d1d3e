//! What-if: change a budget or the distribution and see the plan and downtime they would give at once,
//! beside the report's own (the worker checks the same inputs under them: the real options, the URL and
//! the report stay as they are until "Use these options"), and the curve of total upgrade time against
//! total workload downtime for each concurrency of the largest pool; the tried plan has a replay of its own
//! (its own slider: the real replay keeps its time).

use kube_preflight::units::duration;
use kube_preflight::Profile;
use yew::prelude::*;

use super::ctx::use_ctx;
use super::downtime::DowntimeChart;
use super::plan::{Gantt, Replay};
use crate::options::Opts;
use crate::view::{fixed, num, pareto, Headline, ReportView};

/// The options the what-if tries, and the report they give (drawn beside the real one).
#[derive(Clone, PartialEq)]
struct Trying {
    opts: Opts,
}

#[component]
pub fn WhatIf() -> Html {
    let ctx = use_ctx();
    let trying = use_state(|| None::<Trying>);
    // A new report (other inputs, or options used): the what-if starts again from its options.
    {
        let trying = trying.clone();
        let key = ctx.state.report.as_ref().map(|r| std::rc::Rc::as_ptr(r) as usize);
        use_effect_with(key, move |_| trying.set(None));
    }
    let Some(r) = ctx.state.report.clone() else { return html! {} };
    // The what-if's options: the real ones until a control here changes them.
    let o = trying.as_ref().map_or_else(|| ctx.state.opts.clone(), |t| t.opts.clone());
    let curve = ctx.state.curve.clone();
    let size = curve.as_ref().map_or(1, |c| c.size);
    // The report the what-if's options gave (the worker's comparison), once it is there.
    let other: Option<std::rc::Rc<ReportView>> = match (trying.as_ref(), ctx.state.comparison.as_deref()) {
        (Some(_), Some(Ok(c))) if !c.other_report.is_empty() => {
            serde_json::from_str::<ReportView>(&c.other_report).ok().map(std::rc::Rc::new)
        }
        _ => None,
    };
    let shown = other.clone().unwrap_or_else(|| r.clone());
    // Unset, the budget is the distribution's default (RKE's 10%, ...) as the plan resolved it.
    let resolved = shown
        .plan
        .phases
        .iter()
        .filter(|p| p.name == "workers")
        .max_by_key(|p| p.nodes.len())
        .map_or(1, |p| p.concurrency);
    let set: Option<u32> = o.max_unavailable_worker.trim().parse().ok();
    let current = set.unwrap_or(resolved);
    // Try options: the worker checks the inputs under them, beside the report (a target the page chose is
    // kept the same on both sides).
    let try_opts = {
        let ctx = ctx.clone();
        let trying = trying.clone();
        let to = r.upgrade.to.clone();
        Callback::from(move |o: Opts| {
            let mut asked = o.clone();
            if asked.to.trim().is_empty() {
                asked.to = to.clone();
            }
            ctx.bridge.compare(asked.to_json());
            trying.set(Some(Trying { opts: o }));
        })
    };
    let edit = |set: fn(&mut Opts, String)| {
        let try_opts = try_opts.clone();
        let o = o.clone();
        move |v: String| {
            let mut o = o.clone();
            set(&mut o, v);
            try_opts.emit(o);
        }
    };
    let on_budget = {
        let f = edit(|o, v| o.max_unavailable_worker = v);
        Callback::from(move |e: InputEvent| f(super::ctx::value_of(&e)))
    };
    let on_profile = {
        let f = edit(|o, v| o.profile = v);
        Callback::from(move |e: Event| f(super::ctx::value_of(&e)))
    };
    let pick = |k: u32| {
        let f = edit(|o, v| o.max_unavailable_worker = v);
        Callback::from(move |_: MouseEvent| f(k.to_string()))
    };
    let pick_key = |k: u32| {
        let f = edit(|o, v| o.max_unavailable_worker = v);
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" || e.key() == " " {
                e.prevent_default();
                f(k.to_string());
            }
        })
    };
    let differs = trying.as_ref().is_some_and(|t| t.opts != ctx.state.opts);
    let apply = {
        let ctx = ctx.clone();
        let trying = trying.clone();
        Callback::from(move |_| {
            if let Some(t) = trying.as_ref() {
                ctx.set_opts(t.opts.clone());
            }
            trying.set(None);
        })
    };
    let reset = {
        let trying = trying.clone();
        Callback::from(move |_| trying.set(None))
    };
    let chart = curve.as_ref().filter(|c| !c.points.is_empty()).map(|c| {
        let (w, h, l, b) = (720.0, 300.0, 70.0, 40.0);
        let max_t = c.points.iter().map(|p| p.total_seconds).max().unwrap_or(1).max(1) as f64;
        let max_d = c.points.iter().map(|p| p.downtime_seconds).max().unwrap_or(0).max(60) as f64;
        let x = |t: u64| l + t as f64 / max_t * (w - l - 20.0);
        let y = |d: u64| h - b - d as f64 / max_d * (h - b - 20.0);
        let best = pareto(&c.points);
        let mut pts = c.points.clone();
        kube_preflight::sort::sort_by_key(&mut pts, |p| p.concurrency);
        // Where each point is drawn: two concurrencies with the same time and nearly the same downtime would
        // sit on each other, and the one drawn last would take every click; a later one moves up until it is
        // clear (its label and title keep the exact values).
        let mut at: Vec<(f64, f64)> = Vec::new();
        for p in &pts {
            let (px, mut py) = (x(p.total_seconds), y(p.downtime_seconds));
            while at.iter().any(|(qx, qy)| (qx - px).hypot(qy - py) < 11.0) {
                py -= 11.0;
            }
            at.push((px, py));
        }
        let line: String = at.iter().map(|(px, py)| format!("{},{}", fixed(*px, 1), fixed(*py, 1))).collect::<Vec<_>>().join(" ");
        html! {
            <svg viewBox={format!("0 0 {} {}", num(w), num(h))} width="100%" role="group" id="curve"
                aria-label={format!("Upgrade time against workload downtime for 1 to {} workers at once", c.size)}>
                <line class="grid" x1={num(l)} y1={num(h - b)} x2={num(w - 10.0)} y2={num(h - b)} />
                <line class="grid" x1={num(l)} y1="10" x2={num(l)} y2={num(h - b)} />
                <text x={num((w + l) / 2.0)} y={num(h - 8.0)} text-anchor="middle">{ format!("total upgrade time (up to {})", duration(max_t as u64)) }</text>
                <text x="12" y={num((h - b) / 2.0)} transform={format!("rotate(-90 12 {})", num((h - b) / 2.0))} text-anchor="middle">{ format!("workload downtime (up to {})", duration(max_d as u64)) }</text>
                // Ticks on both axes: time along, downtime up.
                { for crate::view::ticks(max_t as u64, 5).into_iter().map(|t| html! {
                    <g class="axis"><line class="grid" x1={fixed(x(t), 1)} x2={fixed(x(t), 1)} y1={num(h - b)} y2={num(h - b + 5.0)} />
                    <text x={fixed(x(t), 1)} y={num(h - b + 17.0)} text-anchor="middle">{ duration(t) }</text></g>
                }) }
                { for crate::view::ticks(max_d as u64, 4).into_iter().map(|d| html! {
                    <g class="axis"><line class="grid" x1={num(l - 5.0)} x2={num(l)} y1={fixed(y(d), 1)} y2={fixed(y(d), 1)} />
                    <text x={num(l - 8.0)} y={fixed(y(d) + 4.0, 1)} text-anchor="end">{ duration(d) }</text></g>
                }) }
                <polyline class="curve-line" points={line} />
                { for pts.iter().zip(at.iter().copied()).map(|(p, (px, py))| {
                    let label = format!("{} at once: {} upgrade, {} downtime over {} workload(s){}", p.concurrency, duration(p.total_seconds), duration(p.downtime_seconds), p.workloads_down,
                        if best.contains(&p.concurrency) { " (no other is both shorter and with less downtime)" } else { "" });
                    html! { <g>
                        <circle class={classes!("point", best.contains(&p.concurrency).then_some("best"), (p.concurrency == current).then_some("current"))}
                            cx={fixed(px, 1)} cy={fixed(py, 1)} r="5" tabindex="0" role="button"
                            data-concurrency={p.concurrency.to_string()} aria-label={label.clone()} onclick={pick(p.concurrency)} onkeydown={pick_key(p.concurrency)}>
                            <title>{ label }</title>
                        </circle>
                        <text class="point-label" x={fixed(px + 7.0, 1)} y={fixed(py - 7.0, 1)} aria-hidden="true">{ p.concurrency }</text>
                    </g> }
                }) }
            </svg>
        }
    });
    html! {
        <div id="whatif">
            <form class="whatif-controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                <label class="field">{ format!("Workers at once (maxUnavailable, 1 to {size})") }
                    <input type="range" id="whatif-budget" min="1" max={size.max(1).to_string()} value={current.max(1).to_string()} oninput={on_budget} />
                    <output id="whatif-budget-value">{ match set { Some(k) => k.to_string(), None => format!("{resolved} (the {} default)", shown.upgrade.profile) } }</output>
                </label>
                <label class="field">{ "Distribution" }
                    // Made anew when the distribution shown changes: a select the user changed keeps its own
                    // choice whatever its options' `selected` say.
                    <select id="whatif-profile" key={shown.upgrade.profile.clone()} onchange={on_profile}>
                        { for Profile::ALL.iter().map(|p| html! { <option value={p.name()} selected={p.name() == shown.upgrade.profile}>{ p.name() }</option> }) }
                    </select>
                </label>
                <span class="now" id="whatif-now">{ format!("Now: {} upgrade, {} workload(s) down", duration(r.plan.total_seconds), r.downtime.workloads.len()) }</span>
                if let Some(w) = &other {
                    <span class="now" id="whatif-then">{ format!("With these options: {} upgrade{}, {} workload(s) down, {}",
                        duration(w.plan.total_seconds), if w.plan.stops.is_empty() { "" } else { ", then it stops" },
                        w.downtime.workloads.len(), Headline::of(w).label()) }</span>
                }
                if differs {
                    <button type="button" id="whatif-apply" onclick={apply}>{ "Use these options" }</button>
                    <button type="button" id="whatif-reset" onclick={reset}>{ "Back to the report's" }</button>
                }
                <p class="hint" id="whatif-hint">{ "What-if tries options beside the report: the report, its options and the link stay as they are until you use them." }</p>
            </form>
            <h3>{ "Upgrade time against workload downtime" }</h3>
            { match (&curve, chart) {
                (Some(c), Some(svg)) => html! { <figure class="curve" tabindex="0" role="region" aria-label="Upgrade time against downtime (scrolls sideways)">{ svg }<figcaption id="curve-status">{
                    format!("Pool {}: {} of {} point(s){}; click a point to try that budget. Filled points: no other is both shorter and with less downtime.",
                        c.pool, c.points.len(), if c.size <= crate::engine::CURVE_POINTS { c.size } else { crate::engine::CURVE_POINTS }, if c.done { "" } else { " so far" })
                }</figcaption></figure> },
                _ => html! { <p class="empty" id="curve-status">{ "Computing the curve in the worker… (it needs a plan with a worker pool)" }</p> },
            } }
            <Compare />
            <h3>{ if other.is_some() { "The plan with these options" } else { "The plan now" } }</h3>
            <Gantt compact=true report={other.clone()} />
            <DowntimeChart limit={8} report={other.clone()} />
            if let Some(other) = other {
                <h3>{ "Replay of the plan with these options" }</h3>
                <Replay report={other} />
            }
        </div>
    }
}

/// The current options against others, side by side: verdict, findings, plan, downtime, and the findings
/// only one side has.
#[component]
fn Compare() -> Html {
    let ctx = use_ctx();
    let workers = use_state(String::new);
    let surge = use_state(String::new);
    let drain = use_state(|| "same".to_owned());
    let force = use_state(|| "same".to_owned());
    let emptydir = use_state(|| "same".to_owned());
    let profile = use_state(|| "same".to_owned());
    let Some(r) = ctx.state.report.clone() else { return html! {} };
    let text_field = |id: &'static str, label: &'static str, st: &UseStateHandle<String>| {
        let st2 = st.clone();
        html! { <label class="field">{ label }<input {id} type="text" size="6" placeholder="same" value={(**st).clone()}
        oninput={Callback::from(move |e: InputEvent| st2.set(super::ctx::value_of(&e)))} /></label> }
    };
    let run = {
        let ctx = ctx.clone();
        let (workers, surge, drain, profile) = (workers.clone(), surge.clone(), drain.clone(), profile.clone());
        let (force, emptydir) = (force.clone(), emptydir.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let mut o = ctx.state.opts.clone();
            if o.to.trim().is_empty() {
                // The page chose the target: compare at the same one.
                if let Some(r) = ctx.state.report.as_ref() {
                    o.to = r.upgrade.to.clone();
                }
            }
            if !workers.trim().is_empty() {
                o.max_unavailable_worker = (*workers).clone();
            }
            if !surge.trim().is_empty() {
                o.max_surge = (*surge).clone();
            }
            if *drain != "same" {
                o.drain = crate::options::Drain::parse(&drain);
            }
            if *force != "same" {
                o.drain_force = crate::options::Drain::parse(&force);
            }
            if *emptydir != "same" {
                o.drain_delete_local_data = crate::options::Drain::parse(&emptydir);
            }
            if *profile != "same" {
                o.profile = (*profile).clone();
            }
            ctx.bridge.compare(o.to_json());
        })
    };
    let select = |id: &'static str, label: &'static str, st: &UseStateHandle<String>, values: Vec<&'static str>| {
        let st2 = st.clone();
        html! { <label class="field">{ label }<select {id} onchange={Callback::from(move |e: Event| st2.set(super::ctx::value_of(&e)))}>
            { for values.into_iter().map(|v| html! { <option value={v} selected={**st == v}>{ v }</option> }) }
        </select></label> }
    };
    let mut profiles = vec!["same"];
    profiles.extend(Profile::ALL.iter().map(|p| p.name()));
    let result = match ctx.state.comparison.as_deref() {
        None => html! {},
        Some(Err(m)) => {
            html! { <p class="error" id="compare-error" role="alert">{ format!("Cannot compare: {m}") }</p> }
        }
        Some(Ok(c)) => {
            let row = |name: &str, a: String, b: String| {
                html! {
                    <tr class={classes!((a != b).then_some("differs"))}><th scope="row">{ name.to_owned() }</th><td>{ a }</td><td>{ b }</td></tr>
                }
            };
            let findings = |s: &crate::protocol::Side| {
                format!("{} blocker(s), {} warning(s), {} info", s.blocker, s.warning, s.info)
            };
            let plan = |s: &crate::protocol::Side| {
                format!("{}{}", duration(s.plan_seconds), if s.plan_stops { ", then it stops" } else { "" })
            };
            let down = |s: &crate::protocol::Side| {
                // A plan that stops simulated only what comes before the stop: its downtime is partial.
                let partial = if s.plan_stops { " (partial: only before the plan stops)" } else { "" };
                format!("{} workload(s), {} in all{partial}", s.workloads_down, duration(s.downtime_seconds))
            };
            let other_name = if c.options.is_empty() {
                "same options".to_owned()
            } else {
                c.options.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ")
            };
            html! {
                <div id="comparison">
                    <table class="compare">
                        <thead><tr><th></th><th scope="col">{ "Current" }</th><th scope="col" id="compare-other">{ other_name }</th></tr></thead>
                        <tbody>
                            { row("Verdict", c.current.verdict_words(), c.other.verdict_words()) }
                            { row("Findings", findings(&c.current), findings(&c.other)) }
                            { row("Plan", plan(&c.current), plan(&c.other)) }
                            { row("Workloads down", down(&c.current), down(&c.other)) }
                            { row("Path", c.current.path.clone(), c.other.path.clone()) }
                        </tbody>
                    </table>
                    <h4>{ format!("Only with the other options ({})", c.only_other.len()) }</h4>
                    <ul id="only-other">{ for c.only_other.iter().map(|f| html! { <li>{ f.clone() }</li> }) }</ul>
                    <h4>{ format!("Only with the current options ({})", c.only_current.len()) }</h4>
                    <ul id="only-current">{ for c.only_current.iter().map(|f| html! { <li>{ f.clone() }</li> }) }</ul>
                </div>
            }
        }
    };
    html! {
        <section class="compare-panel" aria-labelledby="compare-heading">
            <h3 id="compare-heading">{ "Compare with other options" }</h3>
            <form class="options" id="compare-form" onsubmit={run}>
                { text_field("compare-workers", "Workers at once", &workers) }
                { text_field("compare-surge", "maxSurge", &surge) }
                { select("compare-drain", "Drain", &drain, vec!["same", "default", "on", "off"]) }
                { select("compare-drain-force", "Drain --force", &force, vec!["same", "default", "on", "off"]) }
                { select("compare-drain-delete-local-data", "Drain --delete-emptydir-data", &emptydir, vec!["same", "default", "on", "off"]) }
                { select("compare-profile", "Distribution", &profile, profiles) }
                <button type="submit" id="compare-run">{ "Compare" }</button>
            </form>
            { result }
            if r.plan.steps.is_empty() { <p class="hint">{ "No plan on this report: only the findings compare." }</p> }
        </section>
    }
}
