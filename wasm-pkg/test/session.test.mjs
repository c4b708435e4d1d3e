// The streaming API: chunks split anywhere (even inside a UTF-8 character) give the same report as check().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { pkg, fixture } from './helpers.mjs';

const require = createRequire(import.meta.url);
const { check, Session } = require(pkg);

test('Session gives check()\'s report for any chunking', () => {
  const cluster = fs.readFileSync(fixture('demo/cluster.yaml'));
  const manifests = fs.readFileSync(fixture('demo/manifests.yaml'));
  const want = JSON.stringify(check([{ name: 'cluster.yaml', content: cluster }, { name: 'manifests.yaml', content: manifests }], { to: '1.29.2' }));
  for (const size of [1, 5, 4096, 1 << 20]) {
    const s = new Session({ to: '1.29.2' });
    for (let i = 0; i < cluster.length; i += size) s.push('cluster.yaml', cluster.subarray(i, i + size));
    for (let i = 0; i < manifests.length; i += size) s.push('manifests.yaml', manifests.subarray(i, i + size));
    assert.equal(JSON.stringify(s.finish()), want, `chunks of ${size}`);
  }
});

test('Session splits inside a UTF-8 character and accepts strings', () => {
  const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: café, namespace: ünïcode}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n';
  const bytes = Buffer.from(text);
  const cut = bytes.indexOf(0xc3) + 1; // between the two bytes of 'é'
  const s = new Session({ to: '1.29.2' });
  s.push('a.yaml', bytes.subarray(0, cut));
  s.push('a.yaml', bytes.subarray(cut));
  s.push('b.yaml', 'apiVersion: v1\nkind: Pod\n');
  s.push('b.yaml', 'metadata: {name: q}\n');
  const r = s.finish();
  assert.deepEqual(r.inventory.byKind, { ConfigMap: 1, Pod: 2 });
  assert.throws(() => s.finish(), /finished/);
});

test('Session errors carry code, file and line; bad options fail at once', () => {
  const s = new Session({ to: '1.29.2' });
  s.push('x.yaml', 'kind: Pod\nmetadata: {name: a}\n---\n');
  assert.throws(() => {
    s.push('x.yaml', 'kind: Pod\nmetadata: [\n---\nkind: Pod\n');
  }, (e) => e.code === 'input' && e.file === 'x.yaml' && e.line >= 5);
  assert.throws(() => new Session({ to: 'soon' }), (e) => e.code === 'options' && e.field === 'to');
});

test('a surrogate pair split between two string chunks reads as the whole string does', () => {
  const { check, Session } = require(pkg);
  const text = 'kind: Pod\napiVersion: v1\nmetadata: {name: "smile-😀", namespace: shop}\n';
  const whole = check([{ name: 'p.yaml', content: text }], { to: '1.29.2' });
  const cut = text.indexOf('😀') + 1; // between the high and the low surrogate
  const s = new Session({ to: '1.29.2' });
  s.push('p.yaml', text.slice(0, cut));
  s.push('p.yaml', text.slice(cut));
  assert.deepEqual(s.finish(), whole);
  // A high surrogate left alone at the end reads as U+FFFD, as it does in one string.
  const lone = 'kind: Pod\napiVersion: v1\nmetadata: {name: "a", namespace: shop}\n# \ud83d';
  const t = new Session({ to: '1.29.2' });
  t.push('q.yaml', lone);
  assert.deepEqual(t.finish(), check([{ name: 'q.yaml', content: lone }], { to: '1.29.2' }));
});

/** Run `script` in a child Node with `--expose-gc`; it prints the process's resident memory in MiB at the end. */
function memoryAfter(script) {
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', `
    import { createRequire } from 'node:module';
    const require = createRequire(${JSON.stringify(pkg + '/')});
    const { Session } = require(${JSON.stringify(pkg)});
    // About 1.3 MiB of JSON: a List of 4,000 ConfigMaps (JSON rather than YAML: read about three times faster,
    // the same sessions to free).
    const chunk = Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: Array.from({ length: 4000 }, (_, i) =>
      ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' + i, namespace: 'n', labels: { app: 'a' + i } }, data: { k: 'v'.repeat(200) } })) }));
    ${script}
    console.log(process.memoryUsage().rss / 2 ** 20);
  `], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return Number(r.stdout.trim());
}

test('free() releases an abandoned session at once; a dropped one is released by the garbage collector', () => {
  // 120 sessions of about 1.3 MiB of input each, abandoned before finish(): freed, the memory is reused.
  // Each figure is the growth over a process that read nothing.
  const base = memoryAfter('');
  const freed = -base + memoryAfter('for (let i = 0; i < 120; i++) { const s = new Session({ to: "1.29.2" }); s.push("a.json", chunk); s.free(); s.free(); }');
  const kept = -base + memoryAfter('const all = []; for (let i = 0; i < 120; i++) { const s = new Session({ to: "1.29.2" }); s.push("a.json", chunk); all.push(s); }');
  const dropped = -base + memoryAfter(`for (let i = 0; i < 120; i++) {
      const s = new Session({ to: "1.29.2" }); s.push("a.json", chunk);
      if (i % 10 === 9) { globalThis.gc(); await new Promise((r) => setTimeout(r, 0)); }
    }`);
  assert.ok(kept > 60 && kept > 4 * freed, `kept ${kept} MiB, freed ${freed} MiB`);
  assert.ok(dropped < kept / 3, `dropped ${dropped} MiB, kept ${kept} MiB`);
  // A freed or finished session says so.
  const { Session } = require(pkg);
  const s = new Session({ to: '1.29.2' });
  s.free();
  assert.throws(() => s.push('a.yaml', 'kind: Pod\n'), /finished or freed/);
});

test('sizeHint: any size, or none, gives the same report; what is not a whole number of bytes is passed over', () => {
  // A kubectl List in YAML: one document that runs to the input's end, the case the size is told for.
  const items = Array.from({ length: 300 }, (_, i) => `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c${i}\n    namespace: n\n  data:\n    k: ${'v'.repeat(100)}\n`);
  const list = Buffer.from(`apiVersion: v1\nitems:\n${items.join('')}kind: List\nmetadata:\n  resourceVersion: ""\n`);
  const want = JSON.stringify(check([{ name: 'l.yaml', content: list }], { to: '1.29.2' }));
  for (const hint of [list.length, Math.floor(list.length / 3), list.length * 100, 0, undefined, -1, 1.5, NaN, Infinity, '1000', null]) {
    const s = new Session({ to: '1.29.2' });
    s.sizeHint('l.yaml', hint);
    for (let i = 0; i < list.length; i += 4096) s.push('l.yaml', list.subarray(i, i + 4096));
    assert.equal(JSON.stringify(s.finish()), want, `size ${hint}`);
  }
  // A hint for another name, or between two inputs, changes nothing either.
  const s = new Session({ to: '1.29.2' });
  s.push('a.yaml', 'kind: Pod\napiVersion: v1\nmetadata: {name: a, namespace: n}\n');
  s.sizeHint('other.yaml', 10);
  s.push('l.yaml', list);
  assert.deepEqual(s.finish().inventory.byKind, { ConfigMap: 300, Pod: 1 });
  const t = new Session({ to: '1.29.2' });
  assert.throws(() => t.sizeHint(7, 10), (e) => e.code === 'options' && /name: expected a string/.test(e.message));
  t.free();
  assert.throws(() => t.sizeHint('a.yaml', 10), /finished or freed/);
});

test('sessions open at once are bounded, and said: free() or finish() makes room', () => {
  const open = [];
  let refused;
  for (let i = 0; i < 300 && !refused; i++) {
    try {
      const s = new Session({ to: '1.29.2' });
      s.push('a.yaml', 'apiVersion: v1\nkind: Node\nmetadata: {name: n}\n');
      open.push(s);
    } catch (e) {
      refused = e;
    }
  }
  assert.ok(refused, 'the 300th open session is refused');
  assert.equal(refused.code, 'input');
  assert.equal(refused.reason, 'sessions');
  assert.match(refused.message, /^256 sessions are open .*call free\(\)/);
  open.pop().free();
  const again = new Session({ to: '1.29.2' });
  again.push('a.yaml', 'apiVersion: v1\nkind: Node\nmetadata: {name: n}\n');
  assert.equal(again.finish().inventory.objects, 1);
  // finish() closed it: room for one more.
  open.push(new Session({ to: '1.29.2' }));
  for (const s of open) s.free();
});
