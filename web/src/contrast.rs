//! The stylesheet's colours measured against WCAG 2.x: text 4.5:1 (1.4.3, AA) on the page and on the
//! cards, and the graphics that carry meaning (Gantt bars, downtime bars, node-map states) 3:1 on the
//! cards (1.4.11), in the light theme and in both ways of asking for the dark one.

const CSS: &str = include_str!("../style.css");

/// The `--name: #rrggbb` declarations of the block that starts with `selector`.
fn palette(selector: &str) -> Vec<(String, String)> {
    let start = CSS.find(selector).unwrap_or_else(|| panic!("{selector} not in style.css")) + selector.len();
    let body = &CSS[start..];
    let body = &body[..body.find('}').unwrap()];
    body.split(';')
        .filter_map(|d| {
            let (k, v) = d.split_once(':')?;
            let (k, v) = (k.trim(), v.trim());
            (k.starts_with("--") && v.starts_with('#')).then(|| (k[2..].to_owned(), v.to_owned()))
        })
        .collect()
}

fn luminance(hex: &str) -> f64 {
    let h = hex.trim_start_matches('#');
    let h = if h.len() == 3 { h.chars().flat_map(|c| [c, c]).collect() } else { h.to_owned() };
    let channel = |i: usize| {
        let c = f64::from(u8::from_str_radix(&h[i..i + 2], 16).unwrap()) / 255.0;
        if c <= 0.039_28 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
}

fn ratio(a: &str, b: &str) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[test]
fn the_contrast_ratios_follow_wcag_for_the_known_values() {
    // WCAG's own end points and a value from its understanding document (#767676 on white: 4.54:1).
    assert!((ratio("#000", "#fff") - 21.0).abs() < 1e-9);
    assert!((ratio("#fff", "#fff") - 1.0).abs() < 1e-9);
    assert!((ratio("#767676", "#ffffff") - 4.54).abs() < 0.01);
}

#[test]
fn every_theme_meets_aa_for_text_and_graphics() {
    let themes = [
        ("light", palette(":root {")),
        ("dark (system)", palette(":root:not([data-theme=light]) {")),
        ("dark (chosen)", palette(":root[data-theme=dark] {")),
    ];
    let mut failures = Vec::new();
    for (theme, p) in &themes {
        let get = |k: &str| {
            p.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str()).unwrap_or_else(|| panic!("{theme}: no --{k}"))
        };
        for text in ["fg", "muted", "accent", "blocker", "warning", "info", "ok"] {
            for on in ["bg", "card"] {
                let r = ratio(get(text), get(on));
                if r < 4.5 {
                    failures.push(format!("{theme}: --{text} on --{on} is {r:.2}:1, under 4.5:1"));
                }
            }
        }
        for graphic in ["bar", "step", "down", "waiting", "out", "between", "done"] {
            let r = ratio(get(graphic), get("card"));
            if r < 3.0 {
                failures.push(format!("{theme}: --{graphic} on --card is {r:.2}:1, under 3:1"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Neighbouring chart categories are told apart by more than hue (WCAG 1.4.1, 1.4.11): their fills are
/// close in luminance (a Gantt step's drain, budget wait, upgrade and ready; the node map's states), so
/// a step's segments are separated by a gap of the card's colour (3:1 on each fill, checked above), and
/// each node state but "waiting" carries a mark of its own (`view.rs`, `state_mark`).
#[test]
fn neighbouring_categories_differ_by_more_than_hue() {
    let rule = |selector: &str| {
        let at = CSS.find(selector).unwrap_or_else(|| panic!("{selector} not in style.css"));
        CSS[at..].split('}').next().unwrap_or_default().to_owned()
    };
    let seg = rule(".seg {");
    assert!(seg.contains("stroke: var(--card)") && seg.contains("non-scaling-stroke"), "{seg}");
    let mark = rule(".node-mark {");
    assert!(mark.contains("stroke: var(--card)"), "{mark}");
    let view = include_str!("view.rs");
    for state in ["NodeState::Out => Some", "NodeState::Between => Some", "NodeState::Done =>"] {
        assert!(view.contains(state), "no mark for {state}");
    }
    // And the marks are real: every state but waiting has one (the function itself, not its text).
    for st in [crate::view::NodeState::Out, crate::view::NodeState::Between, crate::view::NodeState::Done] {
        assert!(crate::view::state_mark(st, 0.0, 0.0).is_some(), "{}", st.name());
    }
    assert!(crate::view::state_mark(crate::view::NodeState::Waiting, 0.0, 0.0).is_none());
    // Chart text never under 12px (the charts scroll rather than shrink: `.chart-scroll svg` min-width).
    for sel in ["svg text {", "svg .axis text {", ".node-label {"] {
        assert!(rule(sel).contains("font-size: 12px"), "{sel}");
    }
}
