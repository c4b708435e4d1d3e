//! Node by node: every step of the plan as a row (search, sort by start, length or name), its time drawn
//! as segments (drain, waiting on a budget, upgrade, ready), and a node opened: its pods, what the drain
//! does with them, and the findings about it.

use kube_preflight::units::duration;
use yew::prelude::*;

use super::ctx::{use_ctx, value_of};
use crate::view::{findings_on_node, fixed, step_rows, StepSort, StepV};

/// The step's time as segments of one bar (each as wide as its share).
fn split_bar(s: &StepV) -> Html {
    let total = (s.end_seconds - s.start_seconds).max(1) as f64;
    let mut x = 0.0;
    let parts = s.segments.iter().map(|g| {
        let w = g.seconds as f64 / total * 100.0;
        let at = x;
        x += w;
        html! {
            <rect class={classes!("seg", g.kind.clone())} x={fixed(at, 2)} y="0" width={fixed(w, 2)} height="10">
                <title>{ format!("{}: {}", g.label(), duration(g.seconds)) }</title>
            </rect>
        }
    });
    html! {
        <svg class="split" viewBox="0 0 100 10" preserveAspectRatio="none" width="100%" height="12" role="img" aria-label={s.split()}>
            { for parts }
        </svg>
    }
}

#[component]
pub fn NodeSteps() -> Html {
    let ctx = use_ctx();
    let text = use_state(String::new);
    let sort = use_state(StepSort::default);
    let open = use_state(|| None::<usize>);
    let shown = use_state(|| crate::state::PAGE);
    let Some(r) = ctx.state.report.clone() else { return html! {} };
    if r.plan.steps.is_empty() {
        return html! {};
    }
    let rows = step_rows(&r, &text, *sort);
    let on_text = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| text.set(value_of(&e)))
    };
    let on_sort = {
        let sort = sort.clone();
        Callback::from(move |e: Event| {
            sort.set(match value_of(&e).as_str() {
                "longest" => StepSort::Longest,
                "node" => StepSort::Node,
                _ => StepSort::Start,
            })
        })
    };
    let row = |i: &usize| {
        let Some(s) = r.plan.steps.get(*i) else { return html! {} };
        let is_open = *open == Some(*i);
        let toggle = {
            let open = open.clone();
            let i = *i;
            let ctx = ctx.clone();
            let detail = serde_json::json!({
                "index": i, "node": s.node, "pool": s.pool, "hop": s.hop, "phase": s.phase,
                "startSeconds": s.start_seconds, "endSeconds": s.end_seconds,
            });
            Callback::from(move |_| {
                let opening = *open != Some(i);
                open.set(opening.then_some(i));
                if opening {
                    ctx.emit("node-open", &detail);
                }
            })
        };
        html! {
            <>
                <tr data-node={s.node.clone()} class={classes!("step", is_open.then_some("open"))}>
                    <td><button type="button" class="link node-open" aria-expanded={is_open.to_string()} onclick={toggle}>{ s.node.clone() }</button></td>
                    <td>{ s.pool.clone().unwrap_or_default() }</td>
                    <td>{ s.phase.clone() }{ s.hop.as_ref().map(|h| format!(" · {h}")).unwrap_or_default() }</td>
                    <td class="num">{ duration(s.start_seconds) }</td>
                    <td class="num length">{ duration(s.end_seconds - s.start_seconds) }</td>
                    <td class="split-cell">{ split_bar(s) }</td>
                </tr>
                if is_open {
                    <tr class="node-details-row"><td colspan="6">{ node_details(&ctx, &r, s) }</td></tr>
                }
            </>
        }
    };
    html! {
        <section id="node-steps" aria-labelledby="node-steps-heading">
            <h3 id="node-steps-heading">{ "Node by node" }</h3>
            <div class="filters">
                <label class="field">{ "Search" }<input id="steps-text" type="search" value={(*text).clone()} oninput={on_text} placeholder="node, pool, phase, hop" /></label>
                <label class="field">{ "Sort" }
                    <select id="steps-sort" onchange={on_sort}>
                        <option value="start" selected={*sort == StepSort::Start}>{ "by start" }</option>
                        <option value="longest" selected={*sort == StepSort::Longest}>{ "longest first" }</option>
                        <option value="node" selected={*sort == StepSort::Node}>{ "by node" }</option>
                    </select>
                </label>
                <span class="legend" aria-hidden="true">
                    <span class="seg-key drain">{ "drain" }</span><span class="seg-key budget-wait">{ "waiting on a budget" }</span>
                    <span class="seg-key upgrade">{ "upgrade" }</span><span class="seg-key ready">{ "ready" }</span>
                    if !r.plan.learned.is_empty() {
                        <span class="seg-key learned">{ "as measured" }</span>
                    }
                </span>
            </div>
            <div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways)">
                <table part="table" class="steps">
                    <caption>{ format!("{} of {} node step(s)", rows.len(), r.plan.steps.len()) }</caption>
                    <thead><tr><th scope="col">{ "Node" }</th><th scope="col">{ "Pool" }</th><th scope="col">{ "Phase" }</th>
                        <th scope="col">{ "Starts" }</th><th scope="col">{ "Takes" }</th><th scope="col">{ "Where the time goes" }</th></tr></thead>
                    <tbody>{ for rows.iter().take(*shown).map(row) }</tbody>
                </table>
            </div>
            if rows.len() > *shown {
                <button type="button" id="steps-more" onclick={
                    let shown = shown.clone();
                    Callback::from(move |_| shown.set(*shown + crate::state::PAGE))
                }>{ format!("Show more ({} left)", rows.len() - *shown) }</button>
            }
        </section>
    }
}

fn node_details(ctx: &super::ctx::Ctx, r: &crate::view::ReportView, s: &StepV) -> Html {
    let facts = ctx.state.nodes.iter().find(|n| n.name == s.node).cloned();
    let findings = findings_on_node(r, &s.node);
    let drains = s.segments.iter().any(|g| g.kind == "drain");
    let force = r.plan.drain.as_ref().is_some_and(|d| d.force);
    html! {
        <div class="node-details" id={format!("node-{}", s.node)}>
            <p class="node-split">{ format!("{} from {} to {}: {}.", s.node, duration(s.start_seconds), duration(s.end_seconds), s.split()) }</p>
            if s.segments.iter().any(|g| g.kind == "budget-wait") {
                <p class="why-long">{ "Its drain waits on a PodDisruptionBudget until the drain timeout: that is why this node takes longer than the others (see the findings below)." }</p>
            }
            if let Some(n) = facts {
                <p>{ format!("{} pod(s) on it{}", n.pods, if !drains { "." } else if force {
                    ": evicted by the drain and started again by their controllers on other nodes (a pod with no controller is deleted for good: the drain runs with --force)."
                } else {
                    ": evicted by the drain and started again by their controllers on other nodes."
                }) }</p>
                if !n.pod_names.is_empty() {
                    <ul class="node-pods">{ for n.pod_names.iter().map(|p| html! { <li><code>{ p.clone() }</code></li> }) }</ul>
                }
                if (n.pods as usize) > n.pod_names.len() { <p class="hint">{ format!("… and {} more.", n.pods as usize - n.pod_names.len()) }</p> }
            }
            if findings.is_empty() {
                <p>{ "No finding names this node." }</p>
            } else {
                <ul class="node-findings">{ for findings.iter().map(|f| html! {
                    <li><span class={classes!("sev", f.severity.clone())}>{ f.severity.clone() }</span>{ " " }<code>{ f.code.clone() }</code>{ ": " }{ f.message.clone() }</li>
                }) }</ul>
            }
        </div>
    }
}
