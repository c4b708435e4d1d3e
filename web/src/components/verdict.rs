//! The verdict at a glance: blocked or ready, counts by severity, the hop path, the plan's length and the
//! workloads that will be down, longest first.

use kube_preflight::units::duration;
use yew::prelude::*;

use super::app::use_ctx;

#[component]
pub fn Verdict() -> Html {
    let ctx = use_ctx();
    let Some(r) = ctx.state.report.clone() else { return html! {} };
    let s = &r.summary;
    let u = &r.upgrade;
    let from = u.from.clone().unwrap_or_else(|| "unknown".into());
    let hops = if u.path.is_empty() { "no upgrade".to_owned() } else { format!("{from} → {}", u.path.join(" → ")) };
    let down = &r.downtime.workloads;
    let longest = down.first().map(|w| format!("{} ({})", w.display(), duration(w.seconds)));
    html! {
        <section class={classes!("verdict-card", s.verdict.clone())} id="summary" aria-label="Verdict">
            <div class="verdict" id="verdict">{ s.verdict.replace('-', " ").to_uppercase() }</div>
            if s.verdict == "nothing-checked" {
                <p class="nothing-read" id="nothing-read">{ format!("No Kubernetes object was read from {} input(s): nothing was checked, so this is not a pass.", r.inventory.files) }</p>
            }
            <div class="counts">
                <span class="count blocker">{ format!("{} blocker(s)", s.blocker) }</span>
                <span class="count warning">{ format!("{} warning(s)", s.warning) }</span>
                <span class="count info">{ format!("{} info", s.info) }</span>
                if s.suppressed.total() > 0 {
                    <span class="count suppressed" id="suppressed-count">{ format!("{} suppressed", s.suppressed.total()) }</span>
                }
            </div>
            <dl class="facts">
                <div><dt>{ "Path" }</dt><dd id="path">{ hops }{ format!(" · {}", u.profile) }</dd></div>
                <div><dt>{ "Plan" }</dt><dd id="total">{ if r.plan.phases.is_empty() && r.plan.stops.is_empty() { "none".to_owned() } else if r.plan.stops.is_empty() { duration(r.plan.total_seconds) } else { format!("{}, then it stops", duration(r.plan.total_seconds)) } }</dd></div>
                <div><dt>{ "Workloads down" }</dt><dd id="down">{ down.len() }
                    if let Some(l) = longest { <span class="longest">{ format!(" · longest: {l}") }</span> }
                </dd></div>
            </dl>
            if ctx.state.using_demo { <span class="demo-badge">{ "demo cluster" }</span> }
        </section>
    }
}
