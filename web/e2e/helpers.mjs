// Shared by the end-to-end tests: Debian's Chromium as the machine allows it, a static server on loopback,
// the packed tarball, an app installed from it, and a page that records what went wrong.
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const shots = path.join(root, 'target/e2e');
const require = createRequire(path.join(root, 'package.json'));
const { chromium } = require('playwright-core');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json' };
export const quietNpm = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

/** Chromium headless, with the flags this closed network needs (no background connections). */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/** Serve `dir` on loopback (`/` is index.html); `headers(url)` adds response headers. */
export async function serve(dir, { headers } = {}) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const file = path.join(dir, url.pathname === '/' ? 'index.html' : path.normalize(decodeURIComponent(url.pathname)));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream', ...headers?.(url) });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

/** `npm pack` of the built package into a new folder; the tarball's path. */
export function packTarball() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-tarball-'));
  const packed = spawnSync('npm', ['pack', path.join(root, 'wasm-pkg/pkg'), '--pack-destination', tmp, '--json'], { encoding: 'utf8', env: quietNpm });
  assert.equal(packed.status, 0, packed.stderr);
  return path.join(tmp, JSON.parse(packed.stdout)[0].filename);
}

/** A fresh project with the tarball installed as npm installs it (no network) and `tools` linked from the
 * dev tools. */
export function installApp(name, tarball, tools) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `kp-${name}-`));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `app-${name}`, private: true, type: 'module' }));
  const installed = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: dir, encoding: 'utf8', env: quietNpm });
  assert.equal(installed.status, 0, installed.stderr);
  for (const t of tools) {
    const to = path.join(dir, 'node_modules', t);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.symlinkSync(path.join(root, 'node_modules', t), to, 'dir');
  }
  return dir;
}

/** A new page that records failed responses, page and console errors, and requests leaving `origin`. */
export async function recordingPage(browser, origin) {
  const page = await browser.newPage();
  const seen = { failed: [], errors: [], foreign: [] };
  page.on('request', (r) => {
    const u = r.url();
    if (origin && !u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) seen.foreign.push(u);
  });
  page.on('response', (r) => { if (r.status() >= 400) seen.failed.push(`${r.status()} ${r.url()}`); });
  page.on('pageerror', (e) => seen.errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') seen.errors.push(m.text()); });
  return { page, seen };
}
