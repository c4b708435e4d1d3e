//! Findings: filter by severity, rule, namespace, node and text; group by rule or object; each opens
//! its rule's docs and the object's source lines.

use yew::prelude::*;

use super::ctx::{use_ctx, value_of, Ctx};
use crate::markdown;
use crate::state::{Action, Tab};
use crate::view::{facets, grouped, Filter, FindingV, GroupBy, SEVERITIES};

fn select(
    ctx: &Ctx,
    id: &'static str,
    label: &'static str,
    value: &str,
    values: &[String],
    set: fn(&mut Filter, String),
) -> Html {
    let onchange = ctx.on_filter::<Event>(set);
    let options = Html::from_html_unchecked(AttrValue::from(crate::view::options_html(value, values)));
    html! {
        <label class="field">{ label }
            <select {id} {onchange}>{ options }</select>
        </label>
    }
}

/// One finding's row; `open` adds its details (fix, rule docs, source lines). From elsewhere (`goto`, the
/// overview), a click opens it in the Findings view.
pub fn finding_row(ctx: &Ctx, i: usize, f: &FindingV, open: bool, goto: bool) -> Html {
    let toggle = {
        let ctx = ctx.clone();
        Callback::from(move |_| {
            // Read before dispatching: the handle shows the newest state once the action is applied.
            if goto {
                ctx.send(Action::Filter(crate::view::Filter::default()));
                ctx.send(Action::Tab(Tab::Findings));
                if ctx.state.open != Some(i) {
                    ctx.send(Action::Open(Some(i)));
                }
            } else {
                ctx.send(Action::Open(Some(i)));
            }
        })
    };
    let object = f.object.as_ref().map(|o| o.display()).unwrap_or_default();
    let source = f.source.as_ref().map(|s| s.location()).unwrap_or_default();
    html! {
        <li class={classes!("finding", f.severity.clone(), open.then_some("open"), f.suppressed.is_some().then_some("suppressed"))} data-code={f.code.clone()}>
            <button type="button" class="finding-head" aria-expanded={open.to_string()} onclick={toggle}>
                <span class={classes!("sev", f.severity.clone())}>{ f.severity.clone() }</span>
                if f.suppressed.is_some() { <span class="suppressed-tag">{ "suppressed" }</span> }
                <code class="code">{ f.code.clone() }</code>
                <span class="message">{ f.message.clone() }</span>
                <span class="where">{ object }{ if source.is_empty() { String::new() } else { format!(" · {source}") } }</span>
            </button>
            if open { { details(ctx, f) } }
        </li>
    }
}

fn details(ctx: &Ctx, f: &FindingV) -> Html {
    let rule = kube_preflight::rules().into_iter().find(|r| r.code == f.code);
    let target = f.source.as_ref().and_then(|s| s.line);
    // Only this finding's lines: the same file and the window around its line (an answer for the finding
    // opened before may still arrive).
    let lines = ctx.state.lines.clone().filter(|l| {
        f.source.as_ref().is_some_and(|s| s.file == l.0) && target.is_some_and(|t| l.1 == t.saturating_sub(3).max(1))
    });
    let to_rules = {
        let ctx = ctx.clone();
        let code = f.code.clone();
        Callback::from(move |_| {
            ctx.send(Action::Rule(Some(code.clone())));
            ctx.send(Action::Tab(Tab::Rules));
        })
    };
    html! {
        <div class="finding-details">
            if let Some(why) = &f.suppressed {
                <p class="suppressed-by"><strong>{ "Suppressed, not counted: " }</strong>{ format!("by {}", why.describe()) }</p>
            }
            <p class="help"><strong>{ "Fix: " }</strong>{ f.help.clone() }</p>
            if let Some(h) = &f.hop { <p>{ format!("Bites at the hop to {h}.") }</p> }
            if let Some(s) = &f.source {
                <div class="source-lines">
                    <div class="source-name">{ s.location() }{ s.via.clone().map(|v| format!(" (via {v})")).unwrap_or_default() }</div>
                    if let Some(l) = lines {
                        <pre class="lines" tabindex="0" role="region" aria-label={format!("Source lines of {}", s.file)}>{ for l.2.iter().enumerate().map(|(k, text)| {
                            let n = l.1 + k as u32;
                            html! { <span class={classes!("line", (Some(n) == target).then_some("target"))}><span class="ln">{ format!("{n:>5} ") }</span>{ text.clone() }{ "\n" }</span> }
                        }) }</pre>
                    }
                </div>
            }
            if let Some(r) = rule {
                <div class="rule-docs" id="finding-rule-docs">
                    <h3 class="rule-title">{ r.title }{ " " }<button type="button" class="link" onclick={to_rules}>{ "all rules" }</button></h3>
                    { markdown::render(ctx.state.docs_of(r.code), 4) }
                </div>
            }
        </div>
    }
}

/// What `finding-open` tells the page: the finding's place in `report.findings` and what names it.
fn finding_detail(index: usize, f: &crate::view::FindingV) -> serde_json::Value {
    serde_json::json!({
        "index": index,
        "code": f.code,
        "severity": f.severity,
        "message": f.message,
        "object": f.object.as_ref().map(|o| serde_json::json!({
            "apiVersion": o.api_version, "kind": o.kind, "namespace": o.namespace, "name": o.name,
        })),
        "file": f.source.as_ref().map(|s| s.file.clone()),
        "line": f.source.as_ref().and_then(|s| s.line),
    })
}

#[component]
pub fn FindingsView() -> Html {
    let ctx = use_ctx();
    // The finding opened (here, from the overview or by a link) is scrolled to and focused, and its source
    // lines asked for.
    let source = ctx.state.open.and_then(|i| ctx.state.report.as_ref()?.findings.get(i)?.source.clone());
    let bridge = ctx.bridge.clone();
    let ctx2 = ctx.clone();
    use_effect_with((ctx.state.open, source), move |(open, source)| {
        if let Some((file, line)) = source.as_ref().and_then(|s| Some((s.file.clone(), s.line?))) {
            bridge.lines(&file, line);
        }
        if let Some(f) = open.and_then(|i| Some((i, ctx2.state.report.as_ref()?.findings.get(i)?))) {
            ctx2.emit("finding-open", &finding_detail(f.0, f.1));
        }
        if open.is_some() {
            let head = ctx2.query("li.finding.open > .finding-head");
            if let Some(el) = head {
                let opts = web_sys::ScrollIntoViewOptions::new();
                opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
                el.scroll_into_view_with_scroll_into_view_options(&opts);
                if let Ok(h) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
                    let _ = h.focus();
                }
            }
        }
    });
    // The facets and the groups, worked out once per report, filter and grouping: not again when a finding
    // is opened or more are shown (at 150,000 pods, tens of thousands of findings).
    let listed = {
        let report = ctx.state.report.clone();
        let key = (report.as_ref().map(|r| std::rc::Rc::as_ptr(r) as usize), ctx.state.filter.clone(), ctx.state.group);
        use_memo(key, move |(_, filter, group)| {
            report.map(|r| (facets(&r.findings), grouped(&r.findings, filter, *group)))
        })
    };
    let Some(r) = ctx.state.report.clone() else { return html! {} };
    let Some((fac, groups)) = listed.as_ref() else { return html! {} };
    let filter = ctx.state.filter.clone();
    let matched: usize = groups.iter().map(|g| g.1.len()).sum();
    let sev_box = |sev: &'static str| {
        let ctx = ctx.clone();
        let on = !filter.hides(sev);
        let onchange = Callback::from(move |_| {
            let mut f = ctx.state.filter.clone();
            f.toggle(sev);
            ctx.send(Action::Filter(f));
        });
        html! { <label class={classes!("sev-toggle", sev)}><input type="checkbox" id={format!("sev-{sev}")} checked={on} {onchange} />{ sev }</label> }
    };
    let on_text = ctx.on_filter::<InputEvent>(|f, v| f.text = v);
    let on_group = {
        let ctx = ctx.clone();
        Callback::from(move |e: Event| ctx.send(Action::Group(GroupBy::parse(&value_of(&e)))))
    };
    let more = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.send(Action::ShowMore))
    };
    let mut budget = ctx.state.shown;
    let mut shown = 0;
    let mut sections = Vec::new();
    for (name, members) in groups {
        if budget == 0 {
            break;
        }
        let take: Vec<usize> = members.iter().copied().take(budget).collect();
        budget -= take.len();
        shown += take.len();
        let items = take
            .iter()
            .filter_map(|i| r.findings.get(*i).map(|f| finding_row(&ctx, *i, f, ctx.state.open == Some(*i), false)));
        sections.push(html! {
            <section class="group">
                if !name.is_empty() { <h3 class="group-name">{ format!("{name} ({})", members.len()) }</h3> }
                <ul part="findings" class="findings">{ for items }</ul>
            </section>
        });
    }
    html! {
        <div id="findings">
            <form class="filters" aria-label="Filter findings" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                <fieldset class="sevs"><legend>{ "Severity" }</legend>{ for SEVERITIES.into_iter().map(sev_box) }</fieldset>
                { select(&ctx, "filter-rule", "Rule", &filter.rule, &fac.rules, |f, v| f.rule = v) }
                { select(&ctx, "filter-namespace", "Namespace", &filter.namespace, &fac.namespaces, |f, v| f.namespace = v) }
                { select(&ctx, "filter-node", "Node", &filter.node, &fac.nodes, |f, v| f.node = v) }
                <label class="field">{ "Text" }<input id="filter-text" type="search" value={filter.text.clone()} oninput={on_text} placeholder="message, object, file" /></label>
                <label class="field">{ "Group by" }
                    <select id="group-by" onchange={on_group}>
                        { for [GroupBy::None, GroupBy::Rule, GroupBy::Object].iter().map(|g| html! { <option value={g.name()} selected={*g == ctx.state.group}>{ g.name() }</option> }) }
                    </select>
                </label>
            </form>
            <p class="matched" id="matched" aria-live="polite">{ format!("{matched} of {} finding(s)", r.findings.len()) }</p>
            { for sections }
            if shown < matched { <button type="button" id="show-more" onclick={more}>{ format!("Show more ({} left)", matched - shown) }</button> }
            if !r.not_run.is_empty() {
                <div class="not-run"><h3>{ "Checks that did not run" }</h3>
                    <ul>{ for r.not_run.iter().map(|n| html! { <li><code>{ n.code.clone() }</code>{ ": " }{ n.reason.clone() }</li> }) }</ul></div>
            }
        </div>
    }
}
