// Browser and bundler entry: `await init()` once, then call check/rules/version.
import initWasm, * as wasm from './web/kube_preflight_wasm.js';

let ready;

/** Load the wasm (fetched next to this module unless given a URL, Response or bytes). Safe to call twice. */
export function init(input) {
  if (!ready) ready = initWasm(input === undefined ? undefined : { module_or_path: input });
  return ready;
}

export function check(files, options) {
  return wasm.check(files, options);
}

/** Streaming input: `new Session(options)`, `push(name, chunk)`, `finish()`. */
export const Session = wasm.Session;

export function rules() {
  return wasm.rules();
}

export function version() {
  return wasm.version();
}

export default init;
