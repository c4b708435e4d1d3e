//! The dashboard's web worker: reads, checks, what-ifs and exports happen here, off the page's thread.
//! It moves bytes (a `File` read in 1 MiB slices with `FileReaderSync`) and messages; `engine.rs` does
//! the work.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, File, FileReaderSync, MessageEvent};

use crate::engine::{Engine, Held, Reader};
use crate::protocol::{FromWorker, InputSpec, Source, ToWorker};

struct Files(Vec<File>);

impl Reader for Files {
    fn size(&mut self, spec: &InputSpec) -> u64 {
        match &spec.source {
            Source::File { index } => self.0.get(*index).map_or(0, |f| f.size() as u64),
            _ => Held.size(spec),
        }
    }

    fn read(&mut self, spec: &InputSpec, offset: u64, len: u64) -> Result<Vec<u8>, String> {
        let Source::File { index } = &spec.source else { return Held.read(spec, offset, len) };
        let file = self.0.get(*index).ok_or_else(|| format!("{}: the file is gone", spec.name))?;
        let cannot = |e: JsValue| {
            format!("{}: cannot be read: {}", spec.name, e.as_string().unwrap_or_else(|| format!("{e:?}")))
        };
        let blob = file.slice_with_f64_and_f64(offset as f64, (offset + len) as f64).map_err(cannot)?;
        let buf = FileReaderSync::new().map_err(cannot)?.read_as_array_buffer(&blob).map_err(cannot)?;
        Ok(Uint8Array::new(&buf).to_vec())
    }
}

struct Worker {
    engine: Engine,
    files: Files,
    /// The newest check: a what-if curve of an older one stops.
    latest: u32,
}

fn post(scope: &DedicatedWorkerGlobalScope, m: &FromWorker) {
    let o = js_sys::Object::new();
    let _ = Reflect::set(&o, &"json".into(), &JsValue::from_str(&m.to_json()));
    let _ = scope.post_message(&o);
}

async fn yield_now(scope: &DedicatedWorkerGlobalScope) {
    let p = Promise::new(&mut |resolve, _| {
        let _ = scope.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

/// Check, post the report, then the what-if curve one point at a time (stopping when a newer check comes).
fn check_and_curve(
    scope: &DedicatedWorkerGlobalScope,
    w: &Rc<RefCell<Worker>>,
    generation: u32,
    options: Option<&str>,
) {
    let result = w.borrow_mut().engine.check(generation, options);
    match result {
        Err(message) => return post(scope, &FromWorker::Failed { generation, message }),
        Ok(msgs) => msgs.iter().for_each(|m| post(scope, m)),
    }
    w.borrow_mut().latest = generation;
    let Some((pool, size, ks)) = w.borrow().engine.curve_plan() else { return };
    let (scope, w) = (scope.clone(), w.clone());
    wasm_bindgen_futures::spawn_local(async move {
        let mut points = Vec::new();
        for (i, k) in ks.iter().enumerate() {
            yield_now(&scope).await;
            if w.borrow().latest != generation {
                return;
            }
            if let Some(p) = w.borrow().engine.curve_point(*k) {
                points.push(p);
            }
            let done = i + 1 == ks.len();
            post(&scope, &FromWorker::Curve { generation, pool: pool.clone(), size, points: points.clone(), done });
        }
    });
}

fn handle(scope: &DedicatedWorkerGlobalScope, w: &Rc<RefCell<Worker>>, e: &MessageEvent) {
    let data = e.data();
    let json = Reflect::get(&data, &"json".into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
    let Ok(msg) = serde_json::from_str::<ToWorker>(&json) else { return };
    match msg {
        ToWorker::Load { generation, options, inputs } => {
            let files: Vec<File> = Reflect::get(&data, &"files".into())
                .ok()
                .map(|a| Array::from(&a).iter().filter_map(|f| f.dyn_into::<File>().ok()).collect())
                .unwrap_or_default();
            w.borrow_mut().latest = generation;
            let loaded = {
                let mut guard = w.borrow_mut();
                let Worker { engine, files: f, .. } = &mut *guard;
                f.0 = files;
                engine.load(generation, &options, inputs, f, &mut |m| post(scope, &m))
            };
            match loaded {
                Ok(infos) => {
                    let nodes = w.borrow().engine.nodes.clone();
                    post(scope, &FromWorker::Inputs { generation, inputs: infos, nodes });
                    check_and_curve(scope, w, generation, None);
                }
                Err(message) => post(scope, &FromWorker::Failed { generation, message }),
            }
        }
        ToWorker::Options { generation, options } => check_and_curve(scope, w, generation, Some(&options)),
        ToWorker::Export { format } => {
            let m = w
                .borrow()
                .engine
                .export(&format)
                .unwrap_or_else(|message| FromWorker::Failed { generation: 0, message });
            post(scope, &m);
        }
        ToWorker::Compare { options } => {
            let (comparison, error) = match w.borrow().engine.compare(&options) {
                Ok(c) => (Some(Box::new(c)), None),
                Err(e) => (None, Some(e)),
            };
            post(scope, &FromWorker::Compared { comparison, error });
        }
        ToWorker::Lines { file, line } => {
            let mut guard = w.borrow_mut();
            let Worker { engine, files, .. } = &mut *guard;
            let m = engine.lines(&file, line, files);
            post(scope, &m);
        }
    }
}

/// The worker's entry point (the `kube-preflight-worker` bin).
pub fn start() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let w = Rc::new(RefCell::new(Worker { engine: Engine::default(), files: Files(Vec::new()), latest: 0 }));
    let s = scope.clone();
    let on = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| handle(&s, &w, &e));
    scope.set_onmessage(Some(on.as_ref().unchecked_ref()));
    on.forget();
    // The rules' docs, once: the page shows them and carries none itself.
    post(&scope, &FromWorker::Docs { docs: crate::state::rule_docs() });
    let ready = js_sys::Object::new();
    let _ = Reflect::set(&ready, &"ready".into(), &JsValue::TRUE);
    let _ = scope.post_message(&ready);
}
