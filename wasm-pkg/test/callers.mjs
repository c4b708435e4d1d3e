// Caller values of every shape (issue #63): options built at random from valid and invalid values, then
// handed over as a plain object, a Proxy, a class whose options are getters on its prototype, a frozen or
// null-prototype object, with holes in its arrays. Each shape must give what the plain object gives, in
// check() and in checkInWorker(): the same report, or the same error, whose code is "options" or "input"
// (never a TypeError, a DataCloneError or a trap), and no rejection left unhandled. Run by
// `callers.test.mjs` (seeded) and by `cargo xtask fuzz` (random, for as long as it is given):
// `node wasm-pkg/test/callers.mjs SECONDS`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { fixture, pkg } from './helpers.mjs';
import { rng } from './layout.mjs';

const require = createRequire(import.meta.url);
const { check, checkInWorker } = require(pkg);
const inputs = [{ name: 'cluster.yaml', content: fs.readFileSync(fixture('plan/kubeadm-drain-waits-for-ever/cluster.yaml')) }];

/** Values for each option: valid ones, and ones the options must refuse by name. */
const VALUES = {
  from: ['1.28.4', '1.28', 1.28, '', 'x'],
  profile: ['kubeadm', 'rke', 'kops', 'openshift', 'nope', 3],
  maxUnavailableWorker: [1, 2, '50%', '0', -1, '1.5', Number.NaN, Infinity],
  maxSurge: [0, 1, '25%', 'x'],
  drain: [true, false, 'yes', null],
  drainForce: [true, false, 1],
  drainDeleteLocalData: [true, false],
  skip: [[], ['helm-charts'], ['helm-charts', , 'budgets'], ['nope'], 'budgets'],
  additionalAnnotations: [[], ['example.com/applied'], [1]],
  timings: [{}, { nodeUpgradeSeconds: 60 }, { nodeUpgradeSeconds: -1 }, { nope: 1 }],
  today: ['2026-12-07', new Date('2026-12-07T00:00:00Z'), 'tomorrow'],
  exemptions: [[], [{ rule: 'disruption/pdb-blocks-drain', reason: 'known' }], [{ rule: 'x', until: () => 1 }], [{}]],
  unknownOption: [undefined, 1],
};

/** Options at random: the target, and a few fields. */
function options(r) {
  const o = { to: r.pick(['1.29.2', '1.29.2', '1.30', '1.29', 'latest']) };
  const keys = Object.keys(VALUES);
  for (let i = r.int(4); i > 0; i--) {
    const k = r.pick(keys);
    const v = r.pick(VALUES[k]);
    if (v !== undefined) o[k] = v;
  }
  return o;
}

/** The same options in another shape. */
function shaped(o, kind) {
  switch (kind) {
    case 'proxy':
      return new Proxy({ ...o }, {});
    case 'proxy-get':
      return new Proxy({}, { get: (_, k) => o[k], ownKeys: () => Reflect.ownKeys(o), getOwnPropertyDescriptor: (_, k) => (k in o ? { value: o[k], enumerable: true, configurable: true, writable: true } : undefined) });
    case 'class': {
      class Options {}
      for (const k of Object.keys(o)) Object.defineProperty(Options.prototype, k, { get: () => o[k], enumerable: false, configurable: true });
      return new Options();
    }
    case 'frozen':
      return Object.freeze({ ...o });
    case 'null-prototype':
      return Object.assign(Object.create(null), o);
    default:
      return { ...o };
  }
}

const SHAPES = ['plain', 'proxy', 'proxy-get', 'class', 'frozen', 'null-prototype'];

/** What a call gave: the report's JSON, or the error's code and message. */
function outcome(f) {
  try {
    return { report: JSON.stringify(f()) };
  } catch (e) {
    return { code: e?.code ?? e?.name, message: e?.message };
  }
}

async function outcomeAsync(p) {
  try {
    return { report: JSON.stringify(await p) };
  } catch (e) {
    return { code: e?.code ?? e?.name, message: e?.message };
  }
}

/** One case: every shape of one set of options, in check() and (for `worker`) in checkInWorker(). */
export async function callerCase(seed, { worker = false } = {}) {
  const r = rng(seed);
  const o = options(r);
  const what = `seed ${seed}: ${JSON.stringify(o, (k, v) => (typeof v === 'function' ? 'function' : Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Infinity' : v))}`;
  const want = outcome(() => check(inputs, shaped(o, 'plain')));
  if (want.code !== undefined) assert.ok(['options', 'input'].includes(want.code), `${what}: ${want.code} ${want.message}`);
  for (const kind of SHAPES) {
    assert.deepEqual(outcome(() => check(inputs, shaped(o, kind))), want, `${what}: check() with a ${kind} object`);
  }
  if (worker) {
    const kind = r.pick(SHAPES);
    assert.deepEqual(await outcomeAsync(checkInWorker(inputs, shaped(o, kind))), want, `${what}: checkInWorker() with a ${kind} object`);
  }
  return what;
}

// As a script: random caller values for SECONDS (every 8th case in a worker too).
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const unhandled = [];
  process.on('unhandledRejection', (e) => unhandled.push(e));
  const seconds = Number(process.argv[2] || 60);
  const end = Date.now() + seconds * 1000;
  let n = 0;
  for (let seed = (Date.now() % 1e9) + 1; Date.now() < end; seed++, n++) await callerCase(seed, { worker: n % 8 === 0 });
  await new Promise((res) => setTimeout(res, 100));
  assert.deepEqual(unhandled, [], 'no rejection is left unhandled');
  console.log(`callers: ${n} sets of options in every shape in ${seconds} s, each read as the plain object`);
}
