//! Export the report in the CLI's formats (rendered by the core in the worker), and a print view for a
//! change review: the verdict, the findings and the plan on paper.

use kube_preflight::units::duration;
use yew::prelude::*;

use super::ctx::{copy_text, download, use_ctx};
use super::store::now_utc;
use crate::review::{offline_html, runbook_markdown, summary_text};

/// Findings the print view lists (the exports and the HTML report hold them all): few enough that opening
/// this view on a 150,000-pod report stays a short task.
const PRINTED: usize = 200;

/// On paper only: when, by which version, from which inputs and under which options (whatever tab is printed).
#[component]
pub fn PrintMeta() -> Html {
    let ctx = use_ctx();
    if ctx.state.report.is_none() {
        return html! {};
    }
    let m = ctx.state.meta(now_utc());
    html! {
        <dl class="print-meta" id="print-meta">
            <div><dt>{ "Printed" }</dt><dd>{ format!("{} UTC by kube-preflight {}", m.date, m.version) }</dd></div>
            <div><dt>{ "Inputs" }</dt><dd>{ for m.inputs.iter().map(|(n, r)| html! { <span class="print-input">{ match r { Ok(o) => format!("{n} ({o} objects) "), Err(w) => format!("{n} (left out: {w}) ") } }</span> }) }
                if m.demo { { "the built-in demo cluster" } }</dd></div>
            <div><dt>{ "Options" }</dt><dd>{ m.options.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ") }</dd></div>
        </dl>
    }
}

#[component]
pub fn ExportView() -> Html {
    let ctx = use_ctx();
    let copied = use_state(|| None::<Result<(), ()>>);
    let Some(r) = ctx.state.report.clone() else { return html! {} };
    let summary = summary_text(&r, &ctx.state.meta(now_utc()));
    let copy = {
        let text = summary.clone();
        let copied = copied.clone();
        Callback::from(move |_| {
            let copied = copied.clone();
            copy_text(&text, Callback::from(move |ok: bool| copied.set(Some(if ok { Ok(()) } else { Err(()) }))));
        })
    };
    let html_report = {
        let ctx = ctx.clone();
        let r = r.clone();
        Callback::from(move |_| {
            let html = offline_html(&r, &ctx.state.meta(now_utc()), &ctx.state.nodes);
            download(&format!("kube-preflight-{}.html", r.upgrade.to), "text/html", &html);
        })
    };
    let runbook = {
        let ctx = ctx.clone();
        let r = r.clone();
        Callback::from(move |_| {
            let md = runbook_markdown(&r, &ctx.state.meta(now_utc()), &ctx.state.nodes);
            download(&format!("kube-preflight-runbook-{}.md", r.upgrade.to), "text/markdown", &md);
        })
    };
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
                <button type="button" id="export-html" onclick={html_report}>{ "HTML report" }</button>
                <button type="button" id="export-runbook" onclick={runbook}>{ "Runbook (Markdown)" }</button>
                if !r.plan.learned.is_empty() {
                    { button("timings", "Step times (timings)") }
                }
                <button type="button" id="print" onclick={print}>{ "Print" }</button>
            </div>
            <section class="summary-copy" aria-labelledby="summary-heading">
                <h3 id="summary-heading">{ "Summary for a change ticket" }</h3>
                <button type="button" id="copy-summary" onclick={copy}>{ "Copy summary" }</button>
                <span id="copied" role="status">{ match *copied {
                    Some(Ok(())) => "Copied.",
                    Some(Err(())) => "The browser refused the clipboard: select the text below and copy it.",
                    None => "",
                } }</span>
                <pre id="summary-text" tabindex="0">{ summary }</pre>
            </section>
            <p class="hint">{ "Downloads are made in this page; nothing is sent anywhere. The HTML report is one file that opens without this app. Print works from any view; the review below is what this view prints." }</p>
            <article class="printable" id="printable" tabindex="0" aria-label="The review as it prints (scrolls sideways on narrow screens)">
                <h2>{ format!("Upgrade review: {} → {} ({})", r.upgrade.from.clone().unwrap_or_else(|| "unknown".into()), r.upgrade.to, r.upgrade.profile) }</h2>
                <p class="print-verdict">{ format!("Verdict: {} · {} blocker(s), {} warning(s), {} info · plan {} over {}", crate::view::Headline::of(&r).label(), r.summary.blocker, r.summary.warning, r.summary.info, duration(r.plan.total_seconds), r.upgrade.path.join(" → ")) }</p>
                <h3>{ "Findings" }</h3>
                <table class="print-findings">
                    <thead><tr><th>{ "Severity" }</th><th>{ "Rule" }</th><th>{ "Finding" }</th><th>{ "Where" }</th></tr></thead>
                    <tbody>{ for r.findings.iter().take(PRINTED).map(|f| html! {
                        <tr><td>{ f.severity.clone() }</td><td><code>{ f.code.clone() }</code></td><td>{ f.message.clone() }<br />{ "Fix: " }{ f.help.clone() }</td>
                        <td>{ f.object.as_ref().map(|o| o.display()).unwrap_or_default() }<br />{ f.source.as_ref().map(|s| s.location()).unwrap_or_default() }</td></tr>
                    }) }</tbody>
                </table>
                if r.findings.len() > PRINTED { <p>{ format!("… and {} more: see the exports.", r.findings.len() - PRINTED) }</p> }
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
