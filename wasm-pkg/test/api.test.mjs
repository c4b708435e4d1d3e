// The JS API from Node, through require and import (CONTRACT section 1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import { pkg, fixture } from './helpers.mjs';

const require = createRequire(import.meta.url);
const nodes = fs.readFileSync(fixture('cli/nodes-1.28.yaml'));

test('require() and import give the same API', async () => {
  const cjs = require(pkg);
  const esm = await import(`${pkg}/index.mjs`);
  for (const api of [cjs, esm]) {
    assert.equal(typeof api.check, 'function');
    assert.equal(typeof api.rules, 'function');
    assert.match(api.version(), /^\d+\.\d+\.\d+/);
  }
  assert.equal(cjs.version(), esm.version());
});

test('check() returns a report in the contract shape', () => {
  const { check } = require(pkg);
  const report = check([{ name: 'nodes.yaml', content: nodes }], { to: '1.30.1' });
  assert.deepEqual(Object.keys(report), ['schemaVersion', 'tool', 'upgrade', 'inventory', 'summary', 'findings', 'plan', 'downtime', 'notRun', 'coverage']);
  // What it could not see: families of checks and the kinds each read (an addition).
  assert.equal(report.coverage.reviewedThrough, '1.35');
  assert.ok(report.coverage.families.some((f) => f.family === 'nodes' && f.checked));
  assert.equal(report.schemaVersion, 1);
  assert.deepEqual(report.tool.name, 'kube-preflight');
  assert.deepEqual(report.upgrade, {
    from: '1.28.4', to: '1.30.1', profile: 'kubeadm', path: ['1.29', '1.30.1'], fromSource: 'control-plane nodes',
    fromDetail: 'oldest control-plane kubelet, cp-1 (nodes.yaml:5): no API server version among the inputs (add `kubectl version -o json` or the kube-system pods)',
  });
  assert.deepEqual(report.inventory, { files: 1, objects: 2, byKind: { Node: 2 }, skipped: [], helmReleases: [], distributionConfigs: [], duplicates: [] });
  assert.deepEqual(report.findings.map((x) => x.code), ['budget/etcd-no-fault-tolerance', 'budget/single-control-plane', 'version/minor-skip']);
  // No blocker, but nodes alone: the drains, budgets and API machinery stand on nothing (never ready).
  assert.deepEqual(report.summary, { blocker: 0, warning: 3, info: 0, verdict: 'incomplete', suppressed: { blocker: 0, warning: 0, info: 0 } });
  assert.equal(report.coverage.scope, 'cluster');
  assert.deepEqual(report.coverage.incomplete, ['drains', 'budgets', 'admission-webhooks', 'admission-policies', 'aggregated-apis', 'custom-resources', 'helm-charts']);
  assert.deepEqual(report.coverage.families.find((x) => x.id === 'budgets'), {
    id: 'budgets', family: 'budgets', state: 'not-read', inScope: true, reason: 'no PodDisruptionBudget was read',
    codes: ['disruption/pdb-blocks-drain', 'disruption/overlapping-pdbs'], kinds: [{ kind: 'PodDisruptionBudget', read: 0 }],
    checked: false, notChecked: 'no PodDisruptionBudget was read',
  });
  // Skipped by choice, they no longer make it incomplete: ready.
  const skip = ['drains', 'budgets', 'admission-webhooks', 'admission-policies', 'aggregated-apis', 'custom-resources', 'helm-charts'];
  assert.equal(check([{ name: 'nodes.yaml', content: nodes }], { to: '1.30.1', skip }).summary.verdict, 'ready');
  assert.throws(() => check([{ name: 'nodes.yaml', content: nodes }], { to: '1.30.1', skip: ['helm'] }), (e) => e.code === 'options' && e.field === 'skip[0]');
  const f = report.findings[2];
  assert.equal(f.severity, 'warning');
  assert.deepEqual(f.data.path, ['1.29', '1.30.1']);
  // The drain the plan assumes is stated (an addition): kubeadm's own `kubectl drain`, flags off.
  assert.deepEqual(Object.keys(report.plan), ['phases', 'steps', 'totalSeconds', 'timings', 'complete', 'stops', 'drain']);
  assert.deepEqual(report.plan.drain, { by: 'kubectl drain', force: false, deleteEmptyDirData: false, ignoreDaemonsets: true, honoursBudgets: true, flagsFromOptions: true });
  assert.deepEqual([report.plan.complete, report.plan.stops], [true, []]);
  assert.deepEqual(report.plan.phases.map((p) => [p.name, p.hop, p.nodes]), [['control-plane', '1.29', ['cp-1']], ['workers', '1.29', ['worker-1']], ['control-plane', '1.30.1', ['cp-1']], ['workers', '1.30.1', ['worker-1']]]);
  assert.deepEqual(Object.keys(report.downtime), ['components', 'workloads']);
});

test('string and Uint8Array content give byte-identical reports', () => {
  const { check } = require(pkg);
  const a = check([{ name: 'n.yaml', content: nodes }], { to: '1.29.2' });
  const b = check([{ name: 'n.yaml', content: nodes.toString('utf8') }], { to: '1.29.2' });
  assert.equal(JSON.stringify(a), JSON.stringify(b));
});

test('malformed input throws an Error with code, file, line and column', () => {
  const { check } = require(pkg);
  assert.throws(
    () => check([{ name: 'bad.yaml', content: fs.readFileSync(fixture('cli/bad.yaml')) }], { to: '1.29.2' }),
    (e) => e instanceof Error && e.code === 'input' && e.file === 'bad.yaml' && e.line === 6 && e.column > 0 && e.message.startsWith('bad.yaml:6:'),
  );
});

test('bad options throw with code "options" naming the field', () => {
  const { check } = require(pkg);
  for (const [options, field] of [
    [{ to: 'latest' }, 'to'],
    [{ to: '1.29.2', maxUnavailableWorker: -1 }, 'maxUnavailableWorker'],
    [{ to: '1.29.2', maxSurge: '150%' }, 'maxSurge'],
    [{ to: '1.29.2', profile: 'eks' }, 'profile'],
    [{}, 'to'],
  ]) {
    assert.throws(() => check([], options), (e) => e.code === 'options' && e.field === field && e.message.includes(field));
  }
  assert.throws(() => check('nope', { to: '1.29' }), (e) => e.code === 'options');
  // Values JSON cannot carry are refused naming the field, never read as absent (the profile's default).
  for (const [options, field] of [
    [{ to: '1.29.2', maxUnavailable: NaN }, 'maxUnavailable'],
    [{ to: '1.29.2', maxSurge: Infinity }, 'maxSurge'],
    [{ to: '1.29.2', drain: () => true }, 'drain'],
    [{ to: '1.29.2', profile: Symbol('kops') }, 'profile'],
    [{ to: '1.29.2', timings: { cordon: 10n } }, 'timings.cordon'],
    [{ to: '1.29.2', exemptions: [{ code: 'api/removed', until: -Infinity }] }, 'exemptions[0].until'],
  ]) {
    assert.throws(() => check([], options), (e) => e.code === 'options' && e.field === field, `${field}`);
  }
  // A number JSON has no value for is named as Rust writes it.
  for (const [value, name] of [[NaN, 'NaN'], [Infinity, 'inf'], [-Infinity, '-inf']]) {
    assert.throws(() => check([], { to: '1.29.2', maxSurge: value }), (e) => e.message.includes(`${name} is not a value options can hold`), name);
  }
});

test('rules() documents every rule', () => {
  const { rules } = require(pkg);
  const list = rules();
  assert.ok(list.length >= 2);
  for (const r of list) {
    assert.match(r.code, /^[a-z]+\/[a-z-]+$/);
    assert.ok(['blocker', 'warning', 'info'].includes(r.severity));
    assert.ok(r.title.length > 10);
    assert.match(r.docs, /## How to fix/);
  }
});

test('the browser build loads in Node through init(bytes)', async () => {
  const web = await import(`${pkg}/browser.mjs`);
  await web.init(fs.readFileSync(`${pkg}/web/kube_preflight_wasm_bg.wasm`));
  const report = web.check([{ name: 'nodes.yaml', content: nodes }], { to: '1.29.2' });
  assert.equal(report.upgrade.from, '1.28.4');
});

test('hostile calls are answered or rejected, never trapped, and the module keeps working', () => {
  const { check, Session } = require(pkg);
  const files = [{ name: 'nodes.yaml', content: nodes }];
  const baseline = check(files, { to: '1.29.2' });
  // A budget of 4,000,000,000 (or i64::MAX, or more digits than any integer) reads as "all at once".
  for (const v of [4000000000, '9223372036854775807', '123456789012345678901234567890']) {
    const r = check(files, { to: '1.29.2', profile: 'rke', maxUnavailableWorker: v });
    assert.equal(r.summary.blocker, 0);
    assert.equal(r.summary.verdict, 'incomplete');
  }
  // A number where a name is expected, a hop path of thousands of minors: errors, not traps.
  assert.throws(() => new Session({ to: '1.29.2' }).push(3, 'kind: Node'), (e) => e.code === 'options' && /name/.test(e.message));
  assert.throws(() => check(files, { to: '1.2900' }), (e) => e.code === 'options' && e.field === 'to');
  // The next call gets the same report as before.
  assert.deepEqual(check(files, { to: '1.29.2' }), baseline);
  const s = new Session({ to: '1.29.2' });
  s.push('nodes.yaml', nodes);
  assert.deepEqual(s.finish(), baseline);
});

test('a version given as a number is refused, not read as another version', () => {
  const { check, Session } = require(pkg);
  const files = [{ name: 'nodes.yaml', content: nodes }];
  // `{ to: 1.30 }` is the number 1.3 by the time the package sees it.
  assert.throws(() => check(files, { to: 1.30 }), (e) => e.code === 'options' && e.field === 'to' && /string/.test(e.message));
  // The number named as JavaScript writes it.
  assert.throws(() => check(files, { to: 1.30 }), (e) => e.message.includes('1.3 is a number'));
  assert.throws(() => check(files, { to: 2 }), (e) => e.message.includes('2 is a number'));
  assert.throws(() => check(files, { to: '1.30.1', from: 1.29 }), (e) => e.code === 'options' && e.field === 'from');
  assert.throws(() => new Session({ to: 1.3 }), (e) => e.code === 'options' && e.field === 'to');
  assert.equal(check(files, { to: '1.30.1' }).upgrade.to, '1.30.1');
});

/** A List as JSON text with one item a line (the first on the List's own line): where checkObjects puts each
 * item's `source.line`. */
function oneItemALine(value) {
  if (!Array.isArray(value?.items)) return JSON.stringify(value);
  const { items, ...head } = value;
  const open = JSON.stringify({ ...head, items: [] }).slice(0, -2);
  return `${open}${items.map((i) => JSON.stringify(i)).join("\n,")}]}`;
}

test('checkObjects: the objects of every JSON fixture give the report their text gives, byte for byte; pages of one name are one input', () => {
  const { check, checkObjects, Session } = require(pkg);
  const root = fixture('');
  const cases = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.json')) cases.push(p);
    }
  };
  walk(root);
  let compared = 0;
  for (const file of cases) {
    let value;
    try {
      value = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    const name = file.slice(root.length);
    const options = { to: '1.30.2' };
    let text;
    try {
      text = JSON.stringify(check([{ name, content: oneItemALine(value) }], options));
    } catch (e) {
      assert.throws(() => checkObjects([{ name, list: value }], options), undefined, `${name}: ${e.message}`);
      continue;
    }
    assert.equal(JSON.stringify(checkObjects([{ name, list: value }], options)), text, name);
    compared += 1;
  }
  assert.ok(compared >= 40, `only ${compared} JSON fixtures compared`);
  // Pages of one name are one input, items numbered across them; a denied list beside them.
  const dir = fixture('plan/progress-kubeadm-half-way');
  const list = JSON.parse(fs.readFileSync(`${dir}/cluster.json`, 'utf8'));
  const version = JSON.parse(fs.readFileSync(`${dir}/version.json`, 'utf8'));
  const pages = [list.items.slice(0, 5), list.items.slice(5)].map((items) => ({ ...list, items }));
  const whole = check([{ name: 'cluster', content: oneItemALine(list) }, { name: 'version', content: JSON.stringify(version) }], { to: '1.30.2' });
  const s = new Session({ to: '1.30.2' });
  for (const page of pages) s.pushObjects(page, 'cluster');
  s.pushObjects(version, 'version');
  assert.equal(JSON.stringify(s.finish()), JSON.stringify(whole));
  // API list pages leave their items' kind out: the List's kind says it.
  const podList = { apiVersion: 'v1', kind: 'PodList', items: list.items.filter((i) => i.kind === 'Pod').map(({ kind, apiVersion, ...rest }) => rest) };
  const fromApi = checkObjects([podList, { kind: 'NodeList', apiVersion: 'v1', items: list.items.filter((i) => i.kind === 'Node').map(({ kind, apiVersion, ...rest }) => rest) }], { to: '1.30.2', from: '1.30.2' });
  assert.equal(fromApi.inventory.byKind.Pod, podList.items.length);
  assert.deepEqual(fromApi.inventory.skipped, []);
  assert.equal(fromApi.findings.find((f) => f.object?.kind === 'Pod')?.source.file ?? 'PodList', 'PodList');
  // What cannot be an object is an options error naming it; a getter that throws is the call's error.
  assert.throws(() => checkObjects([42], { to: '1.30.2' }), (e) => e.code === 'options' && e.field === 'lists[0]');
  const hostile = { kind: 'List', items: [{ kind: 'Pod', get metadata() { throw new Error('no'); } }] };
  assert.throws(() => checkObjects([hostile], { to: '1.30.2' }), (e) => e.code === 'options' || e.code === 'input');
});

test('Session.pushDenied: lists the API refused or the cluster does not serve are said as such in coverage', () => {
  const { Session } = require(pkg);
  const s = new Session({ to: '1.30.1', skip: ['helm-charts', 'aggregated-apis', 'custom-resources'] });
  s.push('nodes.yaml', nodes);
  s.pushDenied('Pod', null, 'forbidden');
  s.pushDenied('PodDisruptionBudget', 'payments', 'forbidden');
  s.pushDenied('ValidatingAdmissionPolicy', null, 'not-served');
  s.pushDenied('ValidatingAdmissionPolicyBinding', null, 'not-served');
  assert.throws(() => s.pushDenied('Pod', null, 'gone'), (e) => e.code === 'options' && e.field === 'reason');
  const r = s.finish();
  assert.deepEqual(r.inventory.denied.map((d) => [d.kind, d.namespace ?? null, d.reason]), [
    ['Pod', null, 'forbidden'],
    ['PodDisruptionBudget', 'payments', 'forbidden'],
    ['ValidatingAdmissionPolicy', null, 'not-served'],
    ['ValidatingAdmissionPolicyBinding', null, 'not-served'],
  ]);
  const fam = (id) => r.coverage.families.find((f) => f.id === id);
  assert.equal(fam('drains').state, 'not-read');
  assert.match(fam('drains').reason, /^not visible to you: listing Pod was refused \(forbidden\)/);
  assert.equal(fam('admission-policies').state, 'checked');
  assert.match(fam('admission-policies').reason, /this cluster serves no ValidatingAdmissionPolicy/);
  // Unknown is never a pass: what was not visible makes the run incomplete.
  assert.equal(r.summary.verdict === 'ready', false);
  assert.ok(r.coverage.incomplete.includes('drains'));
});

test('option since: the report object taken before the upgrade; progress against its plan', () => {
  const { check } = require(pkg);
  const dir = fixture('plan/progress-kubeadm-half-way');
  const files = fs.readdirSync(dir).filter((f) => f !== 'case.yaml').map((name) => ({ name, content: fs.readFileSync(`${dir}/${name}`) }));
  // A report taken before: the same check's own object, its plan and snapshot time as given.
  const before = check(files, { to: '1.30.2' });
  assert.equal(before.progress.state, 'in-progress');
  assert.equal(before.inventory.snapshotTime, '2026-03-10T10:00:00Z');
  const now = check(files, { to: '1.30.2', since: before });
  // The same snapshot: no time has passed, the nodes done are those the plan had done at its start.
  assert.deepEqual([now.progress.since.elapsedSeconds, now.progress.since.actualDone], [0, 0]);
  assert.equal(now.progress.nodes.find((n) => n.node === 'w-2').plannedStartSeconds, 0);
  assert.throws(() => check(files, { to: '1.30.2', since: 'before.json' }), /option `since`/);
});

test('options accept exemptions and a previous report as the baseline; today defaults to the UTC date', () => {
  const { check } = require(pkg);
  const files = [{ name: 'nodes.yaml', content: nodes }];
  const before = check(files, { to: '1.30.1' });
  assert.ok(before.summary.warning > 0);
  // The report object itself is the baseline: nothing new, everything suppressed by it.
  const again = check(files, { to: '1.30.1', baseline: before });
  assert.equal(again.summary.warning, 0);
  assert.equal(again.summary.suppressed.warning, before.summary.warning);
  assert.ok(again.findings.every((f) => f.suppressed?.by === 'baseline'));
  // An exemption for one rule, and an expired one: the expired one suppresses nothing and is reported.
  const exempted = check(files, {
    to: '1.30.1',
    exemptions: [{ rule: 'version/minor-skip', reason: 'two hops planned' }, { rule: 'budget/*', expires: '2001-01-01' }],
  });
  const byCode = Object.fromEntries(exempted.findings.map((f) => [f.code, f]));
  assert.deepEqual(byCode['version/minor-skip'].suppressed, { by: 'config', reason: 'two hops planned', exemption: 0 });
  assert.equal(byCode['budget/single-control-plane'].suppressed, undefined);
  assert.equal(byCode['suppression/expired'].data.today, new Date().toISOString().slice(0, 10));
  // A given date wins; an exemption naming no rule is an options error naming the field.
  const dated = check(files, { to: '1.30.1', today: '2000-12-31', exemptions: [{ rule: 'budget/*', expires: '2001-01-01' }] });
  assert.ok(dated.findings.filter((f) => f.code.startsWith('budget/')).every((f) => f.suppressed?.expires === '2001-01-01'));
  assert.throws(() => check(files, { to: '1.30.1', exemptions: [{ rule: 'budget/single' }] }), (e) => e.code === 'options' && /exemptions\[0\]\.rule/.test(e.message));
  assert.throws(() => check(files, { to: '1.30.1', baseline: { schemaVersion: 1 } }), (e) => e.code === 'options' && /baseline/.test(e.message));
});

test('byte views from another realm (a vm context, an iframe) are read as this realm\'s', () => {
  const { check, Session } = require(pkg);
  const vm = require('node:vm');
  const text = 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {nodeInfo: {kubeletVersion: v1.28.4}}\n';
  const foreign = vm.runInNewContext('(s) => new Uint8Array([...s].map((c) => c.charCodeAt(0)))')(text);
  assert.ok(!(foreign instanceof Uint8Array));
  const here = check([{ name: 'n.yaml', content: text }], { to: '1.29.2' });
  assert.deepEqual(check([{ name: 'n.yaml', content: foreign }], { to: '1.29.2' }), here);
  const s = new Session({ to: '1.29.2' });
  s.push('n.yaml', foreign);
  assert.deepEqual(s.finish(), here);
  // A DataView, or an object that only says it is one, is not bytes.
  assert.throws(() => check([{ name: 'n.yaml', content: new DataView(new ArrayBuffer(2)) }], { to: '1.29.2' }), (e) => e.code === 'options');
  assert.throws(() => check([{ name: 'n.yaml', content: { [Symbol.toStringTag]: 'Uint8Array' } }], { to: '1.29.2' }), (e) => e.code === 'options');
});

test('no number of exceptions thrown by the caller\'s own getters and Proxies breaks the module', () => {
  const { check, Session } = require(pkg);
  const text = 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {nodeInfo: {kubeletVersion: v1.28.4}}\n';
  const good = check([{ name: 'n.yaml', content: text }], { to: '1.29.2' });
  const s = new Session({ to: '1.29.2' });
  s.push('n.yaml', text);
  const boom = () => { throw new Error('boom'); };
  const throwing = [
    () => check(new Proxy([], { get: boom }), { to: '1.29.2' }),
    () => check([{ name: 'a.yaml', get content() { return boom(); } }], { to: '1.29.2' }),
    () => check([new Proxy({}, { get: boom })], { to: '1.29.2' }),
    () => check([], new Proxy({ to: '1.29.2' }, { ownKeys: boom })),
    () => check([], { to: '1.29.2', get maxSurge() { return boom(); } }),
    () => new Session(new Proxy({}, { get: boom })),
  ];
  for (let k = 0; k < 2000; k++) {
    assert.throws(throwing[k % throwing.length], (e) => e.code === 'options' && /boom/.test(e.message));
  }
  // The module and an open session still work.
  assert.deepEqual(check([{ name: 'n.yaml', content: text }], { to: '1.29.2' }), good);
  assert.deepEqual(s.finish(), good);
});

test('progress() is a plain array as declared, [] once finished or freed', () => {
  const { Session } = require(pkg);
  const s = new Session({ to: '1.29.2' });
  s.push('n.yaml', 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n');
  const p = s.progress();
  assert.ok(Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === 'number'), `${p}`);
  s.finish();
  assert.deepEqual(s.progress(), []);
  const t = new Session({ to: '1.29.2' });
  t.free();
  assert.deepEqual(t.progress(), []);
});
