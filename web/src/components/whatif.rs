//! What-if: change a budget or the distribution and see the plan and downtime change at once, and the
//! curve of total upgrade time against total workload downtime for each concurrency of the largest pool.

use kube_preflight::units::duration;
use kube_preflight::Profile;
use yew::prelude::*;

use super::ctx::use_ctx;
use super::downtime::DowntimeChart;
use super::plan::Gantt;
use crate::view::pareto;

#[component]
pub fn WhatIf() -> Html {
    let ctx = use_ctx();
    let Some(r) = ctx.state.report.clone() else { return html! {} };
    let o = ctx.state.opts.clone();
    let curve = ctx.state.curve.clone();
    let size = curve.as_ref().map_or(1, |c| c.size);
    let current: u32 = o.max_unavailable_worker.trim().parse().unwrap_or(0);
    let on_budget = ctx.on_opt::<InputEvent>(|o, v| o.max_unavailable_worker = v);
    let on_profile = ctx.on_opt::<Event>(|o, v| o.profile = v);
    let pick = |k: u32| {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.edit_opts(|o| o.max_unavailable_worker = k.to_string()))
    };
    let chart = curve.as_ref().filter(|c| !c.points.is_empty()).map(|c| {
        let (w, h, l, b) = (720.0, 300.0, 70.0, 40.0);
        let max_t = c.points.iter().map(|p| p.total_seconds).max().unwrap_or(1).max(1) as f64;
        let max_d = c.points.iter().map(|p| p.downtime_seconds).max().unwrap_or(0).max(60) as f64;
        let x = |t: u64| l + t as f64 / max_t * (w - l - 20.0);
        let y = |d: u64| h - b - d as f64 / max_d * (h - b - 20.0);
        let best = pareto(&c.points);
        let mut pts = c.points.clone();
        pts.sort_by_key(|p| p.concurrency);
        let line: String = pts.iter().map(|p| format!("{:.1},{:.1}", x(p.total_seconds), y(p.downtime_seconds))).collect::<Vec<_>>().join(" ");
        html! {
            <svg viewBox={format!("0 0 {w} {h}")} width="100%" role="group" id="curve"
                aria-label={format!("Upgrade time against workload downtime for 1 to {} workers at once", c.size)}>
                <line class="grid" x1={l.to_string()} y1={(h - b).to_string()} x2={(w - 10.0).to_string()} y2={(h - b).to_string()} />
                <line class="grid" x1={l.to_string()} y1="10" x2={l.to_string()} y2={(h - b).to_string()} />
                <text x={((w + l) / 2.0).to_string()} y={(h - 8.0).to_string()} text-anchor="middle">{ format!("total upgrade time (up to {})", duration(max_t as u64)) }</text>
                <text x="12" y={((h - b) / 2.0).to_string()} transform={format!("rotate(-90 12 {})", (h - b) / 2.0)} text-anchor="middle">{ format!("workload downtime (up to {})", duration(max_d as u64)) }</text>
                <polyline class="curve-line" points={line} />
                { for pts.iter().map(|p| {
                    let label = format!("{} at once: {} upgrade, {} downtime over {} workload(s){}", p.concurrency, duration(p.total_seconds), duration(p.downtime_seconds), p.workloads_down,
                        if best.contains(&p.concurrency) { " (no other is both shorter and with less downtime)" } else { "" });
                    html! {
                        <circle class={classes!("point", best.contains(&p.concurrency).then_some("best"), (p.concurrency == current).then_some("current"))}
                            cx={format!("{:.1}", x(p.total_seconds))} cy={format!("{:.1}", y(p.downtime_seconds))} r="5" tabindex="0" role="button"
                            data-concurrency={p.concurrency.to_string()} aria-label={label.clone()} onclick={pick(p.concurrency)}>
                            <title>{ label }</title>
                        </circle>
                    }
                }) }
            </svg>
        }
    });
    html! {
        <div id="whatif">
            <form class="whatif-controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                <label class="field">{ format!("Workers at once (maxUnavailable, 1 to {size})") }
                    <input type="range" id="whatif-budget" min="1" max={size.max(1).to_string()} value={current.max(1).to_string()} oninput={on_budget} />
                    <output>{ if current == 0 { "default".to_owned() } else { current.to_string() } }</output>
                </label>
                <label class="field">{ "Distribution" }
                    <select id="whatif-profile" onchange={on_profile}>
                        { for Profile::ALL.iter().map(|p| html! { <option value={p.name()} selected={p.name() == r.upgrade.profile}>{ p.name() }</option> }) }
                    </select>
                </label>
                <span class="now" id="whatif-now">{ format!("Now: {} upgrade, {} workload(s) down", duration(r.plan.total_seconds), r.downtime.workloads.len()) }</span>
            </form>
            <h3>{ "Upgrade time against workload downtime" }</h3>
            { match (&curve, chart) {
                (Some(c), Some(svg)) => html! { <figure class="curve">{ svg }<figcaption id="curve-status">{
                    format!("Pool {}: {} of {} point(s){}; click a point to use that budget. Filled points: no other is both shorter and with less downtime.",
                        c.pool, c.points.len(), if c.size <= crate::engine::CURVE_POINTS { c.size } else { crate::engine::CURVE_POINTS }, if c.done { "" } else { " so far" })
                }</figcaption></figure> },
                _ => html! { <p class="empty" id="curve-status">{ "Computing the curve in the worker… (it needs a plan with a worker pool)" }</p> },
            } }
            <h3>{ "The plan now" }</h3>
            <Gantt compact=true />
            <DowntimeChart limit={8} />
        </div>
    }
}
