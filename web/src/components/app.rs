//! The page: controls, verdict, and tabs over the report.

use yew::prelude::*;

use super::controls::Controls;
use super::findings::Findings;
use super::inventory::InventoryView;
use super::plan::PlanView;
use super::rules::RulesView;
use super::summary::SummaryView;
use crate::state::{Action, State, Tab};

#[component]
pub fn App() -> Html {
    let state = use_reducer(State::demo);
    let tab_button = |tab: Tab, label: &str| {
        let state = state.clone();
        let active = state.tab == tab;
        let onclick = Callback::from(move |_| state.dispatch(Action::SetTab(tab)));
        html! {
            <button class={classes!("tab", active.then_some("active"))} {onclick} data-tab={label.to_lowercase()}>{label.to_owned()}</button>
        }
    };
    let body = match (&state.result, state.tab) {
        (_, Tab::Rules) => html! { <RulesView /> },
        (Err(e), _) => {
            html! { <div class="error" role="alert"><strong>{"Cannot check these inputs: "}</strong><code>{e.clone()}</code></div> }
        }
        (Ok(r), Tab::Findings) => html! { <Findings report={r.clone()} /> },
        (Ok(r), Tab::Plan) => html! { <PlanView report={r.clone()} /> },
        (Ok(r), Tab::Inventory) => html! { <InventoryView report={r.clone()} /> },
    };
    html! {
        <main>
            <header>
                <h1>{"kube-preflight"}</h1>
                <p class="tagline">{"Kubernetes upgrade preflight: findings, plan and expected downtime. Runs entirely in your browser: no file leaves this page."}</p>
            </header>
            <Controls state={state.clone()} />
            if let Ok(r) = &state.result {
                <SummaryView report={r.clone()} demo={state.using_demo} />
            }
            <nav class="tabs">
                { tab_button(Tab::Findings, "Findings") }
                { tab_button(Tab::Plan, "Plan") }
                { tab_button(Tab::Inventory, "Inventory") }
                { tab_button(Tab::Rules, "Rules") }
            </nav>
            <section class="body">{ body }</section>
        </main>
    }
}
