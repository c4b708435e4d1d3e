// The package as users get it: packed with `npm pack`, installed from the tarball into an empty project
// with no network, used through require, import and `npx kube-preflight`.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import YAML from 'yaml';
import { codeBlocks, fixture, pkg, root, sarifErrors, snippet, tools } from './helpers.mjs';

const npm = (args, cwd) => spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });
let project;
let tarball;

before(() => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-pack-'));
  const packed = npm(['pack', pkg, '--pack-destination', tmp, '--json'], tmp);
  assert.equal(packed.status, 0, packed.stderr);
  const [info] = JSON.parse(packed.stdout);
  tarball = { path: path.join(tmp, info.filename), files: info.files.map((f) => f.path).sort(), size: info.size };
  project = path.join(tmp, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  const installed = npm(['install', '--offline', '--no-audit', '--no-fund', tarball.path], project);
  assert.equal(installed.status, 0, installed.stderr);
});

test('npm pack holds only what the package needs', () => {
  assert.deepEqual(tarball.files, [
    'README.md', 'bin/kube-preflight.cjs', 'bin/mcp.cjs', 'bin/snapshot.cjs', 'browser-core.mjs', 'browser.mjs', 'browser/package.json', 'checker.mjs', 'index.cjs', 'index.d.cts',
    'index.d.mts', 'index.d.ts', 'index.mjs', 'node/kube_preflight_wasm.js', 'package.json',
    'report.d.mts', 'report.mjs', 'report/kube_preflight_element.js', 'report/kube_preflight_element_bg.wasm', 'report/package.json',
    'report/style.mjs', 'wasm.d.mts', 'web/kube_preflight_wasm.js', 'web/kube_preflight_wasm_bg.wasm', 'web/package.json', 'worker-core.mjs',
    'worker-node.mjs', 'worker.d.mts', 'worker.mjs',
  ]);
  const manifest = JSON.parse(fs.readFileSync(path.join(project, 'node_modules/kube-preflight/package.json'), 'utf8'));
  assert.equal(manifest.dependencies, undefined);
  // The MCP SDK is the CLI's `mcp` command's alone: an optional peer, never installed with the package.
  assert.deepEqual(Object.keys(manifest.peerDependencies ?? {}), ['@modelcontextprotocol/sdk']);
  assert.equal(manifest.peerDependenciesMeta['@modelcontextprotocol/sdk'].optional, true);
  assert.equal(fs.existsSync(path.join(project, 'node_modules/@modelcontextprotocol')), false);
  assert.equal(manifest.bin['kube-preflight'], 'bin/kube-preflight.cjs');
});

test('no module of the package imports one that imports it back, the worker included (Turbopack hangs on such a cycle)', () => {
  const dir = path.join(project, 'node_modules/kube-preflight');
  const modules = tarball.files.filter((f) => /\.(mjs|js|cjs)$/.test(f) && !f.startsWith('bin/'));
  const edges = new Map();
  for (const file of modules) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    // Static imports and re-exports, and the module a worker is started from (`new URL('./x.mjs', import.meta.url)`).
    const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*['"](\.[^'"]+)['"]|new URL\(\s*['"](\.[^'"]+\.m?js)['"]\s*,\s*import\.meta\.url/g)].map((m) => m[1] ?? m[2]);
    edges.set(file, [...new Set(specs.map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(file), s))))].filter((t) => modules.includes(t)));
  }
  assert.deepEqual(edges.get('browser.mjs').sort(), ['browser-core.mjs', 'checker.mjs', 'worker.mjs']);
  const cycles = [];
  const walk = (file, stack) => {
    if (stack.includes(file)) {
      cycles.push([...stack.slice(stack.indexOf(file)), file].join(' -> '));
      return;
    }
    for (const next of edges.get(file) ?? []) walk(next, [...stack, file]);
  };
  for (const file of modules) walk(file, []);
  assert.deepEqual(cycles, []);
});

test('require and import from the installed package', () => {
  const req = spawnSync(process.execPath, ['-e', "const k = require('kube-preflight'); const r = k.check([{name: 'a.yaml', content: 'kind: Pod\\napiVersion: v1\\nmetadata: {name: p}\\n'}], {to: '1.29.2'}); console.log(k.version(), r.inventory.objects)"], { cwd: project, encoding: 'utf8' });
  assert.equal(req.status, 0, req.stderr);
  assert.match(req.stdout, /^\d+\.\d+\.\d+ 1\n$/);
  const imp = spawnSync(process.execPath, ['--input-type=module', '-e', "import { check, rules } from 'kube-preflight'; console.log(rules().length > 20, check([], {to: '1.29.2'}).summary.verdict)"], { cwd: project, encoding: 'utf8' });
  assert.equal(imp.status, 0, imp.stderr);
  // No input: nothing was checked, which is never "ready".
  assert.equal(imp.stdout, 'true nothing-checked\n');
});

test('npx kube-preflight check ./manifests --format sarif, with no network', () => {
  fs.cpSync(fixture('demo'), path.join(project, 'manifests'), { recursive: true });
  const r = spawnSync('npx', ['--offline', '--no-install', 'kube-preflight', 'check', './manifests', '--to', '1.29.2', '--format', 'sarif', '--output', 'out.sarif'], { cwd: project, encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  const file = path.join(project, 'out.sarif');
  assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).version, '2.1.0');
  assert.deepEqual(sarifErrors(file), []);
});

test('publint and @arethetypeswrong/cli find nothing wrong with the packed package', () => {
  const publint = spawnSync(process.execPath, [path.join(tools, 'publint/src/cli.js'), '--strict', pkg], { encoding: 'utf8' });
  assert.equal(publint.status, 0, publint.stdout + publint.stderr);
  assert.match(publint.stdout, /All good!/, publint.stdout);
  const attw = path.join(tools, '@arethetypeswrong/cli/dist/index.js');
  // The main entry for every resolver (node10, node16 from CommonJS and from ESM, bundlers); the browser
  // entry, the report element and the worker are ES modules only; the .wasm files are assets, typed as the
  // URL a bundler gives for them.
  const esmOnly = ['./browser', './report', './worker', './wasm', './report/wasm', './web/kube_preflight_wasm_bg.wasm'].map((e) => ['--entrypoints', e, '--profile', 'esm-only']);
  for (const args of [['--entrypoints', '.'], ...esmOnly]) {
    const r = spawnSync(process.execPath, [attw, tarball.path, ...args, '--format', 'table-flipped'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  }
});


test('the README\'s snippets run as shown: Node CommonJS, a streamed ES module, TypeScript under node16, nodenext and bundler', () => {
  const dir = fs.mkdtempSync(path.join(project, 'readme-'));
  fs.copyFileSync(fixture('cli/nodes-1.28.yaml'), path.join(dir, 'snapshot.yaml'));
  fs.copyFileSync(fixture('demo/cluster.yaml'), path.join(dir, 'huge.yaml'));
  const node = (file) => spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8' });
  fs.writeFileSync(path.join(dir, 'main.cjs'), snippet('node-cjs'));
  const cjs = node(path.join(dir, 'main.cjs'));
  assert.equal(cjs.status, 0, cjs.stderr);
  // Two nodes alone: no blocker, but not a pass either.
  assert.match(cjs.stdout, /^incomplete \d+ \d+\n$/);
  fs.writeFileSync(path.join(dir, 'stream.mjs'), snippet('node-stream'));
  const streamed = node(path.join(dir, 'stream.mjs'));
  assert.equal(streamed.status, 0, streamed.stderr);
  assert.equal(streamed.stdout, 'blocked\n');
  // TypeScript, as ES modules: the snippet after the one line that gives it its input.
  const tsc = path.join(tools, 'typescript/bin/tsc');
  const text = `const snapshotText: string = ${JSON.stringify(fs.readFileSync(fixture('cli/nodes-1.28.yaml'), 'utf8'))};\n${snippet('typescript')}\n`;
  for (const [module, resolution] of [['node16', 'node16'], ['nodenext', 'nodenext'], ['esnext', 'bundler']]) {
    const ts = fs.mkdtempSync(path.join(dir, `ts-${module}-`));
    fs.writeFileSync(path.join(ts, 'package.json'), JSON.stringify({ name: 'ts-readme', private: true, type: 'module' }));
    fs.writeFileSync(path.join(ts, 'main.ts'), text);
    const options = ['--strict', '--target', 'es2022', '--module', module, '--moduleResolution', resolution, '--lib', 'es2022,dom', '--outDir', ts, path.join(ts, 'main.ts')];
    const built = spawnSync(process.execPath, [tsc, ...options], { cwd: ts, encoding: 'utf8' });
    assert.equal(built.status, 0, `${module}/${resolution}: ${built.stdout}${built.stderr}`);
    const ran = spawnSync(process.execPath, [path.join(ts, 'main.js')], { cwd: ts, encoding: 'utf8' });
    assert.equal(ran.status, 0, `${module}/${resolution}: ${ran.stderr}`);
    assert.match(ran.stdout, /^incomplete \d+ \d+\n$/, `${module}/${resolution}`);
  }
});

test('the browser snippets type-check under bundler resolution: the .wasm URLs, the worker entry, the element\'s worker and events', () => {
  const tsc = path.join(tools, 'typescript/bin/tsc');
  const ts = fs.mkdtempSync(path.join(project, 'ts-browser-'));
  fs.writeFileSync(path.join(ts, 'package.json'), JSON.stringify({ name: 'ts-browser', private: true, type: 'module' }));
  fs.writeFileSync(path.join(ts, 'main.ts'), `${snippet('element-wasm-url')}
import type {} from 'kube-preflight/worker';
const view = document.createElement('kube-preflight-report');
view.worker = makeWorker;
view.addEventListener('finding-open', (e) => console.log(e.detail.code, e.detail.index, e.detail.line));
view.addEventListener('node-open', (e) => console.log(e.detail.node, e.detail.endSeconds));
view.addEventListener('report', (e) => console.log(e.detail.summary.verdict));
const report = check([], { to: '1.29.2' });
view.report = report;
await checkInWorker([{ name: 'a.yaml', content: '' }], { to: '1.29.2' }, { worker: makeWorker });
`);
  const options = ['--strict', '--noEmit', '--skipLibCheck', 'false', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--lib', 'es2022,dom', path.join(ts, 'main.ts')];
  const built = spawnSync(process.execPath, [tsc, ...options], { cwd: ts, encoding: 'utf8' });
  assert.equal(built.status, 0, built.stdout + built.stderr);
  // A wrong event detail is refused: the declarations say what each event carries.
  fs.writeFileSync(path.join(ts, 'wrong.ts'), `import 'kube-preflight/report';
document.createElement('kube-preflight-report').addEventListener('node-open', (e) => console.log(e.detail.code));
`);
  const wrong = spawnSync(process.execPath, [tsc, ...options.slice(0, -1), path.join(ts, 'wrong.ts')], { cwd: ts, encoding: 'utf8' });
  assert.notEqual(wrong.status, 0);
  assert.match(wrong.stdout, /Property 'code' does not exist/);
});

test('the package\'s README (what the registry shows) runs as written: the CLI lines, the Node API, the worker, suppressions; its browser snippets are the ones the bundler e2e runs', () => {
  const NPM_README = 'wasm-pkg/README.md';
  const text = fs.readFileSync(path.join(root, NPM_README), 'utf8');
  const names = [...text.matchAll(/<!-- snippet: ([\w-]+) -->/g)].map((m) => m[1]);
  const browser = ['browser-default', 'element-wasm-url', 'element'];
  const node = { 'npm-check': 'check.cjs', 'npm-suppress': 'suppress.cjs', 'npm-session': 'session.mjs', 'npm-worker': 'worker.mjs' };
  assert.deepEqual(names.filter((n) => !browser.includes(n) && !(n in node) && n !== 'npm-cli'), [], 'every snippet is run below');
  for (const name of browser) assert.equal(snippet(name, NPM_README), snippet(name), `${name}: as in the project README, built and run by web/e2e/bundlers.test.mjs`);
  // The project README's worker snippet is this one, run here.
  assert.equal(snippet('npm-worker'), snippet('npm-worker', NPM_README));
  const dir = fs.mkdtempSync(path.join(project, 'npm-readme-'));
  fs.copyFileSync(fixture('demo/cluster.yaml'), path.join(dir, 'snapshot.yaml'));
  fs.mkdirSync(path.join(dir, 'manifests'));
  fs.copyFileSync(fixture('demo/manifests.yaml'), path.join(dir, 'manifests/manifests.yaml'));
  for (const [name, file] of Object.entries(node)) {
    fs.writeFileSync(path.join(dir, file), snippet(name, NPM_README));
    const ran = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8' });
    assert.equal(ran.status, 0, `${name}: ${ran.stderr}`);
    assert.match(ran.stdout, /blocked|incomplete|ready|\{/, `${name}: ${ran.stdout}`);
  }
  for (const line of snippet('npm-cli', NPM_README).split('\n').filter((l) => l.trim())) {
    const ran = spawnSync('sh', ['-c', line], { cwd: dir, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false', npm_config_offline: 'true' } });
    // 0 ready, 1 findings (the demo has blockers), 3 incomplete: never 2, a usage or input error.
    assert.ok([0, 1, 3].includes(ran.status), `${line}: ${ran.status} ${ran.stderr}`);
  }
  assert.ok(fs.statSync(path.join(dir, 'preflight.sarif')).size > 0);
  assert.match(fs.readFileSync(path.join(dir, 'preflight.md'), 'utf8'), /kube-preflight/);
  assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'preflight.json'), 'utf8')).summary.verdict, 'blocked');
});

test('the project README\'s command-line lines run as written (from the installed tarball, offline)', () => {
  const [install, ...lines] = snippet('cli').split('\n').filter((l) => l.trim());
  // The first line installs the package, which this project has from the tarball already.
  assert.match(install, /^npm install \.\/wasm-pkg\/pkg\b/);
  const dir = fs.mkdtempSync(path.join(project, 'readme-cli-'));
  fs.copyFileSync(fixture('demo/cluster.yaml'), path.join(dir, 'snapshot.yaml'));
  fs.mkdirSync(path.join(dir, 'manifests'));
  fs.copyFileSync(fixture('demo/manifests.yaml'), path.join(dir, 'manifests/manifests.yaml'));
  fs.mkdirSync(path.join(dir, 'cluster'));
  fs.copyFileSync(fixture('demo/cluster.yaml'), path.join(dir, 'cluster/snapshot.yaml'));
  fs.writeFileSync(path.join(dir, 'snapshot.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { nodeInfo: { kubeletVersion: 'v1.28.4' } } }] }));
  fs.writeFileSync(path.join(dir, 'preflight.yaml'), 'to: 1.29.2\n');
  assert.ok(lines.length >= 4);
  for (const line of lines) {
    const ran = spawnSync('sh', ['-c', line], { cwd: dir, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false', npm_config_offline: 'true' } });
    // 0 ready, 1 findings, 3 incomplete: never 2, a usage, options or input error.
    assert.ok([0, 1, 3].includes(ran.status), `${line}: ${ran.status} ${ran.stderr}`);
  }
  assert.ok(fs.statSync(path.join(dir, 'preflight.sarif')).size > 0);
});

/** `npx kube-preflight check ...` in `dir` from the installed tarball, offline; the JSON report. */
function npxCheck(dir, args) {
  const ran = spawnSync('npx', ['kube-preflight', 'check', ...args, '--format', 'json'], { cwd: dir, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false', npm_config_offline: 'true' } });
  assert.ok([0, 1, 3].includes(ran.status), `${args.join(' ')}: ${ran.status} ${ran.stderr}`);
  return JSON.parse(ran.stdout);
}

test('the README\'s "Accepting findings": the annotation, put on two workloads of the demo, suppresses their findings and their pods\'; the exemptions config, as shown, until its last day', () => {
  const dir = fs.mkdtempSync(path.join(project, 'readme-accept-'));
  // The annotation as the README shows it, on Deployments legacy/reporting and ml/trainer of the demo.
  const { metadata } = YAML.parse(snippet('ignore-annotation'));
  const list = YAML.parse(fs.readFileSync(fixture('demo/cluster.yaml'), 'utf8'));
  const annotated = ['legacy/reporting', 'ml/trainer'];
  for (const item of list.items) {
    if (item.kind === 'Deployment' && annotated.includes(`${item.metadata.namespace}/${item.metadata.name}`)) {
      item.metadata.annotations = { ...item.metadata.annotations, ...metadata.annotations };
    }
  }
  fs.writeFileSync(path.join(dir, 'cluster.yaml'), YAML.stringify(list));
  fs.copyFileSync(fixture('demo/cluster.yaml'), path.join(dir, 'plain.yaml'));
  const before = npxCheck(dir, ['plain.yaml', '--to', '1.29.2']);
  const after = npxCheck(dir, ['cluster.yaml', '--to', '1.29.2']);
  const owner = (f) => `${f.object.namespace}/${f.object.name}`;
  const reason = { by: 'annotation', reason: 'a cache, rebuilt in a minute' };
  // The README's codes: disruption/single-replica and the category tolerations/*.
  const covered = (f) => f.code === 'disruption/single-replica' || f.code.startsWith('tolerations/');
  const workloads = after.findings.filter((f) => annotated.includes(owner(f)) && f.object.kind === 'Deployment' && covered(f));
  assert.deepEqual(workloads.map((f) => [owner(f), f.code]).sort(), [['legacy/reporting', 'tolerations/missing-eviction-toleration'], ['ml/trainer', 'disruption/single-replica']]);
  // The suppression names the object whose annotation it is.
  for (const f of workloads) assert.deepEqual(f.suppressed, { ...reason, object: `Deployment ${owner(f)}` }, `${owner(f)} ${f.code}`);
  // Their pods' findings of those codes too, by the Deployment's annotation; nobody else's.
  const pods = after.findings.filter((f) => f.object.kind === 'Pod' && covered(f) && /^(reporting|trainer)-/.test(f.object.name));
  for (const f of pods) assert.deepEqual(f.suppressed, { ...reason, object: `Deployment ${f.object.namespace}/${f.object.name.split('-')[0]}` }, `${owner(f)} ${f.code}`);
  const others = after.findings.filter((f) => f.suppressed === undefined);
  assert.equal(others.length + workloads.length + pods.length, before.findings.length);
  assert.equal(after.summary.warning, before.summary.warning - workloads.length - pods.filter((f) => f.severity === 'warning').length);
  assert.ok(after.findings.some((f) => f.code === 'disruption/single-replica' && f.object.name === 'catalog' && f.suppressed === undefined));

  // The exemptions config as the README shows it: HorizontalPodAutoscalers on autoscaling/v2beta2
  // (deprecated in 1.23, removed in 1.26: deprecated at its target 1.25.16) in payments-* namespaces.
  const config = snippet('exemptions');
  const hpa = (namespace) => ({ apiVersion: 'autoscaling/v2beta2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'api', namespace }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' }, minReplicas: 2, maxReplicas: 5 } });
  fs.writeFileSync(path.join(dir, 'hpa.yaml'), [hpa('payments-eu'), hpa('shop')].map((o) => YAML.stringify(o)).join('---\n'));
  const expires = /expires: (\S+)/.exec(config)[1];
  const lastDay = `${config}\ntoday: ${expires}\n`;
  const dayAfter = `${config}\ntoday: ${new Date(Date.parse(expires) + 86400000).toISOString().slice(0, 10)}\n`;
  fs.writeFileSync(path.join(dir, 'last-day.yaml'), lastDay);
  fs.writeFileSync(path.join(dir, 'day-after.yaml'), dayAfter);
  const held = npxCheck(dir, ['hpa.yaml', '--config', 'last-day.yaml', '--from', '1.24.17']);
  assert.deepEqual([held.upgrade.from, held.upgrade.to], ['1.24.17', '1.25.16']);
  const deprecated = (r) => Object.fromEntries(r.findings.filter((f) => f.code === 'api/deprecated').map((f) => [f.object.namespace, f.suppressed ?? null]));
  assert.deepEqual(deprecated(held), { 'payments-eu': { by: 'config', reason: 'migrating to autoscaling/v2 in sprint 48', exemption: 0, expires }, shop: null });
  const lapsed = npxCheck(dir, ['hpa.yaml', '--config', 'day-after.yaml', '--from', '1.24.17']);
  assert.deepEqual(deprecated(lapsed), { 'payments-eu': null, shop: null });
  assert.deepEqual(lapsed.findings.filter((f) => f.code === 'suppression/expired').map((f) => f.severity), ['warning']);
});

/** The fenced blocks of both READMEs: each a named snippet, each name used by a test that runs it (or, for
 * the shell commands no test can run here, compares it with what does run). */
test('every code block of both READMEs is a snippet a test runs', () => {
  const tests = [path.join(root, 'wasm-pkg/test'), path.join(root, 'web/e2e')]
    .flatMap((d) => fs.readdirSync(d).filter((f) => f.endsWith('.test.mjs')).map((f) => fs.readFileSync(path.join(d, f), 'utf8')))
    .join('\n');
  for (const file of ['README.md', 'wasm-pkg/README.md']) {
    const blocks = codeBlocks(file);
    assert.ok(blocks.length >= 8, file);
    const unnamed = blocks.filter((b) => !b.name).map((b) => `${file}:${b.line}`);
    assert.deepEqual(unnamed, [], 'a code block with no <!-- snippet: name --> marker');
    for (const { name, line } of blocks) {
      assert.match(tests, new RegExp(`['"\`]${name}['"\`]`), `${file}:${line}: no test names the snippet ${name}`);
    }
  }
});

test('import init, { check } works the same in Node ESM, CommonJS and compiled TypeScript', () => {
  const esm = spawnSync(process.execPath, ['--input-type=module', '-e', "import init, { check } from 'kube-preflight'; await init(); console.log(check([], { to: '1.29.2' }).summary.verdict)"], { cwd: project, encoding: 'utf8' });
  assert.equal(esm.status, 0, esm.stderr);
  assert.equal(esm.stdout, 'nothing-checked\n');
  const cjs = spawnSync(process.execPath, ['-e', "const k = require('kube-preflight'); k.default().then(() => console.log(typeof k.init, k.default === k.init, k.check([], { to: '1.29.2' }).summary.verdict))"], { cwd: project, encoding: 'utf8' });
  assert.equal(cjs.status, 0, cjs.stderr);
  assert.equal(cjs.stdout, 'function true nothing-checked\n');
  // TypeScript under node16, nodenext and bundler resolution, as ESM and compiled to CommonJS: the same
  // source type-checks, and the CommonJS build runs.
  const tsc = path.join(tools, 'typescript/bin/tsc');
  const source = "import init, { check, Session, type Report } from 'kube-preflight';\nawait init();\nconst r: Report = check([], { to: '1.29.2' });\nnew Session({ to: '1.29.2' }).free();\nconsole.log(r.summary.verdict);\n";
  const cjsSource = source.replace('await init();\n', '').replace('console.log(r.summary.verdict);', 'void init().then(() => console.log(r.summary.verdict));');
  for (const [module, resolution, type, text] of [
    ['node16', 'node16', 'module', source],
    ['nodenext', 'nodenext', 'module', source],
    ['esnext', 'bundler', 'module', source],
    ['node16', 'node16', 'commonjs', cjsSource],
    ['commonjs', 'node10', 'commonjs', cjsSource],
  ]) {
    const dir = fs.mkdtempSync(path.join(project, `ts-${module}-${resolution}-`));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'ts-consumer', private: true, type }));
    fs.writeFileSync(path.join(dir, 'main.ts'), text);
    const options = ['--strict', '--target', 'es2022', '--module', module, '--moduleResolution', resolution, '--lib', 'es2022,dom', '--outDir', dir, path.join(dir, 'main.ts')];
    const built = spawnSync(process.execPath, [tsc, ...options], { cwd: dir, encoding: 'utf8' });
    assert.equal(built.status, 0, `${module}/${resolution}/${type}: ${built.stdout}${built.stderr}`);
    if (resolution !== 'bundler') {
      const ran = spawnSync(process.execPath, [path.join(dir, 'main.js')], { cwd: dir, encoding: 'utf8' });
      assert.equal(ran.status, 0, `${module}/${resolution}/${type}: ${ran.stderr}`);
      assert.equal(ran.stdout, 'nothing-checked\n', `${module}/${resolution}/${type}`);
    }
  }
});

test('Bun and Deno run the README\'s lines against the installed package (the CLI and the Node API), as Node does', () => {
  const dir = fs.mkdtempSync(path.join(project, 'bun-deno-'));
  fs.copyFileSync(fixture('cli/nodes-1.28.yaml'), path.join(dir, 'snapshot.yaml'));
  fs.mkdirSync(path.join(dir, 'cluster'));
  fs.copyFileSync(fixture('cli/nodes-1.28.yaml'), path.join(dir, 'cluster/nodes.yaml'));
  fs.writeFileSync(path.join(dir, 'check.mjs'), snippet('bun-deno-api'));
  const bins = { bunx: [path.join(tools, '.bin/bun'), 'x'], bun: [path.join(tools, '.bin/bun')], deno: [path.join(tools, '.bin/deno')] };
  const node = spawnSync(process.execPath, [path.join(project, 'node_modules/kube-preflight/bin/kube-preflight.cjs'), 'check', 'snapshot.yaml', '--to', '1.29.2', '--format', 'json'], { cwd: dir, encoding: 'utf8' });
  for (const line of snippet('bun-deno').split('\n').filter((l) => l.trim())) {
    const [cmd, ...args] = line.split(/\s+/);
    const [exe, ...pre] = bins[cmd];
    // The project's own package (one folder up): Deno reads node_modules beside the package.json.
    const r = spawnSync(exe, [...pre, ...args.map((a) => a.replace(/^node_modules\//, '../node_modules/'))], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', BUN_INSTALL_CACHE_DIR: path.join(dir, '.bun-cache') } });
    if (args.includes('check.mjs')) {
      assert.equal(r.status, 0, `${line}: ${r.stderr}`);
      assert.equal(r.stdout, 'incomplete\n', line);
    } else {
      // A folder walked (Bun's readdirSync gives Buffers there); two nodes alone: incomplete (exit 3).
      assert.equal(r.status, 3, `${line}: ${r.stderr}`);
      assert.match(r.stdout, /^INCOMPLETE \(not a pass/m, line);
      assert.match(r.stdout, /read 1 file\(s\), 2 object\(s\)/, line);
    }
  }
  assert.equal(node.status, 3);
});
