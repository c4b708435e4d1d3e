//! The rule catalogue with each rule's documentation; a finding's "all rules" opens its rule here.

use yew::prelude::*;

use super::ctx::use_ctx;
use crate::markdown;

#[component]
pub fn RulesView() -> Html {
    let ctx = use_ctx();
    let open = ctx.state.rule.clone();
    {
        let open = open.clone();
        let ctx = ctx.clone();
        use_effect_with(open, move |open| {
            if let Some(code) = open {
                if let Some(el) = ctx.by_id(&code.replace('/', "-")) {
                    el.scroll_into_view();
                }
            }
        });
    }
    html! {
        <div id="rules">
            { for kube_preflight::rules().iter().map(|r| html! {
                <details class="rule" id={r.code.replace('/', "-")} open={open.as_deref() == Some(r.code)}>
                    <summary><code>{ r.code }</code>{ " " }<span class={classes!("sev", r.severity.name())}>{ r.severity.name() }</span>{ " " }{ r.title }</summary>
                    <div class="docs">{ markdown::render(ctx.state.docs_of(r.code), 2) }</div>
                </details>
            }) }
        </div>
    }
}
