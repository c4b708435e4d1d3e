// checkInWorker in Node: the same report as check(), from every kind of input, in a worker_thread that
// leaves the event loop free, with progress, errors as check() throws them, and AbortSignal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { fixture, pkg } from './helpers.mjs';

const require = createRequire(import.meta.url);
const { check, checkInWorker, checkObjects } = require(pkg);
const cluster = fs.readFileSync(fixture('demo/cluster.yaml'));
const manifests = fs.readFileSync(fixture('demo/manifests.yaml'), 'utf8');
const options = { to: '1.29.2' };

test('the same report as check(), from strings, bytes, ArrayBuffers, Blobs, web streams and Node streams', async () => {
  const expected = check([{ name: 'cluster.yaml', content: cluster }, { name: 'manifests.yaml', content: manifests }], options);
  const ab = cluster.buffer.slice(cluster.byteOffset, cluster.byteOffset + cluster.byteLength);
  const forms = [
    [{ name: 'cluster.yaml', content: cluster }, { name: 'manifests.yaml', content: manifests }],
    [{ name: 'cluster.yaml', content: ab }, { name: 'manifests.yaml', content: new Blob([manifests]) }],
    [new File([cluster], 'cluster.yaml'), { name: 'manifests.yaml', content: new Blob([manifests]).stream() }],
    [{ name: 'cluster.yaml', content: fs.createReadStream(fixture('demo/cluster.yaml'), { highWaterMark: 1000 }) },
      { name: 'manifests.yaml', content: Readable.from([manifests.slice(0, 7), manifests.slice(7)]) }],
  ];
  for (const inputs of forms) {
    assert.deepEqual(await checkInWorker(inputs, options), expected);
  }
  // The caller's buffer is still whole (chunks are copies, transferred to the worker).
  assert.equal(cluster.byteLength > 0 && cluster[0], cluster[0]);
  assert.equal(new Uint8Array(ab).byteLength, cluster.byteLength);
});

test('objects already held and lists that could not be made: the same report as checkObjects; what cannot be cloned is an options error', async () => {
  const dir = fixture('plan/progress-kubeadm-half-way');
  const list = JSON.parse(fs.readFileSync(`${dir}/cluster.json`, 'utf8'));
  const version = JSON.parse(fs.readFileSync(`${dir}/version.json`, 'utf8'));
  const lists = [{ name: 'cluster', list }, { name: 'version', list: version }, { denied: { kind: 'PodDisruptionBudget', namespace: null, reason: 'forbidden' } }];
  const seen = [];
  const inWorker = await checkInWorker(lists, { to: '1.30.2' }, { onProgress: (p) => seen.push(p.input) });
  assert.equal(JSON.stringify(inWorker), JSON.stringify(checkObjects(lists, { to: '1.30.2' })));
  assert.deepEqual(seen, ['cluster', 'version', 'PodDisruptionBudget']);
  assert.equal(inWorker.coverage.families.find((f) => f.id === 'budgets').state, 'not-read');
  await assert.rejects(checkInWorker([{ name: 'x', list: { kind: 'Pod', f: () => 1, g: Symbol('s') } }], { to: '1.30.2' }), (e) => e.code === 'options' && /inputs\[0\]\.list/.test(e.message));
});

test('two inputs of one name stay two, and an empty input is listed, as check() reads them', async () => {
  const one = 'apiVersion: v1\nkind: Pod\nmetadata: {name: a, namespace: x}\nspec: {nodeName: n1, containers: [{name: c, image: i}]}\n';
  const two = one.replace('name: a,', 'name: b,');
  const inputs = [{ name: 'pods.yaml', content: one }, { name: 'pods.yaml', content: two }, { name: 'empty.yaml', content: '' }];
  const expected = check(inputs, options);
  assert.equal(expected.inventory.byKind.Pod, 2);
  const report = await checkInWorker(inputs, options);
  assert.equal(report.inventory.byKind.Pod, 2);
  assert.equal(report.inventory.files, expected.inventory.files);
  assert.deepEqual(report.inventory, expected.inventory);
});

test('progress after each chunk; the event loop stays free meanwhile', async () => {
  // A large input: the demo's pods many times over, in 1 MiB chunks.
  const big = Buffer.concat(Array.from({ length: 40 }, (_, i) => Buffer.from(cluster.toString('utf8').replaceAll('name: ', `name: c${i}-`) + '\n---\n')));
  const seen = [];
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const report = await checkInWorker([{ name: 'big.yaml', content: big }], options, { onProgress: (p) => seen.push(p) });
  clearInterval(timer);
  assert.ok(report.inventory.objects > 1000, `${report.inventory.objects}`);
  assert.ok(seen.length >= 2, `${seen.length} progress calls`);
  assert.equal(seen.at(-1).bytes, big.byteLength);
  assert.ok(seen.every((p, i) => i === 0 || (p.bytes > seen[i - 1].bytes && p.objects >= seen[i - 1].objects)));
  assert.ok(ticks > 5, `the main thread ran ${ticks} timer callbacks while the worker checked`);
});

test('errors as check() throws them: input errors with file and line, options errors with the field', async () => {
  await assert.rejects(checkInWorker([{ name: 'bad.yaml', content: 'a: [1, 2\n' }], options), (e) => {
    assert.equal(e.code, 'input');
    assert.equal(e.file, 'bad.yaml');
    assert.equal(typeof e.line, 'number');
    return true;
  });
  await assert.rejects(checkInWorker([], { to: '1.29.2', maxSurge: '150%' }), (e) => e.code === 'options' && /maxSurge/.test(e.message));
  await assert.rejects(checkInWorker([{ name: 'x.yaml', content: 42 }], options), (e) => e.code === 'options' && /inputs\[0\]\.content/.test(e.message));
  await assert.rejects(checkInWorker('x.yaml', options), (e) => e.code === 'options');
});

test('AbortSignal: an aborted signal rejects at once; aborting mid-way ends the worker', async () => {
  const done = new AbortController();
  done.abort();
  await assert.rejects(checkInWorker([{ name: 'c.yaml', content: cluster }], options, { signal: done.signal }), (e) => e.name === 'AbortError');
  // An endless stream: only the signal ends it.
  const endless = new ReadableStream({ pull(c) { c.enqueue(new TextEncoder().encode('# filler\n'.repeat(10000))); } });
  const ctl = new AbortController();
  let progress = 0;
  const run = checkInWorker([{ name: 'endless.yaml', content: endless }], options, { signal: ctl.signal, onProgress: () => { if (++progress === 5) ctl.abort(new Error('enough')); } });
  await assert.rejects(run, /enough/);
  assert.equal(progress, 5);
});

test('each input\'s first chunk tells the worker its size in bytes where it is known before reading', async () => {
  const { runInWorker } = await import(`${pkg}/checker.mjs`);
  const posted = [];
  // A worker that answers as the real one does, and keeps what it was sent.
  const fake = () => {
    let onMessage;
    return {
      post: (m) => {
        posted.push({ ...m, chunk: m.chunk?.byteLength });
        queueMicrotask(() => onMessage(m.type === 'finish' ? { type: 'report', report: {} } : m.type === 'start' ? { type: 'ready' } : { type: 'ack', objects: 0 }));
      },
      listen: (f) => { onMessage = f; },
      terminate: () => {},
    };
  };
  const big = Buffer.alloc((1 << 20) + 10, 0x20);
  await runInWorker(fake, {}, [
    { name: 'bytes.yaml', content: big },
    { name: 'text.yaml', content: 'name: café\n' },
    { name: 'blob.yaml', content: new Blob(['abc']) },
    { name: 'stream.yaml', content: Readable.from(['ab', 'c']) },
    { name: 'empty.yaml', content: '' },
  ], options);
  const chunks = posted.filter((m) => m.type === 'chunk').map(({ name, chunk, size }) => [name, chunk, size]);
  assert.deepEqual(chunks, [
    ['bytes.yaml', 1 << 20, (1 << 20) + 10], ['bytes.yaml', 10, undefined],
    ['text.yaml', 12, 12],
    ['blob.yaml', 3, 3],
    ['stream.yaml', 2, undefined], ['stream.yaml', 1, undefined],
    ['empty.yaml', 0, undefined],
  ]);
});

test('options of any shape are read once, as check() reads them: a Proxy, a class\'s getters, frozen; what cannot be read is an options error, and never an unhandled rejection', async () => {
  const unhandled = [];
  const onUnhandled = (e) => unhandled.push(e);
  process.on('unhandledRejection', onUnhandled);
  try {
    const inputs = [{ name: 'cluster.yaml', content: cluster }];
    const expected = check(inputs, { to: '1.29.2', drainForce: true });
    class Options {
      get to() { return '1.29.2'; }
      get drainForce() { return true; }
    }
    const shapes = [
      new Proxy({ to: '1.29.2', drainForce: true }, {}),
      new Options(),
      Object.freeze({ to: '1.29.2', drainForce: true }),
      Object.assign(Object.create(null), { to: '1.29.2', drainForce: true }),
    ];
    for (const o of shapes) {
      // The getter's option is honoured by both, not dropped by one (it would flip the plan).
      assert.deepEqual(check(inputs, o), expected);
      assert.deepEqual(await checkInWorker(inputs, o), expected);
    }
    // A function, and a getter that throws: the same options error from both, naming the field.
    for (const bad of [{ to: '1.29.2', exemptions: [{ rule: 'x', until: () => 1 }] }, { to: '1.29.2', get skip() { throw new Error('no'); } }]) {
      let direct;
      try {
        check(inputs, bad);
      } catch (e) {
        direct = e;
      }
      assert.equal(direct.code, 'options');
      await assert.rejects(checkInWorker(inputs, bad), (e) => e.code === 'options' && e.message === direct.message);
    }
    // A hole in the inputs: named as check() names it.
    await assert.rejects(checkInWorker([, inputs[0]], options), (e) => e.code === 'options' && /^inputs\[0\]/.test(e.message));
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});

test('a bad signal, onProgress or third argument is an options error before any worker starts (the process is not kept alive)', async () => {
  const inputs = [{ name: 'cluster.yaml', content: cluster }];
  for (const [opts, field] of [[{ signal: {} }, /^signal: expected an AbortSignal/], [{ onProgress: 5 }, /^onProgress: expected a function/], [7, /^the third argument/], [{ get signal() { throw new Error('no'); } }, /^the third argument: reading it threw: no/]]) {
    await assert.rejects(checkInWorker(inputs, options, opts), (e) => e.code === 'options' && field.test(e.message), String(field));
  }
  // null and undefined are no options at all.
  assert.equal((await checkInWorker(inputs, options, null)).summary.verdict, check(inputs, options).summary.verdict);
});
