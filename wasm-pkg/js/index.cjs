'use strict';
// Node entry (require): the wasm is read synchronously from disk by the nodejs glue.
//
// A trap in WebAssembly (a Rust panic, an out-of-bounds access) leaves an instance's memory in an unknown
// state: every later call could fail too. The core is written never to trap on any input, but should one
// happen, the call fails with an Error (code "internal") and the next call runs on a fresh instance.
const GLUE = './node/kube_preflight_wasm.js';

function load() {
  delete require.cache[require.resolve(GLUE)];
  return require(GLUE);
}

// Loaded at the first call, not at import: a server-side renderer that bundles this module for a page that
// calls it only in the browser (Next.js prerendering a client component) must be able to import it.
let wasm;

function current() {
  if (wasm === undefined) wasm = load();
  return wasm;
}

/** After a trap: an input error saying so when the module's memory could grow no further, else nothing. */
function outOfMemory(instance) {
  let bytes = 0;
  let exhausted = false;
  try {
    [bytes, exhausted] = Array.from(instance.memoryAfterTrap());
  } catch {
    return undefined;
  }
  if (!exhausted) return undefined;
  const mib = Math.round(bytes / 1048576);
  return Object.assign(
    new Error(`out of memory: the checks needed more than the ${mib} MiB of WebAssembly memory this process could give (WebAssembly addresses 4 GiB at most); check the snapshot in parts (by namespace, or the manifests apart)`),
    { code: 'input', reason: 'memory' },
  );
}

function guarded(call) {
  try {
    return call(current());
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) {
      const oom = outOfMemory(wasm);
      wasm = load();
      if (oom) throw oom;
      throw Object.assign(new Error(`internal error: ${e.message} (the module was reloaded; please report this input)`), {
        code: 'internal',
      });
    }
    throw e;
  }
}

/**
 * Streaming input: `new Session(options)`, `sizeHint(name, bytes)` (optional), `push(name, chunk)`, `endInput()`, `pushDenied(kind, namespace, reason)`,
 * `finish()`. A session holds what it has read in the module's memory until `finish()` or `free()` (or, once it
 * is garbage collected, through the module's FinalizationRegistry): call `free()` on a session you abandon.
 */
class Session {
  constructor(options) {
    this.instance = current();
    this.inner = guarded((w) => new w.Session(options));
  }

  push(name, chunk) {
    this.usable();
    return guarded(() => this.inner.push(name, chunk));
  }

  /**
   * The size in bytes of the input whose first chunk comes next (a file's `size`), optional and read only for
   * memory; a size that is not a whole number of bytes is passed over, and a wrong one changes no report, only
   * the memory held (a size too large, for a List, up to the size told).
   */
  sizeHint(name, bytes) {
    this.usable();
    return guarded(() => this.inner.sizeHint(name, bytes));
  }

  /** End the current input now: the next chunk, whatever its name, begins another input. */
  endInput() {
    this.usable();
    return guarded(() => this.inner.endInput());
  }

  /**
   * A page of objects as the API returned them (a List such as `PodList`, or one object), with no text in
   * between; pages pushed under one `name` (default: the List's `kind`) are one input.
   */
  pushObjects(list, name) {
    this.usable();
    return guarded(() => this.inner.pushObjects(list, name));
  }

  /**
   * A list you could not make: the API refused it (`'forbidden'`, a 403) or the cluster does not serve the kind
   * (`'not-served'`, a 404); `namespace` `null` for a list across the cluster.
   */
  pushDenied(kind, namespace, reason) {
    this.usable();
    return guarded(() => this.inner.pushDenied(kind, namespace, reason));
  }

  /** The report; the session's memory is released, and the session cannot be used again. */
  finish() {
    this.usable();
    try {
      return guarded(() => this.inner.finish());
    } finally {
      this.free();
    }
  }

  /** `[bytes, objects]` read so far, a plain array (`[]` once finished or freed). */
  progress() {
    if (this.inner === undefined) return [];
    this.usable();
    return Array.from(guarded(() => this.inner.progress()));
  }

  /** Release what the session holds at once. Safe to call more than once; the session cannot be used after. */
  free() {
    const inner = this.inner;
    this.inner = undefined;
    if (inner && this.instance === wasm) inner.free();
  }

  usable() {
    if (this.inner === undefined) {
      throw Object.assign(new Error('this session is finished or freed'), { code: 'options' });
    }
    if (this.instance !== wasm) {
      throw Object.assign(new Error('this session was lost when the module was reloaded after an internal error'), {
        code: 'internal',
      });
    }
  }
}

/** Node needs no initialisation; kept so code written for browsers runs unchanged. */
const init = async () => undefined;

// Named exports, and `default` as the browser build's (`init`): `import init, { check } from
// 'kube-preflight'` works the same in Node, in browsers and compiled to CommonJS.
Object.defineProperty(exports, '__esModule', { value: true });
exports.default = init;
exports.init = init;
exports.check = (files, options) => guarded((w) => w.check(files, options));
exports.Session = Session;
/** The check of objects already held (API List pages or objects; `{ name, list }`; `{ denied }`), with no text in between. */
exports.checkObjects = (lists, options) => guarded((w) => w.checkObjects(lists, options));
exports.rules = () => guarded((w) => w.rules());
exports.version = () => guarded((w) => w.version());

/**
 * The same check in a worker_thread, leaving the event loop free: inputs as strings, bytes, Blobs, web
 * streams or async iterables (a file's read stream), read chunk by chunk; `signal` ends the worker at once.
 */
exports.checkInWorker = async (inputs, options, opts = {}) => {
  const { runInWorker } = await import('./checker.mjs');
  const { Worker } = require('node:worker_threads');
  const make = () => {
    const w = new Worker(require('node:path').join(__dirname, 'worker-node.mjs'));
    return {
      post: (m, transfer) => w.postMessage(m, transfer),
      listen: (onMessage, onError) => {
        w.on('message', onMessage);
        w.on('error', onError);
        w.on('exit', (code) => onError(new Error(`the worker exited (status ${code})`)));
      },
      terminate: () => void w.terminate(),
    };
  };
  return runInWorker(make, {}, inputs, options, opts, (o) => guarded((w) => w.plainOptions(o)));
};
/** @internal used by the command line */
exports.runCli = (files, request) => guarded((w) => w.runCli(files, request));
/** @internal used by the command line: `push`/`pushFound`/`skip` inputs as they are read, then `finish()` */
exports.cliSession = (request) => {
  // Every call guarded as the API's are: a trap (out of memory among them) becomes an Error with a code.
  const inner = guarded((w) => new w.CliSession(request));
  return new Proxy(inner, {
    get(target, prop) {
      const v = target[prop];
      return typeof v === 'function' ? (...args) => guarded(() => v.apply(target, args)) : v;
    },
  });
};
/** @internal used by the command line */
exports.renderRules = (format) => guarded((w) => w.renderRules(format));
