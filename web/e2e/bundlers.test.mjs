// The package in the bundlers portals use: a small app built with each of esbuild, Rollup, webpack and
// Vite against the packed tarball, from the README's own snippets (its code and its bundler settings,
// read from the README), served on loopback and run in Chromium: the report must come back, and no
// request may fail (a `.wasm` left behind is a 404).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { snippet } from '../../wasm-pkg/test/helpers.mjs';
import { installApp, launch, packTarball, quietNpm, recordingPage, root, serve } from './helpers.mjs';

/** The small cluster every app checks. */
const NODES = fs.readFileSync(path.join(root, 'tests/fixtures/cli/nodes-1.28.yaml'), 'utf8');

/** What each app does with the package once the README's lines have run: check a small cluster. */
const APP = `
const nodes = ${JSON.stringify(NODES)};
const report = check([{ name: 'nodes.yaml', content: nodes }], { to: '1.30.1' });
document.body.dataset.from = report.upgrade.from;
document.body.dataset.verdict = report.summary.verdict;
`;

let tarball;
let browser;

before(async () => {
  tarball = packTarball();
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** A fresh project from the tarball: the bundler's packages linked, `main.js` from the README snippet and
 * the app. */
function project(name, code, tools, app = APP) {
  const dir = installApp(name, tarball, tools);
  fs.writeFileSync(path.join(dir, 'main.js'), `${code}\n${app}`);
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>app</title><script type="module" src="./main.js"></script>\n');
  return dir;
}

/** Open `url`, wait for the app's report; every failed request and page error is recorded. */
async function openApp(url) {
  const { page, seen } = await recordingPage(browser);
  try {
    await page.goto(url);
    // Attached, not visible: the app's body has no content, so it is never visible, and waiting for that
    // took the whole 30 s in every test. A timeout is left to the assertions on what was recorded.
    await page.waitForSelector('body[data-verdict]', { state: 'attached', timeout: 30000 }).catch(() => {});
    const got = await page.evaluate(() => ({ ...document.body.dataset }));
    return { got, failed: seen.failed, errors: seen.errors };
  } finally {
    await page.close();
  }
}

/** The Content-Security-Policy the README gives for every face of the package: each built app is served under
 * it, and a refusal (a console error) fails the test. */
// (img-src: the test pages' own data: favicon, not the package's.)
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";

/** Serve `dir` on loopback, under the README's policy (or `csp`), and open it. */
async function run(dir, csp = CSP) {
  const server = await serve(dir, { headers: () => ({ 'content-security-policy': csp }) });
  try {
    return await openApp(`${server.origin}/`);
  } finally {
    server.close();
  }
}

function assertReport(r, bundler) {
  assert.deepEqual(r.failed, [], `${bundler}: failed requests`);
  assert.deepEqual(r.errors, [], `${bundler}: page errors`);
  // Two nodes alone: no blocker, and not a pass (the drains, budgets and API machinery were not read).
  assert.deepEqual(r.got, { from: '1.28.4', verdict: 'incomplete' }, bundler);
}

/** The README's esbuild command (the snippet `command`, `npx esbuild ...`) in `dir`, with the page copied
 * beside its output; the output folder. */
function esbuildBuild(dir, command) {
  const args = snippet(command).trim().split(/\s+/);
  assert.equal(args[0], 'npx');
  const r = spawnSync(path.join(dir, 'node_modules/esbuild/bin/esbuild'), args.slice(2), { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  fs.writeFileSync(path.join(dir, 'dist/index.html'), fs.readFileSync(path.join(dir, 'index.html')));
  return path.join(dir, 'dist');
}

test('esbuild: the README\'s wasm-URL form and its esbuild command', async () => {
  const dir = project('esbuild', snippet('browser-wasm-url'), ['esbuild', '@esbuild']);
  assertReport(await run(esbuildBuild(dir, 'esbuild')), 'esbuild');
});

test('Rollup: the README\'s wasm-URL form and its rollup.config.mjs', async () => {
  // Rollup's WebAssembly build: the same bundler as the native one, with no platform package to install.
  const dir = project('rollup', snippet('browser-wasm-url'), ['@rollup']);
  fs.writeFileSync(path.join(dir, 'rollup.config.mjs'), snippet('rollup-config'));
  const { rollup } = await import(pathToFileURL(path.join(dir, 'node_modules/@rollup/wasm-node/dist/es/rollup.js')));
  const config = (await import(pathToFileURL(path.join(dir, 'rollup.config.mjs')))).default;
  const bundle = await rollup({ ...config, input: path.join(dir, 'main.js') });
  await bundle.write({ ...config.output, dir: path.join(dir, 'dist') });
  await bundle.close();
  fs.writeFileSync(path.join(dir, 'dist/index.html'), fs.readFileSync(path.join(dir, 'index.html')));
  assertReport(await run(path.join(dir, 'dist')), 'Rollup');
});

/** webpack 5 in production mode, no loader or plugin: `main.js` into `dist/`, with a page for it. */
async function webpackBuild(dir) {
  const webpack = createRequire(path.join(dir, 'package.json'))('webpack');
  const stats = await new Promise((resolve, reject) => {
    webpack({
      mode: 'production',
      context: dir,
      entry: './main.js',
      output: { path: path.join(dir, 'dist'), filename: 'main.js', publicPath: 'auto' },
    }, (err, s) => (err ? reject(err) : resolve(s)));
  });
  assert.ok(!stats.hasErrors(), stats.toString({ all: false, errors: true }));
  fs.writeFileSync(path.join(dir, 'dist/index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>app</title><script src="./main.js"></script>\n');
  return path.join(dir, 'dist');
}

test('webpack 5: the README\'s default form, no loader or plugin', async () => {
  const dir = project('webpack', snippet('browser-default'), ['webpack']);
  assertReport(await run(await webpackBuild(dir)), 'webpack');
});

test('Vite: the README\'s default form, built', async () => {
  const dir = project('vite', snippet('browser-default'), ['vite']);
  const vite = await import(pathToFileURL(path.join(dir, 'node_modules/vite/dist/node/index.js')));
  await vite.build({ root: dir, logLevel: 'silent', configFile: false });
  assertReport(await run(path.join(dir, 'dist')), 'Vite build');
});

test('Vite\'s dev server, with no configuration (its dependency pre-bundling keeps the .wasm URL)', async () => {
  const dir = project('vite-dev', snippet('browser-default'), ['vite']);
  const vite = await import(pathToFileURL(path.join(dir, 'node_modules/vite/dist/node/index.js')));
  const server = await vite.createServer({ root: dir, logLevel: 'silent', server: { host: '127.0.0.1', port: 0, strictPort: false } });
  await server.listen();
  try {
    assertReport(await openApp(server.resolvedUrls.local[0]), 'Vite dev server');
  } finally {
    await server.close();
  }
});

/** checkInWorker in a page: the same report as check(), progress, and an abort that ends an endless input. */
const WORKER_APP = `
const sync = check([{ name: 'nodes.yaml', content: nodes }], { to: '1.30.1' });
let progress = 0;
const viaWorker = await checkInWorker([new File([nodes], 'nodes.yaml')], { to: '1.30.1' }, { onProgress: () => progress++ });
const ctl = new AbortController();
const endless = new ReadableStream({ pull(c) { c.enqueue(new TextEncoder().encode('# filler\\n'.repeat(100000))); } });
let aborted = 'no';
try {
  await checkInWorker([{ name: 'endless.yaml', content: endless }], { to: '1.30.1' }, { signal: ctl.signal, onProgress: () => ctl.abort() });
} catch (e) {
  aborted = e.name;
}
document.body.dataset.same = String(JSON.stringify(sync) === JSON.stringify(viaWorker));
document.body.dataset.progress = String(progress > 0);
document.body.dataset.aborted = aborted;
document.body.dataset.verdict = viaWorker.summary.verdict;
`;

const WORKER_RESULT = { same: 'true', progress: 'true', aborted: 'AbortError', verdict: 'incomplete' };

test('checkInWorker in a page with no bundler: the module worker next to browser.mjs', async () => {
  const dir = project('worker-plain', '', [], '');
  fs.writeFileSync(path.join(dir, 'main.js'), `import init, { check, checkInWorker } from './node_modules/kube-preflight/browser.mjs';
await init();
const nodes = ${JSON.stringify(NODES)};
${WORKER_APP}
`);
  const r = await run(dir);
  assert.deepEqual(r.failed, []);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.got, WORKER_RESULT);
});

test('checkInWorker in a Vite build: Vite bundles the worker it sees in the package', async () => {
  const code = snippet('browser-default').replace('{ check }', '{ check, checkInWorker }');
  const dir = project('worker-vite', code, ['vite'], `const nodes = ${JSON.stringify(NODES)};\n${WORKER_APP}`);
  const vite = await import(pathToFileURL(path.join(dir, 'node_modules/vite/dist/node/index.js')));
  await vite.build({ root: dir, logLevel: 'silent', configFile: false });
  const r = await run(path.join(dir, 'dist'));
  assert.deepEqual(r.failed, []);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.got, WORKER_RESULT);
});

/** The element in an app: one given the report, and one checking inputs in its worker (`makeWorker`, when the
 * README's form for the bundler defines it). */
const ELEMENT_APP = `
const nodes = ${JSON.stringify(NODES)};
const report = check([{ name: 'nodes.yaml', content: nodes }], { to: '1.30.1' });
const shown = (view) => new Promise((ok, no) => {
  view.addEventListener('report', (e) => ok(e.detail), { once: true });
  view.addEventListener('error', (e) => no(e.detail), { once: true });
});
const view = document.createElement('kube-preflight-report');
const first = shown(view);
view.report = report;
document.body.append(view);
await first;
const checking = document.createElement('kube-preflight-report');
if (typeof makeWorker === 'function') checking.worker = makeWorker;
const second = shown(checking);
document.body.append(checking);
checking.options = { to: '1.30.1' };
checking.inputs = [{ name: 'nodes.yaml', content: nodes }];
const viaWorker = await second;
document.body.dataset.from = report.upgrade.from;
document.body.dataset.element = String(!!view.shadowRoot.querySelector('[part~="verdict"]') && !!checking.shadowRoot.querySelector('[part~="verdict"]'));
document.body.dataset.worker = viaWorker.summary.verdict;
document.body.dataset.verdict = report.summary.verdict;
`;

function assertElement(r, bundler) {
  assert.deepEqual(r.failed, [], `${bundler}: failed requests`);
  assert.deepEqual(r.errors, [], `${bundler}: page errors`);
  assert.deepEqual(r.got, { from: '1.28.4', element: 'true', worker: 'incomplete', verdict: 'incomplete' }, bundler);
}

/** The README's default form, and the element imported beside it. */
const DEFAULT_WITH_ELEMENT = `${snippet('browser-default')}\nimport 'kube-preflight/report';`;

test('esbuild: the element and its worker, from the README\'s element form and esbuild command', async () => {
  const dir = project('esbuild-element', snippet('element-wasm-url'), ['esbuild', '@esbuild'], ELEMENT_APP);
  assertElement(await run(esbuildBuild(dir, 'esbuild-element')), 'esbuild element');
});

test('Rollup: the element and its worker, from the README\'s element form and rollup.config.mjs', async () => {
  const dir = project('rollup-element', snippet('element-wasm-url'), ['@rollup'], ELEMENT_APP);
  fs.writeFileSync(path.join(dir, 'rollup.config.mjs'), snippet('rollup-element-config'));
  const { rollup } = await import(pathToFileURL(path.join(dir, 'node_modules/@rollup/wasm-node/dist/es/rollup.js')));
  // Run from the app's folder, as `npx rollup -c` would: its entries and the package resolve from there (the
  // resolver takes its root when the config is made).
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const config = (await import(pathToFileURL(path.join(dir, 'rollup.config.mjs')))).default;
    const bundle = await rollup(config);
    await bundle.write(config.output);
    await bundle.close();
  } finally {
    process.chdir(cwd);
  }
  fs.writeFileSync(path.join(dir, 'dist/index.html'), fs.readFileSync(path.join(dir, 'index.html')));
  assertElement(await run(path.join(dir, 'dist')), 'Rollup element');
});

test('webpack 5: the element and its worker with no loader or plugin', async () => {
  const dir = project('webpack-element', DEFAULT_WITH_ELEMENT, ['webpack'], ELEMENT_APP);
  assertElement(await run(await webpackBuild(dir)), 'webpack element');
});

test('Vite: the element and its worker, built with no configuration', async () => {
  const dir = project('vite-element', DEFAULT_WITH_ELEMENT, ['vite'], ELEMENT_APP);
  const vite = await import(pathToFileURL(path.join(dir, 'node_modules/vite/dist/node/index.js')));
  await vite.build({ root: dir, logLevel: 'silent', configFile: false });
  assertElement(await run(path.join(dir, 'dist')), 'Vite element');
});

/** `parcel build index.html` in `dir`, into `dist`; the policy to serve it under. Parcel 2.16 writes an
 * inline import map of its bundles' URLs into the page (the package's `.wasm` and worker among them), which a
 * policy without 'unsafe-inline' must allow by its hash, as the README says. */
function parcelBuild(dir) {
  const r = spawnSync(process.execPath, [path.join(dir, 'node_modules/parcel/lib/bin.js'), 'build', 'index.html', '--dist-dir', 'dist', '--no-cache', '--no-source-maps', '--log-level', 'error'], { cwd: dir, encoding: 'utf8', env: { ...process.env, PARCEL_WORKERS: '1' } });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const html = fs.readFileSync(path.join(dir, 'dist/index.html'), 'utf8');
  const hashes = [...html.matchAll(/<script type=["']?importmap["']?>([\s\S]*?)<\/script>/g)]
    .map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);
  return CSP.replace("script-src 'self' 'wasm-unsafe-eval'", `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`);
}

test('Parcel: the README\'s default form with no configuration', async () => {
  const dir = project('parcel', snippet('browser-default'), ['parcel', '@parcel']);
  const csp = parcelBuild(dir);
  assertReport(await run(path.join(dir, 'dist'), csp), 'Parcel');
});

test('Parcel: the element and its worker with no configuration', async () => {
  const dir = project('parcel-element', DEFAULT_WITH_ELEMENT, ['parcel', '@parcel'], ELEMENT_APP);
  const csp = parcelBuild(dir);
  assertElement(await run(path.join(dir, 'dist'), csp), 'Parcel element');
});

/** `names` and what they need, added to the app in `dir` as the project's package-lock.json has them (its
 * paths, versions and integrity), and the app installed again by `npm ci --offline` from npm's cache. Never
 * `npm install name@version`: npm 11 resolves a package named that way from its full registry document, which
 * the project's `npm ci` never caches, so on a fresh machine it fails offline (ENOTCACHED). */
function addLocked(dir, names) {
  const rootLock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')).packages;
  const read = (f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  const pkg = read('package.json');
  const lock = read('package-lock.json');
  for (const n of names) {
    const version = rootLock[`node_modules/${n}`]?.version;
    assert.ok(version, `${n} is not in the project's package-lock.json`);
    pkg.dependencies = { ...pkg.dependencies, [n]: version };
  }
  lock.packages[''].dependencies = pkg.dependencies;
  // Each package's dependencies (optional and peer ones too) found as Node finds them: the nearest
  // node_modules up from it. Those the project's lockfile does not hold (optional peers) are left out, as there.
  const todo = names.map((n) => `node_modules/${n}`);
  while (todo.length) {
    const at = todo.pop();
    if (lock.packages[at]) continue;
    const { dev, devOptional, ...entry } = rootLock[at];
    lock.packages[at] = entry;
    // `node_modules/a/node_modules/b` looks in b's own node_modules, then a's, then the top one.
    const nested = at.split('/node_modules/');
    for (const dep of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies })) {
      const places = nested.map((_, k) => [...nested.slice(0, nested.length - k), dep].join('/node_modules/'));
      const found = [...places, `node_modules/${dep}`].find((p) => rootLock[p]);
      if (found) todo.push(found);
    }
  }
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  fs.writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify(lock, null, 2));
  const installed = spawnSync('npm', ['ci', '--offline', '--loglevel=error'], { cwd: dir, encoding: 'utf8', env: quietNpm });
  assert.equal(installed.status, 0, installed.stderr);
}

/** A Next.js app from the README's page, route and config, installed from the tarball and npm's cache (Turbopack
 * refuses packages linked from outside the app), shared by the Turbopack and webpack builds. */
let nextApp;
function nextProject() {
  if (nextApp) return nextApp;
  const dir = installApp('next', tarball, []);
  addLocked(dir, ['next', 'react', 'react-dom', 'typescript', '@types/react', '@types/node']);
  fs.mkdirSync(path.join(dir, 'app/api/check'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'public'));
  fs.writeFileSync(path.join(dir, 'app/layout.tsx'), 'export default function Layout({ children }: { children: React.ReactNode }) {\n  return <html lang="en"><head><link rel="icon" href="data:," /></head><body>{children}</body></html>;\n}\n');
  fs.writeFileSync(path.join(dir, 'app/page.tsx'), snippet('next-page'));
  fs.writeFileSync(path.join(dir, 'app/api/check/route.ts'), snippet('next-route'));
  fs.writeFileSync(path.join(dir, 'next.config.mjs'), snippet('next-config'));
  fs.writeFileSync(path.join(dir, 'public/snapshot.yaml'), NODES);
  // create-next-app's settings (strict, and its libraries' own declarations not checked).
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', lib: ['dom', 'dom.iterable', 'esnext'], strict: true, noEmit: true, module: 'esnext', moduleResolution: 'bundler', jsx: 'react-jsx', isolatedModules: true, esModuleInterop: true, skipLibCheck: true, plugins: [{ name: 'next' }] },
    include: ['**/*.ts', '**/*.tsx'],
    exclude: ['node_modules'],
  }));
  nextApp = dir;
  return dir;
}

async function nextBuildAndRun(args, label) {
  const dir = nextProject();
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  const next = path.join(dir, 'node_modules/next/dist/bin/next');
  fs.rmSync(path.join(dir, '.next'), { recursive: true, force: true });
  const built = spawnSync(process.execPath, [next, 'build', ...args], { cwd: dir, encoding: 'utf8', env, timeout: 600000 });
  assert.equal(built.status, 0, `${label}: ${built.stdout}\n${built.stderr}`);
  const port = 3900 + Math.floor(Math.random() * 900);
  const server = spawn(process.execPath, [next, 'start', '-p', String(port), '-H', '127.0.0.1'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  server.stdout.on('data', (d) => { out += d; });
  server.stderr.on('data', (d) => { out += d; });
  try {
    const origin = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100 && !/Ready/.test(out); i++) await new Promise((r) => setTimeout(r, 200));
    const { page, seen } = await recordingPage(browser);
    try {
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => !!document.querySelector('kube-preflight-report')?.shadowRoot?.querySelector('[part~="verdict"]'), null, { timeout: 60000 });
      const verdict = await page.evaluate(() => document.querySelector('kube-preflight-report').report.summary.verdict);
      assert.equal(verdict, 'incomplete', label);
      // The README's `onreport` handler ran: React 19 listens for `report` on the element.
      await page.waitForFunction(() => document.title === 'kube-preflight: incomplete', null, { timeout: 10000 });
      assert.deepEqual(seen.failed, [], `${label}: failed requests`);
      assert.deepEqual(seen.errors, [], `${label}: page errors`);
    } finally {
      await page.close();
    }
    const posted = await fetch(`${origin}/api/check`, { method: 'POST', body: NODES });
    assert.equal(posted.status, 200, out);
    const report = await posted.json();
    assert.equal(report.upgrade.from, '1.28.4', label);
    assert.equal(report.summary.verdict, 'incomplete', label);
  } finally {
    server.kill();
  }
}

test('Next.js with Turbopack (its default): the README\'s page (checkInWorker and the element in TSX) and route (check on the server)', async () => {
  await nextBuildAndRun([], 'next build');
});

test('Next.js with webpack (next build --webpack): the same page and route', async () => {
  await nextBuildAndRun(['--webpack'], 'next build --webpack');
});
