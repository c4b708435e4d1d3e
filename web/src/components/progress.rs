//! Progress: an upgrade the snapshot shows under way, beside the plan: the headline (done, in progress,
//! stuck, the expected end), what is stuck and on what, and a chart of each node's planned window (the plan
//! of the report taken before the upgrade when one was given, else the rest of the plan from now) coloured
//! by where the node actually is, with a line at "now".

use kube_preflight::units::duration;
use yew::prelude::*;

use super::charts::{axis, bar, Scale};
use super::ctx::use_ctx;
use crate::progress::rows;
use crate::view::fixed;

const ROW: f64 = 18.0;

/// The report's words with a capital first letter, as a sentence on the page.
fn upper_first(s: &str) -> String {
    // ASCII only: the Unicode case tables stay out of the page (the report's words begin with "upgrade").
    let mut c = s.chars();
    c.next().map(|f| std::iter::once(f.to_ascii_uppercase()).chain(c).collect()).unwrap_or_default()
}
/// Rows drawn at most (the stuck and in-progress nodes come first).
const MAX_ROWS: usize = 200;

#[component]
pub fn ProgressView() -> Html {
    let ctx = use_ctx();
    let focused = use_state(String::new);
    let Some(r) = ctx.state.report.clone() else { return html! {} };
    let Some(p) = r.progress.clone() else { return html! {} };
    let steps: Vec<(&str, u64, u64)> =
        r.plan.steps.iter().map(|s| (s.node.as_str(), s.start_seconds, s.end_seconds)).collect();
    let (all, end, now) = rows(&steps, &p);
    let shown = all.get(..MAX_ROWS).unwrap_or(&all);
    let width = 900.0;
    let sc = Scale { label: 190.0, width, total: end.max(1) };
    let height = 20.0 + ROW * shown.len() as f64;
    let onfocus = {
        let focused = focused.clone();
        Callback::from(move |d: String| focused.set(d))
    };
    let class = |stage: &str| match stage {
        "done" => "progress-done",
        "in-progress" => "progress-in",
        "stuck" => "progress-stuck",
        "left-out" => "progress-out",
        _ => "progress-todo",
    };
    html! {
        <section class="progress-view" id="progress-view" aria-label="Progress of the upgrade under way">
            <h3>{ "Progress" }</h3>
            <p id="progress-headline">{ upper_first(&p.summary) }</p>
            <p class="muted">{ format!("Read from: {}.", p.read_from) }</p>
            if let Some(o) = &p.operators {
                <p id="progress-operators">{ format!("Control plane: {} of {} operators updated, {} updating{}, {} waiting.", o.updated, o.total, o.updating.len(),
                    if o.updating.is_empty() { String::new() } else { format!(" ({})", o.updating.join(", ")) }, o.waiting) }</p>
            }
            if let Some(s) = &p.since {
                <p id="progress-since">{ format!("Against the plan made before it started: {}.", s.summary) }</p>
            }
            if !p.stuck.is_empty() {
                <ul id="progress-stuck" class="stuck" aria-label="Stuck nodes">
                    { for p.stuck.iter().map(|s| html! {
                        <li><strong>{ &s.node }</strong>{ format!(": {} ({}; {})", s.cause, s.code, if s.predicted { "predicted by the checks" } else { "not predicted" }) }</li>
                    }) }
                </ul>
            }
            if let Some(c) = &p.caveat {
                <p class="muted">{ format!("Caveat: {c}.") }</p>
            }
            if end > 0 {
                <figure>
                    <svg id="progress-chart" viewBox={format!("0 0 {} {}", fixed(width, 0), fixed(height + 4.0, 0))} role="group"
                        aria-label="Each node's planned window, coloured by where it is now">
                        { axis(sc, height) }
                        { for shown.iter().enumerate().map(|(k, row)| {
                            let y = 20.0 + ROW * k as f64;
                            html! {
                                <g class="progress-row" data-node={row.node.clone()} data-stage={row.stage.clone()}>
                                    <text class="node-label" x="4" y={fixed(y + 12.0, 1)}>{ format!("{} {}", row.node, row.pool) }</text>
                                    if let Some((s, e)) = row.window {
                                        { bar(sc, y + 2.0, ROW - 5.0, s, e, class(&row.stage), format!("{}: {}; planned {}-{}", row.node, row.detail, duration(s), duration(e)), onfocus.clone()) }
                                    } else {
                                        <text class="node-label" x={fixed(sc.x(0), 1)} y={fixed(y + 12.0, 1)}>{ &row.detail }</text>
                                    }
                                </g>
                            }
                        }) }
                        if let Some(t) = now {
                            <line class="cursor" id="progress-now" x1={fixed(sc.x(t), 1)} x2={fixed(sc.x(t), 1)} y1="14" y2={fixed(height, 0)}>
                                <title>{ format!("now: {} into the upgrade", duration(t)) }</title>
                            </line>
                        }
                    </svg>
                    <figcaption aria-live="polite">{ (*focused).clone() }</figcaption>
                </figure>
                if all.len() > MAX_ROWS {
                    <p class="muted">{ format!("{} more node(s) not drawn (the report's progress.nodes lists every one).", all.len() - MAX_ROWS) }</p>
                }
            }
        </section>
    }
}
