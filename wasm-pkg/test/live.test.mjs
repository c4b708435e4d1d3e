// `kube-preflight snapshot` and `check --context`, through the real kubectl, against a local endpoint that
// replays recorded API responses (cluster/replay.mjs says what it is and is not): pages with `continue`, a
// 410 on an expired token, 403s across the cluster and in one namespace, kinds the cluster does not serve.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { parse } from 'yaml';
import { bin, root, snippet } from './helpers.mjs';
import { startReplay, kubeconfig } from './cluster/replay.mjs';

const recording = JSON.parse(fs.readFileSync(path.join(root, 'wasm-pkg/test/cluster/recording.json'), 'utf8'));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-live-'));
let replay;
let config;

before(async () => {
  const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  assert.equal(kubectl.status, 0, `these tests run the real kubectl (cargo xtask setup installs Debian's kubernetes-client where none is): ${kubectl.error || kubectl.stderr}`);
  replay = await startReplay(recording);
  config = path.join(dir, 'kubeconfig');
  fs.writeFileSync(config, kubeconfig(replay.url));
});

after(async () => {
  await replay.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The CLI as a child process (the endpoint answers from this one, so never spawnSync). */
function run(args, env = {}) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [bin, ...args], { env: { ...process.env, NO_COLOR: '1', KUBECACHEDIR: path.join(dir, 'cache'), ...env } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('snapshot lists every kind in pages through kubectl, starts a list again on a 410, and says what it could not see', async () => {
  const out = path.join(dir, 'snapshot.json');
  replay.requests.length = 0;
  const r = await run(['snapshot', '--kubeconfig', config, '--chunk-size', '2', '-o', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(replay.unanswered, []);
  assert.match(r.stderr, /pods: the continue token expired \(410 Gone\): listing it again from the start/);
  assert.match(r.stderr, /snapshot of replay taken at .* by kubectl v1\.\d+/);
  // Pages of two, as asked; the pods' first page asked twice (the list started again after the 410).
  const pods = replay.requests.filter((q) => q.path.startsWith('/api/v1/pods?')).map((q) => new URL(q.path, 'http://x').searchParams);
  assert.deepEqual(pods.map((q) => [q.get('limit'), q.get('continue')]), [['2', null], ['2', 'cG9kczoy'], ['2', null], ['2', 'cG9kczoy'], ['2', 'cG9kczo0']]);
  // Secrets: only Helm's, asked with its label, never all of them.
  assert.ok(replay.requests.filter((q) => q.path.includes('/secrets')).every((q) => new URL(q.path, 'http://x').searchParams.get('labelSelector') === 'owner=helm'));

  const list = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.equal(list.kind, 'List');
  const snap = list.items.at(-1);
  assert.equal(snap.apiVersion, 'kube-preflight.io/v1');
  assert.equal(snap.kind, 'Snapshot');
  assert.equal(snap.context, 'replay');
  assert.equal(snap.server, replay.url);
  assert.match(snap.takenAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal(snap.version.serverVersion.gitVersion, 'v1.28.4');
  // Each pod once, though its first pages were read twice.
  assert.deepEqual(list.items.filter((o) => o.kind === 'Pod').map((o) => o.metadata.name), ['web-7c9f8-a', 'web-7c9f8-b', 'api-5d6c7-a', 'api-5d6c7-b', 'coredns-5dd5756b68-x']);
  assert.deepEqual(snap.lists.find((l) => l.kind === 'Pod'), { kind: 'Pod', apiVersion: 'v1', items: 5 });
  // Items carry the kind their typed list leaves out; managed fields keep their apiVersion, not their fields.
  const node = list.items.find((o) => o.kind === 'Node');
  assert.equal(node.apiVersion, 'v1');
  assert.deepEqual(node.metadata.managedFields, [{ manager: 'kubelet', operation: 'Update', apiVersion: 'v1', time: '2026-12-07T09:59:00Z', subresource: 'status' }]);
  assert.deepEqual(snap.denied, [
    { kind: 'ValidatingAdmissionPolicy', reason: 'not-served' },
    { kind: 'ValidatingAdmissionPolicyBinding', reason: 'not-served' },
    { kind: 'Secret', namespace: 'payments', reason: 'forbidden' },
  ]);
  assert.deepEqual(snap.lists.find((l) => l.kind === 'Secret'), { kind: 'Secret', apiVersion: 'v1', labelSelector: 'owner=helm', items: 0, namespaces: 3 });
  assert.ok(list.items.some((o) => o.kind === 'ConfigMap' && o.metadata.name === 'kubeadm-config'));

  // check reads it as it reads any file: what was refused and what is not served, said per family.
  const c = await run(['check', out, '--to', '1.29', '--format', 'json']);
  assert.equal(c.code, 1, c.stderr);
  const report = JSON.parse(c.stdout);
  assert.equal(report.inventory.snapshot.context, 'replay');
  assert.equal(report.inventory.snapshotTime, snap.takenAt);
  assert.equal(report.upgrade.from, '1.28.4');
  const fam = Object.fromEntries(report.coverage.families.map((f) => [f.id, f]));
  assert.equal(fam['helm-charts'].state, 'partial');
  assert.match(fam['helm-charts'].reason, /^not visible to you: Helm release record in namespace\(s\) payments/);
  assert.match(fam['admission-policies'].reason, /^this cluster serves no ValidatingAdmissionPolicy/);
  assert.match(fam['admission-webhooks'].reason, /^listed from the API: this cluster has no ValidatingWebhookConfiguration/);
  assert.deepEqual(report.findings.filter((f) => f.severity === 'blocker').map((f) => f.code), ['disruption/pdb-blocks-drain']);
});

test('check --context takes the snapshot and checks it in one run, the same report as the two steps', async () => {
  const out = path.join(dir, 'two-steps.json');
  assert.equal((await run(['snapshot', '--kubeconfig', config, '--context', 'replay', '--chunk-size', '2', '-o', out])).code, 0);
  const one = await run(['check', '--kubeconfig', config, '--context', 'replay', '--chunk-size', '2', '--to', '1.29', '--format', 'json']);
  assert.deepEqual(replay.unanswered, []);
  assert.equal(one.code, 1, one.stderr);
  const two = await run(['check', out, '--to', '1.29', '--format', 'json']);
  // The same but for the input's name and the time it was taken.
  const same = (text, name) => text.replaceAll(name, 'SNAPSHOT').replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, 'T');
  assert.equal(same(one.stdout, 'kubectl:replay'), same(two.stdout, out));
  assert.match(one.stdout, /"file": "kubectl:replay"/);
  // The temporary snapshot is gone.
  assert.deepEqual(fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('kube-preflight-')).filter((f) => fs.existsSync(path.join(os.tmpdir(), f, 'snapshot.json'))), []);
});

test('a kind refused across the cluster (and not namespaced) is not visible to you: never a pass', async () => {
  const refused = {
    ...recording,
    exchanges: recording.exchanges.map((e) => (e.path.startsWith('/apis/policy/v1/poddisruptionbudgets') || e.path.startsWith('/api/v1/namespaces?')
      ? { path: e.path, status: 403, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'forbidden: User "jane" cannot list', reason: 'Forbidden', code: 403 } }
      : e)),
  };
  const other = await startReplay(refused);
  const cfg = path.join(dir, 'refused.kubeconfig');
  fs.writeFileSync(cfg, kubeconfig(other.url, 'narrow'));
  try {
    const r = await run(['check', '--kubeconfig', cfg, '--chunk-size', '2', '--to', '1.29', '--format', 'json']);
    assert.equal(r.code, 3, r.stderr);
    assert.deepEqual(other.unanswered, []);
    const report = JSON.parse(r.stdout);
    assert.equal(report.summary.verdict, 'incomplete');
    const fam = Object.fromEntries(report.coverage.families.map((f) => [f.id, f]));
    assert.equal(fam.budgets.state, 'not-read');
    assert.match(fam.budgets.reason, /^not visible to you: listing PodDisruptionBudget was refused/);
    // No namespace list to go through: the Secrets are refused across the cluster.
    assert.equal(fam['helm-charts'].state, 'not-read');
    assert.ok(report.coverage.incomplete.includes('budgets'));
  } finally {
    await other.close();
  }
});

test('a cluster that cannot be reached, and the snapshot options misused, are errors (exit 2)', async () => {
  const cfg = path.join(dir, 'gone.kubeconfig');
  fs.writeFileSync(cfg, kubeconfig('http://127.0.0.1:9', 'gone'));
  const r = await run(['snapshot', '--kubeconfig', cfg]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /input error: the cluster could not be reached through kubectl/);
  assert.equal(r.stdout, '');
  assert.equal((await run(['snapshot', 'cluster.yaml'])).code, 2);
  const chunk = await run(['check', 'x.yaml', '--to', '1.29', '--chunk-size', '5']);
  assert.equal(chunk.code, 2);
  assert.match(chunk.stderr, /--chunk-size is for a live snapshot/);
  const missing = await run(['snapshot', '--kubeconfig', config], { PATH: '/nonexistent' });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /kubectl is not installed/);
});

test('the README\'s live commands run as written, against the endpoint (the context named there for it)', async () => {
  const cwd = fs.mkdtempSync(path.join(dir, 'readme-'));
  const lines = snippet('live').split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
  const codes = [];
  for (const line of lines) {
    const args = line.split(/\s+/);
    assert.deepEqual(args.slice(0, 2), ['npx', 'kube-preflight']);
    const rest = args.slice(2).flatMap((a) => (a === 'prod' ? ['replay', '--kubeconfig', config, '--chunk-size', '2'] : [a.endsWith('.json') ? path.join(cwd, a) : a]));
    codes.push((await run(rest)).code);
  }
  // The snapshot is written; both checks find the budget that stops the plan (exit 1).
  assert.deepEqual(codes, [0, 1, 1]);
  // The Snapshot document as the README shows it: the same fields.
  const shown = parse(snippet('snapshot-document'));
  const list = JSON.parse(fs.readFileSync(path.join(cwd, 'snapshot.json'), 'utf8'));
  const snap = list.items.at(-1);
  for (const k of Object.keys(shown)) assert.ok(k in snap, `the README shows ${k}, the snapshot has no such field`);
  assert.deepEqual(Object.keys(shown.lists[0]), ['kind', 'apiVersion', 'items']);
  assert.deepEqual(Object.keys(shown.denied[0]), Object.keys(snap.denied.find((d) => d.namespace)));
});
