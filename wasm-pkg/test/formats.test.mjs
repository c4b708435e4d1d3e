// Every output format, checked for structure: SARIF by Microsoft's SARIF multitool (the schema and GitHub's
// rules), JUnit by a strict XML parser, Markdown and text by their content.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { cli, fixture, sarifErrors, tools } from './helpers.mjs';

const require = createRequire(import.meta.url);
const { XMLParser, XMLValidator } = require(path.join(tools, 'fast-xml-parser'));
const demo = ['check', fixture('demo'), '--to', '1.29.2'];

test('sarif: valid SARIF 2.1.0 that GitHub code scanning accepts', () => {
  const r = cli([...demo, '--format', 'sarif']);
  assert.equal(r.code, 1, r.stderr);
  const log = JSON.parse(r.stdout);
  assert.equal(log.version, '2.1.0');
  const run = log.runs[0];
  const rules = run.tool.driver.rules;
  assert.ok(rules.length >= 20);
  for (const rule of rules) {
    assert.ok(rule.id && rule.shortDescription.text && rule.help.text && rule.help.markdown, rule.id);
    assert.ok(['error', 'warning', 'note'].includes(rule.defaultConfiguration.level));
  }
  const json = JSON.parse(cli([...demo, '--format', 'json']).stdout);
  assert.equal(run.results.length, json.findings.length);
  for (const [i, res] of run.results.entries()) {
    const f = json.findings[i];
    assert.equal(res.ruleId, f.code);
    assert.equal(rules[res.ruleIndex].id, f.code);
    assert.equal(res.level, { blocker: 'error', warning: 'warning', info: 'note' }[f.severity]);
    assert.ok(res.message.text.includes(f.message));
    if (f.source) {
      const loc = res.locations[0].physicalLocation;
      assert.ok(loc.artifactLocation.uri.endsWith(path.basename(f.source.file)));
      if (f.source.line) assert.equal(loc.region.startLine, f.source.line);
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-sarif-'));
  const file = path.join(dir, 'demo.sarif');
  fs.writeFileSync(file, r.stdout);
  assert.deepEqual(sarifErrors(file), []);
});

test('junit: well-formed XML, a testcase per rule and object, failures at or above --fail-on', () => {
  const r = cli([...demo, '--format', 'junit']);
  assert.equal(XMLValidator.validate(r.stdout), true);
  const doc = new XMLParser({ ignoreAttributes: false, isArray: (n) => ['testsuite', 'testcase'].includes(n) }).parse(r.stdout);
  const suites = doc.testsuites.testsuite;
  const json = JSON.parse(cli([...demo, '--format', 'json']).stdout);
  const rules = JSON.parse(cli(['rules', '--format', 'json']).stdout);
  // A suite per rule, and one for what each family of checks stands on: a family not checked is a skipped
  // case, never a passed one (the demo reads no webhooks, APIServices, CRDs or Helm releases).
  assert.equal(suites.length, rules.length + 1);
  const coverage = suites.find((s) => s['@_name'] === 'coverage');
  const skippedFamilies = coverage.testcase.filter((c) => 'skipped' in c).map((c) => c['@_name']);
  assert.deepEqual(skippedFamilies, json.coverage.families.filter((f) => f.state !== 'checked').map((f) => f.id));
  assert.ok(skippedFamilies.includes('aggregated-apis'));
  const apiservice = suites.find((s) => s['@_name'] === 'api/apiservice-unavailable').testcase;
  assert.deepEqual(apiservice.map((c) => c['@_name']), ['not checked']);
  const failures = suites.flatMap((s) => s.testcase).filter((c) => c.failure);
  assert.equal(failures.length, json.summary.blocker);
  assert.equal(Number(doc.testsuites['@_failures']), json.summary.blocker);
  const warn = new XMLParser({ ignoreAttributes: false, isArray: (n) => ['testsuite', 'testcase'].includes(n) }).parse(cli([...demo, '--format', 'junit', '--fail-on', 'warning']).stdout);
  assert.equal(Number(warn.testsuites['@_failures']), json.summary.blocker + json.summary.warning);
  // --fail-on never keeps the exit status 0, and the test report still fails the blockers (a GitLab merge
  // request widget shows them).
  const none = cli([...demo, '--format', 'junit', '--fail-on', 'never']);
  assert.equal(none.code, 0);
  assert.match(none.stdout, new RegExp(`<testsuites [^\\n]*failures="${json.summary.blocker}"`));
  // Only the common JUnit schema's attributes (Jenkins junit-10.xsd): where a finding was read is in its
  // text.
  const allowed = {
    testsuites: ['name', 'time', 'tests', 'failures', 'disabled', 'errors'],
    testsuite: ['name', 'tests', 'failures', 'errors', 'time', 'disabled', 'skipped', 'timestamp', 'hostname', 'id', 'package'],
    testcase: ['name', 'assertions', 'time', 'classname', 'status'],
    failure: ['message', 'type'],
    skipped: ['message'],
  };
  for (const [, element, attrs] of r.stdout.matchAll(/<([a-z-]+)((?: [a-z]+="[^"]*")*)\/?>/g)) {
    for (const [, a] of attrs.matchAll(/ ([a-z]+)=/g)) {
      assert.ok((allowed[element] || []).includes(a), `<${element} ${a}=...> is not in the JUnit schema`);
    }
  }
  assert.match(r.stdout, /\nAt: [^<]*\.yaml:\d+/);
  // Rules that did not run are skipped test cases.
  const manifests = cli(['check', fixture('cli/manifests'), '--to', '1.29.2', '--format', 'junit']);
  assert.equal(XMLValidator.validate(manifests.stdout), true);
  assert.match(manifests.stdout, /<skipped message="the current version is unknown/);
});

test('markdown: verdict, findings table, plan and downtime for a pull-request comment', () => {
  const md = cli([...demo, '--format', 'markdown']).stdout;
  assert.match(md, /^## ❌ kube-preflight: BLOCKED/);
  assert.match(md, /\| \| Rule \| Object \| Finding \| Fix \|/);
  assert.match(md, /`api\/removed`/);
  assert.match(md, /### Plan \(/);
  assert.match(md, /### Expected downtime/);
  assert.match(md, /\*\*Deployment ml\/trainer\*\*/);
});

test('text: findings by severity, the plan and the downtime; colour only on a terminal', () => {
  const t = cli(demo).stdout;
  assert.match(t, /^kube-preflight: 1\.27\.6 -> 1\.29\.2 \(profile kubeadm\)/);
  assert.ok(t.indexOf('BLOCKER (') < t.indexOf('WARNING ('));
  assert.match(t, /PLAN \(/);
  assert.match(t, /EXPECTED DOWNTIME/);
  assert.match(t, /BLOCKED: \d+ blocker/);
  assert.doesNotMatch(t, /\x1b\[/);
});

test('hostile names give valid XML and SARIF, by a strict reader', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-hostile-'));
  const file = path.join(dir, 'evil name #1.yaml');
  fs.writeFileSync(
    file,
    'apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: "<x a=\\"1\\"> ]]> \\uFFFE \\u0001 & \\u001b[31m"\n  namespace: "a\\nb"\n',
  );
  const junit = cli(['check', file, '--to', '1.29.2', '--format', 'junit']);
  assert.equal(XMLValidator.validate(junit.stdout), true, junit.stdout);
  assert.doesNotMatch(junit.stdout, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
  const sarif = JSON.parse(cli(['check', file, '--to', '1.29.2', '--format', 'sarif']).stdout);
  for (const r of sarif.runs[0].results) {
    for (const l of r.locations || []) {
      const uri = l.physicalLocation.artifactLocation.uri;
      assert.match(uri, /^[A-Za-z0-9\-._~/!$&'()*+,;=@%:]+$/, uri);
      assert.doesNotThrow(() => new URL(uri, 'file:///base/'));
      assert.equal(decodeURIComponent(new URL(uri, 'file:///').pathname).endsWith('evil name #1.yaml'), true, uri);
    }
  }
});

test('markdown: --max-findings keeps a comment short and says what it left out', () => {
  const all = JSON.parse(cli([...demo, '--format', 'json']).stdout);
  const md = cli([...demo, '--format', 'markdown', '--max-findings', '3']).stdout;
  const rows = md.split('\n').filter((l) => /^\| (🛑|⚠️|ℹ️)/.test(l));
  assert.equal(rows.length, 3);
  // The most severe first: blockers before anything else.
  assert.ok(rows.every((l) => l.startsWith('| 🛑')), rows.join('\n'));
  const left = all.findings.slice(3);
  const n = (sev) => left.filter((f) => f.severity === sev).length;
  assert.ok(md.includes(`_${left.length} more finding(s) not shown (${n('blocker')} blocker(s), ${n('warning')} warning(s), ${n('info')} info;`), md);
  // Without it, every finding is listed.
  const full = cli([...demo, '--format', 'markdown']).stdout;
  assert.equal(full.split('\n').filter((l) => /^\| (🛑|⚠️|ℹ️)/.test(l)).length, all.findings.length);
  assert.equal(cli([...demo, '--format', 'markdown', '--max-findings', 'ten']).code, 2);
});

test('sarif: --help-uri links each rule to its anchor in the published catalogue; the link is checked', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-help-'));
  const file = path.join(dir, 'out.sarif');
  const base = 'https://docs.example.com/kube-preflight/rules.md';
  const r = cli([...demo, '--format', 'sarif', '--output', file, '--help-uri', base]);
  assert.equal(r.code, 1, r.stderr);
  const rules = JSON.parse(fs.readFileSync(file, 'utf8')).runs[0].tool.driver.rules;
  const catalogue = cli(['rules', '--format', 'markdown']).stdout;
  for (const rule of rules) {
    const anchor = rule.id.replace('/', '-');
    assert.equal(rule.helpUri, `${base}#${anchor}`);
    assert.ok(catalogue.includes(`<a id="${anchor}"></a>`), `the catalogue has no anchor ${anchor}`);
  }
  assert.deepEqual(sarifErrors(file), []);
  // Without it, no helpUri (no link to a page that may not exist).
  const plain = JSON.parse(cli([...demo, '--format', 'sarif']).stdout).runs[0].tool.driver.rules;
  assert.ok(plain.every((x) => x.helpUri === undefined));
  for (const bad of ['docs/rules.md', 'javascript:alert(1)']) {
    const b = cli([...demo, '--format', 'sarif', '--help-uri', bad]);
    assert.equal(b.code, 2, bad);
    assert.match(b.stderr, /--help-uri/);
  }
});
