//! What was read: files, objects by kind, and every skipped file with its reason.

use std::rc::Rc;

use kube_preflight::Report;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct InventoryProps {
    pub report: Rc<Report>,
}

#[component]
pub fn InventoryView(props: &InventoryProps) -> Html {
    let inv = &props.report.inventory;
    html! {
        <div id="inventory">
            <p>{ format!("{} file(s), {} object(s).", inv.files, inv.objects) }</p>
            <table class="kinds">
                <thead><tr><th>{"Kind"}</th><th>{"Objects"}</th></tr></thead>
                <tbody>{ for inv.by_kind.iter().map(|(k, n)| html! { <tr><td>{ k.clone() }</td><td>{ *n }</td></tr> }) }</tbody>
            </table>
            if !inv.skipped.is_empty() {
                <h3>{ "Skipped" }</h3>
                <ul class="skipped">{ for inv.skipped.iter().map(|s| html! { <li><code>{ s.file.clone() }</code>{ ": " }{ s.reason.clone() }</li> }) }</ul>
            }
        </div>
    }
}
