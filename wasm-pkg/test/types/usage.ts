// Compiled with `tsc --noEmit --strict` against the built package's declarations: the API as a portal
// developer would use it.
import { check, checkObjects, rules, version, init, Session, type Report, type Finding, type PreflightError, type UpgradeOptions, type RuleInfo } from 'kube-preflight';

const options: UpgradeOptions = { to: '1.29.2', profile: 'rke', maxUnavailableWorker: '25%', maxSurge: 1, drain: true, timings: { podStartSeconds: 90 }, skip: ['helm-charts', 'aggregated-apis'] };

export async function run(files: { name: string; content: string | Uint8Array }[]): Promise<string> {
  await init();
  let report: Report;
  try {
    report = check(files, options);
  } catch (e) {
    const err = e as PreflightError;
    if (err.code === 'input') return `${err.file ?? '?'}:${err.line ?? 0}:${err.column ?? 0}`;
    return `${err.field ?? 'options'}: ${err.message}`;
  }
  const blockers: Finding[] = report.findings.filter((f) => f.severity === 'blocker');
  const first = blockers[0];
  const where = first?.source ? `${first.source.file}:${first.source.line ?? 0} (${first.source.via ?? 'manifest'})` : '';
  const hops: string[] = report.upgrade.path;
  const phases = report.plan.phases.map((p) => `${p.name}/${p.pool ?? '-'}@${p.hop ?? ''} x${p.concurrency}: ${p.nodes.join(',')} ${p.startSeconds}-${p.endSeconds}`);
  const down = report.downtime.workloads.reduce((s, w) => s + w.seconds, 0);
  const verdict: 'blocked' | 'incomplete' | 'ready' | 'nothing-checked' = report.summary.verdict;
  // What the verdict stands on: every family not checked, with its state and why.
  const scope: 'cluster' | 'manifests' = report.coverage.scope;
  const unchecked: string[] = report.coverage.families
    .filter((f) => f.inScope && f.state !== 'checked')
    .map((f) => `${f.id}:${f.state}:${f.reason ?? ''}`);
  const incomplete: string[] = report.coverage.incomplete;
  const kinds = Object.entries(report.inventory.byKind).map(([k, n]) => `${k}=${n}`);
  const catalogue: RuleInfo[] = rules();
  const s = new Session(options);
  s.sizeHint('a.yaml', 10);
  s.push('a.yaml', new Uint8Array([0x6b]));
  s.push('a.yaml', 'ind: Pod\n');
  const streamed: Report = s.finish();
  // Objects already held, and what could not be listed; an upgrade under way.
  const held: Report = checkObjects([{ apiVersion: 'v1', kind: 'NodeList', items: [] }, { name: 'pods', list: { kind: 'PodList', items: [] } }, { denied: { kind: 'Secret', namespace: null, reason: 'forbidden' } }], options);
  const paged = new Session(options);
  paged.pushObjects({ kind: 'PodList', items: [] }, 'pods');
  paged.pushDenied('PodDisruptionBudget', 'payments', 'forbidden');
  const denied = (paged.finish().inventory.denied ?? []).map((d) => `${d.kind}:${d.namespace ?? '*'}:${d.reason}`).join(',');
  const progress = held.progress ? `${held.progress.state} ${held.progress.counts.done}/${held.progress.counts.total}` : 'none';
  void [denied, progress, held.plan.learned?.length];
  return [version(), verdict, scope, unchecked.join('|'), incomplete.join(','), where, hops.join('>'), phases.join(';'), down, kinds.join(','), catalogue.length, streamed.schemaVersion, report.notRun.length].join(' ');
}

// Off the main thread: Files, streams and bytes; progress, cancellation; suppressions in the options.
export async function inWorker(file: File, stream: ReadableStream<Uint8Array>, previous: Report): Promise<number> {
  const { checkInWorker } = await import('kube-preflight');
  const controller = new AbortController();
  const report = await checkInWorker(
    [file, { name: 'm.yaml', content: stream }, { name: 'b.yaml', content: new Uint8Array(3) }],
    { to: '1.29.2', baseline: previous, today: '2026-11-24', exemptions: [{ rule: 'api/*', namespace: 'legacy-*', reason: 'r', expires: '2026-12-31' }] },
    { signal: controller.signal, onProgress: ({ bytes, objects, input }) => void `${input}: ${bytes} ${objects}` },
  );
  const session = new Session({ to: '1.29.2' });
  const [bytes = 0] = session.progress();
  session.free();
  const suppressed = report.findings.filter((f) => f.suppressed?.by === 'baseline').length;
  return bytes + suppressed + report.summary.suppressed.blocker;
}

// The report element: typed by tag name once `kube-preflight/report` is imported.
export async function showReport(report: Report, into: HTMLElement): Promise<void> {
  const { initReport } = await import('kube-preflight/report');
  await initReport();
  const view = document.createElement('kube-preflight-report');
  view.report = report;
  view.options = { to: '1.29.2' };
  view.inputs = [{ name: 'nodes.yaml', content: 'kind: List\n' }];
  into.append(view);
}
