//! SVG pieces the views share: the time axis and a bar with its accessible details.

use kube_preflight::units::duration;
use yew::prelude::*;

use crate::view::{fixed, ticks};

/// The chart's geometry: a label column, then time from 0 to `total` across `width`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    pub label: f64,
    pub width: f64,
    pub total: u64,
}

impl Scale {
    pub fn x(&self, t: u64) -> f64 {
        self.label + t as f64 / self.total.max(1) as f64 * (self.width - self.label - 8.0)
    }

    pub fn w(&self, s: u64, e: u64) -> f64 {
        (self.x(e) - self.x(s)).max(1.5)
    }
}

/// The time axis along the top, with grid lines down to `height`.
pub fn axis(sc: Scale, height: f64) -> Html {
    html! {
        <g class="axis" aria-hidden="true">
            { for ticks(sc.total, 8).into_iter().map(|t| html! {
                <g>
                    <line x1={fixed(sc.x(t), 1)} x2={fixed(sc.x(t), 1)} y1="14" y2={fixed(height, 0)} class="grid" />
                    // The last label ends at its tick, the first starts at it: none is cut at an edge.
                    <text x={fixed(sc.x(t), 1)} y="10"
                        text-anchor={if sc.x(t) > sc.width - 40.0 { "end" } else if t == 0 { "start" } else { "middle" }}>{ duration(t) }</text>
                </g>
            }) }
        </g>
    }
}

/// A bar that says what it is on hover (a `<title>`) and on focus (`onfocus` shows it in the panel).
#[allow(clippy::too_many_arguments)]
pub fn bar(
    sc: Scale,
    y: f64,
    h: f64,
    s: u64,
    e: u64,
    class: &'static str,
    details: String,
    onfocus: Callback<String>,
) -> Html {
    let d = details.clone();
    let on_hover = onfocus.clone();
    let focus = Callback::from(move |_: FocusEvent| onfocus.emit(d.clone()));
    let d = details.clone();
    let hover = Callback::from(move |_: MouseEvent| on_hover.emit(d.clone()));
    html! {
        <rect class={classes!("bar", class)} x={fixed(sc.x(s), 1)} y={fixed(y, 1)} width={fixed(sc.w(s, e), 1)}
            height={fixed(h, 1)} rx="2" tabindex="0" role="img" aria-label={details.clone()} onfocus={focus} onmouseenter={hover}>
            <title>{ details }</title>
        </rect>
    }
}
