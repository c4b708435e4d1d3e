//! The last inputs read, kept in this browser (IndexedDB, never sent anywhere) so that a reload opens
//! them again instead of the demo; "Forget" deletes them. One record: the inputs as the worker reads them
//! (names, pasted text, the picked files themselves) and when they were kept.

use js_sys::{Array, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{File, IdbDatabase, IdbOpenDbRequest, IdbRequest, IdbTransactionMode};

use crate::protocol::InputSpec;

const DB: &str = "kube-preflight";
const STORE: &str = "inputs";
const KEY: &str = "last";

/// What was kept: the inputs, their files, and when (UTC).
pub struct Kept {
    pub specs: Vec<InputSpec>,
    pub files: Vec<File>,
    pub saved: String,
}

/// A request's result once it succeeds.
async fn done(req: &IdbRequest) -> Result<JsValue, JsValue> {
    let r = req.clone();
    let p = Promise::new(&mut |resolve, reject| {
        let r = r.clone();
        let ok = Closure::once_into_js(move || {
            let _ = resolve.call1(&JsValue::NULL, &r.result().unwrap_or(JsValue::UNDEFINED));
        });
        let fail = Closure::once_into_js(move || {
            let _ = reject.call1(&JsValue::NULL, &JsValue::from_str("IndexedDB request failed"));
        });
        req.set_onsuccess(Some(ok.unchecked_ref()));
        req.set_onerror(Some(fail.unchecked_ref()));
    });
    JsFuture::from(p).await
}

async fn open() -> Result<IdbDatabase, JsValue> {
    let factory = web_sys::window()
        .ok_or_else(|| JsValue::from_str("no window"))?
        .indexed_db()?
        .ok_or_else(|| JsValue::from_str("IndexedDB is not available"))?;
    let req: IdbOpenDbRequest = factory.open_with_u32(DB, 1)?;
    let upgrade = Closure::once_into_js({
        let req = req.clone();
        move || {
            if let Ok(db) = req.result().and_then(|d| d.dyn_into::<IdbDatabase>()) {
                let _ = db.create_object_store(STORE);
            }
        }
    });
    req.set_onupgradeneeded(Some(upgrade.unchecked_ref()));
    done(&req).await?.dyn_into::<IdbDatabase>()
}

/// Keep these inputs (replacing what was kept).
pub async fn save(specs: &[InputSpec], files: &[File], saved: &str) -> Result<(), JsValue> {
    let db = open().await?;
    let record = Object::new();
    Reflect::set(&record, &"specs".into(), &JsValue::from_str(&serde_json::to_string(specs).unwrap_or_default()))?;
    Reflect::set(&record, &"files".into(), &files.iter().map(JsValue::from).collect::<Array>())?;
    Reflect::set(&record, &"saved".into(), &JsValue::from_str(saved))?;
    let tx = db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite)?;
    done(&tx.object_store(STORE)?.put_with_key(&record, &JsValue::from_str(KEY))?).await?;
    Ok(())
}

/// What was kept, if anything.
pub async fn load() -> Result<Option<Kept>, JsValue> {
    let db = open().await?;
    let tx = db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readonly)?;
    let v = done(&tx.object_store(STORE)?.get(&JsValue::from_str(KEY))?).await?;
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    let text = |k: &str| Reflect::get(&v, &k.into()).ok().and_then(|x| x.as_string()).unwrap_or_default();
    let Ok(specs) = serde_json::from_str::<Vec<InputSpec>>(&text("specs")) else { return Ok(None) };
    let files = Reflect::get(&v, &"files".into())
        .map(|a| Array::from(&a).iter().filter_map(|f| f.dyn_into::<File>().ok()).collect())
        .unwrap_or_default();
    Ok(Some(Kept { specs, files, saved: text("saved") }))
}

/// Delete what was kept.
pub async fn forget() -> Result<(), JsValue> {
    let db = open().await?;
    let tx = db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite)?;
    done(&tx.object_store(STORE)?.delete(&JsValue::from_str(KEY))?).await?;
    Ok(())
}

/// The date and time now, UTC (`2026-11-24 02:45`), for what a review keeps.
pub fn now_utc() -> String {
    let iso = String::from(js_sys::Date::new_0().to_iso_string());
    iso.get(..16).unwrap_or(&iso).replace('T', " ")
}
