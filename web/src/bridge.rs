//! The page's side of the worker: start it, queue requests until it says it is ready, drop answers to
//! requests that a newer one replaced, and cancel (stop the worker, start a new one, and read again what
//! was last read in full, so the report on screen stays the one that can be changed).

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{File, MessageEvent, Worker};
use yew::Callback;

use crate::options::Opts;
use crate::protocol::{FromWorker, ToWorker};

/// The worker's loader, written by trunk beside `index.html`.
pub const WORKER_URL: &str = "./kube-preflight-worker_loader.js";

struct Inner {
    worker: Option<Worker>,
    ready: bool,
    queue: Vec<(ToWorker, Vec<File>)>,
    generation: u32,
    /// The last request that read inputs, and whether it finished (what a cancel reads again).
    last_load: Option<(ToWorker, Vec<File>)>,
    good_load: Option<(ToWorker, Vec<File>)>,
    /// The options last asked for (a load, a check, a cancel): what the page's options are now, whatever
    /// render a handler's snapshot of the state comes from.
    asked: Option<Opts>,
    /// The last load's inputs were read (`Inputs` came).
    read: bool,
    /// The last request was refused (`Failed`), so asking the same again is not nothing.
    refused: bool,
    on_message: Callback<FromWorker>,
    /// Hears when inputs read in full (not the demo) were kept in this browser (`keep_with`).
    on_kept: Option<Callback<String>>,
    _closure: Option<Closure<dyn Fn(MessageEvent)>>,
}

impl Inner {
    /// Keep the inputs just read in full in this browser (the user's own, not the demo), and tell `on_kept`.
    fn keep_good_load(&self) {
        let (Some(cb), Some((ToWorker::Load { inputs, .. }, files))) = (self.on_kept.clone(), self.good_load.clone())
        else {
            return;
        };
        if inputs.iter().all(|s| matches!(s.source, crate::protocol::Source::Demo)) {
            return;
        }
        wasm_bindgen_futures::spawn_local(async move {
            let when = crate::components::store::now_utc();
            if crate::components::store::save(&inputs, &files, &when).await.is_ok() {
                cb.emit(when);
            }
        });
    }
}

#[derive(Clone)]
pub struct Bridge(Rc<RefCell<Inner>>);

impl PartialEq for Bridge {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

fn generation_of(m: &FromWorker) -> Option<u32> {
    match m {
        FromWorker::Progress { generation, .. }
        | FromWorker::Inputs { generation, .. }
        | FromWorker::Report { generation, .. }
        | FromWorker::Findings { generation, .. }
        | FromWorker::Curve { generation, .. } => Some(*generation),
        FromWorker::Failed { generation, .. } if *generation > 0 => Some(*generation),
        _ => None,
    }
}

impl Bridge {
    pub fn new(on_message: Callback<FromWorker>) -> Bridge {
        let b = Bridge::inert(on_message);
        b.spawn();
        b
    }

    /// A bridge with no worker (a report given whole): requests are dropped, never answered.
    pub fn inert(on_message: Callback<FromWorker>) -> Bridge {
        Bridge(Rc::new(RefCell::new(Inner {
            worker: None,
            ready: false,
            queue: Vec::new(),
            generation: 0,
            last_load: None,
            good_load: None,
            asked: None,
            read: false,
            refused: false,
            on_message,
            on_kept: None,
            _closure: None,
        })))
    }

    fn spawn(&self) {
        let weak = Rc::downgrade(&self.0);
        let closure = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
            let Some(inner) = weak.upgrade() else { return };
            let data = e.data();
            if Reflect::get(&data, &"ready".into()).ok().is_some_and(|v| v.is_truthy()) {
                let queue = {
                    let mut i = inner.borrow_mut();
                    i.ready = true;
                    std::mem::take(&mut i.queue)
                };
                for (m, files) in queue {
                    Bridge(inner.clone()).post_now(&m, &files);
                }
                return;
            }
            let json = Reflect::get(&data, &"json".into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
            let Ok(msg) = serde_json::from_str::<FromWorker>(&json) else { return };
            let (current, cb) = {
                let mut i = inner.borrow_mut();
                let current = generation_of(&msg).is_none_or(|g| g == i.generation);
                if current && matches!(msg, FromWorker::Inputs { .. }) {
                    i.read = true;
                    i.good_load = i.last_load.clone();
                    i.keep_good_load();
                }
                if current && matches!(msg, FromWorker::Failed { generation, .. } if generation > 0) {
                    i.refused = true;
                }
                (current, i.on_message.clone())
            };
            if current {
                cb.emit(msg);
            }
        });
        let worker = Worker::new(WORKER_URL).ok();
        if let Some(w) = &worker {
            w.set_onmessage(Some(closure.as_ref().unchecked_ref()));
        }
        let mut i = self.0.borrow_mut();
        i.worker = worker;
        i.ready = false;
        i._closure = Some(closure);
    }

    fn post_now(&self, m: &ToWorker, files: &[File]) {
        let i = self.0.borrow();
        let Some(w) = &i.worker else { return };
        let o = js_sys::Object::new();
        let _ = Reflect::set(&o, &"json".into(), &JsValue::from_str(&m.to_json()));
        let arr: Array = files.iter().map(JsValue::from).collect();
        let _ = Reflect::set(&o, &"files".into(), &arr);
        let _ = w.post_message(&o);
    }

    fn post(&self, m: ToWorker, files: Vec<File>) {
        if self.0.borrow().worker.is_none() {
            // No worker (an inert bridge, or one the browser refused): nothing would ever answer.
            return;
        }
        if self.0.borrow().ready {
            self.post_now(&m, &files);
        } else {
            self.0.borrow_mut().queue.push((m, files));
        }
    }

    fn next_generation(&self) -> u32 {
        let mut i = self.0.borrow_mut();
        i.generation += 1;
        i.generation
    }

    /// Is there a worker to answer (not an inert bridge)?
    pub fn is_live(&self) -> bool {
        self.0.borrow().worker.is_some()
    }

    /// Keep inputs read in full in this browser, and tell `cb` when.
    pub fn keep_with(&self, cb: Callback<String>) {
        self.0.borrow_mut().on_kept = Some(cb);
    }

    /// Read these inputs and check them.
    pub fn load(&self, options: &Opts, inputs: Vec<crate::protocol::InputSpec>, files: Vec<File>) {
        let generation = self.next_generation();
        let m = ToWorker::Load { generation, options: options.to_json(), inputs };
        {
            let mut i = self.0.borrow_mut();
            i.last_load = Some((m.clone(), files.clone()));
            i.asked = Some(options.clone());
            i.read = false;
            i.refused = false;
        }
        self.post(m, files);
    }

    /// The options last asked for, if any were.
    pub fn asked(&self) -> Option<Opts> {
        self.0.borrow().asked.clone()
    }

    /// Check under other options, as the last request left things: nothing when they are the ones asked
    /// last and were not refused; the inputs read again under them when they are still being read (in a
    /// new worker, so that what reading finds and the report come back together under the options set last)
    /// or were never read (the options they were read under were refused); else what was read checked again.
    /// Decided here, from what was asked and answered, never from a render's snapshot of the state (a
    /// handler made before the last load would see the options before it). Returns whether anything was
    /// asked.
    pub fn ask(&self, options: &Opts) -> bool {
        let (same, read, refused, loaded) = {
            let i = self.0.borrow();
            (i.asked.as_ref() == Some(options), i.read, i.refused, i.last_load.is_some())
        };
        if same && !refused {
            return false;
        }
        if !loaded || read {
            let generation = self.next_generation();
            {
                let mut i = self.0.borrow_mut();
                i.asked = Some(options.clone());
                i.refused = false;
            }
            self.post(ToWorker::Options { generation, options: options.to_json() }, Vec::new());
        } else if refused {
            let last = self.0.borrow().last_load.clone();
            if let Some((ToWorker::Load { inputs, .. }, files)) = last {
                self.load(options, inputs, files);
            }
        } else {
            let last = self.0.borrow().last_load.clone();
            self.restart_with(options, last);
        }
        true
    }

    pub fn export(&self, format: &str) {
        self.post(ToWorker::Export { format: format.to_owned() }, Vec::new());
    }

    /// Check what was read under `options` too, beside the current report.
    pub fn compare(&self, options: String) {
        self.post(ToWorker::Compare { options }, Vec::new());
    }

    pub fn lines(&self, file: &str, line: u32) {
        self.post(ToWorker::Lines { file: file.to_owned(), line }, Vec::new());
    }

    /// Stop the worker at once and start another on what was last read in full, under `options`.
    pub fn cancel(&self, options: &Opts) {
        let good = self.0.borrow().good_load.clone();
        self.restart_with(options, good);
    }

    /// Terminate the worker, start another, and read `load`'s inputs in it under `options` (nothing of the
    /// old worker's work can then arrive late).
    fn restart_with(&self, options: &Opts, load: Option<(ToWorker, Vec<File>)>) {
        if let Some(w) = self.0.borrow_mut().worker.take() {
            w.terminate();
        }
        self.next_generation();
        self.spawn();
        if let Some((ToWorker::Load { inputs, .. }, files)) = load {
            self.load(options, inputs, files);
        } else {
            self.0.borrow_mut().asked = Some(options.clone());
        }
    }
}
