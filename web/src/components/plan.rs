//! The upgrade plan (phases, each with its node steps, the total, the times used) and the expected
//! downtime.

use std::rc::Rc;

use kube_preflight::report::Phase;
use kube_preflight::units::duration;
use kube_preflight::Report;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PlanProps {
    pub report: Rc<Report>,
}

fn bar(start: u64, end: u64, total: f64) -> Html {
    let left = start as f64 / total * 100.0;
    let width = ((end - start) as f64 / total * 100.0).max(0.4);
    html! { <div class="bar" style={format!("margin-left:{left:.2}%;width:{width:.2}%")}></div> }
}

fn phase_rows(r: &Report, p: &Phase, total: f64) -> Html {
    let steps: Vec<_> =
        r.plan.steps.iter().filter(|s| s.phase == p.name && s.pool == p.pool && s.hop == p.hop).collect();
    html! {
        <>
            <tr class="phase">
                <td>{ p.hop.clone().unwrap_or_default() }</td>
                <td><strong>{ p.name }</strong></td>
                <td>{ p.pool.clone().unwrap_or_default() }</td>
                <td>{ p.concurrency }</td>
                <td>{ p.nodes.len() }</td>
                <td>{ duration(p.start_seconds) }</td>
                <td>{ duration(p.end_seconds) }</td>
                <td class="bar-col">{ bar(p.start_seconds, p.end_seconds, total) }</td>
            </tr>
            if !steps.is_empty() {
                <tr class="steps"><td colspan="8">
                    <details>
                        <summary>{ format!("{} node step(s)", steps.len()) }</summary>
                        <table class="node-steps">
                            { for steps.iter().map(|s| html! {
                                <tr data-node={s.node.clone()}>
                                    <td>{ s.node.clone() }</td>
                                    <td>{ duration(s.start_seconds) }</td>
                                    <td>{ duration(s.end_seconds) }</td>
                                    <td class="bar-col">{ bar(s.start_seconds, s.end_seconds, total) }</td>
                                </tr>
                            }) }
                        </table>
                    </details>
                </td></tr>
            }
        </>
    }
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
                <p class="plan-total">{ format!("{} phase(s), {} node step(s), {} in all with the {} profile.", plan.phases.len(), plan.steps.len(), duration(plan.total_seconds), r.upgrade.profile) }</p>
                <table class="phases">
                    <thead><tr><th>{"Hop"}</th><th>{"Phase"}</th><th>{"Pool"}</th><th>{"At once"}</th><th>{"Nodes"}</th><th>{"Start"}</th><th>{"End"}</th><th class="bar-col"></th></tr></thead>
                    <tbody>{ for plan.phases.iter().map(|p| phase_rows(r, p, total)) }</tbody>
                </table>
            }
            <h3>{ "Expected downtime" }</h3>
            if r.downtime.components.is_empty() && r.downtime.workloads.is_empty() {
                <p class="empty">{ "None expected from these inputs." }</p>
            } else {
                <table class="downtime">
                    <thead><tr><th>{"Component or workload"}</th><th>{"Expected"}</th><th>{"When / why"}</th></tr></thead>
                    <tbody>
                        { for r.downtime.components.iter().map(|c| html! { <tr><td>{ c.component.clone() }</td><td>{ c.expected.clone() }</td><td>{ c.when.clone() }</td></tr> }) }
                        { for r.downtime.workloads.iter().map(|w| html! {
                            <tr class="workload-down"><td><strong>{ format!("{} {}/{}", w.kind, w.namespace, w.name) }</strong></td><td>{ duration(w.seconds) }</td><td>{ w.reason.clone() }</td></tr>
                        }) }
                    </tbody>
                </table>
            }
            if !plan.timings.is_empty() {
                <details class="timings">
                    <summary>{ "Times the plan assumes (override with options.timings)" }</summary>
                    <ul>{ for plan.timings.iter().map(|(k, v)| html! { <li><code>{ *k }</code>{ format!(": {}", duration(*v)) }</li> }) }</ul>
                </details>
            }
        </div>
    }
}
