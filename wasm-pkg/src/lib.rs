//! The thin wasm-bindgen layer behind the npm package `kube-preflight` (CONTRACT sections 1 and 2).
//!
//! No rule logic lives here: JS values are turned into the core's inputs, the core's report is handed
//! back as a plain JS object, and the core's errors become JS `Error`s with a `code` of `"input"` or
//! `"options"` (and `file`, `line`, `column` where known). The CLI's own work (config file plus flags,
//! output format, exit status) is [`request`], plain Rust, tested natively.
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing))]

pub mod request;

use js_sys::{Array, JsString, Reflect, Uint8Array, JSON};
use kube_preflight::{Error, Input, UpgradeOptions};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn js_error(code: &str, message: &str, file: Option<&str>, line: Option<u32>, col: Option<u32>) -> JsValue {
    let e = js_sys::Error::new(message);
    let set = |k: &str, v: JsValue| {
        let _ = Reflect::set(&e, &JsValue::from_str(k), &v);
    };
    set("code", JsValue::from_str(code));
    if let Some(f) = file {
        set("file", JsValue::from_str(f));
    }
    if let Some(l) = line {
        set("line", JsValue::from(l));
    }
    if let Some(c) = col {
        set("column", JsValue::from(c));
    }
    e.into()
}

fn to_js_error(e: &Error) -> JsValue {
    match e {
        Error::Input(p) => js_error("input", &e.to_string(), Some(&p.file), p.line, p.col),
        Error::Options(o) => {
            let err = js_error("options", &e.to_string(), None, None, None);
            let _ = Reflect::set(&err, &JsValue::from_str("field"), &JsValue::from_str(&o.field));
            err
        }
    }
}

/// A `Uint8Array` (a Node `Buffer` among them), from this realm or another (an iframe's, a `vm` context's):
/// `instanceof` sees only this realm's, so `ArrayBuffer.isView` and the view's own tag decide.
fn bytes_view(v: &JsValue) -> Option<&Uint8Array> {
    // A real typed array or DataView (whatever its realm; `instanceof` would run a Proxy's trap), whose tag
    // says which.
    if !js_sys::ArrayBuffer::is_view(v) {
        return None;
    }
    let tag = Reflect::get(v, &js_sys::Symbol::to_string_tag()).ok()?.as_string()?;
    (tag == "Uint8Array").then(|| v.unchecked_ref::<Uint8Array>())
}

/// An options error naming the field, as the core's own.
fn field_error(field: &str, message: String) -> JsValue {
    to_js_error(&Error::Options(kube_preflight::OptionsError { field: field.to_owned(), message }))
}

fn options_error(message: &str) -> JsValue {
    js_error("options", message, None, None, None)
}

/// The caller's values are read only through calls that catch what they throw (`Reflect`, `JSON`; typeof
/// checks; `Array.isArray` and `ArrayBuffer.isView`, which run no trap of a Proxy): an exception thrown by a
/// getter or a Proxy of the caller's is an error of the call, never one unwinding through WebAssembly,
/// which would leave the module's stack pointer behind until the instance traps.
fn caught_error(what: &str, e: &JsValue) -> JsValue {
    let why = e
        .dyn_ref::<js_sys::Error>()
        .map(|x| String::from(x.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "an exception".to_owned());
    options_error(&format!("{what}: reading it threw: {why}"))
}

/// `v[key]`, what a getter or Proxy throws being an options error naming `what`.
fn get(v: &JsValue, key: &JsValue, what: &str) -> Result<JsValue, JsValue> {
    Reflect::get(v, key).map_err(|e| caught_error(what, &e))
}

/// An array's `length` (read through `get`), as the count of items to read: 0 for anything not a finite
/// positive number.
fn array_len(v: &JsValue, what: &str) -> Result<u32, JsValue> {
    let len = get(v, &JsValue::from_str("length"), &format!("{what}.length"))?.as_f64().unwrap_or(0.0);
    Ok(if len.is_finite() && len > 0.0 { len.min(f64::from(u32::MAX)) as u32 } else { 0 })
}

/// `files`: `Array<{ name, content: string | Uint8Array }>`.
fn read_files(files: &JsValue) -> Result<Vec<Input>, JsValue> {
    if !Array::is_array(files) {
        return Err(options_error("files: expected an array of { name, content }"));
    }
    let mut inputs = Vec::new();
    for i in 0..array_len(files, "files")? {
        let f = get(files, &JsValue::from(i), &format!("files[{i}]"))?;
        let i = i as usize;
        if !f.is_object() {
            return Err(options_error(&format!("files[{i}]: expected {{ name, content }}")));
        }
        let name = get(&f, &JsValue::from_str("name"), &format!("files[{i}].name"))?
            .as_string()
            .ok_or_else(|| options_error(&format!("files[{i}].name: expected a string")))?;
        let content = get(&f, &JsValue::from_str("content"), &format!("files[{i}].content"))?;
        let bytes = if let Some(s) = content.as_string() {
            s.into_bytes()
        } else if let Some(u) = bytes_view(&content) {
            u.to_vec()
        } else {
            return Err(options_error(&format!("files[{i}].content: expected a string or a Uint8Array")));
        };
        let discovered =
            get(&f, &JsValue::from_str("discovered"), &format!("files[{i}].discovered"))?.as_bool().unwrap_or(false);
        let passed_over = get(&f, &JsValue::from_str("skipped"), &format!("files[{i}].skipped"))?.as_string();
        inputs.push(Input { name, content: bytes, discovered, passed_over });
    }
    Ok(inputs)
}

/// How deep and how many values of the options are copied as plain data (past them, a value is left to
/// `JSON.stringify` as it is: a report given as `baseline` holds hundreds of thousands).
const OPTION_DEPTH: usize = 16;
const OPTION_VALUES: usize = 10_000;

/// The caller's options as plain data, read once, the way every entry reads them (`check`, `Session`,
/// `checkObjects`, and `checkInWorker` through `plainOptions` before anything is posted): each object's own
/// enumerable fields and the getters its class declares (`get to() {...}` on a prototype, which TypeScript
/// accepts and `JSON.stringify` drops without a word), a Proxy read through its traps, an array by its
/// indexes (a hole is `null`, as JSON writes it), a `toJSON` (a Date) called. A value JSON would drop or
/// change without a word (`NaN`, `Infinity`, a function, a Symbol, a BigInt, a Map or Set) is an options
/// error naming the field (`exemptions[2].until`), rather than the profile's default used in its place.
fn plain(
    v: &JsValue,
    path: &str,
    depth: usize,
    budget: &mut usize,
    object_proto: &JsValue,
) -> Result<JsValue, JsValue> {
    let bad =
        |what: &str| Err(field_error(path, format!("{what} is not a value options can hold (JSON has no such value)")));
    if let Some(f) = v.as_f64() {
        if f.is_finite() {
            return Ok(v.clone());
        }
        // Named as `format!("{f}")` names them, without bringing the standard library's float formatting.
        return bad(if f.is_nan() {
            "NaN"
        } else if f > 0.0 {
            "inf"
        } else {
            "-inf"
        });
    }
    if v.is_function() {
        return bad("a function");
    }
    if v.is_symbol() {
        return bad("a Symbol");
    }
    if v.is_bigint() {
        return bad("a BigInt");
    }
    if !v.is_object() {
        return Ok(v.clone());
    }
    if depth >= OPTION_DEPTH || *budget == 0 {
        return Ok(v.clone());
    }
    *budget -= 1;
    let here = if path.is_empty() { "options" } else { path };
    let tag = get(v, &js_sys::Symbol::to_string_tag(), here)?.as_string();
    if matches!(tag.as_deref(), Some("Map" | "Set")) {
        return bad("a Map or Set");
    }
    let field = |k: &str, array: bool| match (array, path.is_empty()) {
        (true, _) => format!("{path}[{k}]"),
        (false, true) => k.to_owned(),
        (false, false) => format!("{path}.{k}"),
    };
    if Array::is_array(v) {
        let out = Array::new();
        for i in 0..array_len(v, here)? {
            let x = get(v, &JsValue::from(i), here)?;
            let x = if x.is_undefined() { JsValue::NULL } else { x };
            out.push(&plain(&x, &field(&i.to_string(), true), depth + 1, budget, object_proto)?);
        }
        return Ok(out.into());
    }
    // `toJSON` (a Date's), as JSON reads it.
    let to_json = get(v, &JsValue::from_str("toJSON"), here)?;
    if let Some(f) = to_json.dyn_ref::<js_sys::Function>() {
        let x = Reflect::apply(f, v, &Array::new()).map_err(|e| caught_error(here, &e))?;
        return plain(&x, path, depth + 1, budget, object_proto);
    }
    let out = js_sys::Object::new();
    let mut seen: Vec<String> = Vec::new();
    // Own enumerable string keys, then the accessors of its classes (not Object's own).
    let mut holder = v.clone();
    for level in 0..32 {
        if holder.is_null() || holder.is_undefined() || (level > 0 && holder == *object_proto) {
            break;
        }
        let keys = Reflect::own_keys(&holder).map_err(|e| caught_error(here, &e))?;
        for key in keys.iter() {
            let Some(k) = key.as_string() else { continue };
            if seen.contains(&k) {
                continue;
            }
            let desc = Reflect::get_own_property_descriptor(&holder.clone().into(), &key)
                .map_err(|e| caught_error(here, &e))?;
            if desc.is_undefined() {
                continue;
            }
            let enumerable = get(&desc, &JsValue::from_str("enumerable"), here)?.as_bool() == Some(true);
            let getter = get(&desc, &JsValue::from_str("get"), here)?.is_function();
            // Own fields count when enumerable (as JSON reads them); a class's only when they are getters.
            if (level == 0 && !enumerable) || (level > 0 && (!getter || k == "constructor")) {
                continue;
            }
            seen.push(k.clone());
            let x = get(v, &key, here)?;
            if x.is_undefined() {
                continue;
            }
            let _ = Reflect::set(&out, &key, &plain(&x, &field(&k, false), depth + 1, budget, object_proto)?);
        }
        holder = Reflect::get_prototype_of(&holder).map_err(|e| caught_error(here, &e))?.into();
    }
    Ok(out.into())
}

fn stringify(v: &JsValue, what: &str) -> Result<String, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok("{}".to_owned());
    }
    // `Object.prototype`, where a class's getters stop being looked for: found once per reading.
    let object_proto: JsValue = js_sys::Object::get_prototype_of(&js_sys::Object::new().into()).into();
    let v = &plain(v, "", 0, &mut { OPTION_VALUES }, &object_proto)?;
    // A version given as a number has already lost its trailing zero (`1.30` is the number 1.3): refuse
    // it rather than check against Kubernetes 1.3.
    for field in ["to", "from"] {
        if let Some(n) = Reflect::get(v, &JsValue::from_str(field)).ok().and_then(|x| x.as_f64()) {
            // Shown as JavaScript shows the number (and without the standard library's float formatting).
            let n: String = js_sys::Number::from(n).to_string_with_radix(10).map(String::from).unwrap_or_default();
            return Err(field_error(
                field,
                format!(
                    "{n} is a number: give the version as a string (\"1.30\" as a number is 1.3, its trailing zero lost)"
                ),
            ));
        }
    }
    JSON::stringify(v)
        .map_err(|e| caught_error(what, &e))?
        .as_string()
        .ok_or_else(|| options_error(&format!("{what}: expected a plain object")))
}

/// `plainOptions(options)`: the options as every entry reads them, as plain data (`checkInWorker` posts this,
/// never the caller's own value: a Proxy, a class with getters or a frozen object reads as `check()` reads it).
#[wasm_bindgen(js_name = plainOptions)]
pub fn plain_options(options: JsValue) -> Result<JsValue, JsValue> {
    JSON::parse(&stringify(&options, "options")?).map_err(|e| caught_error("options", &e))
}

fn parse_json_value(s: &str) -> Result<JsValue, JsValue> {
    JSON::parse(s).map_err(|_| options_error("internal: the report is not JSON"))
}

/// The options with `today` set to today's date in UTC, unless they give one: exemptions expire by it.
fn dated(mut o: UpgradeOptions) -> UpgradeOptions {
    o.today = o.today.or_else(utc_today);
    o
}

/// Today's date in UTC, from the JavaScript clock (the core never reads one).
fn utc_today() -> Option<kube_preflight::options::Date> {
    let now = js_sys::Date::new_0();
    let (y, m, d) = (now.get_utc_full_year(), now.get_utc_month() + 1, now.get_utc_date());
    kube_preflight::options::Date::parse(&format!("{y:04}-{m:02}-{d:02}"))
}

/// `check(files, options) -> Report`.
#[wasm_bindgen]
pub fn check(files: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let inputs = read_files(&files)?;
    let options_json = stringify(&options, "options")?;
    let opts = dated(request::options_from_json(&options_json).map_err(|e| to_js_error(&e))?);
    let report = kube_preflight::check(&inputs, &opts).map_err(|e| to_js_error(&e))?;
    parse_json_value(&report.to_json())
}

/// `checkObjects(lists, options) -> Report`: objects already held, with no text in between. Each entry is a
/// List page or an object (named by its `kind`), `{ name, list }`, or `{ denied: { kind, namespace, reason } }`.
#[wasm_bindgen(js_name = checkObjects)]
pub fn check_objects(lists: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    if !Array::is_array(&lists) {
        return Err(field_error("lists", "expected an array of Lists or objects".to_owned()));
    }
    let mut s = Session::new(options)?;
    for i in 0..array_len(&lists, "lists")? {
        let at = format!("lists[{i}]");
        let entry = get(&lists, &JsValue::from(i), &at)?;
        if !entry.is_object() || Array::is_array(&entry) {
            return Err(field_error(&at, "expected a List, an object, { name, list } or { denied }".to_owned()));
        }
        let field = |v: &JsValue, k: &str| get(v, &JsValue::from_str(k), &at);
        let (denied, list, name) = (field(&entry, "denied")?, field(&entry, "list")?, field(&entry, "name")?);
        if denied.is_object() {
            s.push_denied(field(&denied, "kind")?, field(&denied, "namespace")?, field(&denied, "reason")?)?;
        } else if list.is_object() && name.is_string() {
            s.push_objects(list, name)?;
        } else {
            s.push_objects(entry, JsValue::UNDEFINED)?;
        }
    }
    s.finish()
}

/// `rules() -> RuleInfo[]`.
#[wasm_bindgen]
pub fn rules() -> Result<JsValue, JsValue> {
    parse_json_value(&kube_preflight::render::rules_json(&kube_preflight::rules()))
}

/// `version() -> string`.
#[wasm_bindgen]
pub fn version() -> String {
    kube_preflight::version().to_owned()
}

/// After a trap: the module's memory in bytes, and whether it could not grow by as much again (0 and `false`
/// where there is no WebAssembly memory). A failed allocation traps as `unreachable`, as a panic would: the
/// memory that cannot grow any further tells them apart, so that the caller can say "out of memory" (the
/// module is thrown away after a trap: growing it costs nothing kept).
#[wasm_bindgen(js_name = memoryAfterTrap)]
pub fn memory_after_trap() -> Vec<f64> {
    #[cfg(target_arch = "wasm32")]
    {
        let pages = core::arch::wasm32::memory_size(0);
        let exhausted = core::arch::wasm32::memory_grow(0, pages.max(1)) == usize::MAX;
        vec![pages as f64 * 65536.0, if exhausted { 1.0 } else { 0.0 }]
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        vec![0.0, 0.0]
    }
}

/// The CLI's `check`: `request` is `{ options, config?: {name, content}, format, color, failOn, allowEmpty }`.
/// Returns `{ output, exitCode }`; throws the same errors as `check`.
#[wasm_bindgen(js_name = runCli)]
pub fn run_cli(files: JsValue, request: JsValue) -> Result<JsValue, JsValue> {
    let inputs = read_files(&files)?;
    let req = cli_request(&request)?;
    let out = request::run(&inputs, &req).map_err(|e| to_js_error(&e))?;
    Ok(cli_output(&out))
}

fn cli_request(request: &JsValue) -> Result<request::CliRequest, JsValue> {
    let get = |k: &str| Reflect::get(request, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED);
    let file = |k: &str| -> Result<Option<Input>, JsValue> {
        let v = get(k);
        if v.is_undefined() || v.is_null() {
            return Ok(None);
        }
        Ok(read_files(&Array::of1(&v).into())?.pop())
    };
    let config = file("config")?;
    let baseline = file("baseline")?;
    let since = file("since")?;
    Ok(request::CliRequest {
        options_json: stringify(&get("options"), "options")?,
        config,
        baseline,
        since,
        help_uri: get("helpUri").as_string().filter(|s| !s.is_empty()),
        today: utc_today(),
        format: get("format").as_string().unwrap_or_else(|| "text".to_owned()),
        color: get("color").as_bool().unwrap_or(false),
        fail_on: get("failOn").as_string().unwrap_or_else(|| "blocker".to_owned()),
        allow_empty: get("allowEmpty").as_bool().unwrap_or(false),
        max_findings: {
            let v = get("maxFindings");
            match v.as_f64() {
                None if v.is_undefined() || v.is_null() => None,
                Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= 1e9 => Some(n as usize),
                _ => return Err(options_error("max-findings: expected a whole number, 0 or more")),
            }
        },
        extra_formats: {
            let v = get("extraFormats");
            if v.is_undefined() || v.is_null() {
                Vec::new()
            } else {
                let a = v.dyn_ref::<Array>().ok_or_else(|| options_error("extraFormats: expected an array"))?;
                a.iter()
                    .map(|f| f.as_string().ok_or_else(|| options_error("extraFormats: expected strings")))
                    .collect::<Result<Vec<_>, _>>()?
            }
        },
    })
}

/// The CLI's `check` on streamed inputs: `new CliSession(request)` (as `runCli`'s), then for each input
/// `push(name, chunk)` (a named input: an error fails the run), `pushFound(name, chunk)` (found in a
/// folder: an error skips it) or `skip(name, reason)`, then `finish()` -> `{ exitCode, count }` and
/// `write(i, sink)` for each of the `count` outputs. `progress()` -> `[bytes, objects]` so far. Nothing is
/// held but what the checks keep, and the report is written as it is rendered.
#[wasm_bindgen]
pub struct CliSession {
    inner: Option<(kube_preflight::Session, request::Prepared)>,
    /// After `finish()`: the report and how to render it, for `write()`.
    done: Option<(kube_preflight::Report, request::Prepared)>,
    /// The chunk's bytes in wasm memory: one buffer reused for every chunk (the CLI reads 1 MiB at a time
    /// into one JavaScript buffer, too), so a chunk costs one copy and no allocation.
    chunk: Vec<u8>,
}

#[wasm_bindgen]
impl CliSession {
    #[wasm_bindgen(constructor)]
    pub fn new(request: JsValue) -> Result<CliSession, JsValue> {
        let req = cli_request(&request)?;
        let prepared = request::prepare(&req).map_err(|e| to_js_error(&e))?;
        let session = kube_preflight::Session::new(prepared.options.clone()).map_err(|e| to_js_error(&e))?;
        Ok(CliSession { inner: Some((session, prepared)), done: None, chunk: Vec::new() })
    }

    fn session(&mut self) -> Result<&mut kube_preflight::Session, JsValue> {
        self.inner.as_mut().map(|(s, _)| s).ok_or_else(|| options_error("this session is finished"))
    }

    /// A chunk (`Uint8Array`) of a named input.
    pub fn push(&mut self, name: JsValue, chunk: JsValue) -> Result<(), JsValue> {
        self.push_to(&name, &chunk, kube_preflight::Session::push)
    }

    /// A chunk (`Uint8Array`) of an input found by walking a folder.
    #[wasm_bindgen(js_name = pushFound)]
    pub fn push_found(&mut self, name: JsValue, chunk: JsValue) -> Result<(), JsValue> {
        self.push_to(&name, &chunk, kube_preflight::Session::push_found)
    }

    /// The size in bytes of the input whose first chunk comes next (a file's), read only for memory
    /// (`Session::size_hint`); a size that is not a whole number of bytes is passed over.
    #[wasm_bindgen(js_name = sizeHint)]
    pub fn size_hint(&mut self, name: JsValue, bytes: JsValue) -> Result<(), JsValue> {
        let name = name.as_string().ok_or_else(|| options_error("name: expected a string"))?;
        if let Some(bytes) = whole_bytes(&bytes) {
            self.session()?.size_hint(&name, bytes);
        }
        Ok(())
    }

    /// A chunk copied into the reused buffer, then given to the session by `push`.
    fn push_to(
        &mut self,
        name: &JsValue,
        chunk: &JsValue,
        push: fn(&mut kube_preflight::Session, &str, &[u8]) -> Result<(), Error>,
    ) -> Result<(), JsValue> {
        let name = name.as_string().ok_or_else(|| options_error("name: expected a string"))?;
        let u = bytes_view(chunk).ok_or_else(|| options_error("chunk: expected a Uint8Array"))?;
        copy_chunk(u, &mut self.chunk);
        let CliSession { inner, chunk, .. } = self;
        let (session, _) = inner.as_mut().ok_or_else(|| options_error("this session is finished"))?;
        push(session, &name, chunk).map_err(|e| to_js_error(&e))
    }

    /// End the current input now: the next chunk, whatever its name, begins another (two inputs of one
    /// name stay two).
    #[wasm_bindgen(js_name = endInput)]
    pub fn end_input(&mut self) -> Result<(), JsValue> {
        self.session()?.end_input().map_err(|e| to_js_error(&e))
    }

    /// An input listed without being read, with the reason.
    pub fn skip(&mut self, name: JsValue, reason: JsValue) -> Result<(), JsValue> {
        let name = name.as_string().ok_or_else(|| options_error("name: expected a string"))?;
        let reason = reason.as_string().ok_or_else(|| options_error("reason: expected a string"))?;
        self.session()?.skip(&name, &reason).map_err(|e| to_js_error(&e))
    }

    /// `[bytes, objects]` read so far.
    pub fn progress(&self) -> Vec<f64> {
        self.inner.as_ref().map_or_else(Vec::new, |(s, _)| {
            let (bytes, objects) = s.progress();
            vec![bytes as f64, objects as f64]
        })
    }

    /// End the inputs: `{ exitCode, count }`, `count` the outputs `write()` renders (`format`'s, then each of
    /// `extraFormats`). An input error when nothing was read (unless `allowEmpty`). The session takes no
    /// more input afterwards.
    pub fn finish(&mut self) -> Result<JsValue, JsValue> {
        let (session, prepared) = self.inner.take().ok_or_else(|| options_error("this session is finished"))?;
        let report = session.finish().map_err(|e| to_js_error(&e))?;
        let exit_code = prepared.exit_code(&report).map_err(|e| to_js_error(&e))?;
        let count = prepared.renderings().len();
        self.done = Some((report, prepared));
        let obj = js_sys::Object::new();
        let _ = Reflect::set(&obj, &JsValue::from_str("exitCode"), &JsValue::from(exit_code));
        let _ = Reflect::set(&obj, &JsValue::from_str("count"), &JsValue::from(count as u32));
        Ok(obj.into())
    }

    /// Output `index` (after `finish()`), rendered into `sink`: called with each piece in order, a
    /// `Uint8Array` of UTF-8 of at most 1 MiB, whose bytes are overwritten by the next piece once the sink
    /// returns (a sink that keeps a piece copies it). The JSON report is rendered as it is written, never held
    /// whole (at 150,000 pods, 88 MB as one string in WebAssembly, twice that while it grew, then as much
    /// again as a JavaScript string, were most of the CLI's memory). An exception the sink throws ends the
    /// writing and is thrown again.
    pub fn write(&self, index: u32, sink: &js_sys::Function) -> Result<(), JsValue> {
        let (report, prepared) = self.done.as_ref().ok_or_else(|| options_error("write() comes after finish()"))?;
        let (format, opts) = prepared
            .renderings()
            .into_iter()
            .nth(index as usize)
            .ok_or_else(|| options_error(&format!("write({index}): no such output")))?;
        let mut out = Sink { sink, buf: Vec::new(), piece: None, thrown: None };
        let written =
            kube_preflight::render::render_to(report, format, opts, &mut out).and_then(|()| out.flush_chunk());
        match (written, out.thrown) {
            (_, Some(e)) => Err(e),
            (Err(e), None) => Err(options_error(&format!("writing the report: {e}"))),
            (Ok(()), None) => Ok(()),
        }
    }
}

/// Where `CliSession::write` renders: pieces of at most [`SINK_CHUNK`] bytes handed to a JavaScript function,
/// each in the same JavaScript buffer (one `ArrayBuffer` for the whole report, not one per piece left to the
/// garbage collector: 27 MB of them at 150,000 pods).
struct Sink<'f> {
    sink: &'f js_sys::Function,
    buf: Vec<u8>,
    /// The JavaScript buffer the pieces are copied into, made at the first.
    piece: Option<Uint8Array>,
    /// What the function threw, thrown again by `write()`.
    thrown: Option<JsValue>,
}

const SINK_CHUNK: usize = 1 << 20;

impl Sink<'_> {
    /// Hand what is buffered to the function.
    fn flush_chunk(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let whole = self.piece.get_or_insert_with(|| Uint8Array::new_with_length(SINK_CHUNK as u32));
        let piece = whole.subarray(0, self.buf.len() as u32);
        piece.copy_from(&self.buf);
        self.buf.clear();
        self.sink.call1(&JsValue::NULL, &piece).map(drop).map_err(|e| {
            self.thrown = Some(e);
            std::io::Error::other("the output's sink threw")
        })
    }
}

impl std::io::Write for Sink<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.write_all(bytes).map(|()| bytes.len())
    }

    fn write_all(&mut self, mut bytes: &[u8]) -> std::io::Result<()> {
        while !bytes.is_empty() {
            let room = SINK_CHUNK - self.buf.len();
            let (now, rest) = bytes.split_at(room.min(bytes.len()));
            self.buf.extend_from_slice(now);
            bytes = rest;
            if self.buf.len() >= SINK_CHUNK {
                self.flush_chunk()?;
            }
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A chunk's bytes copied into `buf`, reused: resized to the chunk (no allocation once it has held the
/// largest chunk) and overwritten.
fn copy_chunk(chunk: &Uint8Array, buf: &mut Vec<u8>) {
    buf.resize(chunk.length() as usize, 0);
    chunk.copy_to(buf);
}

fn cli_output(out: &request::CliOutput) -> JsValue {
    let obj = js_sys::Object::new();
    let _ = Reflect::set(&obj, &JsValue::from_str("output"), &JsValue::from_str(&out.output));
    let _ = Reflect::set(&obj, &JsValue::from_str("exitCode"), &JsValue::from(out.exit_code));
    let extra: Array = out.extra.iter().map(|t| JsValue::from_str(t)).collect();
    let _ = Reflect::set(&obj, &JsValue::from_str("outputs"), &extra);
    obj.into()
}

/// The CLI's `rules`: the catalogue as `json` or `markdown`.
#[wasm_bindgen(js_name = renderRules)]
pub fn render_rules(format: JsValue) -> Result<String, JsValue> {
    let format = format.as_string().ok_or_else(|| options_error("format: expected a string"))?;
    let rules = kube_preflight::rules();
    match format.as_str() {
        "json" => Ok(kube_preflight::render::rules_json(&rules)),
        "markdown" | "md" => Ok(kube_preflight::render::rules_markdown(&rules)),
        other => Err(options_error(&format!("--format: {other:?} is not one of json, markdown"))),
    }
}

/// A count of bytes given from JavaScript: a whole, non-negative, exactly representable number, else
/// `None` (the caller passes it over).
fn whole_bytes(v: &JsValue) -> Option<u64> {
    let n = v.as_f64()?;
    (n.is_finite() && n >= 0.0 && n.fract() == 0.0 && n < 2f64.powi(53)).then_some(n as u64)
}

/// How deep an object pushed as such may nest (an API object is a few dozen levels at most): deeper is an
/// error, not a stack overflow.
const MAX_OBJECT_DEPTH: usize = 256;

/// A JavaScript value as the core's tree, as `JSON.stringify` reads it: strings as text, numbers (finite)
/// as the text `JSON.stringify` writes, booleans and `null` as their literals, arrays and objects (own
/// string keys, in their order; `undefined` and functions left out, as JSON leaves them) as sequences and
/// maps. Read through `Reflect` only, so a getter or a Proxy that throws is an error of the call.
fn js_to_node(v: &JsValue, depth: usize, at: &str) -> Result<kube_preflight::parse::Node, JsValue> {
    use kube_preflight::parse::{Node, Pos, ScalarKind, Str, Text, Value};
    let pos = Pos { line: 1, col: 1 };
    if depth > MAX_OBJECT_DEPTH {
        return Err(field_error(at, format!("nested more than {MAX_OBJECT_DEPTH} levels deep")));
    }
    if v.is_null() || v.is_undefined() {
        return Ok(Node::new(pos, Value::Null));
    }
    if let Some(b) = v.as_bool() {
        return Ok(Node::new(pos, Value::Scalar(Text::new(if b { "true" } else { "false" }), ScalarKind::Plain)));
    }
    if let Some(n) = v.as_f64() {
        if !n.is_finite() {
            return Ok(Node::new(pos, Value::Null));
        }
        let text = JSON::stringify(v).map_err(|e| caught_error(at, &e))?.as_string().unwrap_or_default();
        return Ok(Node::new(pos, Value::Scalar(Text::new(&text), ScalarKind::Plain)));
    }
    if let Some(s) = v.as_string() {
        return Ok(Node::new(pos, Value::Scalar(Text::new(&s), ScalarKind::Str)));
    }
    if Array::is_array(v) {
        let len = array_len(v, at)?;
        let mut items = Vec::with_capacity(len.min(1 << 16) as usize);
        for i in 0..len {
            let item = get(v, &JsValue::from(i), at)?;
            items.push(js_to_node(&item, depth + 1, &format!("{at}[{i}]"))?);
        }
        return Ok(Node::new(pos, Value::Seq(items)));
    }
    if v.is_object() && !v.is_function() {
        let keys = Reflect::own_keys(v).map_err(|e| caught_error(at, &e))?;
        let mut entries = Vec::with_capacity(keys.length() as usize);
        for key in keys.iter() {
            let Some(name) = key.as_string() else { continue };
            let value = get(v, &key, at)?;
            if value.is_undefined() || value.is_function() {
                continue;
            }
            let node = js_to_node(&value, depth + 1, &format!("{at}.{name}"))?;
            entries.push((Str::from(name.as_str()), node));
        }
        return Ok(Node::new(pos, Value::Map(entries)));
    }
    Err(field_error(at, "expected a Kubernetes object, a List or a value JSON can hold".to_owned()))
}

/// Streaming input (CONTRACT section 1): `new Session(options)`, `push(name, chunk)` any number of
/// times, `finish()`.
#[wasm_bindgen]
pub struct Session {
    inner: Option<kube_preflight::Session>,
    /// A high surrogate that ended the last string chunk of this input: its pair is in the next chunk.
    carry: Option<(String, u16)>,
}

/// Sessions open at once (created, neither finished nor freed) at most: each holds what it read until then,
/// and one abandoned without `free()` is released only when the garbage collector finalizes it (800 such
/// sessions held 1.6 GB). Past this, `new Session()` says so instead of growing the module's memory, which
/// never shrinks.
const MAX_OPEN_SESSIONS: u32 = 256;
static OPEN_SESSIONS: core::sync::atomic::AtomicU32 = core::sync::atomic::AtomicU32::new(0);

fn session_closed() {
    let _ =
        OPEN_SESSIONS.fetch_update(core::sync::atomic::Ordering::Relaxed, core::sync::atomic::Ordering::Relaxed, |n| {
            n.checked_sub(1)
        });
}

impl Drop for Session {
    fn drop(&mut self) {
        if self.inner.take().is_some() {
            session_closed();
        }
    }
}

/// The replacement character a lone surrogate becomes when a whole string is read (as `check` reads it).
const REPLACEMENT: &[u8] = "\u{fffd}".as_bytes();

#[wasm_bindgen]
impl Session {
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Session, JsValue> {
        let options_json = stringify(&options, "options")?;
        let opts = dated(request::options_from_json(&options_json).map_err(|e| to_js_error(&e))?);
        let inner = kube_preflight::Session::new(opts).map_err(|e| to_js_error(&e))?;
        let open = OPEN_SESSIONS.load(core::sync::atomic::Ordering::Relaxed);
        if open >= MAX_OPEN_SESSIONS {
            let e = js_error(
                "input",
                &format!("{open} sessions are open (created, neither finished nor freed): call free() on each session you abandon; an open session holds what it read until then"),
                None,
                None,
                None,
            );
            let _ = Reflect::set(&e, &JsValue::from_str("reason"), &JsValue::from_str("sessions"));
            return Err(e);
        }
        OPEN_SESSIONS.store(open + 1, core::sync::atomic::Ordering::Relaxed);
        Ok(Session { inner: Some(inner), carry: None })
    }

    /// Add a chunk (`string` or `Uint8Array`) of the named input; a new name ends the previous input.
    pub fn push(&mut self, name: JsValue, chunk: JsValue) -> Result<(), JsValue> {
        // Checked here, not by the generated glue: a number passed where a string is expected must be an
        // error, never a trap.
        let name = name.as_string().ok_or_else(|| options_error("name: expected a string"))?;
        let s = self.inner.as_mut().ok_or_else(|| options_error("this session is finished"))?;
        // A surrogate pair split between two string chunks of one input is joined again; a high surrogate
        // left at the end of an input (or before another input) reads as U+FFFD, as in a whole string.
        let mut carried = None;
        if let Some((prev, high)) = self.carry.take() {
            if prev == name {
                carried = Some(high);
            } else {
                s.push(&prev, REPLACEMENT).map_err(|e| to_js_error(&e))?;
            }
        }
        let bytes = if let Some(js) = chunk.dyn_ref::<JsString>() {
            let mut units: Vec<u16> = carried.into_iter().chain(js.iter()).collect();
            if units.last().is_some_and(|u| (0xd800..0xdc00).contains(u)) {
                self.carry = units.pop().map(|h| (name.clone(), h));
            }
            String::from_utf16_lossy(&units).into_bytes()
        } else if let Some(u) = bytes_view(&chunk) {
            let mut b = if carried.is_some() { REPLACEMENT.to_vec() } else { Vec::new() };
            b.extend(u.to_vec());
            b
        } else {
            return Err(options_error("chunk: expected a string or a Uint8Array"));
        };
        s.push(&name, &bytes).map_err(|e| to_js_error(&e))
    }

    /// The size in bytes of the input whose first chunk comes next (a file's `size`), read only for memory
    /// (`Session::size_hint`: a YAML document that runs to the input's end is held in one buffer of that
    /// size); a size that is not a whole number of bytes is passed over, and a wrong one changes no report.
    #[wasm_bindgen(js_name = sizeHint)]
    pub fn size_hint(&mut self, name: JsValue, bytes: JsValue) -> Result<(), JsValue> {
        let name = name.as_string().ok_or_else(|| options_error("name: expected a string"))?;
        let s = self.inner.as_mut().ok_or_else(|| options_error("this session is finished"))?;
        if let Some(bytes) = whole_bytes(&bytes) {
            s.size_hint(&name, bytes);
        }
        Ok(())
    }

    /// End the current input now: the next chunk, whatever its name, begins another (two inputs of one
    /// name stay two).
    #[wasm_bindgen(js_name = endInput)]
    pub fn end_input(&mut self) -> Result<(), JsValue> {
        let s = self.inner.as_mut().ok_or_else(|| options_error("this session is finished"))?;
        if let Some((prev, _)) = self.carry.take() {
            s.push(&prev, REPLACEMENT).map_err(|e| to_js_error(&e))?;
        }
        s.end_input().map_err(|e| to_js_error(&e))
    }

    /// A page of objects as the API returned them (a List such as `PodList` with its `items`, or one
    /// object), with no text in between: pages pushed under one `name` are one input (`name` defaults to
    /// the List's `kind`).
    #[wasm_bindgen(js_name = pushObjects)]
    pub fn push_objects(&mut self, list: JsValue, name: JsValue) -> Result<(), JsValue> {
        let name = match name.as_string() {
            Some(n) if !n.is_empty() => n,
            _ if name.is_undefined() || name.is_null() => Reflect::get(&list, &JsValue::from_str("kind"))
                .ok()
                .and_then(|k| k.as_string())
                .filter(|k| !k.is_empty())
                .unwrap_or_else(|| "objects".to_owned()),
            _ => return Err(options_error("name: expected a string")),
        };
        if !list.is_object() || Array::is_array(&list) {
            return Err(field_error(
                "list",
                "expected a Kubernetes object or a List (an object with items)".to_owned(),
            ));
        }
        let node = js_to_node(&list, 0, "list")?;
        let s = self.inner.as_mut().ok_or_else(|| options_error("this session is finished"))?;
        if let Some((prev, _)) = self.carry.take() {
            s.push(&prev, REPLACEMENT).map_err(|e| to_js_error(&e))?;
        }
        s.push_objects(&name, node).map_err(|e| to_js_error(&e))
    }

    /// A list the reader could not make: `reason` `"forbidden"` (the API refused it to the user: a 403) or
    /// `"not-served"` (the cluster does not serve the kind: a 404); `namespace` `null`/`undefined` for a
    /// list across the cluster. `coverage` says what each family could not see.
    #[wasm_bindgen(js_name = pushDenied)]
    pub fn push_denied(&mut self, kind: JsValue, namespace: JsValue, reason: JsValue) -> Result<(), JsValue> {
        let kind = kind.as_string().ok_or_else(|| options_error("kind: expected a string"))?;
        let namespace = match (namespace.is_null() || namespace.is_undefined(), namespace.as_string()) {
            (true, _) => None,
            (false, Some(n)) => Some(n),
            (false, None) => return Err(options_error("namespace: expected a string, or null for the whole cluster")),
        };
        let reason =
            reason.as_string().ok_or_else(|| options_error("reason: expected \"forbidden\" or \"not-served\""))?;
        let s = self.inner.as_mut().ok_or_else(|| options_error("this session is finished"))?;
        s.deny(&kind, namespace.as_deref(), &reason).map_err(|e| to_js_error(&e))
    }

    /// `[bytes, objects]` read so far (`[]` once finished).
    pub fn progress(&self) -> Vec<f64> {
        self.inner.as_ref().map_or_else(Vec::new, |s| {
            let (bytes, objects) = s.progress();
            vec![bytes as f64, objects as f64]
        })
    }

    /// End the input and return the report. The session cannot be used afterwards.
    pub fn finish(&mut self) -> Result<JsValue, JsValue> {
        let mut s = self.inner.take().ok_or_else(|| options_error("this session is finished"))?;
        session_closed();
        if let Some((prev, _)) = self.carry.take() {
            s.push(&prev, REPLACEMENT).map_err(|e| to_js_error(&e))?;
        }
        let report = s.finish().map_err(|e| to_js_error(&e))?;
        parse_json_value(&report.to_json())
    }
}

/// For `cargo xtask bench` only, not part of the package's contract: one JSON input read in chunks, to time
/// in WebAssembly what the bench times natively. `new BenchStages(name, to, parseOnly)`; `push(chunk)` for
/// each chunk (the caller times these: reading, or with `parseOnly` our JSON reader alone with its trees
/// dropped); `finish(checks)` checks the objects read `checks` times (a block of the same work at every
/// size, as the bench's native stage table) and gives `{"rows": [[stage, seconds, memory MB], ...],
/// "checks", "seconds"}`: the stages after reading (`pipeline::STAGES`, then rendering the JSON report as
/// the CLI does, in pieces), timed with `performance.now()`, each the mean of the checks, with the
/// WebAssembly memory's size after the first check's (which never shrinks: the high-water mark so far),
/// after a first row `["read", 0, memory MB]`; and the seconds of all the checks.
#[wasm_bindgen]
pub struct BenchStages {
    parse: Option<kube_preflight::parse::JsonStream>,
    session: Option<kube_preflight::Session>,
    options: UpgradeOptions,
    name: String,
    chunk: Vec<u8>,
}

#[wasm_bindgen]
impl BenchStages {
    #[wasm_bindgen(constructor)]
    pub fn new(name: String, to: String, parse_only: bool) -> Result<BenchStages, JsValue> {
        let options = UpgradeOptions::new(&to);
        let (parse, session) = if parse_only {
            (Some(kube_preflight::parse::JsonStream::new(&name, kube_preflight::parse::Keep::Read, true)), None)
        } else {
            (None, Some(kube_preflight::Session::new(options.clone()).map_err(|e| to_js_error(&e))?))
        };
        Ok(BenchStages { parse, session, options, name, chunk: Vec::new() })
    }

    pub fn push(&mut self, chunk: &Uint8Array) -> Result<(), JsValue> {
        copy_chunk(chunk, &mut self.chunk);
        if let Some(p) = self.parse.as_mut() {
            p.push(&self.chunk).map_err(|e| options_error(&e.to_string()))?;
            drop(p.take_items());
        }
        if let Some(s) = self.session.as_mut() {
            s.push(&self.name, &self.chunk).map_err(|e| to_js_error(&e))?;
        }
        Ok(())
    }

    pub fn finish(self, checks: u32) -> Result<String, JsValue> {
        let none = || Ok(serde_json::json!({ "rows": [], "checks": 0, "seconds": 0 }).to_string());
        if let Some(p) = self.parse {
            p.finish().map_err(|e| options_error(&e.to_string()))?;
            return none();
        }
        let Some(session) = self.session else { return none() };
        let ingested = session.finish_ingested().map_err(|e| to_js_error(&e))?;
        let perf = Reflect::get(&js_sys::global(), &JsValue::from_str("performance")).ok();
        let now = || {
            perf.as_ref()
                .and_then(|p| Reflect::get(p, &JsValue::from_str("now")).ok().map(|f| (p, f)))
                .and_then(|(p, f)| f.dyn_ref::<js_sys::Function>().and_then(|f| f.call0(p).ok()))
                .and_then(|v| v.as_f64())
                .unwrap_or_else(js_sys::Date::now)
                / 1e3
        };
        let memory_mb = || {
            wasm_bindgen::memory()
                .dyn_into::<js_sys::WebAssembly::Memory>()
                .ok()
                .and_then(|m| m.buffer().dyn_into::<js_sys::ArrayBuffer>().ok())
                .map_or(0.0, |b| b.byte_length() as f64 / 1e6)
        };
        let checks = checks.max(1);
        // Let go before the last check's rendering, as the CLI lets its objects go before it renders.
        let mut ingested = Some(ingested);
        let mut stages: Vec<(&str, f64, f64)> = vec![("read", 0.0, memory_mb())];
        let mut spent = 0.0;
        for check in 0..checks {
            let start = now();
            let mut last = start;
            // The first check's rows, with the memory after each; the later checks' seconds added to them
            // row by row (every check marks the same stages in the same order).
            let mut row = 1;
            let mut mark = |stage: &'static str, secs: f64| {
                if check == 0 {
                    stages.push((stage, secs, memory_mb()));
                } else if let Some(r) = stages.get_mut(row) {
                    r.1 += secs;
                }
                row += 1;
            };
            let Some(read) = ingested.as_ref() else { break };
            let report = kube_preflight::pipeline::report_for_staged(read, &self.options, &mut |stage| {
                let t = now();
                mark(stage, t - last);
                last = t;
            })
            .map_err(|e| to_js_error(&e))?;
            if check + 1 == checks {
                ingested = None;
            }
            let t = now();
            // Rendered as the CLI writes it: in pieces, never held whole.
            let _ = report.write_json(&mut std::io::sink());
            mark("render", now() - t);
            spent += now() - start;
        }
        // Written by serde_json (whose float writer the package has anyway), not `{secs}`: f64's `Display`
        // would bring the standard library's float formatting into the package for this bench hook alone.
        let rows: Vec<serde_json::Value> =
            stages.iter().map(|(s, secs, mb)| serde_json::json!([s, secs / f64::from(checks), mb.round()])).collect();
        Ok(serde_json::json!({ "rows": rows, "checks": checks, "seconds": spent }).to_string())
    }
}
