// The streaming API: chunks split anywhere (even inside a UTF-8 character) give the same report as check().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
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
