// Browser and bundler entry: `await init()` once, then call check/rules/version, or checkInWorker.
import { init, compiledModule, plainOptions } from './browser-core.mjs';
import { runInWorker } from './checker.mjs';

export { init, check, checkObjects, rules, version, Session } from './browser-core.mjs';

/**
 * The same check in a module worker, leaving the page free: inputs as `{ name, content }` (a string,
 * bytes, a Blob, a ReadableStream or an async iterable) or Files, read chunk by chunk; `signal` ends the
 * worker at once; `onProgress({ bytes, objects, input })` after each chunk. `worker` makes the Worker when
 * the bundler does not see `new Worker(new URL('./worker.mjs', import.meta.url))` (esbuild, Rollup): give
 * it the URL of `kube-preflight/worker` as your bundler emits it.
 */
export async function checkInWorker(inputs, options, opts = {}) {
  await init();
  const factory = opts !== null && typeof opts === 'object' ? opts.worker : undefined;
  if (factory !== undefined && factory !== null && typeof factory !== 'function') {
    throw Object.assign(new Error('worker: expected a function that makes the Worker'), { code: 'options' });
  }
  const make = () => {
    const w = factory ? factory() : new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' });
    return {
      post: (m, transfer) => w.postMessage(m, transfer || []),
      listen: (onMessage, onError) => {
        w.onmessage = (e) => onMessage(e.data);
        w.onerror = (e) => {
          e.preventDefault?.();
          onError(e.message || 'the worker script could not be loaded');
        };
        w.onmessageerror = () => onError('a message could not be read');
      },
      terminate: () => w.terminate(),
    };
  };
  return runInWorker(make, { module: compiledModule() }, inputs, options, opts, plainOptions);
}

export default init;
