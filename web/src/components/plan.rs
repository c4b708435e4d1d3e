//! The plan: an SVG Gantt chart per hop, phase and node (concurrency drawn as the number of nodes in
//! flight), and the replay: a time slider and play over a map of the nodes by pool, with the pods being
//! moved and the workloads without a Ready replica at that moment.

use kube_preflight::units::duration;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::charts::{axis, bar, Scale};
use super::ctx::use_ctx;
use super::nodes::NodeSteps;
use crate::state::Action;
use crate::view::{fixed, frame, in_flight, phase_steps, pools, NodeState, ReportView};

const ROW: f64 = 22.0;
const NODE_ROW: f64 = 14.0;
/// Phases with more nodes than this start folded (their in-flight profile still shows).
const OPEN_UP_TO: usize = 12;

fn phase_label(p: &crate::view::PhaseV) -> String {
    let mut s = p.name.clone();
    if let Some(pool) = &p.pool {
        s = format!("{s} · {pool}");
    }
    s
}

#[derive(Properties, PartialEq)]
pub struct GanttProps {
    /// Draw compact (the overview): phases only.
    #[prop_or_default]
    pub compact: bool,
    /// Draw this report's plan instead of the one shown (the what-if's).
    #[prop_or_default]
    pub report: Option<std::rc::Rc<ReportView>>,
}

#[component]
pub fn Gantt(props: &GanttProps) -> Html {
    let ctx = use_ctx();
    let focus = use_state(String::new);
    // The phases opened or closed by hand (a list: a few at most, and no set type in the page's wasm for it).
    let toggled = use_state(Vec::<usize>::new);
    let zoom = use_state(|| 1u32);
    let Some(r) = props.report.clone().or_else(|| ctx.state.report.clone()) else { return html! {} };
    let plan = &r.plan;
    if plan.phases.is_empty() && plan.stops.is_empty() {
        let why = r
            .not_run
            .iter()
            .find(|n| n.code == "plan")
            .map(|n| n.reason.clone())
            .unwrap_or_else(|| "there are no nodes to plan for".into());
        return html! { <p class="empty" id="no-plan">{ "No plan: " }{ why }</p> };
    }
    let width = if props.compact { 620.0 } else { 1100.0 };
    let sc = Scale { label: if props.compact { 150.0 } else { 210.0 }, width, total: plan.total_seconds };
    let on_focus = {
        let focus = focus.clone();
        Callback::from(move |s: String| focus.set(s))
    };
    let mut y = 20.0;
    let mut rows: Vec<Html> = Vec::new();
    let mut last_hop: Option<Option<String>> = None;
    for (i, p) in plan.phases.iter().enumerate() {
        if last_hop.as_ref() != Some(&p.hop) {
            last_hop = Some(p.hop.clone());
            rows.push(html! { <text class="hop-label" x="4" y={fixed(y + 14.0, 0)}>{ format!("hop to {}", p.hop.clone().unwrap_or_default()) }</text> });
            y += ROW;
        }
        let steps = phase_steps(plan, p);
        let open = !props.compact && ((steps.len() <= OPEN_UP_TO) != toggled.contains(&i));
        let details = format!(
            "{}: {} node(s), {} at once, {} to {} ({})",
            phase_label(p),
            p.nodes.len(),
            p.concurrency,
            duration(p.start_seconds),
            duration(p.end_seconds),
            duration(p.end_seconds - p.start_seconds)
        );
        let toggle = {
            let toggled = toggled.clone();
            Callback::from(move |()| {
                let mut t = (*toggled).clone();
                match t.iter().position(|x| *x == i) {
                    Some(k) => {
                        t.remove(k);
                    }
                    None => t.push(i),
                }
                toggled.set(t);
            })
        };
        // The in-flight profile: how many nodes are out at each moment (the concurrency, as it happens).
        let profile = in_flight(&steps);
        let peak = profile.iter().map(|(_, c)| *c).max().unwrap_or(0).max(1);
        let mut d = String::new();
        for (j, (t, c)) in profile.iter().enumerate() {
            let next = profile.get(j + 1).map_or(*t, |n| n.0);
            let h = f64::from(*c) / f64::from(peak) * (ROW - 6.0);
            if *c > 0 {
                d.push_str(&format!(
                    "M{} {}h{}v{}h{}Z",
                    fixed(sc.x(*t), 1),
                    fixed(y + ROW - 3.0 - h, 1),
                    fixed(sc.w(*t, next), 1),
                    fixed(h, 1),
                    fixed(-sc.w(*t, next), 1)
                ));
            }
        }
        rows.push(html! {
            <g class="phase-row" data-phase={p.name.clone()}>
                <text x="12" y={fixed(y + 15.0, 0)} class="row-label">{ phase_label(p) }</text>
                if !props.compact && !steps.is_empty() {
                    <text x={fixed(sc.label - 6.0, 0)} y={fixed(y + 15.0, 0)} text-anchor="end" class="fold" tabindex="0" role="button"
                        aria-label={format!("{} the nodes of {}", if open { "Hide" } else { "Show" }, phase_label(p))} onclick={toggle.reform(|_: MouseEvent| ())}
                        onkeydown={Callback::from(move |e: KeyboardEvent| if e.key() == "Enter" || e.key() == " " { e.prevent_default(); toggle.emit(()) })}>
                        { if open { "▾" } else { "▸" } }
                    </text>
                }
                { bar(sc, y + 3.0, ROW - 6.0, p.start_seconds, p.end_seconds, "phase", details, on_focus.clone()) }
                <path class="in-flight" d={d} aria-hidden="true" />
            </g>
        });
        y += ROW;
        if open {
            for s in &steps {
                let details = format!(
                    "{}: {} from {} to {}",
                    s.node,
                    s.phase,
                    duration(s.start_seconds),
                    duration(s.end_seconds)
                );
                rows.push(html! {
                    <g class="node-row" data-node={s.node.clone()}>
                        <text x="24" y={fixed(y + 11.0, 0)} class="node-label">{ s.node.clone() }</text>
                        { bar(sc, y + 2.0, NODE_ROW - 4.0, s.start_seconds, s.end_seconds, "step", details, on_focus.clone()) }
                    </g>
                });
                y += NODE_ROW;
            }
        }
    }
    // Where the plan stops: a red marker at the moment, and a row that says why.
    for (k, st) in plan.stops.iter().enumerate() {
        // Kept whole inside the chart at its right edge.
        let x = sc.x(st.at_seconds).min(sc.width - 8.0);
        let details = st.describe();
        let label = match (&st.node, &st.pool) {
            (Some(n), _) => format!("stops: {n}"),
            (None, Some(p)) => format!("stops: {p}"),
            _ => "stops".to_owned(),
        };
        let focus_it = {
            let on_focus = on_focus.clone();
            let d = details.clone();
            Callback::from(move |_: FocusEvent| on_focus.emit(d.clone()))
        };
        let hover_it = {
            let on_focus = on_focus.clone();
            let d = details.clone();
            Callback::from(move |_: MouseEvent| on_focus.emit(d.clone()))
        };
        rows.push(html! {
            <g class="stop-row" data-stop={k.to_string()} data-code={st.code.clone()}>
                <text x="12" y={fixed(y + 15.0, 0)} class="row-label stop-label">{ label }</text>
                <path class="stop-marker" d={format!("M{} {}l7 12h-14Z", fixed(x, 1), fixed(y + 3.0, 1))} tabindex="0" role="img"
                    aria-label={details.clone()} onfocus={focus_it} onmouseover={hover_it}>
                    <title>{ details }</title>
                </path>
            </g>
        });
        y += ROW;
    }
    let height = y + 6.0;
    let cursor = (!props.compact && ctx.state.t > 0).then(|| sc.x(ctx.state.t));
    html! {
        <figure class="gantt" id={if props.compact { "gantt-mini" } else { "gantt" }}>
            if !props.compact {
                <div class="zoom" role="group" aria-label="Timeline zoom">
                    <button type="button" id="zoom-out" aria-label="Zoom out" disabled={*zoom <= 1} onclick={
                        let zoom = zoom.clone();
                        Callback::from(move |_| zoom.set((*zoom / 2).max(1)))
                    }>{ "−" }</button>
                    <span id="zoom-level">{ format!("{}×", *zoom) }</span>
                    <button type="button" id="zoom-in" aria-label="Zoom in" disabled={*zoom >= 32} onclick={
                        let zoom = zoom.clone();
                        Callback::from(move |_| zoom.set((*zoom * 2).min(32)))
                    }>{ "+" }</button>
                    <span class="hint">{ "Scroll the timeline sideways to pan." }</span>
                </div>
            }
            <div part="chart" class={classes!("chart-scroll", format!("zoom-{}", *zoom))} tabindex="0" role="region" aria-label="Plan timeline (scrolls sideways)">
            <svg viewBox={format!("0 0 {} {}", fixed(width, 0), fixed(height, 0))} width={format!("{}%", 100 * *zoom)} role="group"
                aria-label={format!("Plan timeline: {} phase(s), {} in all", plan.phases.len(), duration(plan.total_seconds))}>
                { axis(sc, height) }
                { for rows }
                if let Some(x) = cursor { <line class="cursor" x1={fixed(x, 1)} x2={fixed(x, 1)} y1="14" y2={fixed(height, 0)} /> }
            </svg>
            </div>
            if !plan.stops.is_empty() {
                <ul class="plan-stops" id={if props.compact { "plan-stops-mini" } else { "plan-stops" }}>
                    { for plan.stops.iter().map(|st| html! { <li class="stop" data-code={st.code.clone()}>{ st.describe() }</li> }) }
                </ul>
            }
            if !props.compact {
                <figcaption id="gantt-details" aria-live="polite">{ if focus.is_empty() { "Hover over or focus a bar (Tab) for its details; ▸ shows a phase's nodes.".to_owned() } else { (*focus).clone() } }</figcaption>
            }
        </figure>
    }
}

#[derive(Properties, PartialEq)]
pub struct ReplayProps {
    /// Replay this report's plan instead of the one shown (the what-if's), on a slider of its own: the
    /// real replay's time and play stay as they are. Its controls' ids take the prefix `whatif-`.
    #[prop_or_default]
    pub report: Option<std::rc::Rc<ReportView>>,
}

/// The replay: slider, play, the node map, and what is happening at that moment.
#[component]
pub fn Replay(props: &ReplayProps) -> Html {
    let ctx = use_ctx();
    let own_t = use_state(|| 0u64);
    let other = props.report.is_some();
    let Some(r) = props.report.clone().or_else(|| ctx.state.report.clone()) else { return html! {} };
    let total = r.plan.total_seconds;
    if total == 0 {
        return html! {};
    }
    let t = if other { (*own_t).min(total) } else { ctx.state.t };
    let f = frame(&r, &ctx.state.nodes, t);
    let id = |name: &str| if other { format!("whatif-{name}") } else { name.to_owned() };
    let on_slide = {
        let ctx = ctx.clone();
        let own_t = own_t.clone();
        Callback::from(move |e: InputEvent| {
            let i: HtmlInputElement = e.target_unchecked_into();
            let v = i.value().parse().unwrap_or(0);
            if other {
                own_t.set(v);
            } else {
                ctx.send(Action::Time(v));
            }
        })
    };
    let on_play = {
        let ctx = ctx.clone();
        let playing = ctx.state.playing;
        Callback::from(move |_| ctx.send(Action::Play(!playing)))
    };
    html! {
        <section class="replay" id={id("replay")} aria-label={if other { "Replay of the plan with these options" } else { "Replay" }}>
            <div class="replay-controls">
                if !other {
                    <button type="button" id="play" onclick={on_play} aria-pressed={ctx.state.playing.to_string()}>{ if ctx.state.playing { "Pause" } else { "Play" } }</button>
                }
                <input type="range" id={id("replay-time")} min="0" max={total.to_string()} step="15" value={t.to_string()} oninput={on_slide}
                    aria-label="Time into the upgrade" aria-valuetext={duration(t)} />
                <output id={id("replay-clock")} for={id("replay-time")}>{ format!("{} of {}", duration(t), duration(total)) }</output>
            </div>
            { node_map(&r, &ctx.state.nodes, &f) }
            <div class="replay-lists">
                <div><h4>{ format!("Nodes out ({})", f.out.len()) }</h4><ul id={id("nodes-out")}>{ for f.out.iter().take(40).map(|n| html! { <li>{ n.clone() }</li> }) }</ul></div>
                <div><h4>{ format!("Pods being moved ({})", f.moving) }</h4><ul id={id("pods-moving")}>{ for f.moving_names.iter().take(40).map(|n| html! { <li>{ n.clone() }</li> }) }</ul></div>
                <div><h4>{ format!("Workloads with no Ready replica ({})", f.down.len()) }</h4><ul id={id("workloads-down")}>{ for f.down.iter().take(40).map(|n| html! { <li class="down">{ n.clone() }</li> }) }</ul></div>
            </div>
        </section>
    }
}

/// A legend's key: the cell as the map draws it.
fn legend_key(st: NodeState) -> Html {
    html! {
        <svg class="key-cell" viewBox="0 0 11 11" width="11" height="11" aria-hidden="true">
            <rect class={classes!("node", st.name())} x="0" y="0" width="11" height="11" rx="2" />
            if let Some(d) = crate::view::state_mark(st, 0.0, 0.0) { <path class="node-mark" d={d} /> }
        </svg>
    }
}

fn node_map(r: &ReportView, nodes: &[crate::protocol::NodeFacts], f: &crate::view::Frame) -> Html {
    let groups = pools(&r.plan, nodes);
    let (svg, y) = crate::view::node_cells(&groups, &f.states);
    let out = Html::from_html_unchecked(AttrValue::from(svg));
    html! {
        <figure part="chart" class="node-map" tabindex="0" role="region" aria-label="Nodes by pool (scrolls sideways)">
            <svg viewBox={format!("0 0 {} {}", fixed(crate::view::MAP_PER_ROW as f64 * 14.0, 0), fixed(y.max(20.0), 0))} width="100%" role="img"
                aria-label={format!("Nodes by pool: {} out, the rest waiting or done", f.out.len())}>{ out }</svg>
            <figcaption class="legend">
                { legend_key(NodeState::Waiting) }{ "waiting " }{ legend_key(NodeState::Out) }{ "out (cordoned, drained, upgrading) " }
                { legend_key(NodeState::Between) }{ "between hops " }{ legend_key(NodeState::Done) }{ "done" }
            </figcaption>
        </figure>
    }
}

/// What a plan that stops leaves out, and the same plan with the stops' causes resolved: what was lifted
/// and how, its length, the findings it reveals and the workloads it takes down.
pub fn resolved(r: &ReportView) -> Html {
    let p = &r.plan;
    let not_simulated = (!p.not_simulated.is_empty()).then(|| {
        html! {
            <p class="not-simulated" id="not-simulated" role="note">
                { format!("Partial: {} node(s) past the stop were never simulated, so their drains, the checks that read the plan there and their downtime are not in this report: ", p.not_simulated.len()) }
                { p.not_simulated.iter().take(40).cloned().collect::<Vec<_>>().join(", ") }
                if p.not_simulated.len() > 40 { { format!(" and {} more", p.not_simulated.len() - 40) } }
                { "." }
            </p>
        }
    });
    let Some(ir) = &p.if_resolved else { return html! { <>{ not_simulated }</> } };
    let s = &ir.summary;
    html! {
        <>
            { not_simulated }
            <section class="if-resolved" id="if-resolved" aria-labelledby="if-resolved-heading">
                <h3 id="if-resolved-heading">{ "If the blockers that stop it were resolved" }</h3>
                <ul class="lifted" id="lifted" aria-label="Taken as resolved">
                    { for ir.lifted.iter().map(|l| html! { <li><code>{ l.code.clone() }</code>{ ": " }{ l.how.clone() }</li> }) }
                </ul>
                <p id="if-resolved-plan">{ format!(
                    "Plan: {}, {} node step(s){}; {} blocker(s), {} warning(s), {} info.",
                    duration(ir.plan.total_seconds),
                    ir.plan.steps.len(),
                    if ir.plan.stops.is_empty() { ", complete".to_owned() } else {
                        format!(", and it still stops: {}", ir.plan.stops.iter().map(|s| s.describe()).collect::<Vec<_>>().join("; "))
                    },
                    s.blocker, s.warning, s.info
                ) }</p>
                <h4>{ format!("What the fix reveals ({})", ir.revealed.len()) }</h4>
                <ul class="revealed" id="revealed">
                    { for ir.revealed.iter().take(100).map(|f| html! {
                        <li><span class={classes!("sev", f.severity.clone())}>{ f.severity.clone() }</span>{ " " }<code>{ f.code.clone() }</code>{ ": " }{ f.message.clone() }</li>
                    }) }
                </ul>
                <h4>{ format!("Workloads down then ({})", ir.downtime.workloads.len()) }</h4>
                <ul class="resolved-down" id="resolved-down">
                    { for ir.downtime.workloads.iter().take(100).map(|w| html! { <li>{ format!("{}: {}", w.display(), duration(w.seconds)) }</li> }) }
                </ul>
            </section>
        </>
    }
}

#[component]
pub fn PlanView() -> Html {
    let ctx = use_ctx();
    let Some(r) = ctx.state.report.clone() else { return html! {} };
    html! {
        <div id="plan">
            <super::progress::ProgressView />
            <p class="plan-total">{ format!("{} phase(s), {} node step(s), {} in all with {}.", r.plan.phases.len(), r.plan.steps.len(), duration(r.plan.total_seconds), r.upgrade.profile) }</p>
            if let Some(d) = &r.plan.drain {
                <p class="drain-assumed" id="drain-assumed">{ format!("Drain assumed: {}.", d.describe()) }
                    if d.flags_from_options { { " Set --force and --delete-emptydir-data in the options." } }
                </p>
            }
            if !r.plan.learned.is_empty() {
                <ul class="learned" id="learned" aria-label="Step times as measured">
                    { for r.plan.learned.iter().map(|l| html! {
                        <li>{ if l.source == "options" {
                            format!("Pool {}: {} a node, as given in timings.", l.pool, duration(l.median_seconds))
                        } else {
                            format!("Pool {}: {} a node, the median of {} step(s) measured from the kubelets' events (90th percentile {}).", l.pool, duration(l.median_seconds), l.samples, duration(l.p90_seconds))
                        } }</li>
                    }) }
                </ul>
            }
            if !r.plan.left_out.is_empty() {
                <ul class="left-out-pools" id="left-out-pools" aria-label="Pools left out of the upgrade">
                    { for r.plan.left_out.iter().map(|l| html! {
                        <li>{ format!("Pool {} is left out: {}. Its {} node(s) keep their version: {}.", l.pool, l.reason, l.nodes.len(), l.nodes.join(", ")) }</li>
                    }) }
                </ul>
            }
            <Gantt />
            { resolved(&r) }
            <NodeSteps />
            <Replay />
        </div>
    }
}
