//! `<kube-preflight-report>`: a given report shown with the dashboard's own views (verdict, findings with
//! their filters, the plan's timeline and replay, downtime), with no inputs, options or worker. The npm
//! package's `report.mjs` defines the element and mounts this into its shadow root.

use std::rc::Rc;

use yew::prelude::*;

use super::checks::ChecksView;
use super::ctx::{tabbed, use_replay_clock, Ctx};
use super::downtime::DowntimeView;
use super::findings::FindingsView;
use super::overview::Overview;
use super::plan::PlanView;
use super::verdict::Verdict;
use crate::bridge::Bridge;
use crate::options::Opts;
use crate::state::{Action, State, Tab, Theme};
use crate::view::ReportView;

/// The views the element offers.
pub const TABS: [Tab; 5] = [Tab::Overview, Tab::Findings, Tab::Checks, Tab::Plan, Tab::Downtime];

#[derive(Properties, PartialEq)]
pub struct ElementProps {
    pub report: Rc<ReportView>,
    /// Every rule's docs by code (`state::rule_docs`: the element has no worker to send them).
    pub docs: Rc<Vec<(String, String)>>,
}

#[component]
pub fn ReportElement(props: &ElementProps) -> Html {
    let docs = props.docs.clone();
    let state = use_reducer(move || {
        let mut s = State::new(Opts::default(), Tab::Overview, Theme::Auto);
        s.docs = docs;
        s
    });
    let bridge = use_memo((), |_| Bridge::inert(Callback::noop()));
    let root = use_node_ref();
    let ctx = Ctx { state: state.clone(), bridge: (*bridge).clone(), root: root.clone() };
    {
        let dispatcher = state.dispatcher();
        use_effect_with(props.report.clone(), move |r| dispatcher.dispatch(Action::Show(r.clone())));
    }
    use_replay_clock(&state);
    let body = match (&state.report, state.tab) {
        (None, _) => html! {},
        (Some(_), Tab::Findings) => html! { <FindingsView /> },
        (Some(_), Tab::Checks) => html! { <ChecksView /> },
        (Some(_), Tab::Plan) => html! { <PlanView /> },
        (Some(_), Tab::Downtime) => html! { <DowntimeView /> },
        (Some(_), _) => html! { <Overview /> },
    };
    html! {
        <ContextProvider<Ctx> context={ctx.clone()}>
            <div class="kp-report" ref={root}>
                if state.report.is_some() { <Verdict /> }
                { tabbed(&ctx, &TABS, body) }
            </div>
        </ContextProvider<Ctx>>
    }
}
