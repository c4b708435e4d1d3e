//! The verdict line: ready or blocked, the counts and the upgrade path.

use std::rc::Rc;

use kube_preflight::Report;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SummaryProps {
    pub report: Rc<Report>,
    pub demo: bool,
}

#[component]
pub fn SummaryView(props: &SummaryProps) -> Html {
    let r = &props.report;
    let s = &r.summary;
    let u = &r.upgrade;
    let from = u.from.clone().unwrap_or_else(|| "unknown".into());
    let from_note = u.from_source.map(|src| format!(" (from {src})")).unwrap_or_default();
    html! {
        <section class={classes!("summary", s.verdict)} id="summary">
            <div class="verdict" id="verdict">{ s.verdict.to_uppercase() }</div>
            <div class="counts">
                <span class="count blocker">{ format!("{} blocker(s)", s.blocker) }</span>
                <span class="count warning">{ format!("{} warning(s)", s.warning) }</span>
                <span class="count info">{ format!("{} info", s.info) }</span>
            </div>
            <div class="path">
                { format!("{from}{from_note} → {} with {}", u.to, u.profile) }
                if u.path.len() > 1 {
                    { format!(" · hops: {}", u.path.join(" → ")) }
                }
                if props.demo {
                    <span class="demo-badge">{" · demo cluster"}</span>
                }
            </div>
        </section>
    }
}
