// Paths named more than once, every way a user can: a folder and a file inside it, the same path twice
// (spelled alike or not), a symbolic link to a file or a folder also given, a hard link. Each layout must
// give the report of the single reading: the same findings, plan, downtime and objects, the repeats listed
// as read once. Run by `layout.test.mjs` (a few seeded layouts) and by `cargo xtask fuzz` (random ones,
// for as long as it is given): `node wasm-pkg/test/layout.mjs SECONDS`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { bin, fixture } from './helpers.mjs';

/** A small deterministic generator (xorshift32). */
export function rng(seed) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
  return { int: (n) => next() % n, pick: (a) => a[next() % a.length] };
}

/** Every .yaml, .yml and .json file under the rule and plan fixtures. */
function fixtureFiles() {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ya?ml|json)$/.test(e.name) && e.name !== 'case.yaml' && e.name !== 'expected.json') out.push(p);
    }
  };
  walk(fixture('rules'));
  walk(fixture('plan'));
  return out.sort();
}

function run(args, cwd) {
  const r = spawnSync(process.execPath, [bin, 'check', ...args, '--to', '1.29.2', '--format', 'json', '--allow-empty'], { cwd, encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr, report: r.status === 2 ? undefined : JSON.parse(r.stdout) };
}

/** What must not change when an input is named again. */
function essence(r) {
  if (!r.report) return { code: r.code, stderr: r.stderr };
  const { findings, plan, downtime, summary, inventory } = r.report;
  return { code: r.code, findings, plan, downtime, summary, objects: inventory.objects, byKind: inventory.byKind, duplicates: inventory.duplicates };
}

/** One random layout in a fresh folder: files copied from the fixtures, then named again in one of the ways
 * above. Throws (an assertion) when the two readings differ. */
export function layoutCase(seed, files = fixtureFiles()) {
  const g = rng(seed);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-layout-'));
  try {
    fs.mkdirSync(path.join(dir, 'd', 'sub'), { recursive: true });
    const names = [];
    for (let i = 0, n = 1 + g.int(3); i < n; i++) {
      const src = g.pick(files);
      const name = path.join(i === 2 ? 'sub' : '', `f${i}${path.extname(src)}`);
      fs.copyFileSync(src, path.join(dir, 'd', name));
      names.push(path.join('d', name));
    }
    const file = g.pick(names);
    const layouts = [
      [['d'], ['d', file]],
      // The file first, then the folder's others: the order they are read in.
      [[file, ...names.filter((n) => n !== file)], [file, 'd']],
      [[file], [file, file]],
      [[file], [file, `./${file}`]],
      [[file], [file, path.join('d', '..', file)]],
      [['d'], ['d', 'file-link']],
      [['d'], ['d', 'dir-link']],
      [['d'], ['dir-link', 'd']],
      [[file], [file, 'hard-link']],
      [['d'], ['d', 'd', file]],
    ];
    const [single, repeated] = g.pick(layouts);
    if (repeated.includes('file-link')) fs.symlinkSync(path.join(dir, file), path.join(dir, 'file-link'));
    if (repeated.includes('dir-link')) fs.symlinkSync(path.join(dir, 'd'), path.join(dir, 'dir-link'));
    if (repeated.includes('hard-link')) fs.linkSync(path.join(dir, file), path.join(dir, 'hard-link'));
    const a = run(single, dir);
    const b = run(repeated, dir);
    const what = `seed ${seed}: ${single.join(' ')} vs ${repeated.join(' ')} (${names.join(', ')})`;
    if (a.code === 2 || b.code === 2) {
      // An input error names the first file that does not read, the same in both (a link's target is
      // named by the path it was first given as, which may differ): the status must agree.
      assert.equal(b.code, a.code, `${what}\n${a.stderr}\n${b.stderr}`);
      return what;
    }
    // Folders named through a link read their files under the link's name: compare what was read, not
    // where.
    const strip = (e) => JSON.parse(JSON.stringify(e).replaceAll('dir-link/', 'd/').replaceAll('dir-link', 'd'));
    assert.deepEqual(strip(essence(b)), strip(essence(a)), what);
    assert.ok(b.report.inventory.skipped.some((s) => /read once|already walked/.test(s.reason)), `${what}: the repeat is not listed`);
    return what;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// As a script: random layouts for SECONDS.
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const seconds = Number(process.argv[2] || 60);
  const files = fixtureFiles();
  const end = Date.now() + seconds * 1000;
  let n = 0;
  for (let seed = (Date.now() % 1e9) + 1; Date.now() < end; seed++, n++) layoutCase(seed, files);
  console.log(`layout: ${n} random layouts in ${seconds} s, each read as the single reading`);
}
