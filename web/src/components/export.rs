//! Export the report in the CLI's formats (rendered by the core in the worker), and a print view for a
//! change review: the verdict, the findings and the plan on paper.

use kube_preflight::units::duration;
use yew::prelude::*;

use super::ctx::use_ctx;

#[component]
pub fn ExportView() -> Html {
    let ctx = use_ctx();
    let Some(r) = ctx.state.report.clone() else { return html! {} };
    let button = |format: &'static str, label: &'static str| {
        let ctx = ctx.clone();
        html! { <button type="button" id={format!("export-{format}")} onclick={Callback::from(move |_| ctx.bridge.export(format))}>{ label }</button> }
    };
    let print = Callback::from(|_| {
        if let Some(w) = web_sys::window() {
            let _ = w.print();
        }
    });
    html! {
        <div id="export">
            <div class="export-buttons">
                { button("json", "JSON") }{ button("markdown", "Markdown") }{ button("sarif", "SARIF") }{ button("junit", "JUnit") }
                <button type="button" id="print" onclick={print}>{ "Print" }</button>
            </div>
            <p class="hint">{ "Downloads are made in this page; nothing is sent anywhere. The print view below is what Print puts on paper." }</p>
            <article class="printable" id="printable">
                <h2>{ format!("Upgrade review: {} → {} ({})", r.upgrade.from.clone().unwrap_or_else(|| "unknown".into()), r.upgrade.to, r.upgrade.profile) }</h2>
                <p class="print-verdict">{ format!("Verdict: {} · {} blocker(s), {} warning(s), {} info · plan {} over {}", r.summary.verdict.to_uppercase(), r.summary.blocker, r.summary.warning, r.summary.info, duration(r.plan.total_seconds), r.upgrade.path.join(" → ")) }</p>
                <h3>{ "Findings" }</h3>
                <table class="print-findings">
                    <thead><tr><th>{ "Severity" }</th><th>{ "Rule" }</th><th>{ "Finding" }</th><th>{ "Where" }</th></tr></thead>
                    <tbody>{ for r.findings.iter().take(500).map(|f| html! {
                        <tr><td>{ f.severity.clone() }</td><td><code>{ f.code.clone() }</code></td><td>{ f.message.clone() }<br />{ "Fix: " }{ f.help.clone() }</td>
                        <td>{ f.object.as_ref().map(|o| o.display()).unwrap_or_default() }<br />{ f.source.as_ref().map(|s| s.location()).unwrap_or_default() }</td></tr>
                    }) }</tbody>
                </table>
                if r.findings.len() > 500 { <p>{ format!("… and {} more: see the exports.", r.findings.len() - 500) }</p> }
                <h3>{ "Plan" }</h3>
                <table class="print-plan">
                    <thead><tr><th>{ "Hop" }</th><th>{ "Phase" }</th><th>{ "Pool" }</th><th>{ "At once" }</th><th>{ "Nodes" }</th><th>{ "Start" }</th><th>{ "End" }</th></tr></thead>
                    <tbody>{ for r.plan.phases.iter().map(|p| html! {
                        <tr><td>{ p.hop.clone().unwrap_or_default() }</td><td>{ p.name.clone() }</td><td>{ p.pool.clone().unwrap_or_default() }</td><td>{ p.concurrency }</td><td>{ p.nodes.len() }</td><td>{ duration(p.start_seconds) }</td><td>{ duration(p.end_seconds) }</td></tr>
                    }) }</tbody>
                </table>
                <h3>{ "Expected downtime" }</h3>
                <ul>{ for r.downtime.workloads.iter().map(|w| html! { <li>{ format!("{}: {} ({})", w.display(), duration(w.seconds), w.reason) }</li> }) }</ul>
            </article>
        </div>
    }
}
