// checkInWorker: the same check, in a worker (a module Worker in browsers, a worker_thread in Node), so
// that the page or the event loop stays free. Inputs are read as streams and handed over chunk by chunk
// (one chunk in flight: memory follows the chunk size, not the input's), and an AbortSignal ends the
// worker at once. The worker side is `worker-core.mjs`; the entries give the worker.

/** Inputs are handed to the worker in chunks of this many bytes. */
export const CHUNK_BYTES = 1 << 20;

function abortError(signal) {
  if (signal.reason !== undefined) return signal.reason;
  const e = new Error('the check was aborted');
  e.name = 'AbortError';
  return e;
}

function optionsError(message) {
  return Object.assign(new Error(message), { code: 'options' });
}

/** An Error as the API throws it, from what the worker sent. */
function rebuild(e) {
  const err = new Error(e.message);
  for (const k of ['code', 'file', 'line', 'column', 'field']) if (e[k] !== undefined) err[k] = e[k];
  return err;
}

/** `{ name, content }`, a `File` (named by its name), objects already held (`{ name, list }`: a List page or an
 * object, as `checkObjects` takes them) or a list that could not be made (`{ denied: { kind, namespace, reason } }`). */
function describe(input, i) {
  if (typeof Blob === 'function' && input instanceof Blob && typeof input.name === 'string') return { name: input.name, content: input };
  if (input !== null && typeof input === 'object' && input.denied !== null && typeof input.denied === 'object') return { denied: input.denied };
  if (input === null || typeof input !== 'object' || typeof input.name !== 'string') {
    throw optionsError(`inputs[${i}]: expected { name, content }, a File, { name, list } or { denied }`);
  }
  if (input.list !== undefined && input.content === undefined) {
    if (input.list === null || typeof input.list !== 'object') throw optionsError(`inputs[${i}].list: expected a List or an object`);
    return { name: input.name, list: input.list };
  }
  return input;
}

/** Post a message of the caller's values: one the structured clone refuses (a function, a Proxy) is an options
 * error naming the input, not a DataCloneError. */
function postValue(worker, message, where) {
  try {
    worker.post(message);
  } catch (e) {
    throw optionsError(`${where}: cannot be handed to the worker (${e?.name ?? 'Error'}: ${e?.message ?? e}); give plain objects`);
  }
}

/** The size in bytes of an input's content where it is known before reading it (a buffer's, a Blob's). */
function sizeOf(content) {
  if (content instanceof ArrayBuffer || ArrayBuffer.isView(content)) return content.byteLength;
  if (typeof Blob === 'function' && content instanceof Blob) return content.size;
  return undefined;
}

/** The chunks of one input's content, as `Uint8Array`s of their own (safe to transfer). */
async function* chunks(content, where, stop) {
  const pieces = function* (bytes) {
    for (let at = 0; at < bytes.length; at += CHUNK_BYTES) yield bytes.slice(at, at + CHUNK_BYTES);
  };
  if (typeof content === 'string') {
    yield* pieces(new TextEncoder().encode(content));
  } else if (content instanceof ArrayBuffer) {
    yield* pieces(new Uint8Array(content));
  } else if (ArrayBuffer.isView(content)) {
    yield* pieces(new Uint8Array(content.buffer, content.byteOffset, content.byteLength));
  } else if (typeof Blob === 'function' && content instanceof Blob) {
    yield* chunks(content.stream(), where, stop);
  } else if (content && typeof content.getReader === 'function') {
    const reader = content.getReader();
    stop.push(() => reader.cancel().catch(() => {}));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* chunks(value, where, stop);
    }
  } else if (content && typeof content[Symbol.asyncIterator] === 'function') {
    for await (const piece of content) yield* chunks(piece, where, stop);
  } else {
    throw optionsError(`${where}: expected a string, Uint8Array, ArrayBuffer, Blob, ReadableStream or async iterable`);
  }
}

/**
 * Run a check in `worker` (`{ post(message, transfer), listen(onMessage, onError), terminate() }`).
 * `start` is the first message's extra fields (the browser passes the compiled module). `readOptions` is the
 * module's own reading of the caller's options into plain data (`plainOptions`), the one `check()` makes: what
 * is posted is that copy, never the caller's value (a Proxy, a class with getters).
 */
export function runInWorker(makeWorker, start, inputs, options, opts, readOptions = (o) => o) {
  if (!Array.isArray(inputs)) return Promise.reject(optionsError('inputs: expected an array of { name, content } or Files'));
  // The third argument read before any worker exists: a bad one is an options error, never a TypeError
  // thrown after the worker started (which then kept the host's process alive).
  let signal;
  let onProgress;
  try {
    if (opts !== undefined && opts !== null && typeof opts !== 'object') throw optionsError('the third argument: expected { signal, onProgress, worker }');
    signal = opts?.signal ?? undefined;
    onProgress = opts?.onProgress ?? undefined;
  } catch (e) {
    return Promise.reject(e.code === 'options' ? e : optionsError(`the third argument: reading it threw: ${e?.message ?? e}`));
  }
  if (signal !== undefined && (typeof signal !== 'object' || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function' || typeof signal.removeEventListener !== 'function')) {
    return Promise.reject(optionsError('signal: expected an AbortSignal'));
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') return Promise.reject(optionsError('onProgress: expected a function'));
  if (signal?.aborted) return Promise.reject(abortError(signal));
  let described;
  let plainOptions;
  try {
    plainOptions = readOptions(options);
    // Every index, holes too (`[ , input]`: inputs[0] is named, as check() names files[0]).
    described = Array.from(inputs, (input, i) => describe(input, i));
  } catch (e) {
    return Promise.reject(e);
  }
  return new Promise((resolve, reject) => {
    const worker = makeWorker();
    const stop = [];
    let settled = false;
    let waiting;
    const finish = (fn, value) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      for (const s of stop) s();
      worker.terminate();
      if (waiting) waiting.reject(new Error('finished'));
      fn(value);
    };
    const onAbort = () => finish(reject, abortError(signal));
    signal?.addEventListener('abort', onAbort, { once: true });
    // Each message the worker answers: `ready`, an `ack` per chunk, then the `report`.
    // An answer awaited; one never awaited (the post before it threw) is rejected when the run ends, which
    // must not be an unhandled rejection that ends the host's process: each is handled here too.
    const next = () => {
      const answer = new Promise((res, rej) => { waiting = { resolve: res, reject: rej }; });
      answer.catch(() => {});
      return answer;
    };
    worker.listen(
      (m) => {
        if (m.type === 'error') return finish(reject, rebuild(m.error));
        if (m.type === 'report') return finish(resolve, m.report);
        const w = waiting;
        waiting = undefined;
        w?.resolve(m);
      },
      (e) => finish(reject, Object.assign(new Error(`kube-preflight: the worker failed: ${e?.message ?? e}`), { code: 'internal' })),
    );
    (async () => {
      let ack = next();
      postValue(worker, { type: 'start', options: plainOptions, ...start }, 'options');
      await ack;
      let bytes = 0;
      for (let i = 0; i < described.length; i++) {
        const { name } = described[i];
        // Objects already held, and lists that could not be made: handed over as they are.
        if (described[i].denied || described[i].list) {
          // Posted first, then waited for: a value the clone refuses throws here, with no answer left pending
          // (the answer cannot come before this turn of the event loop ends).
          if (described[i].denied) postValue(worker, { type: 'denied', denied: described[i].denied }, `inputs[${i}].denied`);
          else postValue(worker, { type: 'objects', name, list: described[i].list }, `inputs[${i}].list`);
          ack = next();
          const { objects } = await ack;
          onProgress?.({ bytes, objects, input: name ?? described[i].denied.kind });
          continue;
        }
        // A string is encoded once, here, so that its size in bytes is known as a Blob's or a buffer's is.
        const content = typeof described[i].content === 'string' ? new TextEncoder().encode(described[i].content) : described[i].content;
        // The first chunk carries the input's size where it is known: the session holds a YAML document
        // that runs to the input's end in one buffer of that size.
        let size = sizeOf(content);
        let any = false;
        for await (const chunk of chunks(content, `inputs[${i}].content`, stop)) {
          if (settled) return;
          ack = next();
          bytes += chunk.byteLength;
          any = true;
          worker.post({ type: 'chunk', name, chunk, size }, [chunk.buffer]);
          size = undefined;
          const { objects } = await ack;
          onProgress?.({ bytes, objects, input: name });
        }
        if (settled) return;
        // An empty input is still an input (listed as empty); then it ends, so that the next input, even
        // of the same name, is read as another.
        if (!any) {
          ack = next();
          worker.post({ type: 'chunk', name, chunk: new Uint8Array(0) });
          await ack;
        }
        ack = next();
        worker.post({ type: 'end' });
        await ack;
      }
      worker.post({ type: 'finish' });
    })().catch((e) => finish(reject, e));
  });
}
