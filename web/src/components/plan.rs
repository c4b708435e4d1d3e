//! The upgrade plan (phases, node steps, total) and the expected downtime.

use std::rc::Rc;

use kube_preflight::render::text::duration;
use kube_preflight::Report;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PlanProps {
    pub report: Rc<Report>,
}

#[component]
pub fn PlanView(props: &PlanProps) -> Html {
    let r = &props.report;
    let plan = &r.plan;
    let total = plan.total_seconds.max(1) as f64;
    html! {
        <div id="plan">
            if plan.phases.is_empty() {
                <p class="empty">{ "No plan: " }{
                    r.not_run.iter().find(|n| n.code == "plan").map(|n| n.reason.clone())
                        .unwrap_or_else(|| "there are no nodes in these inputs to plan for.".to_owned())
                }</p>
            } else {
                <p>{ format!("{} phase(s), {} node step(s), {} in all.", plan.phases.len(), plan.steps.len(), duration(plan.total_seconds)) }</p>
                <table class="phases">
                    <thead><tr><th>{"Phase"}</th><th>{"Pool"}</th><th>{"Hop"}</th><th>{"At once"}</th><th>{"Nodes"}</th><th>{"Start"}</th><th>{"End"}</th><th class="bar-col"></th></tr></thead>
                    <tbody>{ for plan.phases.iter().map(|p| {
                        let left = p.start_seconds as f64 / total * 100.0;
                        let width = ((p.end_seconds - p.start_seconds) as f64 / total * 100.0).max(0.5);
                        html! { <tr>
                            <td>{ p.name }</td><td>{ p.pool.clone().unwrap_or_default() }</td><td>{ p.hop.clone().unwrap_or_default() }</td>
                            <td>{ p.concurrency }</td><td>{ p.nodes.len() }</td>
                            <td>{ duration(p.start_seconds) }</td><td>{ duration(p.end_seconds) }</td>
                            <td class="bar-col"><div class="bar" style={format!("margin-left:{left:.1}%;width:{width:.1}%")}></div></td>
                        </tr> }
                    }) }</tbody>
                </table>
            }
            <h3>{ "Expected downtime" }</h3>
            if r.downtime.components.is_empty() && r.downtime.workloads.is_empty() {
                <p class="empty">{ "None expected from these inputs." }</p>
            }
            <ul class="downtime">
                { for r.downtime.components.iter().map(|c| html! { <li><strong>{ c.component.clone() }</strong>{ format!(": {} ({})", c.expected, c.when) }</li> }) }
                { for r.downtime.workloads.iter().map(|w| html! { <li><strong>{ format!("{} {}/{}", w.kind, w.namespace, w.name) }</strong>{ format!(": {} ({})", duration(w.seconds), w.reason) }</li> }) }
            </ul>
        </div>
    }
}
