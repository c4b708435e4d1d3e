//! Every check, as a change review reads it: failed (blockers), flagged (warnings or info), not run (and
//! why), not checked (its family's inputs not read, not simulated or unreadable, or skipped), accepted (only suppressed findings) or passed; searchable, sorted by outcome or by rule, and a
//! rule with findings opens them.

use yew::prelude::*;

use super::ctx::{use_ctx, value_of};
use crate::state::{Action, Tab};
use crate::view::{checks, CheckSort, Filter, Outcome};

#[component]
pub fn ChecksView() -> Html {
    let ctx = use_ctx();
    let text = use_state(String::new);
    let sort = use_state(CheckSort::default);
    let Some(r) = ctx.state.report.clone() else { return html! {} };
    let rows = checks(&r, &text, *sort);
    let all = kube_preflight::rules().len();
    let every = if text.trim().is_empty() { rows.clone() } else { checks(&r, "", CheckSort::Code) };
    let count = |name: &str| every.iter().filter(|c| c.outcome.name() == name).count();
    let tally = format!(
        "{all} checks: {} failed, {} flagged, {} not run, {} not checked, {} accepted, {} passed",
        count("failed"),
        count("flagged"),
        count("not run"),
        count("not checked"),
        count("accepted"),
        count("passed")
    );
    let on_text = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| text.set(value_of(&e)))
    };
    let sort_button = |by: CheckSort, label: &'static str| {
        let sort = sort.clone();
        let active = *sort == by;
        html! {
            <th scope="col" aria-sort={if active { "ascending" } else { "none" }}>
                <button type="button" class="sort" data-sort={label.to_ascii_lowercase()} onclick={Callback::from(move |_| sort.set(by))}>
                    { label }{ if active { " ▲" } else { "" } }
                </button>
            </th>
        }
    };
    let row = |c: &crate::view::CheckRow| {
        let detail = match &c.outcome {
            Outcome::Failed { blocker, warning, info } => {
                let parts: Vec<String> = [(*blocker, "blocker"), (*warning, "warning"), (*info, "info")]
                    .iter()
                    .filter(|(n, _)| *n > 0)
                    .map(|(n, s)| format!("{n} {s}"))
                    .collect();
                let ctx = ctx.clone();
                let code = c.code.to_owned();
                let open = Callback::from(move |_| {
                    ctx.send(Action::Filter(Filter { rule: code.clone(), ..Filter::default() }));
                    ctx.send(Action::Tab(Tab::Findings));
                });
                html! { <button type="button" class="link" onclick={open}>{ parts.join(", ") }</button> }
            }
            Outcome::Accepted(n) => html! { { format!("{n} suppressed finding(s)") } },
            Outcome::NotRun(why) | Outcome::NotChecked(why) => html! { { why.clone() } },
            Outcome::Passed => html! { { "no finding" } },
        };
        let name = c.outcome.name();
        html! {
            <tr data-check={c.code} class={classes!("check", name.replace(' ', "-"))}>
                <td><code>{ c.code }</code></td>
                <td>{ c.title }</td>
                <td><span class={classes!("outcome", name.replace(' ', "-"))}>{ name }</span></td>
                <td>{ detail }</td>
            </tr>
        }
    };
    html! {
        <div id="checks">
            <p class="matched" id="checks-tally">{ tally }</p>
            <label class="field">{ "Search" }
                <input id="checks-text" type="search" value={(*text).clone()} oninput={on_text} placeholder="rule, title or outcome" />
            </label>
            <div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways)">
                <table part="table" class="checks">
                    <caption>{ format!("{} of {all} checks shown", rows.len()) }</caption>
                    <thead><tr>
                        { sort_button(CheckSort::Code, "Rule") }
                        <th scope="col">{ "Checks that" }</th>
                        { sort_button(CheckSort::Outcome, "Outcome") }
                        <th scope="col">{ "Details" }</th>
                    </tr></thead>
                    <tbody>{ for rows.iter().map(row) }</tbody>
                </table>
            </div>
        </div>
    }
}
