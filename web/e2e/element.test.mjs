// <kube-preflight-report> from the packed tarball: in a plain page under a strict Content-Security-Policy
// (a report, then inputs checked in its worker), and in a Vite React app built from the README's snippet;
// by keyboard, themed from outside, with no request to any other host.
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
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json' };
const quietNpm = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; worker-src 'self'; connect-src 'self'; img-src 'self' data:";
const shots = path.join(root, 'target/e2e');

let tarball;
let browser;
let demoReport;

before(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-element-'));
  const packed = spawnSync('npm', ['pack', path.join(root, 'wasm-pkg/pkg'), '--pack-destination', tmp, '--json'], { encoding: 'utf8', env: quietNpm });
  assert.equal(packed.status, 0, packed.stderr);
  tarball = path.join(tmp, JSON.parse(packed.stdout)[0].filename);
  const cli = spawnSync(process.execPath, [path.join(root, 'wasm-pkg/pkg/bin/kube-preflight.cjs'), 'check', path.join(root, 'tests/fixtures/demo'), '--to', '1.29.2', '--format', 'json'], { encoding: 'utf8' });
  demoReport = cli.stdout;
  assert.equal(JSON.parse(demoReport).summary.verdict, 'blocked');
  fs.mkdirSync(shots, { recursive: true });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
});

after(async () => {
  await browser?.close();
});

function project(name, tools) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `kp-${name}-`));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `app-${name}`, private: true, type: 'module' }));
  const installed = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: dir, encoding: 'utf8', env: quietNpm });
  assert.equal(installed.status, 0, installed.stderr);
  for (const t of tools) fs.symlinkSync(path.join(root, 'node_modules', t), path.join(dir, 'node_modules', t), 'dir');
  fs.writeFileSync(path.join(dir, 'report.json'), demoReport);
  return dir;
}

/** Serve `dir` (with `csp`), open it; every request is recorded. */
async function open(dir, csp) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const file = path.join(dir, url.pathname === '/' ? 'index.html' : path.normalize(decodeURIComponent(url.pathname)));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    const headers = { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' };
    if (csp) headers['content-security-policy'] = csp;
    res.writeHead(200, headers);
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const page = await browser.newPage();
  const seen = { failed: [], errors: [], foreign: [] };
  page.on('request', (r) => { if (!r.url().startsWith(origin) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) seen.foreign.push(r.url()); });
  page.on('response', (r) => { if (r.status() >= 400) seen.failed.push(`${r.status()} ${r.url()}`); });
  page.on('pageerror', (e) => seen.errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') seen.errors.push(m.text()); });
  await page.goto(`${origin}/`);
  return { page, seen, close: async () => { await page.close(); server.close(); } };
}

test('a plain page under a strict CSP: the report, its tabs by keyboard, a theme from outside; then inputs checked in its worker', async () => {
  const dir = project('element-plain', []);
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>portal</title><body><h1>Portal</h1><script type="module" src="./main.js"></script></body>\n');
  fs.writeFileSync(path.join(dir, 'main.js'), `import './node_modules/kube-preflight/report.mjs';
const report = await (await fetch('./report.json')).json();
const view = document.createElement('kube-preflight-report');
view.id = 'view';
view.addEventListener('report', () => { document.body.dataset.shown = String(Number(document.body.dataset.shown || 0) + 1); });
view.report = report;
document.body.append(view);
window.checkInputs = async () => {
  const nodes = await (await fetch('./nodes.yaml')).text();
  view.options = { to: '1.30.1' };
  view.inputs = [new File([nodes], 'nodes.yaml')];
};
`);
  fs.copyFileSync(path.join(root, 'tests/fixtures/cli/nodes-1.28.yaml'), path.join(dir, 'nodes.yaml'));
  const { page, seen, close } = await open(dir, CSP);
  try {
    await page.waitForSelector('body[data-shown="1"]', { timeout: 20000 });
    // The dashboard's verdict card and counts, inside the element's shadow root.
    assert.equal(await page.textContent('kube-preflight-report #verdict'), 'BLOCKED');
    assert.match(await page.textContent('kube-preflight-report .counts'), /8 blocker\(s\)/);
    // By keyboard: focus the Findings tab, Enter opens its view; the first finding opens with Enter too.
    await page.focus('kube-preflight-report #tab-findings');
    await page.keyboard.press('Enter');
    await page.waitForSelector('kube-preflight-report .finding');
    assert.equal(await page.locator('kube-preflight-report .finding').count() >= 20, true);
    await page.focus('kube-preflight-report .finding-head');
    await page.keyboard.press('Enter');
    await page.waitForSelector('kube-preflight-report .finding.open .finding-details');
    // The plan's timeline and the downtime views render from the same report.
    await page.click('kube-preflight-report #tab-plan');
    await page.waitForSelector('kube-preflight-report svg');
    await page.click('kube-preflight-report #tab-downtime');
    assert.match(await page.textContent('kube-preflight-report #panel'), /prometheus/);
    // Themed from outside through the custom properties; the page's own styles stay out.
    await page.evaluate(() => document.getElementById('view').style.setProperty('--bg', 'rgb(1, 2, 3)'));
    assert.equal(await page.$eval('kube-preflight-report', (el) => getComputedStyle(el.shadowRoot.querySelector('.kp-report')).backgroundColor), 'rgb(1, 2, 3)');
    await page.screenshot({ path: path.join(shots, 'element.png'), fullPage: true });
    // Inputs and options: checked in the element's worker, then shown.
    await page.evaluate(() => window.checkInputs());
    await page.waitForSelector('body[data-shown="2"]', { timeout: 20000 });
    assert.equal(await page.textContent('kube-preflight-report #verdict'), 'READY');
    assert.deepEqual(seen.failed, []);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.foreign, [], 'no request to any other host');
  } finally {
    await close();
  }
});

test('a Vite React app: the README\'s element snippet in a component', async () => {
  const dir = project('element-react', ['vite', 'react', 'react-dom']);
  // The README's lines, as a React component's effect would run them.
  const lines = snippet('element').replace("import 'kube-preflight/report';\n", '');
  fs.writeFileSync(path.join(dir, 'main.jsx'), `import React, { useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import 'kube-preflight/report';

function Preflight({ report }) {
  const host = useRef(null);
  useEffect(() => {
    const body = { append: (el) => host.current.append(el) };
    const document = { createElement: (t) => window.document.createElement(t), body };
    let view;
    (() => {
${lines.split('\n').map((l) => `      ${l}`).join('\n').replace('const view =', 'view =')}
    })();
    view.addEventListener('report', () => { window.document.body.dataset.shown = '1'; });
    return () => view.remove();
  }, [report]);
  return <section ref={host} aria-label="Preflight" />;
}

const report = await (await fetch('./report.json')).json();
createRoot(window.document.getElementById('root')).render(<Preflight report={report} />);
`);
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>portal</title><div id="root"></div><script type="module" src="./main.jsx"></script>\n');
  const vite = await import(pathToFileURL(path.join(dir, 'node_modules/vite/dist/node/index.js')));
  await vite.build({ root: dir, logLevel: 'silent', configFile: false, publicDir: false, build: { target: 'es2022' } });
  fs.copyFileSync(path.join(dir, 'report.json'), path.join(dir, 'dist/report.json'));
  const { page, seen, close } = await open(path.join(dir, 'dist'), CSP);
  try {
    await page.waitForSelector('body[data-shown="1"]', { timeout: 20000 }).catch((e) => assert.fail(`${e.message}\n${JSON.stringify(seen)}`));
    assert.equal(await page.textContent('kube-preflight-report #verdict'), 'BLOCKED');
    assert.deepEqual(seen.failed, []);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.foreign, []);
  } finally {
    await close();
  }
});
