//! The verdict at a glance, and what it stands on: blocked, ready, incomplete or nothing checked; counts by
//! severity, the hop path, the plan's length and the workloads that will be down; the objects read, the
//! inputs left out and the checks not run, with why; whether it is current; the target when the page chose
//! it, and the distribution the inputs look like when it is not the one chosen.

use kube_preflight::units::duration;
use yew::prelude::*;

use super::ctx::{use_ctx, Ctx};
use crate::state::Status;
use crate::view::{Headline, ReportView};

/// Focus an options field (the card's "set Current" and "set Target").
fn focus_button(ctx: &Ctx, id: &'static str, label: &'static str) -> Html {
    let ctx = ctx.clone();
    let onclick = Callback::from(move |_| ctx.focus_id(id));
    html! { <button type="button" class="link" data-focus={id} {onclick}>{ label }</button> }
}

/// What the verdict stands on: objects read, inputs left out (named, with where), checks not run (and why).
/// `listed`: the inputs the page lists (0 when it lists none, as the element): a folder's files of other
/// kinds are listed but not read, so the card counts both rather than one number the bar contradicts.
fn stands_on(r: &ReportView, listed: usize) -> Html {
    let inv = &r.inventory;
    let not_run = &r.not_run;
    let unchecked = r.coverage.unchecked();
    html! {
        <div class="stands-on" id="stands-on">
            <p>{ if listed as u64 > inv.files {
                    format!("Read {} object(s) from {} of {} input(s)", inv.objects, inv.files, listed)
                } else {
                    format!("Read {} object(s) from {} input(s)", inv.objects, inv.files)
                } }
                if !inv.skipped.is_empty() { { format!(" · {} left out", inv.skipped.len()) } }
                if !not_run.is_empty() { { format!(" · {} check(s) not run", not_run.len()) } }
                if inv.objects > 0 && !unchecked.is_empty() { { format!(" · {} family(ies) not checked", unchecked.len()) } }
            </p>
            if !inv.skipped.is_empty() {
                <ul class="left-out" id="left-out" aria-label="Inputs left out">
                    { for inv.skipped.iter().map(|s| html! { <li><code>{ s.file.clone() }</code>{ ": " }{ s.reason.clone() }</li> }) }
                </ul>
            }
            if !not_run.is_empty() {
                <ul class="not-run" id="not-run" aria-label="Checks not run">
                    { for not_run.iter().map(|n| html! { <li><code>{ n.code.clone() }</code>{ ": " }{ n.reason.clone() }</li> }) }
                </ul>
            }
            if inv.objects > 0 && !unchecked.is_empty() {
                <details class="not-checked" id="not-checked">
                    <summary>{ format!("Not checked: {}", unchecked.iter().map(|f| format!("{} ({})", f.family, f.state_words())).collect::<Vec<_>>().join(", ")) }</summary>
                    <ul aria-label="Not checked, and why">
                        { for unchecked.iter().map(|f| html! {
                            <li data-family={f.id.clone()} data-state={f.state.clone()}><strong>{ f.family.clone() }</strong>{ format!(" ({}, {}): ", f.id, f.state_words()) }{ f.reason.clone().unwrap_or_default() }</li>
                        }) }
                    </ul>
                </details>
            }
            if r.coverage.scope == "manifests" {
                <p class="scope" id="scope" role="note">{ kube_preflight::coverage::MANIFESTS_SCOPE }</p>
            }
            if inv.objects > 0 && r.coverage.beyond_review {
                <p class="beyond-review" id="beyond-review" role="note">
                    { format!("The target {} is past {}, the newest release the API and runtime tables were reviewed through: removals and requirements announced after it are not known.", r.upgrade.to, r.coverage.reviewed_through) }
                </p>
            }
        </div>
    }
}

/// The distribution the inputs look like, when the report is for another: a button to switch.
fn detected(ctx: &Ctx, r: &ReportView) -> Html {
    let Some(d) = r.inventory.detected_profile.as_ref().filter(|d| !d.matches) else { return html! {} };
    match &d.profile {
        Some(p) => {
            let switch = {
                let ctx = ctx.clone();
                let p = p.clone();
                Callback::from(move |_| {
                    let p = p.clone();
                    ctx.edit_opts(move |o| o.profile = p);
                })
            };
            html! {
                <p class="detected" id="detected" role="note">
                    { format!("These inputs look like {p} ({}); this report is for {}. ", d.first(), r.upgrade.profile) }
                    if ctx.bridge.is_live() {
                        <button type="button" id="use-detected" onclick={switch}>{ format!("Use {p}") }</button>
                    }
                </p>
            }
        }
        None => html! {
            <p class="detected" id="detected" role="note">{ format!(
                "These inputs look like a managed {} cluster ({}): its provider upgrades the control plane, and the \
                 plan here is an estimate for {}.",
                d.managed.clone().unwrap_or_default().to_ascii_uppercase(), d.first(), r.upgrade.profile) }</p>
        },
    }
}

#[component]
pub fn Verdict() -> Html {
    let ctx = use_ctx();
    let Some(r) = ctx.state.report.clone() else { return html! {} };
    let s = &r.summary;
    let u = &r.upgrade;
    let headline = Headline::of(&r);
    let from = u.from.clone().unwrap_or_else(|| "unknown".into());
    let hops = match (u.path.is_empty(), r.plan.steps.is_empty()) {
        // The API server is at the target already: the plan finishes the upgrade under way.
        (true, false) => format!("finishing {}", u.to),
        (true, true) => "no upgrade".to_owned(),
        _ => u.hops(),
    };
    let down = &r.downtime.workloads;
    let longest = down.first().map(|w| format!("{} ({})", w.display(), duration(w.seconds)));
    let stale = ctx.state.stale;
    let stale_line = match (&ctx.state.status, stale) {
        (_, false) => html! {},
        (Status::Failed(_), true) => html! {
            <p class="stale-line" id="stale" role="alert">{ format!(
                "Not current: what is set now could not be checked (see the error above). Shown: the last result, {} for {}.",
                headline.label(), r.upgrade.to) }</p>
        },
        // While checking, the card is only marked (no line: nothing under the pointer moves).
        (_, true) => html! {},
    };
    // The families that make the run incomplete, but for the current version and the plan when the card
    // already says that the current version is unknown (one cause, said once).
    let said_apart = r.rules_not_run() > 0;
    let standing: Vec<&crate::view::FamilyV> = r
        .coverage
        .families
        .iter()
        .filter(|f| r.coverage.incomplete.contains(&f.id))
        .filter(|f| !(said_apart && matches!(f.id.as_str(), "current-version" | "plan")))
        .collect();
    let auto_target = ctx.state.opts.to.trim().is_empty() && !ctx.state.using_demo && u.from.is_some() && !stale;
    html! {
        <section part="verdict" class={classes!("verdict-card", headline.class(), stale.then_some("stale"))} id="summary" aria-label="Verdict">
            <div class="verdict" id="verdict" role="status" aria-live="polite" aria-atomic="true">{ headline.label() }</div>
            // Said to assistive technology as it happens: the card is only marked while checking.
            <p class="visually-hidden" id="stale-live" aria-live="polite">{
                if stale && ctx.state.busy() { format!("Checking again: the report shown, {}, is for what was set before.", headline.label()) } else { String::new() }
            }</p>
            { stale_line }
            if headline == Headline::NothingChecked {
                <p class="nothing-read" id="nothing-read">{ format!("No Kubernetes object was read from {} input(s): nothing was checked, so this is not a pass.", r.inventory.files) }</p>
            }
            if headline == Headline::Incomplete && !r.unreadable.is_empty() {
                <p class="incomplete" id="incomplete-unreadable">
                    { format!("No blocker among what was read, but {} input(s) you picked could not be read, so the report does not cover them: {}. This is not a pass.",
                        r.unreadable.len(),
                        r.unreadable.iter().map(|(n, why)| format!("{n} ({why})")).collect::<Vec<_>>().join("; ")) }
                </p>
            }
            if headline == Headline::Incomplete && r.rules_not_run() > 0 {
                <p class="incomplete" id="incomplete">
                    { format!("No blocker among the checks that ran, but {} check(s) and the plan could not run: the current version is not known. This is not a pass. ", r.rules_not_run()) }
                    if ctx.bridge.is_live() { { focus_button(&ctx, "from", "Set Current") } }
                </p>
            }
            if headline == Headline::Incomplete && !standing.is_empty() {
                <p class="incomplete" id="incomplete-families">
                    { format!("No blocker among what was checked, but {} family(ies) of checks in scope stand on nothing: {}. This is not a pass: give their inputs, or leave them out by choice with --skip.",
                        standing.len(),
                        standing.iter().map(|f| format!("{} ({})", f.family, f.state_words())).collect::<Vec<_>>().join(", ")) }
                </p>
            }
            <div class="counts">
                <span class="count blocker">{ format!("{} blocker(s)", s.blocker) }</span>
                <span class="count warning">{ format!("{} warning(s)", s.warning) }</span>
                <span class="count info">{ format!("{} info", s.info) }</span>
                if s.suppressed.total() > 0 {
                    <span class="count suppressed" id="suppressed-count">{ format!("{} suppressed", s.suppressed.total()) }</span>
                }
            </div>
            <dl class="facts">
                <div><dt>{ "Path" }</dt><dd id="path">{ hops }{ format!(" · {}", u.profile) }</dd></div>
                if let Some(src) = &u.from_source {
                    <div><dt>{ "Current from" }</dt><dd id="from-source">{ src.clone() }{ u.from_detail.as_ref().map(|d| format!(": {d}")) }</dd></div>
                }
                <div><dt>{ "Plan" }</dt><dd id="total">{ if r.plan.phases.is_empty() && r.plan.stops.is_empty() { "none".to_owned() } else if r.plan.stops.is_empty() { duration(r.plan.total_seconds) } else { format!("{}, then it stops", duration(r.plan.total_seconds)) } }</dd></div>
                <div><dt>{ "Workloads down" }</dt><dd id="down">
                    if r.plan.phases.is_empty() && r.plan.stops.is_empty() { { "not simulated (no plan)" } } else { { down.len() } }
                    if r.downtime.partial { <span class="partial" id="down-partial">{ format!(" so far (partial: {} node(s) past the stop not simulated)", r.plan.not_simulated.len()) }</span> }
                    if let Some(l) = longest { <span class="longest">{ format!(" · longest: {l}") }</span> }
                </dd></div>
                if let Some(ir) = &r.plan.if_resolved {
                    <div><dt>{ "If resolved" }</dt><dd id="if-resolved-fact">{ format!(
                        "{}{}, {} workload(s) down, {} finding(s) more or changed",
                        duration(ir.plan.total_seconds),
                        if ir.plan.stops.is_empty() { "" } else { ", then it still stops" },
                        ir.downtime.workloads.len(),
                        ir.revealed.len()
                    ) }</dd></div>
                }
            </dl>
            { stands_on(&r, ctx.state.inputs.len()) }
            if auto_target {
                <p class="auto-target" id="auto-target">
                    { format!("Target not set: checked against {}, the minor after {from}. ", u.to) }
                    { focus_button(&ctx, "to", "Set Target") }
                </p>
            }
            { detected(&ctx, &r) }
            if ctx.state.using_demo { <span class="demo-badge">{ "demo cluster" }</span> }
        </section>
    }
}
