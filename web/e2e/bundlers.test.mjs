// The package in the bundlers portals use: a small app built with each of esbuild, Rollup, webpack and
// Vite against the packed tarball, from the README's own snippets (its code and its bundler settings,
// read from the README), served on loopback and run in Chromium: the report must come back, and no
// request may fail (a `.wasm` left behind is a 404).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { snippet } from '../../wasm-pkg/test/helpers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(root, 'package.json'));
const { chromium } = require('playwright-core');
const pkg = path.join(root, 'wasm-pkg/pkg');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };
const quietNpm = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };


/** What each app does with the package once the README's lines have run: check a small cluster. */
const APP = `
const nodes = ${JSON.stringify(fs.readFileSync(path.join(root, 'tests/fixtures/cli/nodes-1.28.yaml'), 'utf8'))};
const report = check([{ name: 'nodes.yaml', content: nodes }], { to: '1.30.1' });
document.body.dataset.from = report.upgrade.from;
document.body.dataset.verdict = report.summary.verdict;
`;

let tarball;
let browser;

before(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-bundlers-'));
  const packed = spawnSync('npm', ['pack', pkg, '--pack-destination', tmp, '--json'], { encoding: 'utf8', env: quietNpm });
  assert.equal(packed.status, 0, packed.stderr);
  tarball = path.join(tmp, JSON.parse(packed.stdout)[0].filename);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
});

after(async () => {
  await browser?.close();
});

/** A fresh project: the tarball installed as npm installs it (no network), the bundler's packages linked
 * from the dev tools, `main.js` from the README snippet and the app. */
function project(name, code, tools, app = APP) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `kp-${name}-`));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `app-${name}`, private: true, type: 'module' }));
  const installed = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: dir, encoding: 'utf8', env: quietNpm });
  assert.equal(installed.status, 0, installed.stderr);
  for (const t of tools) {
    const to = path.join(dir, 'node_modules', t);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.symlinkSync(path.join(root, 'node_modules', t), to, 'dir');
  }
  fs.writeFileSync(path.join(dir, 'main.js'), `${code}\n${app}`);
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>app</title><script type="module" src="./main.js"></script>\n');
  return dir;
}

/** Serve `dir` on loopback, open it, and wait for the app's report; every failed request is an error. */
async function run(dir) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const file = path.join(dir, url.pathname === '/' ? 'index.html' : path.normalize(decodeURIComponent(url.pathname)));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const page = await browser.newPage();
  const failed = [];
  const errors = [];
  page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  try {
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForSelector('body[data-verdict]', { timeout: 20000 }).catch(() => {});
    const got = await page.evaluate(() => ({ ...document.body.dataset }));
    return { got, failed, errors };
  } finally {
    await page.close();
    server.close();
  }
}

function assertReport(r, bundler) {
  assert.deepEqual(r.failed, [], `${bundler}: failed requests`);
  assert.deepEqual(r.errors, [], `${bundler}: page errors`);
  assert.deepEqual(r.got, { from: '1.28.4', verdict: 'ready' }, bundler);
}

test('esbuild: the README\'s wasm-URL form and its esbuild command', async () => {
  const dir = project('esbuild', snippet('browser-wasm-url'), ['esbuild', '@esbuild']);
  const command = snippet('esbuild').trim().split(/\s+/);
  assert.equal(command[0], 'npx');
  const r = spawnSync(path.join(dir, 'node_modules/esbuild/bin/esbuild'), command.slice(2), { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  fs.writeFileSync(path.join(dir, 'dist/index.html'), fs.readFileSync(path.join(dir, 'index.html')));
  assertReport(await run(path.join(dir, 'dist')), 'esbuild');
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

test('webpack 5: the README\'s default form, no loader or plugin', async () => {
  const dir = project('webpack', snippet('browser-default'), ['webpack']);
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
  assertReport(await run(path.join(dir, 'dist')), 'webpack');
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
    const page = await browser.newPage();
    const failed = [];
    const errors = [];
    page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(server.resolvedUrls.local[0]);
    await page.waitForSelector('body[data-verdict]', { timeout: 30000 }).catch(() => {});
    const got = await page.evaluate(() => ({ ...document.body.dataset }));
    await page.close();
    assertReport({ got, failed, errors }, 'Vite dev server');
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

const WORKER_RESULT = { same: 'true', progress: 'true', aborted: 'AbortError', verdict: 'ready' };

test('checkInWorker in a page with no bundler: the module worker next to browser.mjs', async () => {
  const dir = project('worker-plain', '', [], '');
  const nodes = fs.readFileSync(path.join(root, 'tests/fixtures/cli/nodes-1.28.yaml'), 'utf8');
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>app</title>
<script type="module">
import init, { check, checkInWorker } from './node_modules/kube-preflight/browser.mjs';
await init();
const nodes = ${JSON.stringify(nodes)};
${WORKER_APP}
</script>\n`);
  const r = await run(dir);
  assert.deepEqual(r.failed, []);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.got, WORKER_RESULT);
});

test('checkInWorker in a Vite build: Vite bundles the worker it sees in the package', async () => {
  const nodes = fs.readFileSync(path.join(root, 'tests/fixtures/cli/nodes-1.28.yaml'), 'utf8');
  const code = snippet('browser-default').replace('{ check }', '{ check, checkInWorker }');
  const dir = project('worker-vite', code, ['vite'], `const nodes = ${JSON.stringify(nodes)};\n${WORKER_APP}`);
  const vite = await import(pathToFileURL(path.join(dir, 'node_modules/vite/dist/node/index.js')));
  await vite.build({ root: dir, logLevel: 'silent', configFile: false });
  const r = await run(path.join(dir, 'dist'));
  assert.deepEqual(r.failed, []);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.got, WORKER_RESULT);
});
