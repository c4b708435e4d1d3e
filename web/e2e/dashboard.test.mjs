// The dashboard end to end: built by trunk (dist/), served on loopback, driven in Debian's Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(root, 'package.json'));
const { chromium } = require('playwright-core');
const dist = path.join(root, 'dist');
const shots = path.join(root, 'target/e2e');

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };

let server;
let base;
let browser;

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'index.html')), 'dist/ is missing: run `cargo xtask web` first');
  server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const file = path.join(dist, url.pathname === '/' ? 'index.html' : path.normalize(url.pathname));
    if (!file.startsWith(dist) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  fs.mkdirSync(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function openPage() {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const foreign = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.protocol !== 'data:' && u.protocol !== 'blob:' && u.hostname !== '127.0.0.1') foreign.push(r.url());
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(base);
  return { page, foreign, errors };
}

test('the demo report is shown at once, and nothing leaves the page', async () => {
  const { page, foreign, errors } = await openPage();
  await page.waitForSelector('#verdict');
  const verdict = await page.textContent('#verdict');
  assert.ok(['READY', 'BLOCKED'].includes(verdict), verdict);
  const summary = await page.textContent('#summary');
  assert.match(summary, /1\.27\.6/);
  assert.match(summary, /1\.29\.2/);
  assert.match(summary, /demo cluster/);
  assert.ok((await page.locator('tr.finding').count()) >= 1);
  assert.ok(await page.locator('tr.finding[data-code="version/minor-skip"]').count());
  await page.click('button[data-tab=plan]');
  assert.match(await page.textContent('#plan'), /phase\(s\), \d+ node step\(s\)/);
  assert.ok((await page.locator('tr.workload-down').count()) >= 1);
  await page.screenshot({ path: path.join(shots, 'dashboard-plan.png'), fullPage: true });
  await page.click('button[data-tab=inventory]');
  assert.match(await page.textContent('#inventory'), /Node/);
  await page.click('button[data-tab=findings]');
  await page.screenshot({ path: path.join(shots, 'dashboard-demo.png'), fullPage: true });
  assert.deepEqual(foreign, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('loading a file shows its findings', async () => {
  const { page, foreign, errors } = await openPage();
  await page.waitForSelector('#verdict');
  await page.setInputFiles('#files', path.join(root, 'tests/fixtures/e2e/upgraded-control-plane.yaml'));
  await page.waitForFunction(() => document.querySelector('#verdict')?.textContent === 'BLOCKED');
  assert.ok(await page.locator('tr.finding[data-code="version/downgrade"]').count());
  assert.match(await page.textContent('#loaded'), /upgraded-control-plane\.yaml/);
  // A new target clears the downgrade.
  await page.fill('#to', '1.31.0');
  await page.press('#to', 'Enter');
  await page.dispatchEvent('#to', 'change');
  await page.waitForFunction(() => document.querySelector('#verdict')?.textContent === 'READY');
  await page.screenshot({ path: path.join(shots, 'dashboard.png'), fullPage: true });
  assert.deepEqual(foreign, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('bad input is explained, not a blank page', async () => {
  const { page, errors } = await openPage();
  await page.waitForSelector('#verdict');
  await page.setInputFiles('#files', path.join(root, 'tests/fixtures/cli/bad.yaml'));
  await page.waitForSelector('.error');
  assert.match(await page.textContent('.error'), /bad\.yaml:6:/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the embed example renders a report with the packed package', async () => {
  // A portal's page: examples/embed with the built package where npm would install it.
  const site = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-embed-'));
  fs.cpSync(path.join(root, 'examples/embed'), site, { recursive: true });
  fs.cpSync(path.join(root, 'wasm-pkg/pkg'), path.join(site, 'node_modules/kube-preflight'), { recursive: true });
  const embed = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const file = path.join(site, url.pathname === '/' ? 'index.html' : path.normalize(url.pathname));
    if (!file.startsWith(site) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => embed.listen(0, '127.0.0.1', resolve));
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${embed.address().port}/`);
    await page.waitForSelector('tr[data-code="api/removed"]');
    assert.match(await page.textContent('#verdict'), /^BLOCKED: 1 blocker/);
    await page.fill('#input', 'kind: Pod\nmetadata: [\n');
    await page.click('#run');
    await page.waitForFunction(() => document.querySelector('#verdict').textContent.startsWith('Cannot check'));
    assert.match(await page.textContent('#verdict'), /pasted\.yaml:\d+:\d+/);
    await page.screenshot({ path: path.join(shots, 'embed-example.png'), fullPage: true });
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    embed.close();
  }
});
