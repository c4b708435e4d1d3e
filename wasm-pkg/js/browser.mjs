// Browser and bundler entry: `await init()` once, then call check/rules/version.
import initWasm, * as wasm from './web/kube_preflight_wasm.js';

let ready;
let loaded = false;

/**
 * Load the wasm: fetched next to this module unless given its URL (a bundler's asset URL, e.g.
 * `import url from 'kube-preflight/wasm?url'`), a `Response`, its bytes or a compiled `WebAssembly.Module`.
 * Safe to call more than once. Under a Content-Security-Policy, `script-src` needs `'wasm-unsafe-eval'`.
 */
export function init(input) {
  if (!ready) {
    ready = initWasm(input === undefined ? undefined : { module_or_path: input }).then(
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

/** Streaming input: `new Session(options)`, `push(name, chunk)`, `finish()`, `free()`. */
export class Session extends wasm.Session {
  constructor(options) {
    loadedOrThrow();
    super(options);
  }
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
