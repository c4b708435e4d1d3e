// The browser build's WebAssembly and its calls, for the entry (browser.mjs) and its worker (worker.mjs): the
// worker imports this, never the entry, so that the entry and its worker are no import cycle (Turbopack's
// `next build` hangs on one).
import initWasm, * as wasm from './web/kube_preflight_wasm.js';

let ready;
let loaded = false;
/** The compiled module, handed to workers (`checkInWorker`) so that they need no download of their own. */
let compiled;

/** The module `init` compiled (after it resolved). */
export function compiledModule() {
  return compiled;
}

/** A compiled module from what `init` was given (or the `.wasm` next to this module). */
async function compile(input) {
  if (input instanceof WebAssembly.Module) return input;
  let source = input ?? new URL('./web/kube_preflight_wasm_bg.wasm', import.meta.url);
  if (typeof source === 'string' || source instanceof URL || (typeof Request === 'function' && source instanceof Request)) {
    source = fetch(source);
  }
  source = await source;
  if (typeof Response === 'function' && source instanceof Response) {
    if (!source.ok) throw new Error(`kube-preflight: the WebAssembly at ${source.url} could not be loaded (HTTP ${source.status})`);
    // compileStreaming wants the application/wasm type, which not every server sends: the bytes then.
    if (typeof WebAssembly.compileStreaming === 'function' && source.headers.get('content-type') === 'application/wasm') {
      return WebAssembly.compileStreaming(source);
    }
    return WebAssembly.compile(await source.arrayBuffer());
  }
  return WebAssembly.compile(source);
}

/**
 * Load the wasm: fetched next to this module unless given its URL (a bundler's asset URL, e.g.
 * `import url from 'kube-preflight/wasm'`), a `Response`, its bytes or a compiled `WebAssembly.Module`.
 * Safe to call more than once. Under a Content-Security-Policy, `script-src` needs `'wasm-unsafe-eval'`.
 */
export function init(input) {
  if (!ready) {
    ready = compile(input)
      .then((module) => {
        compiled = module;
        return initWasm({ module_or_path: module });
      })
      .then(
        (exports) => {
          loaded = true;
          return exports;
        },
        (e) => {
          ready = undefined;
          throw e;
        },
      );
  }
  return ready;
}

/** Calls made before `init()` resolved fail with this, not with a TypeError from inside the glue. */
function loadedOrThrow() {
  if (!loaded) {
    throw Object.assign(
      new Error('kube-preflight: call `await init()` (the browser build loads its WebAssembly first) before check(), rules(), version() or new Session()'),
      { code: 'init' },
    );
  }
}

export function check(files, options) {
  loadedOrThrow();
  return wasm.check(files, options);
}

/** Streaming input: `new Session(options)`, `sizeHint(name, bytes)` (optional), `push(name, chunk)`, `endInput()`,
 * `finish()`, `free()`. */
export class Session extends wasm.Session {
  constructor(options) {
    loadedOrThrow();
    super(options);
  }

  /** `[bytes, objects]` read so far, a plain array as declared (`[]` once finished). */
  progress() {
    return Array.from(super.progress());
  }
}

/** The check of objects a caller already holds (API List pages or objects; `{ name, list }`; `{ denied }`),
 * with no text in between. */
/** The options as every entry reads them, as plain data (`checkInWorker` posts this copy). */
export function plainOptions(options) {
  loadedOrThrow();
  return wasm.plainOptions(options);
}

export function checkObjects(lists, options) {
  loadedOrThrow();
  return wasm.checkObjects(lists, options);
}

export function rules() {
  loadedOrThrow();
  return wasm.rules();
}

export function version() {
  loadedOrThrow();
  return wasm.version();
}

export default init;
