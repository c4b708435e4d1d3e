//! The overview: the worst findings, the plan timeline and the downtime, on one screen.

use yew::prelude::*;

use super::ctx::use_ctx;
use super::downtime::DowntimeChart;
use super::findings::finding_row;
use super::plan::Gantt;
use crate::state::{Action, Tab};

#[component]
pub fn Overview() -> Html {
    let ctx = use_ctx();
    let Some(r) = ctx.state.report.clone() else { return html! {} };
    let all = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.send(Action::Tab(Tab::Findings)))
    };
    html! {
        <div id="overview" class="overview">
            <section class="worst" aria-label="Worst findings">
                <h3>{ "Worst findings" }</h3>
                if r.findings.is_empty() { <p class="empty">{ "No findings." }</p> }
                <ul part="findings" class="findings compact">{ for r.findings.iter().take(6).enumerate().map(|(i, f)| finding_row(&ctx, i, f, false, true)) }</ul>
                if r.findings.len() > 6 { <button type="button" class="link" onclick={all}>{ format!("All {} findings", r.findings.len()) }</button> }
            </section>
            <section class="side">
                <h3>{ "Plan timeline" }</h3>
                <Gantt compact=true />
                <h3>{ "Downtime" }</h3>
                <DowntimeChart limit={4} />
            </section>
        </div>
    }
}
