// The README's first two commands, as a newcomer runs them: `cargo xtask serve` serves the dashboard on
// 127.0.0.1:8080 with the demo cluster loaded, and `cargo xtask test` is what CI runs (this suite is part of
// it). The snapshot commands the README gives are the ones the served dashboard gives.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { launch, root } from './helpers.mjs';
import { snippet } from '../../wasm-pkg/test/helpers.mjs';

/** A snippet's shell commands: continuations joined, comments and repeated blanks taken out. */
function commands(name) {
  return snippet(name)
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

const ADDRESS = 'http://127.0.0.1:8080/';
let server;

after(() => {
  // The whole process group: cargo, xtask and trunk.
  if (server && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
});

const portTaken = () => new Promise((resolve) => {
  const socket = net.connect(8080, '127.0.0.1');
  socket.once('connect', () => { socket.destroy(); resolve(true); });
  socket.once('error', () => resolve(false));
});

async function waitFor(url, ms, log) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (server.exitCode !== null) throw new Error(`\`cargo xtask serve\` exited with ${server.exitCode}:\n${log.join('').slice(-3000)}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`nothing served on ${url} after ${ms / 1000} s:\n${log.join('').slice(-3000)}`);
}

test('the README\'s two commands: `cargo xtask serve` serves the demo report on 127.0.0.1:8080, `cargo xtask test` is what CI runs; the snapshot commands are the dashboard\'s', async () => {
  const [serve, testCommand, ...rest] = commands('commands');
  assert.deepEqual([serve, testCommand, rest], ['cargo xtask serve', 'cargo xtask test', []]);
  // CI runs the second and nothing else.
  const ci = fs.readFileSync(path.join(root, '.ci/run'), 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  assert.equal(ci.at(-1), `exec ${testCommand}`);
  assert.ok(ci.slice(0, -1).every((l) => /^(set |cd )/.test(l)), ci.join('\n'));

  assert.equal(await portTaken(), false, 'port 8080 is in use (a `cargo xtask serve` still running?): stop it first');
  const log = [];
  server = spawn('sh', ['-c', serve], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  server.stdout.on('data', (d) => log.push(String(d)));
  server.stderr.on('data', (d) => log.push(String(d)));
  // It checks the installs, reuses the cached build, then trunk builds and serves (under a minute warm).
  await waitFor(ADDRESS, 10 * 60 * 1000, log);

  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(ADDRESS);
    await page.waitForSelector('#verdict');
    assert.equal(await page.textContent('#verdict'), 'BLOCKED');
    assert.match(await page.textContent('#summary'), /demo cluster/);
    assert.match(await page.textContent('#summary'), /1\.27\.6 → 1\.28 → 1\.29\.2/);
    // "How do I get a snapshot?" gives the README's commands, no more, no fewer.
    await page.click('#how-to summary');
    const shown = (await page.textContent('#kubectl-command')).split('\n').map((l) => l.trim()).filter(Boolean);
    assert.deepEqual([...shown].sort(), [...commands('snapshot'), ...commands('snapshot-platform')].sort());
    // The one command first: the README's live snapshot line.
    assert.equal((await page.textContent('#live-command')).trim(), commands('live')[0]);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
