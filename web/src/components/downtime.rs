//! Downtime: the components, and per workload a chart of when and for how long it has no Ready replica,
//! longest first, on the plan's time axis.

use kube_preflight::units::duration;
use yew::prelude::*;

use super::charts::{axis, bar, Scale};
use super::ctx::use_ctx;
use crate::view::fixed;

#[derive(Properties, PartialEq)]
pub struct DowntimeChartProps {
    /// Draw at most this many workloads (all when 0).
    #[prop_or_default]
    pub limit: usize,
    /// The full-width chart of the Downtime view (its caption offers no "all under Downtime").
    #[prop_or_default]
    pub full: bool,
    /// Draw this report's downtime instead of the one shown (the what-if's).
    #[prop_or_default]
    pub report: Option<std::rc::Rc<crate::view::ReportView>>,
}

#[component]
pub fn DowntimeChart(props: &DowntimeChartProps) -> Html {
    let ctx = use_ctx();
    let focus = use_state(String::new);
    let Some(r) = props.report.clone().or_else(|| ctx.state.report.clone()) else { return html! {} };
    let all = &r.downtime.workloads;
    if all.is_empty() {
        // Said only of what was simulated: no plan is no claim at all.
        let text = if r.plan.phases.is_empty() && r.plan.stops.is_empty() {
            "Not simulated: there is no plan, so no downtime is known."
        } else if r.downtime.partial || !r.plan.stops.is_empty() {
            "No workload loses its last Ready replica before the plan stops; past the stop nothing was simulated."
        } else {
            "No workload is expected to lose its last Ready replica."
        };
        return html! { <p class="empty" id="no-downtime">{ text }</p> };
    }
    let limit = if props.limit == 0 { all.len() } else { props.limit.min(all.len()) };
    let compact = !props.full;
    let width = if compact { 620.0 } else { 1100.0 };
    let sc = Scale { label: if compact { 230.0 } else { 330.0 }, width, total: r.plan.total_seconds.max(1) };
    let on_focus = {
        let focus = focus.clone();
        Callback::from(move |s: String| focus.set(s))
    };
    const ROW: f64 = 18.0;
    let rows = all.iter().take(limit).enumerate().map(|(i, w)| {
        let y = 18.0 + i as f64 * ROW;
        html! {
            <g class="workload-row" data-workload={w.display()}>
                <text x="4" y={fixed(y + 12.0, 0)} class="row-label">{ format!("{} · {}", w.display(), duration(w.seconds)) }</text>
                { for w.windows.iter().map(|x| bar(sc, y + 3.0, ROW - 6.0, x.start_seconds, x.end_seconds, "down",
                    format!("{}: down from {} to {} ({}); {}", w.display(), duration(x.start_seconds), duration(x.end_seconds), duration(x.end_seconds - x.start_seconds), w.reason),
                    on_focus.clone())) }
            </g>
        }
    });
    let height = 22.0 + limit as f64 * ROW;
    html! {
        <figure class="downtime-chart" id={if compact { "downtime-mini" } else { "downtime-chart" }}>
            <div part="chart" class="chart-scroll" tabindex="0" role="region" aria-label="Downtime chart (scrolls sideways)">
            <svg viewBox={format!("0 0 {} {}", fixed(width, 0), fixed(height, 0))} width="100%" role="group" aria-label={format!("{} workload(s) down, longest first", all.len())}>
                { axis(sc, height) }
                { for rows }
            </svg>
            </div>
            <figcaption aria-live="polite">{
                if !focus.is_empty() { (*focus).clone() }
                else if limit < all.len() && compact { format!("The {limit} longest of {} workloads down; all under Downtime.", all.len()) }
                else if limit < all.len() { format!("The {limit} longest of {} workloads down.", all.len()) }
                else { "Hover over or focus a bar for why.".to_owned() }
            }</figcaption>
        </figure>
    }
}

/// Workloads drawn and listed at first, and added by each "Show more": thousands of rows at once would
/// hold the page's thread for hundreds of milliseconds.
const DOWNTIME_PAGE: usize = 100;

#[component]
pub fn DowntimeView() -> Html {
    let ctx = use_ctx();
    let shown = use_state(|| DOWNTIME_PAGE);
    let Some(r) = ctx.state.report.clone() else { return html! {} };
    let total = r.downtime.workloads.len();
    let more = {
        let shown = shown.clone();
        Callback::from(move |_| shown.set(*shown + DOWNTIME_PAGE))
    };
    html! {
        <div id="downtime">
            if r.downtime.partial {
                <p class="partial-note" id="downtime-partial" role="note">{ format!(
                    "Partial: the plan stops, and {} node(s) past the stop were never simulated; the workloads on them are not counted here.{}",
                    r.plan.not_simulated.len(),
                    r.plan.if_resolved.as_ref().map(|ir| format!(" Once the blockers that stop it are resolved: {} workload(s) down (see Plan & replay).", ir.downtime.workloads.len())).unwrap_or_default()
                ) }</p>
            }
            <h3>{ "Components" }</h3>
            if r.downtime.components.is_empty() {
                <p class="empty">{ "No component downtime expected from these inputs." }</p>
            } else {
                <table part="table" class="components">
                    <thead><tr><th>{ "Component" }</th><th>{ "Expected" }</th><th>{ "When" }</th></tr></thead>
                    <tbody>{ for r.downtime.components.iter().map(|c| html! { <tr><td>{ c.component.clone() }</td><td>{ c.expected.clone() }</td><td>{ c.when.clone() }</td></tr> }) }</tbody>
                </table>
            }
            <h3>{ "Workloads, longest first" }</h3>
            <DowntimeChart limit={*shown} full=true />
            <table part="table" class="workloads">
                <thead><tr><th>{ "Workload" }</th><th>{ "Down" }</th><th>{ "Why" }</th></tr></thead>
                <tbody>{ for r.downtime.workloads.iter().take(*shown).map(|w| html! { <tr><td>{ w.display() }</td><td class="num">{ duration(w.seconds) }</td><td>{ w.reason.clone() }</td></tr> }) }</tbody>
            </table>
            if *shown < total {
                <button type="button" id="downtime-more" onclick={more}>{ format!("Show more ({} left)", total - *shown) }</button>
            }
        </div>
    }
}
