//! The rule catalogue with each rule's documentation.

use yew::prelude::*;

use crate::markdown;

#[component]
pub fn RulesView() -> Html {
    let rules = kube_preflight::rules();
    html! {
        <div id="rules">
            { for rules.iter().map(|r| html! {
                <details class="rule" id={r.code.replace('/', "-")}>
                    <summary><code>{ r.code }</code>{ " " }<span class={classes!("sev", r.severity.name())}>{ r.severity.name() }</span>{ " " }{ r.title }</summary>
                    <div class="docs">{ markdown::render(r.docs, 2) }</div>
                </details>
            }) }
        </div>
    }
}
