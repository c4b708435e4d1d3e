// `kube-preflight mcp`, driven by the Model Context Protocol SDK's own client over stdio: the tools listed,
// each called, answers paged, and the certainty of CONTRACT section 6 in every answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bin, fixture, snippet } from './helpers.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-mcp-'));
let client;

before(async () => {
  client = new Client({ name: 'kube-preflight-test', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp'], stderr: 'pipe' }));
  // 30 manifests of an API 1.25 removed: 24 findings of the demo and 30 more, three pages.
  const docs = Array.from({ length: 30 }, (_, i) => `apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata:\n  name: psp-${String(i).padStart(2, '0')}\nspec: {}\n`);
  fs.writeFileSync(path.join(dir, 'psp.yaml'), docs.join('---\n'));
});

after(async () => {
  await client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function call(name, args) {
  const r = await client.callTool({ name, arguments: args });
  const answer = r.isError ? r.content[0].text : JSON.parse(r.content[0].text);
  if (!r.isError) assert.deepEqual(r.structuredContent, answer);
  return { error: r.isError === true, answer };
}

/** Every answer about a report says what it stands on. */
function assertCertainty(c) {
  assert.ok(['blocked', 'incomplete', 'ready', 'nothing-checked'].includes(c.verdict));
  assert.ok(Array.isArray(c.incomplete) && Array.isArray(c.notChecked));
  assert.match(c.rule, /^Unknown is never a pass/);
  for (const f of c.notChecked) assert.notEqual(f.state, 'checked');
}

test('the README\'s client configuration starts the installed package\'s command, never npx (which would fetch an unowned name)', () => {
  const { command, args } = JSON.parse(snippet('mcp-config')).mcpServers['kube-preflight'];
  assert.match(command, /\/node_modules\/\.bin\/kube-preflight$/);
  assert.deepEqual(args, ['mcp']);
});

test('the tools are listed, with their input schemas', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ['check', 'findings', 'explain_stops', 'plan_for', 'what_if', 'compare']);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object');
    assert.ok(t.description.length > 40);
  }
});

test('check gives a report id, the certainty and the first 25 findings; findings pages through the rest', async () => {
  const { answer } = await call('check', { paths: [fixture('demo/cluster.yaml'), fixture('demo/manifests.yaml'), dir], to: '1.29.2' });
  assertCertainty(answer.certainty);
  assert.equal(answer.certainty.verdict, 'blocked');
  // The demo reads no webhooks, policies, aggregated APIs, CRDs or Helm records: not checked, said so.
  assert.deepEqual(answer.certainty.incomplete, ['admission-webhooks', 'admission-policies', 'aggregated-apis', 'custom-resources', 'helm-charts']);
  assert.deepEqual(answer.certainty.notChecked.map((f) => f.state), ['not-read', 'not-read', 'not-read', 'not-read', 'not-read']);
  assert.deepEqual({ ...answer.findings, items: answer.findings.items.length }, { page: 1, pages: 3, total: 54, items: 25 });
  assert.equal(answer.plan.complete, true);
  const last = await call('findings', { reportId: answer.reportId, page: 3 });
  assertCertainty(last.answer.certainty);
  assert.equal(last.answer.findings.items.length, 4);
  const psp = await call('findings', { reportId: answer.reportId, code: 'api/' });
  // The demo's 7 API findings and the 30 policies'.
  assert.equal(psp.answer.findings.total, 37);
  assert.ok(psp.answer.findings.items.every((f) => f.code.startsWith('api/')));
  const missing = await call('findings', { reportId: 'r999' });
  assert.equal(missing.error, true);
  assert.match(missing.answer, /no report "r999"/);
});

test('explain_stops, plan_for and what_if on a plan that stops on a budget', async () => {
  const { answer } = await call('check', { paths: [fixture('plan/kubeadm-drain-waits-for-ever')], to: '1.29.2' });
  assert.equal(answer.certainty.verdict, 'blocked');
  assert.ok(answer.certainty.notChecked.some((f) => f.family === 'plan' && f.state === 'not-simulated'));
  const stops = await call('explain_stops', { reportId: answer.reportId });
  assertCertainty(stops.answer.certainty);
  assert.deepEqual(stops.answer.stops.map((s) => [s.phase, s.node, s.outcome, s.code, s.neverReached]), [['workers', 'w-1', 'waits', 'disruption/pdb-blocks-drain', 1]]);
  assert.deepEqual(stops.answer.findings.items.map((f) => f.code), ['disruption/pdb-blocks-drain']);
  const w1 = await call('plan_for', { reportId: answer.reportId, node: 'w-1' });
  assert.equal(w1.answer.stops.length, 1);
  assert.deepEqual(w1.answer.steps.items, []);
  const w2 = await call('plan_for', { reportId: answer.reportId, node: 'w-2' });
  assert.deepEqual(w2.answer.neverReached, ['w-2']);
  const cp = await call('plan_for', { reportId: answer.reportId, pool: 'control-plane' });
  assert.deepEqual(cp.answer.steps.items.map((s) => s.node), ['cp-1']);
  assert.equal((await call('plan_for', { reportId: answer.reportId, pool: 'nope' })).error, true);
  // What if the nodes were upgraded in place, without drains: no eviction waits, the plan completes.
  const w = await call('what_if', { reportId: answer.reportId, options: { drain: false } });
  assertCertainty(w.answer.certainty);
  assert.equal(w.answer.from, answer.reportId);
  assert.equal(w.answer.plan.complete, true);
  assert.deepEqual(w.answer.changed.planComplete, { before: false, after: true });
  assert.deepEqual(w.answer.changed.stops, { before: 1, after: 0 });
  assert.deepEqual(w.answer.options, { to: '1.29.2', drain: false });
  const c = await call('compare', { before: answer.reportId, after: w.answer.reportId });
  assertCertainty(c.answer.certainty.before);
  assertCertainty(c.answer.certainty.after);
  assert.deepEqual(c.answer.stops, { before: 1, after: 0 });
});

test('an incomplete run is never read as a pass', async () => {
  const { answer } = await call('check', { paths: [fixture('plan/snapshot-from-kubectl')], to: '1.29.4' });
  assert.equal(answer.certainty.verdict, 'incomplete');
  assert.match(answer.certainty.meaning, /^incomplete: not a pass/);
  assert.deepEqual(answer.certainty.notChecked.map((f) => [f.family, f.state]), [['helm-charts', 'not-read']]);
  const bad = await call('check', { paths: [path.join(dir, 'none.yaml')], to: '1.29' });
  assert.equal(bad.error, true);
  assert.match(bad.answer, /no such file or folder/);
});
