// One report whatever the way in: the same inputs under other names, in other orders, split into more files,
// or given through another entry point (check, Session in any chunking, checkInWorker, the command line) give
// the same report. Names are the one thing a report may hold of them: renamed, the report differs by the names
// alone; split, by where each finding's source is and which files were read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli, fixture, pkg } from './helpers.mjs';

const require = createRequire(import.meta.url);
const { check, checkInWorker, Session } = require(pkg);

const OPTIONS = { to: '1.29.2', today: '2026-11-27' };
const cluster = { name: 'cluster.yaml', content: fs.readFileSync(fixture('demo/cluster.yaml'), 'utf8') };
const docs = fs.readFileSync(fixture('demo/manifests.yaml'), 'utf8').split(/^---\n/m)
  // A part with nothing but comments would be an input of its own, listed as empty: left out here.
  .filter((d) => d.split('\n').some((l) => l.trim() && !l.trimStart().startsWith('#')));
const half = Math.ceil(docs.length / 2);
const first = { name: 'apps.yaml', content: docs.slice(0, half).join('---\n') };
const second = { name: 'platform.yaml', content: docs.slice(half).join('---\n') };
const INPUTS = [cluster, first, second];
const expected = JSON.stringify(check(INPUTS, OPTIONS));

/** A small deterministic generator (mulberry32), so that a failure names the seed that found it. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function permutations(xs) {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

test('every order of the inputs gives the same report, byte for byte', () => {
  for (const order of permutations(INPUTS)) {
    assert.equal(JSON.stringify(check(order, OPTIONS)), expected, order.map((i) => i.name).join(', '));
  }
});

test('renamed inputs give the same report but for the names', () => {
  const names = { 'cluster.yaml': 'snapshots/prod-eu.json.yaml', 'apps.yaml': 'z/apps (copy).yml', 'platform.yaml': 'a.yaml' };
  const renamed = JSON.stringify(check(INPUTS.map((i) => ({ ...i, name: names[i.name] })), OPTIONS));
  let back = renamed;
  for (const [from, to] of Object.entries(names)) back = back.split(JSON.stringify(to).slice(1, -1)).join(JSON.stringify(from).slice(1, -1));
  assert.equal(back, expected);
});

test('split into one file per document, the report is the same but for where each finding was read', () => {
  const split = [cluster, ...docs.map((content, i) => ({ name: `part-${i}.yaml`, content }))];
  const strip = (r) => JSON.stringify(r, (key, v) => (key === 'source' || key === 'files' ? undefined : v));
  assert.equal(strip(check(split, OPTIONS)), strip(JSON.parse(expected)));
});

test('a Session in any chunking gives check()\'s report', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const next = random(seed);
    const s = new Session(OPTIONS);
    for (const input of INPUTS) {
      const bytes = Buffer.from(input.content);
      for (let at = 0; at < bytes.length;) {
        const n = 1 + Math.floor(next() * 4096);
        s.push(input.name, bytes.subarray(at, at + n));
        at += n;
      }
      s.endInput();
    }
    assert.equal(JSON.stringify(s.finish()), expected, `seed ${seed}`);
  }
});

test('checkInWorker gives check()\'s report', async () => {
  assert.equal(JSON.stringify(await checkInWorker(INPUTS, OPTIONS)), expected);
});

test('the command line gives check()\'s report', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-agree-'));
  for (const i of INPUTS) fs.writeFileSync(path.join(dir, i.name), i.content);
  fs.writeFileSync(path.join(dir, 'options.json'), JSON.stringify(OPTIONS));
  const r = cli(['check', ...INPUTS.map((i) => i.name), '--config', 'options.json', '--format', 'json', '--fail-on', 'never'], { cwd: dir });
  fs.rmSync(dir, { recursive: true });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.stringify(JSON.parse(r.stdout)), expected);
});
