//! The context every component reads (the one state and the worker) and the helpers they share: mounted
//! by [`super::app::App`] and [`super::element::ReportElement`], imported by every component, so no
//! component imports the app that mounts it.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::File;
use yew::prelude::*;

use crate::bridge::Bridge;
use crate::demo::demo_specs;
use crate::options::Opts;
use crate::protocol::InputSpec;
use crate::state::{demo_rows, Action, InputRow, State, Tab};
use crate::view::{fixed, Filter};

/// What every component gets: the state and the worker.
#[derive(Clone, PartialEq)]
pub struct Ctx {
    pub state: UseReducerHandle<State>,
    pub bridge: Bridge,
    /// The view's outermost element: what it looks elements up in (the page, or the element's shadow root,
    /// which `document` cannot see into).
    pub root: NodeRef,
}

impl Ctx {
    /// The element with this id in the view's own tree (the page's document, or the shadow root of a
    /// `<kube-preflight-report>`, whose ids `document.getElementById` never finds).
    pub fn by_id(&self, id: &str) -> Option<web_sys::Element> {
        match self.shadow() {
            Some(s) => s.get_element_by_id(id),
            None => web_sys::window()?.document()?.get_element_by_id(id),
        }
    }

    /// The first element matching `selector` in the view's own tree.
    pub fn query(&self, selector: &str) -> Option<web_sys::Element> {
        match self.shadow() {
            Some(s) => s.query_selector(selector).ok().flatten(),
            None => web_sys::window()?.document()?.query_selector(selector).ok().flatten(),
        }
    }

    /// Move the keyboard focus to the element with this id, if there is one.
    pub fn focus_id(&self, id: &str) {
        if let Some(el) = self.by_id(id).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    }

    /// Tell the page hosting the view: a `CustomEvent` named `name` with `detail`, from the view's root,
    /// bubbling and composed (it crosses the element's shadow root to the `<kube-preflight-report>` and
    /// the page), for a portal's deep links.
    pub fn emit(&self, name: &str, detail: &serde_json::Value) {
        let Some(root) = self.root.get() else { return };
        let init = web_sys::CustomEventInit::new();
        init.set_bubbles(true);
        init.set_composed(true);
        let detail = js_sys::JSON::parse(&detail.to_string()).unwrap_or(JsValue::NULL);
        init.set_detail(&detail);
        if let Ok(e) = web_sys::CustomEvent::new_with_event_init_dict(name, &init) {
            let _ = root.dispatch_event(&e);
        }
    }

    /// The shadow root the view lives in, if it is in one.
    fn shadow(&self) -> Option<web_sys::ShadowRoot> {
        self.root.get()?.get_root_node().dyn_into::<web_sys::ShadowRoot>().ok()
    }

    pub fn send(&self, a: Action) {
        self.state.dispatch(a);
    }

    /// Change the options: the worker checks what it read again.
    pub fn set_opts(&self, o: Opts) {
        // The bridge decides what to ask from what it asked and was answered: this handler's state may be a
        // render older than the last load (a target typed while the inputs are read was then dropped).
        if self.bridge.ask(&o) {
            self.state.dispatch(Action::SetOpts(o));
        }
    }

    /// Read new inputs (replacing the last ones); the user's own, once read in full, are kept in this browser
    /// for next time (`Bridge::keep_with`).
    pub fn load(&self, rows: Vec<InputRow>, specs: Vec<InputSpec>, files: Vec<File>, demo: bool) {
        let opts = self.state.opts_for_load(demo);
        self.bridge.load(&opts, specs, files);
        self.state.dispatch(Action::SetInputs { rows, demo, opts });
    }

    /// Open the inputs kept in this browser, or the demo when none are (or they cannot be read).
    pub fn open_kept_or_demo(&self) {
        let ctx = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            match super::store::load().await {
                Ok(Some(k)) if !k.specs.is_empty() => {
                    let rows = k
                        .specs
                        .iter()
                        .map(|s| {
                            let size = match &s.source {
                                crate::protocol::Source::File { index } => {
                                    k.files.get(*index).map_or(0, |f| f.size() as u64)
                                }
                                crate::protocol::Source::Text { text } => text.len() as u64,
                                crate::protocol::Source::Demo => 0,
                            };
                            // A folder's files were kept under their path inside it.
                            InputRow { name: s.name.clone(), size, named: !s.name.contains('/'), info: None }
                        })
                        .collect();
                    ctx.load(rows, k.specs, k.files, false);
                    ctx.send(Action::Kept(Some(k.saved.clone())));
                    ctx.send(Action::Notice(Some(format!(
                        "Opened your last inputs, kept in this browser since {} UTC (never sent anywhere). Forget them beside the inputs.",
                        k.saved
                    ))));
                }
                _ => ctx.load_demo(),
            }
        });
    }

    /// Delete the inputs kept in this browser.
    pub fn forget(&self) {
        let ctx = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let said = match super::store::forget().await {
                Ok(()) => "Forgotten: none of your inputs is kept in this browser.",
                Err(_) => "The browser refused to delete the kept inputs (clear this site's data to remove them).",
            };
            ctx.send(Action::Kept(None));
            ctx.send(Action::Notice(Some(said.to_owned())));
        });
    }

    /// Change the options in place.
    pub fn edit_opts(&self, edit: impl FnOnce(&mut Opts)) {
        // From the options last asked for, not this render's (see `set_opts`).
        let mut o = self.bridge.asked().unwrap_or_else(|| self.state.opts.clone());
        edit(&mut o);
        self.set_opts(o);
    }

    /// The change handler of an options control: its value goes where `set` puts it, and is checked.
    pub fn on_opt<E: AsRef<Event> + 'static>(&self, set: fn(&mut Opts, String)) -> Callback<E> {
        let ctx = self.clone();
        Callback::from(move |e: E| ctx.edit_opts(|o| set(o, value_of(e.as_ref()))))
    }

    /// The change handler of a findings filter control.
    pub fn on_filter<E: AsRef<Event> + 'static>(&self, set: fn(&mut Filter, String)) -> Callback<E> {
        let ctx = self.clone();
        Callback::from(move |e: E| {
            let mut f = ctx.state.filter.clone();
            set(&mut f, value_of(e.as_ref()));
            ctx.send(Action::Filter(f));
        })
    }

    pub fn load_demo(&self) {
        self.load(demo_rows(), demo_specs(), Vec::new(), true);
    }

    pub fn cancel(&self) {
        self.bridge.cancel(&self.state.opts_on_cancel());
        self.state.dispatch(Action::Cancelled);
    }
}

/// Save an export with the browser's download (a `blob:` URL: nothing leaves the page).
pub fn download(file_name: &str, mime: &str, text: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let bag = web_sys::BlobPropertyBag::new();
    bag.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &bag) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Ok(a) = doc.create_element("a").map(JsCast::unchecked_into::<web_sys::HtmlAnchorElement>) {
        a.set_href(&url);
        a.set_download(file_name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Put `text` on the clipboard; `done` hears whether the browser allowed it.
pub fn copy_text(text: &str, done: Callback<bool>) {
    let Some(w) = web_sys::window() else { return done.emit(false) };
    let promise = w.navigator().clipboard().write_text(text);
    wasm_bindgen_futures::spawn_local(async move {
        done.emit(wasm_bindgen_futures::JsFuture::from(promise).await.is_ok());
    });
}

/// The value of the control an event came from (an input or a select).
pub fn value_of(e: &Event) -> String {
    e.target()
        .and_then(|t| js_sys::Reflect::get(&t, &JsValue::from_str("value")).ok())
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// The tabs over `tabs` and the panel showing `body`, the current one's. As a WAI-ARIA tab list: one tab
/// in the Tab order (the current), arrow keys, Home and End move between them and show the tab reached.
pub fn tabbed(ctx: &Ctx, tabs: &[Tab], body: Html) -> Html {
    let current = ctx.state.tab;
    let tab_button = |tab: Tab| {
        let ctx = ctx.clone();
        let active = current == tab;
        let onclick = Callback::from(move |_| ctx.send(Action::Tab(tab)));
        html! {
            <button role="tab" part={if active { "tab tab-selected" } else { "tab" }} id={format!("tab-{}", tab.id())} aria-selected={active.to_string()} aria-controls="panel"
                tabindex={if active { "0" } else { "-1" }}
                class={classes!("tab", active.then_some("active"))} {onclick} data-tab={tab.id()}>{ tab.label() }</button>
        }
    };
    let onkeydown = {
        let ctx = ctx.clone();
        let tabs = tabs.to_vec();
        Callback::from(move |e: KeyboardEvent| {
            let Some(at) = tabs.iter().position(|t| *t == ctx.state.tab) else { return };
            let last = tabs.len().saturating_sub(1);
            let to = match e.key().as_str() {
                "ArrowRight" | "ArrowDown" => {
                    if at >= last {
                        0
                    } else {
                        at + 1
                    }
                }
                "ArrowLeft" | "ArrowUp" => {
                    if at == 0 {
                        last
                    } else {
                        at - 1
                    }
                }
                "Home" => 0,
                "End" => last,
                _ => return,
            };
            e.prevent_default();
            let Some(tab) = tabs.get(to).copied() else { return };
            ctx.send(Action::Tab(tab));
            ctx.focus_id(&format!("tab-{}", tab.id()));
        })
    };
    html! {
        <>
            <nav part="tabs" class="tabs" role="tablist" aria-label="Views" {onkeydown}>{ for tabs.iter().copied().map(tab_button) }</nav>
            <section part="panel" class="body" id="panel" role="tabpanel" aria-labelledby={format!("tab-{}", current.id())}>
                <h2 class="sr-only">{ current.label() }</h2>
                { body }
            </section>
        </>
    }
}

/// The replay's clock: a tick every 120 ms while the replay plays.
#[hook]
pub fn use_replay_clock(state: &UseReducerHandle<State>) {
    let dispatcher = state.dispatcher();
    use_effect_with(state.playing, move |playing| {
        let mut handle = None;
        let tick = Closure::<dyn Fn()>::new(move || dispatcher.dispatch(Action::Tick));
        if *playing {
            handle = web_sys::window().and_then(|w| {
                w.set_interval_with_callback_and_timeout_and_arguments_0(tick.as_ref().unchecked_ref(), 120).ok()
            });
        }
        move || {
            if let (Some(h), Some(w)) = (handle, web_sys::window()) {
                w.clear_interval_with_handle(h);
            }
            drop(tick);
        }
    });
}

pub fn mb(bytes: u64) -> String {
    fixed(bytes as f64 / 1_000_000.0, 1)
}

/// The context, from any component under [`App`].
#[hook]
pub fn use_ctx() -> Ctx {
    use_context::<Ctx>().unwrap_or_else(|| unreachable_ctx())
}

fn unreachable_ctx() -> ! {
    // Every component is mounted under App's (or ReportElement's) ContextProvider.
    wasm_bindgen::throw_str("kube-preflight: component mounted outside App")
}
