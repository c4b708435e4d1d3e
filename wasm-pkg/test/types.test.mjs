// The TypeScript declarations, proven usable and in step with the Rust types: a usage file and real
// reports (every optional field filled) compile with `tsc --strict`, the reports checked with
// `satisfies Report` so that a field renamed or added in Rust breaks this test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cli, fixture, pkg, root, tools } from './helpers.mjs';

const tsc = path.join(tools, 'typescript/bin/tsc');

function project(samples) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-types-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'usage', private: true, type: 'module' }));
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(pkg, path.join(dir, 'node_modules/kube-preflight'), 'dir');
  for (const f of ['usage.ts', 'tsconfig.json']) fs.copyFileSync(path.join(root, 'wasm-pkg/test/types', f), path.join(dir, f));
  const body = Object.entries(samples).map(([name, json]) => `export const ${name} = ${json.trim()} satisfies Report;\n`).join('\n');
  fs.writeFileSync(path.join(dir, 'samples.ts'), `import type { Report } from 'kube-preflight';\n\n${body}`);
  return dir;
}

function compile(dir) {
  const r = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
}

function samples() {
  // Every optional field present: Helm-release and last-applied sources, hops, data, named pools,
  // components and workloads, skipped files, Helm releases, a cluster.yml; and a manifests-only report
  // for notRun.
  const full = cli(['check', fixture('demo'), fixture('rules/api/removed/fail-helm-release'), fixture('plan/rke-cluster-yml/cluster.yml'),
    fixture('cli/manifests'), '--to', '1.29.2', '--from', '1.28.5', '--profile', 'gke-baremetal', '--max-unavailable-worker', '2', '--format', 'json']);
  assert.equal(full.code, 1, full.stderr);
  const report = JSON.parse(full.stdout);
  assert.ok(report.plan.phases.some((p) => p.pool) && report.downtime.components.length && report.downtime.workloads.length);
  assert.ok(report.inventory.skipped.length && report.inventory.helmReleases.length && report.inventory.distributionConfigs.length);
  assert.ok(report.findings.some((f) => f.hop && f.data) && report.findings.some((f) => f.source?.via === 'helm-release'));
  const manifests = cli(['check', fixture('cli/manifests'), '--to', '1.29.2', '--format', 'json']);
  assert.ok(JSON.parse(manifests.stdout).notRun.length);
  // Plans that stop: on a node's drain (a stop with a node), and before a pool (a stop with a pool).
  const onDrain = cli(['check', fixture('plan/kubeadm-drain-waits-for-ever'), '--to', '1.29.2', '--format', 'json']);
  const drainReport = JSON.parse(onDrain.stdout);
  assert.ok(drainReport.plan.stops.some((s) => s.node));
  // ... with what it never simulated, the drain it assumed, and the plan once its stop is resolved.
  assert.ok(drainReport.plan.notSimulated.length && drainReport.plan.drain && drainReport.downtime.partial);
  assert.ok(drainReport.plan.ifResolved.lifted.length && drainReport.plan.ifResolved.revealed.length);
  // A workload down until someone intervenes (refused for good by an admission policy).
  const refused = cli(['check', fixture('rules/admission/policy-misconfigured/fail-param-not-found-deny'), '--to', '1.29.2', '--format', 'json']);
  assert.ok(JSON.parse(refused.stdout).downtime.workloads.some((w) => w.untilIntervention));
  // An OpenShift path shown in its own scheme.
  const openshift = cli(['check', fixture('plan/openshift-versions-shown'), '--to', '4.16.3', '--profile', 'openshift', '--format', 'json']);
  assert.equal(JSON.parse(openshift.stdout).upgrade.shown.from, '4.15 (Kubernetes 1.28.7+6e2789b)');
  const paused = cli(['check', fixture('rules/platform/pool-not-updated/fail-paused-machine-config-pool'), '--to', '4.16.3', '--from', '4.15.10', '--profile', 'openshift', '--format', 'json']);
  assert.equal(JSON.parse(paused.stdout).plan.leftOut[0].pool, 'gpu');
  // (one minor: bmctl refuses two at once, and the plan would stop before it starts)
  const onPool = cli(['check', fixture('demo'), '--to', '1.29.2', '--from', '1.28.5', '--profile', 'gke-baremetal', '--format', 'json']);
  assert.ok(JSON.parse(onPool.stdout).plan.stops.some((s) => s.pool && !s.node));
  // Suppressions of every kind: an annotation, an exemption (with its expiry), a baseline.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-suppressed-'));
  fs.writeFileSync(path.join(tmp, 'base.json'), cli(['check', fixture('demo'), '--to', '1.29.2', '--format', 'json']).stdout);
  fs.writeFileSync(path.join(tmp, 'config.yaml'), 'to: 1.29.2\nexemptions:\n- {rule: api/*, reason: migrating, expires: 2999-12-31}\n');
  const sup = cli(['check', fixture('demo'), '--config', path.join(tmp, 'config.yaml'), '--baseline', path.join(tmp, 'base.json'), '--format', 'json']);
  const annotated = cli(['check', fixture('rules/suppression/unknown-rule/pass-category-and-code-on-the-deployment'), '--to', '1.29.2', '--format', 'json']);
  const findings = [...JSON.parse(sup.stdout).findings, ...JSON.parse(annotated.stdout).findings];
  for (const by of ['annotation', 'config', 'baseline']) assert.ok(findings.some((f) => f.suppressed?.by === by), by);
  assert.ok(findings.some((f) => f.suppressed?.expires && f.suppressed.exemption === 0 && f.suppressed.reason));
  assert.ok(findings.some((f) => f.suppressed?.object && f.suppressed.reason));
  return {
    full: full.stdout,
    manifestsOnly: manifests.stdout,
    stopsOnDrain: onDrain.stdout,
    refusedForGood: refused.stdout,
    openshiftShown: openshift.stdout,
    leftOut: paused.stdout,
    stopsOnPool: onPool.stdout,
    suppressed: sup.stdout,
    annotated: annotated.stdout,
  };
}

test('the declarations compile with a usage file and match real reports', () => {
  const dir = project(samples());
  const r = compile(dir);
  assert.equal(r.code, 0, r.out);
});

test('a report field renamed in Rust breaks the declaration test', () => {
  const s = samples();
  const renamed = project({ full: s.full.replace('"totalSeconds"', '"totalSecs"') });
  const r = compile(renamed);
  assert.notEqual(r.code, 0);
  assert.match(r.out, /totalSecs/);
  const severity = project({ full: s.full.replace('"severity": "blocker"', '"severity": "fatal"') });
  assert.notEqual(compile(severity).code, 0);
});
