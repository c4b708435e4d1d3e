//! Findings grouped by severity, with the object, the file and line, and the fix.

use std::rc::Rc;

use kube_preflight::model::display_ref;
use kube_preflight::report::Finding;
use kube_preflight::{Report, Severity};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct FindingsProps {
    pub report: Rc<Report>,
}

fn finding_row(f: &Finding) -> Html {
    let object = f.object.as_ref().map(display_ref).unwrap_or_default();
    let source = f.source.as_ref().map(kube_preflight::model::Source::location).unwrap_or_default();
    html! {
        <tr class={classes!("finding", f.severity.name())} data-code={f.code}>
            <td><span class={classes!("sev", f.severity.name())}>{ f.severity.name() }</span></td>
            <td><code>{ f.code }</code></td>
            <td>
                <div class="message">{ f.message.clone() }</div>
                <div class="help">{ "Fix: " }{ f.help.clone() }</div>
            </td>
            <td>{ object }<div class="source">{ source }</div>
                if let Some(h) = &f.hop { <div class="hop">{ format!("hop {h}") }</div> }
            </td>
        </tr>
    }
}

#[component]
pub fn Findings(props: &FindingsProps) -> Html {
    let r = &props.report;
    let not_run = r.not_run.iter().map(|n| html! { <li><code>{ n.code }</code>{ ": " }{ n.reason.clone() }</li> });
    html! {
        <div id="findings">
            if r.findings.is_empty() {
                <p class="empty">{ "No findings: nothing in these inputs stands in the way of this upgrade." }</p>
            } else {
                <table class="findings">
                    <thead><tr><th>{"Severity"}</th><th>{"Rule"}</th><th>{"Finding"}</th><th>{"Object"}</th></tr></thead>
                    <tbody>
                        { for [Severity::Blocker, Severity::Warning, Severity::Info].into_iter()
                            .flat_map(|s| r.findings.iter().filter(move |f| f.severity == s))
                            .map(finding_row) }
                    </tbody>
                </table>
            }
            if !r.not_run.is_empty() {
                <div class="not-run"><h3>{ "Checks that did not run" }</h3><ul>{ for not_run }</ul></div>
            }
        </div>
    }
}
