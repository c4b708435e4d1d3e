// The dashboard as a change review uses it (#22): a verdict that says what it stands on and is never READY
// over nothing, the demo's target kept for the demo, a cancel that goes back, the distribution recognised,
// the checks view, the summary for a ticket, the HTML report opened from disk, print, phone, 200% zoom and
// keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, root, serve, shots } from './helpers.mjs';

const dist = path.join(root, 'dist');
const fixture = (f) => path.join(root, 'tests/fixtures', f);
let server;
let browser;

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'index.html')), 'dist/ is missing: run `cargo xtask web` first');
  server = await serve(dist);
  browser = await launch();
  fs.mkdirSync(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.close();
});

// The three screens the review is made on: a laptop, a phone, and a laptop at 200% zoom (half the CSS
// pixels, twice the device pixels per CSS pixel).
const SCREENS = {
  laptop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
  zoom200: { viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 },
};

async function open(screen = 'laptop', query = '', contextOptions = {}) {
  const context = await browser.newContext({ ...SCREENS[screen], ...contextOptions });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.origin}/${query}`);
  await page.waitForSelector('#verdict');
  return { page, errors, context };
}

const text = (page, sel) => page.textContent(sel);
const verdictIs = (page, v) => page.waitForFunction((want) => document.querySelector('#verdict')?.textContent === want, v);
/** The report of the files just picked, not the one shown while they are read (the demo's may have the same verdict). */
const checkedIs = (page, v) => page.waitForFunction((want) => /^Your inputs: /.test(document.querySelector('#loaded')?.textContent ?? '') && !document.querySelector('#summary')?.classList.contains('stale') && document.querySelector('#verdict')?.textContent === want, v);
const shot = (page, name) => page.screenshot({ path: path.join(shots, `review-${name}.png`), fullPage: true });
/** A test on each of the three screens. */
const each = (name, fn) => {
  for (const screen of Object.keys(SCREENS)) test(`${screen}: ${name}`, () => fn(screen));
};
/** The page never scrolls sideways (charts and tables scroll in their own boxes). */
const noSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

for (const screen of Object.keys(SCREENS)) {
  test(`${screen}: a snapshot with no control-plane node is INCOMPLETE, never READY; the card says why and leads to Current`, async () => {
    const { page, errors, context } = await open(screen);
    await page.setInputFiles('#files', [fixture('e2e/eks-nodes.yaml')]);
    // No target chosen and no version to take the next minor from: the page asks, and shows no stale verdict.
    await page.waitForSelector('#error');
    assert.match(await text(page, '#error'), /no target is set .*EKS, GKE or AKS.*set Target, and Current/);
    assert.equal(await page.locator('#verdict').count(), 0, 'the demo verdict is not this cluster\'s');
    await page.fill('#to', '1.30');
    await page.dispatchEvent('#to', 'change');
    await verdictIs(page, 'INCOMPLETE');
    assert.match(await text(page, '#incomplete'), /\d+ check\(s\) and the plan could not run: the current version is not known\. This is not a pass\./);
    assert.match(await text(page, '#not-run'), /skew\/kubelet-too-old: .*Current/);
    // No plan, so no downtime is claimed either way.
    assert.equal(await text(page, '#no-downtime'), 'Not simulated: there is no plan, so no downtime is known.');
    assert.equal((await text(page, '#down')).trim(), 'not simulated (no plan)');
    assert.match(await text(page, '#detected'), /managed EKS cluster \(2 of 2 node\(s\) carry the label eks\.amazonaws\.com\/nodegroup/);
    assert.ok(await noSideways(page), 'the page scrolls sideways');
    await shot(page, `incomplete-${screen}`);
    // By keyboard: the card's button takes the focus to Current.
    await page.focus('#incomplete button[data-focus=from]');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'from');
    await page.keyboard.type('1.29.3');
    await page.keyboard.press('Tab');
    await page.waitForFunction(() => !document.querySelector('#incomplete') && /1\.29\.3 → 1\.30/.test(document.querySelector('#path')?.textContent ?? ''));
    // The current version is known now; two nodes alone still leave the drains, budgets and API machinery
    // unread: INCOMPLETE, and the card says which.
    await verdictIs(page, 'INCOMPLETE');
    assert.match(await text(page, '#incomplete-families'), /stand on nothing: drains \(not read\), budgets \(not read\)/);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

each('pasted text that is not Kubernetes is NOTHING CHECKED, with what was left out', async (screen) => {
  const { page, errors, context } = await open(screen);
  await page.click('#paste');
  await page.fill('#paste-text', 'hello world');
  await page.click('#paste-check');
  await verdictIs(page, 'NOTHING CHECKED');
  assert.match(await text(page, '#stands-on'), /^Read 0 object\(s\) from 1 input\(s\)/);
  assert.match(await text(page, '#nothing-read'), /nothing was checked, so this is not a pass/);
  assert.deepEqual(errors, []);
  await context.close();
});

each('cancel while reading: back to the report shown and its inputs, said once, no mixed state', async (screen) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-cancel-'));
  const big = path.join(dir, 'big.json');
  // ~60 MB of pods: long enough to be cancelled while it is read.
  const pod = (i) => `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p${i}","namespace":"n${i % 50}","labels":{"app":"a${i % 300}"}},"spec":{"nodeName":"w${i % 200}","containers":[{"name":"c","image":"registry.example/app:${i}"}]},"status":{"phase":"Running"}}`;
  const fd = fs.openSync(big, 'w');
  fs.writeSync(fd, '{"apiVersion":"v1","kind":"List","items":[');
  for (let i = 0; i < 300000; i++) fs.writeSync(fd, (i ? ',' : '') + pod(i));
  fs.writeSync(fd, ']}');
  fs.closeSync(fd);
  const { page, errors, context } = await open(screen);
  await verdictIs(page, 'BLOCKED');
  const [path0, total0, counts0] = [await text(page, '#path'), await text(page, '#total'), await text(page, '.counts')];
  await page.setInputFiles('#files', [big]);
  await page.waitForSelector('#cancel');
  await page.click('#cancel');
  await page.waitForSelector('#notice');
  assert.equal(await text(page, '#notice span'), 'Cancelled: big.json was not read. The report is still the one for demo/cluster.yaml and 1 more.');
  // The inputs, the badge and the verdict are the demo's again, current once checked again.
  await page.waitForSelector('#summary:not(.stale)');
  assert.equal(await text(page, '#verdict'), 'BLOCKED');
  assert.match(await text(page, '#summary'), /demo cluster/);
  assert.match(await text(page, '#loaded'), /^Demo cluster: 2 input\(s\), 74 object\(s\)/);
  // The same report as before: its target, plan and counts (the options it was made under are back).
  assert.deepEqual([await text(page, '#path'), await text(page, '#total'), await text(page, '.counts')], [path0, total0, counts0]);
  assert.equal(await page.inputValue('#to'), '1.29.2');
  assert.equal(await page.locator('#progress').count(), 0);
  fs.rmSync(dir, { recursive: true });
  assert.deepEqual(errors, []);
  await context.close();
});

each('an RKE cluster.yml under the default distribution: switched to rke and said; a chosen one is only offered', async (screen) => {
  const files = [fixture('plan/detected-profile/cluster.yml'), fixture('plan/detected-profile/nodes.yaml')];
  {
    const { page, errors, context } = await open(screen);
    await page.setInputFiles('#files', files);
    await page.waitForSelector('#notice');
    assert.match(await text(page, '#notice span'), /^Distribution set to rke: these inputs look like it \(an RKE cluster\.yml: kubernetes_version 1\.28\.5\+rancher1-1 is deployed by RKE v1\.1\.0 or later \(profile rke\) at cluster\.yml:2\)/);
    await page.waitForFunction(() => /· rke$/.test(document.querySelector('#path')?.textContent ?? ''));
    assert.equal(await page.inputValue('#profile'), 'rke');
    assert.match(page.url(), /profile=rke/);
    assert.equal(await page.locator('#detected').count(), 0);
    // The Inputs view says what became of cluster.yml (never "0 objects, read").
    await page.click('#tab-inputs');
    assert.match(await text(page, 'tr[data-input="cluster.yml"]'), /read as the distribution's config, an RKE cluster\.yml: 3 host\(s\); upgrade_strategy read as options/);
    assert.deepEqual(errors, []);
    await context.close();
  }
  {
    const { page, errors, context } = await open(screen, '?profile=kubeadm');
    await page.setInputFiles('#files', files);
    await page.waitForSelector('#detected');
    assert.match(await text(page, '#detected'), /These inputs look like rke \(an RKE cluster\.yml: kubernetes_version 1\.28\.5\+rancher1-1 is deployed by RKE v1\.1\.0 or later \(profile rke\) at cluster\.yml:2\); this report is for kubeadm\./);
    assert.match(await text(page, '#path'), /· kubeadm$/);
    await page.click('#use-detected');
    await page.waitForFunction(() => /· rke$/.test(document.querySelector('#path')?.textContent ?? ''));
    assert.equal(await page.locator('#detected').count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

each('options that cannot be checked mark the verdict not current, in the open', async (screen) => {
  const { page, errors, context } = await open(screen);
  await verdictIs(page, 'BLOCKED');
  await page.fill('#max-surge', 'ten');
  await page.dispatchEvent('#max-surge', 'change');
  await page.waitForSelector('#error');
  await page.waitForSelector('#summary.stale #stale');
  assert.match(await text(page, '#stale'), /^Not current: what is set now could not be checked/);
  await page.fill('#max-surge', '');
  await page.dispatchEvent('#max-surge', 'change');
  await page.waitForSelector('#summary:not(.stale)');
  assert.equal(await page.locator('#error').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

each('a finding on the overview opens in Findings with its own source lines', async (screen) => {
  const { page, errors, context } = await open(screen);
  const first = page.locator('.worst li.finding').first();
  const code = await first.getAttribute('data-code');
  await first.locator('button').click();
  await page.waitForSelector('#findings li.finding.open .finding-details');
  assert.equal(await page.getAttribute('#tab-findings', 'aria-selected'), 'true');
  assert.equal(await page.locator('#findings li.finding.open').getAttribute('data-code'), code);
  assert.equal(await page.evaluate(() => document.activeElement.closest('li.finding')?.classList.contains('open')), true);
  // Each finding's excerpt is its own: the marked line is the one its source names.
  for (const nth of [1, 2, 3]) {
    const row = page.locator('#findings li.finding').nth(nth);
    const where = await row.locator('.where').textContent();
    const line = where.match(/:(\d+)$/)?.[1];
    await row.locator('.finding-head').click();
    if (!line) continue;
    await page.waitForFunction((n) => document.querySelector('li.finding.open .line.target .ln')?.textContent.trim() === n, line);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

each('the checks view lists every rule as failed, flagged, not run, not checked, accepted or passed; search, sort and open', async (screen) => {
  const { page, errors, context } = await open(screen);
  await page.click('#tab-checks');
  await page.waitForSelector('#checks');
  const rules = await page.locator('#rules, #tab-rules').count();
  assert.ok(rules >= 1);
  const tally = await text(page, '#checks-tally');
  const [, all, failed, flagged, notRun, notChecked, accepted, passed] = tally.match(/^(\d+) checks: (\d+) failed, (\d+) flagged, (\d+) not run, (\d+) not checked, (\d+) accepted, (\d+) passed$/).map(Number);
  assert.equal(failed + flagged + notRun + notChecked + accepted + passed, all);
  // Unknown is never a pass: the demo reads no webhook, APIService, CRD or Helm release, so their rules are
  // "not checked" with the family and why, never "passed".
  assert.ok(notChecked > 0);
  for (const code of ['admission/webhook-unavailable', 'api/apiservice-unavailable', 'helm/kube-version-refused']) {
    assert.equal(await page.getAttribute(`#checks tr[data-check="${code}"]`, 'class'), 'check not-checked', code);
  }
  assert.match(await text(page, '#checks tr[data-check="api/apiservice-unavailable"]'), /aggregated-apis not read: no APIService was read/);
  assert.equal(await page.locator('#checks tbody tr').count(), all);
  assert.equal(await page.locator('#checks tr.failed').count(), failed);
  assert.ok(passed > 0 && failed > 0);
  // Worst first, then by rule on request.
  assert.equal(await page.locator('#checks tbody tr').first().getAttribute('class'), 'check failed');
  await page.click('button.sort[data-sort=rule]');
  const codes = await page.$$eval('#checks tbody tr', (rows) => rows.map((r) => r.dataset.check));
  assert.deepEqual(codes, [...codes].sort());
  await page.fill('#checks-text', 'passed');
  assert.equal(await page.locator('#checks tbody tr').count(), passed);
  await page.fill('#checks-text', 'api/removed');
  await page.click('#checks tr[data-check="api/removed"] button');
  await page.waitForSelector('#findings');
  assert.equal(await page.inputValue('#filter-rule'), 'api/removed');
  assert.match(await text(page, '#matched'), /^(\d+) of \d+ finding\(s\)$/);
  assert.deepEqual(errors, []);
  await context.close();
});

each('copy summary puts the ticket text on the clipboard; the HTML report opens from disk with no server and no script', async (screen) => {
  const { page, errors, context } = await open(screen, '', { permissions: ['clipboard-read', 'clipboard-write'], acceptDownloads: true });
  await verdictIs(page, 'BLOCKED');
  await page.click('#tab-export');
  await page.click('#copy-summary');
  await page.waitForFunction(() => document.querySelector('#copied')?.textContent === 'Copied.');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, await text(page, '#summary-text'));
  const lines = copied.split('\n');
  assert.match(lines[0], /^kube-preflight \d+\.\d+\.\d+ upgrade review, \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  assert.match(lines[1], /^Verdict: BLOCKED \(8 blocker\(s\), \d+ warning\(s\), \d+ info\)$/);
  assert.equal(lines[2], 'Path: 1.27.6 → 1.28 → 1.29.2 (kubeadm)');
  assert.match(lines[3], /^Plan: 1h03m, \d+ node step\(s\)$/);
  assert.match(lines[4], /^Downtime: 5 workload\(s\) down, longest Deployment ml\/trainer \(8m00s\)$/);
  assert.match(copied, /\nWorst findings \(5 of \d+\):\n- \[blocker\] /);
  // What was not checked travels with the summary: never a pass by omission.
  assert.match(copied, /\nNot checked: aggregated APIs \(aggregated-apis, not read\): no APIService was read\n/);
  assert.match(copied, /\nInputs: 74 object\(s\) from 2 input\(s\): demo\/cluster\.yaml \(\d+ objects\); demo\/manifests\.yaml \(\d+ objects\); the built-in demo cluster\n/);
  assert.match(copied, /\nOptions: to=1\.29\.2, profile=kubeadm \(default\)\n$/);
  // The HTML report: downloaded, then opened from disk with scripts off and the network refused.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-html')]);
  assert.equal(download.suggestedFilename(), 'kube-preflight-1.29.2.html');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kp-html-')), 'report.html');
  await download.saveAs(file);
  const offline = await browser.newContext({ javaScriptEnabled: false, offline: true });
  const view = await offline.newPage();
  const requests = [];
  view.on('request', (r) => { if (!r.url().startsWith('file:')) requests.push(r.url()); });
  await view.goto(`file://${file}`);
  assert.equal(await view.textContent('#verdict'), 'BLOCKED');
  assert.match(await view.textContent('#facts'), /Inputs.*demo\/cluster\.yaml.*Options.*to=1\.29\.2/s);
  assert.match(await view.textContent('#not-checked'), /Family Helm charts \(helm-charts, not read\): no Helm release record was read/);
  const findings = Number((await view.textContent('h2:has-text("Findings")')).match(/\((\d+)\)/)[1]);
  assert.equal(await view.locator('#findings tbody tr').count(), findings);
  assert.ok(await view.locator('#checks tbody tr').count() > 20);
  assert.ok(await view.locator('#plan tbody tr').count() > 0);
  assert.deepEqual(requests, []);
  await view.screenshot({ path: path.join(shots, 'review-offline-report.png'), fullPage: true });
  await offline.close();
  assert.deepEqual(errors, []);
  await context.close();
});

each('print from any view keeps the verdict and says when, from which inputs and under which options', async (screen) => {
  const { page, errors, context } = await open(screen);
  await page.click('#tab-findings');
  await page.emulateMedia({ media: 'print' });
  assert.ok(await page.isVisible('#verdict'));
  assert.ok(await page.isVisible('#print-meta'));
  assert.match(await text(page, '#print-meta'), /Printed\d{4}-\d\d-\d\d \d\d:\d\d UTC by kube-preflight .*Inputsdemo\/cluster\.yaml .*Optionsto=1\.29\.2/);
  assert.equal(await page.isVisible('.tabs'), false);
  await page.emulateMedia({ media: 'screen' });
  assert.equal(await page.isVisible('#print-meta'), false);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const screen of Object.keys(SCREENS)) {
  test(`${screen}: every view fits the width, chart text stays readable, the timeline zooms, tabs follow arrow keys`, async () => {
    const { page, errors, context } = await open(screen);
    await verdictIs(page, 'BLOCKED');
    for (const tab of ['overview', 'findings', 'checks', 'plan', 'downtime', 'whatif', 'inputs', 'rules', 'export']) {
      await page.click(`#tab-${tab}`);
      await page.waitForSelector(`#panel > :nth-child(2)`);
      assert.ok(await noSideways(page), `${tab} scrolls sideways on ${screen}`);
      // Chart text, in device pixels, never under 9 (it was 3 to 6 on a phone).
      const smallest = await page.evaluate(() => Math.min(Infinity, ...[...document.querySelectorAll('#panel svg text')].map((t) => {
        const svg = t.closest('svg');
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return parseFloat(getComputedStyle(t).fontSize) * scale * devicePixelRatio;
      })));
      assert.ok(smallest >= 9, `${tab} chart text is ${smallest.toFixed(1)} device px on ${screen}`);
    }
    await page.click('#tab-plan');
    const width = () => page.$eval('#gantt svg', (s) => s.getBoundingClientRect().width);
    const w1 = await width();
    await page.click('#zoom-in');
    await page.click('#zoom-in');
    assert.equal(await text(page, '#zoom-level'), '4×');
    assert.ok(Math.abs((await width()) / w1 - 4) < 0.05, `zoom 4x: ${w1} -> ${await width()}`);
    await page.$eval('#gantt .chart-scroll', (d) => { d.scrollLeft = d.scrollWidth; });
    assert.ok(await page.$eval('#gantt .chart-scroll', (d) => d.scrollLeft > 0), 'the zoomed timeline pans');
    // Hovering a bar says what it is.
    await page.hover('#gantt rect.bar >> nth=0');
    assert.doesNotMatch(await text(page, '#gantt-details'), /^Hover over/);
    // Tabs: one in the Tab order, arrows move and show.
    await page.focus('#tab-plan');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.getAttribute('#tab-downtime', 'aria-selected'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-downtime');
    await page.keyboard.press('Home');
    assert.equal(await page.getAttribute('#tab-overview', 'aria-selected'), 'true');
    assert.equal(await page.locator('[role=tab][tabindex="0"]').count(), 1);
    // Headings do not skip a level: h1, then the view's h2, then h3.
    const levels = await page.$$eval('h1, h2, h3, h4, h5, h6', (hs) => hs.map((h) => Number(h.tagName[1])));
    levels.reduce((prev, l) => { assert.ok(l <= prev + 1, `heading h${l} after h${prev}: ${levels}`); return l; }, 0);
    await shot(page, `overview-${screen}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

each('the view is in the URL: filters, the open finding and the tab; tabs are history entries; copy link', async (screen) => {
  const { page, errors, context } = await open(screen, '', { permissions: ['clipboard-read', 'clipboard-write'] });
  await verdictIs(page, 'BLOCKED');
  await page.click('#tab-findings');
  await page.selectOption('#filter-rule', 'api/removed');
  await page.click('#sev-warning');
  await page.locator('#findings li.finding .finding-head').nth(1).click();
  await page.waitForSelector('#findings li.finding.open');
  const openCode = await page.locator('#findings li.finding.open').getAttribute('data-code');
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('tab'), 'findings');
  assert.equal(url.searchParams.get('rule'), 'api/removed');
  assert.equal(url.searchParams.get('hide'), 'warning');
  assert.match(url.searchParams.get('finding'), /^\d+$/);
  await page.click('#copy-link');
  await page.waitForFunction(() => /^Link copied/.test(document.querySelector('#link-copied')?.textContent ?? ''));
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), page.url());
  // The link opens the same view (on the demo: a link carries no cluster data).
  const other = await context.newPage();
  await other.goto(page.url());
  await other.waitForSelector('#findings li.finding.open .finding-details');
  assert.equal(await other.locator('#findings li.finding.open').getAttribute('data-code'), openCode);
  assert.equal(await other.inputValue('#filter-rule'), 'api/removed');
  assert.equal(await other.isChecked('#sev-warning'), false);
  await other.close();
  // Back and forward move between tabs.
  await page.click('#tab-plan');
  await page.click('#tab-checks');
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#tab-plan')?.getAttribute('aria-selected') === 'true');
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#tab-findings')?.getAttribute('aria-selected') === 'true');
  assert.equal(await page.inputValue('#filter-rule'), 'api/removed');
  await page.goForward();
  await page.waitForFunction(() => document.querySelector('#tab-plan')?.getAttribute('aria-selected') === 'true');
  // A newcomer finds the kubectl command that makes a snapshot.
  await page.click('#how-to summary');
  assert.match(await text(page, '#kubectl-command'), /^kubectl get nodes,pods,.*poddisruptionbudgets.* -A -o yaml > cluster\.yaml\nkubectl version -o json > version\.json\n/);
  assert.match(await text(page, '#kubectl-command'), /oc get clusterversion,clusteroperators,machineconfigpools,machineconfigs -o yaml/);
  assert.match(await text(page, '#kubectl-command'), /\nkubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations,validatingadmissionpolicies,validatingadmissionpolicybindings,apiservices,crds,namespaces -o yaml > api\.yaml\nkubectl get services,endpointslices -A -o yaml > endpoints\.yaml\n/);
  assert.deepEqual(errors, []);
  await context.close();
});

each('node by node: the longest step says where its time goes (waiting on a budget), its pods and its findings', async (screen) => {
  const { page, errors, context } = await open(screen, '?profile=gke-baremetal');
  // GKE on Bare Metal (1.29 and later: the eviction API) gives a drain held by a PodDisruptionBudget 20 minutes
  // in all, then goes on.
  await page.setInputFiles('#files', [fixture('plan/kubeadm-drain-waits-for-ever/cluster.yaml')]);
  await page.waitForFunction(() => /· gke-baremetal$/.test(document.querySelector('#path')?.textContent ?? ''));
  await page.click('#tab-plan');
  await page.waitForSelector('#node-steps');
  await page.selectOption('#steps-sort', 'longest');
  const first = page.locator('#node-steps tbody tr.step').first();
  assert.equal(await first.getAttribute('data-node'), 'w-1');
  assert.equal(await first.locator('.length').textContent(), '29m35s');
  assert.equal(await first.locator('svg.split').getAttribute('aria-label'), 'drain 5s, waiting on a budget 20m00s, upgrade 9m00s, ready 30s');
  assert.equal(await first.locator('rect.seg.budget-wait').count(), 1);
  await first.locator('button.node-open').click();
  await page.waitForSelector('#node-w-1');
  assert.match(await text(page, '#node-w-1 .why-long'), /waits on a PodDisruptionBudget until the drain timeout/);
  assert.match(await text(page, '#node-w-1'), /\d+ pod\(s\) on it: evicted by the drain/);
  assert.match(await text(page, '#node-w-1 .node-findings'), /disruption\/pdb-blocks-drain/);
  await page.fill('#steps-text', 'w-2');
  assert.equal(await page.locator('#node-steps tbody tr.step').count(), 1);
  await shot(page, 'node-steps');
  assert.deepEqual(errors, []);
  await context.close();
});

each('what-if: the default budget as resolved, points with numbers picked by keyboard, axes with ticks, and a side-by-side comparison', async (screen) => {
  const { page, errors, context } = await open(screen, '?profile=rke');
  // An RKE cluster of two workers: RKE's default is 10% of the pool, at least one.
  await page.setInputFiles('#files', [fixture('plan/detected-profile/cluster.yml'), fixture('plan/detected-profile/nodes.yaml')]);
  await page.waitForFunction(() => /· rke$/.test(document.querySelector('#path')?.textContent ?? ''));
  await page.click('#tab-whatif');
  await page.waitForSelector('#curve circle.point');
  assert.equal(await text(page, '#whatif-budget-value'), '1 (the rke default)');
  const points = await page.locator('#curve circle.point').count();
  assert.equal(await page.locator('#curve text.point-label').count(), points);
  assert.ok(await page.locator('#curve .axis text').count() >= 4, 'axes have ticks');
  const before = await text(page, '#total');
  await page.focus('#curve circle.point[data-concurrency="2"]');
  await page.keyboard.press('Enter');
  // Tried beside the report, not used: the options and the report stay.
  await page.waitForSelector('#whatif-then');
  assert.equal(await page.inputValue('#max-unavailable-worker'), '');
  assert.equal(await text(page, '#total'), before);
  await page.click('#whatif-apply');
  await page.waitForFunction(() => document.querySelector('#max-unavailable-worker')?.value === '2');
  await page.waitForFunction((b) => document.querySelector('#total')?.textContent !== b, before);
  // Compare the current options with every worker at once.
  await page.fill('#compare-workers', '1');
  await page.click('#compare-run');
  await page.waitForSelector('#comparison');
  assert.equal(await text(page, '#compare-other'), 'maxUnavailableWorker=1');
  const rows = await page.$$eval('table.compare tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.equal(rows[2][0], 'Plan');
  assert.notEqual(rows[2][1], rows[2][2], 'the plans differ');
  // Two workers at once is the whole pool (a warning), one at a time is not.
  assert.match(await text(page, '#only-current'), /warning budget\/limit-covers-pool/);
  await shot(page, 'whatif-compare');
  assert.deepEqual(errors, []);
  await context.close();
});

each('the last inputs are kept in this browser: a reload opens them, not the demo; Forget deletes them', async (screen) => {
  const { page, errors, context } = await open(screen);
  await page.setInputFiles('#files', [fixture('e2e/upgraded-control-plane.yaml')]);
  await page.waitForSelector('#kept');
  assert.match(await text(page, '#kept'), /^Kept in this browser since \d{4}-\d\d-\d\d \d\d:\d\d UTC \(IndexedDB, never sent anywhere\)/);
  await page.reload();
  await page.waitForSelector('#notice');
  assert.match(await text(page, '#notice span'), /^Opened your last inputs, kept in this browser since .* UTC \(never sent anywhere\)/);
  await page.waitForFunction(() => /^Your inputs: 1 input\(s\), 1 object\(s\)/.test(document.querySelector('#loaded')?.textContent ?? ''));
  await page.waitForSelector('#auto-target');
  assert.equal(await page.locator('.demo-badge').count(), 0);
  await page.click('#forget');
  await page.waitForFunction(() => /^Forgotten/.test(document.querySelector('#notice span')?.textContent ?? ''));
  assert.equal(await page.locator('#kept').count(), 0);
  await page.reload();
  await page.waitForSelector('.demo-badge');
  assert.equal(await page.locator('#kept').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('laptop: an OpenShift update its own tooling refuses: BLOCKED on the platform gate, the plan stops before it starts, the current version from the ClusterVersion', async () => {
  const { page, errors, context } = await open('laptop', '?profile=openshift&to=4.11.0');
  // The seed's example: 4.10.22 in fast-4.11, where 4.11.0 is supported but not recommended (RPMOSTreeTimeout).
  await page.setInputFiles('#files', [fixture('rules/platform/update-not-recommended/fail-seed-rpmostree-timeout/cluster.json')]);
  await page.waitForFunction(() => /^4\.10\.22 \(Kubernetes 1\.23\) → 4\.11\.0 \(Kubernetes 1\.24\) · openshift$/.test(document.querySelector('#path')?.textContent ?? ''));
  await verdictIs(page, 'BLOCKED');
  assert.match(await text(page, '#from-source'), /^ClusterVersion: status\.desired\.version of ClusterVersion version/);
  assert.match(await text(page, '#total'), /then it stops$/);
  assert.match(await text(page, '#down'), /^0/);
  await page.click('#tab-findings');
  await page.waitForSelector('#findings li.finding[data-code="platform/update-not-recommended"]');
  await page.click('#tab-plan');
  await page.waitForSelector('#plan-stops li.stop[data-code="platform/update-not-recommended"]');
  assert.match(await text(page, '#plan-stops'), /\(preconditions of hop 4\.11\.0\): 4\.11\.0 is a supported but not recommended update/);
  await shot(page, 'openshift-refused');
  assert.deepEqual(errors, []);
  await context.close();
});

each('one story past a stop: the drain the findings say fails is where the plan stops, the downtime says partial, the plan if resolved beside it, and the drain flags in the options and the URL', async (screen) => {
  const { page, errors, context } = await open(screen, '?to=1.29.2');
  // kubeadm: a budget holds db back on w-1, so `kubectl drain w-1` waits for ever; w-2 is never reached.
  await page.setInputFiles('#files', [fixture('plan/kubeadm-drain-waits-for-ever/cluster.yaml')]);
  await checkedIs(page, 'BLOCKED');
  assert.match(await text(page, '#total'), /then it stops$/);
  assert.match(await text(page, '#down'), /^0 so far \(partial: 1 node\(s\) past the stop not simulated\)/);
  assert.match(await text(page, '#if-resolved-fact'), /^11m15s, 1 workload\(s\) down, 1 finding\(s\) more or changed$/);
  await page.click('#tab-plan');
  await page.waitForSelector('#plan-stops li.stop[data-code="disruption/pdb-blocks-drain"]');
  assert.match(await text(page, '#drain-assumed'), /^Drain assumed: kubectl drain, without --force, without --delete-emptydir-data, waiting on PodDisruptionBudgets\./);
  assert.match(await text(page, '#not-simulated'), /1 node\(s\) past the stop were never simulated.*: w-2\.$/);
  assert.match(await text(page, '#lifted'), /disruption\/pdb-blocks-drain: each PodDisruptionBudget that allows no disruption allows one/);
  assert.match(await text(page, '#if-resolved-plan'), /^Plan: 11m15s, 3 node step\(s\), complete; 0 blocker\(s\), 4 warning\(s\), 0 info\.$/);
  assert.match(await text(page, '#revealed'), /disruption\/single-replica: Deployment shop\/db runs a single replica/);
  assert.match(await text(page, '#resolved-down'), /Deployment shop\/db: 2m00s/);
  assert.ok(await noSideways(page));
  await page.click('#tab-downtime');
  assert.match(await text(page, '#downtime-partial'), /^Partial: the plan stops, and 1 node\(s\) past the stop were never simulated.*Once the blockers that stop it are resolved: 1 workload\(s\) down/);
  assert.match(await text(page, '#no-downtime'), /before the plan stops; past the stop nothing was simulated/);
  await shot(page, `partial-${screen}`);

  // A pod with no controller: `kubectl drain` without --force refuses it, and the plan stops on its node.
  await page.setInputFiles('#files', [fixture('rules/disruption/unmanaged-pod/fail-debug-shell/cluster.yaml')]);
  await page.click('#tab-plan');
  await page.waitForFunction(() => /kubectl drain refuses debug-shell/.test(document.querySelector('#plan-stops')?.textContent ?? ''));
  assert.match(await text(page, '#drain-force'), /default \(off\)/);
  // --force set in the options: the drain deletes the pod, a warning, and the plan completes (no blocker;
  // the snapshot reads no webhook, APIService, CRD or Helm release, so INCOMPLETE, not READY).
  await page.selectOption('#drain-force', 'on');
  await page.waitForFunction(() => /^INCOMPLETE/.test(document.querySelector('#verdict')?.textContent ?? ''));
  assert.equal(await page.locator('#plan-stops').count(), 0);
  assert.match(await text(page, '#drain-assumed'), /kubectl drain, with --force, without --delete-emptydir-data/);
  assert.match(new URL(page.url()).search, /[?&]drainForce=on(&|$)/);
  await context.close();

  // The flag as a link gives it (`true` as a user may type it).
  const again = await open(screen, '?to=1.29.2&drainForce=true&drainDeleteLocalData=false');
  assert.equal(await again.page.inputValue('#drain-force'), 'on');
  assert.equal(await again.page.inputValue('#drain-delete-local-data'), 'off');
  assert.deepEqual([...errors, ...again.errors], []);
  await again.context.close();
});

each('a file picked by name that cannot be read leaves the verdict INCOMPLETE, never READY, and says which', async (screen) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-unreadable-'));
  const broken = path.join(dir, 'broken.yaml');
  fs.writeFileSync(broken, 'apiVersion: v1\nkind: Pod\nmetadata: {name: x\n');
  const { page, errors, context } = await open(screen, '?to=1.29.2');
  // Read alone, with the families it cannot feed skipped by choice, the cluster is READY (a warning); beside
  // a file that cannot be parsed it is not.
  const skip = 'budgets,admission-webhooks,admission-policies,aggregated-apis,custom-resources,helm-charts';
  await page.fill('#skip', skip);
  await page.dispatchEvent('#skip', 'change');
  await page.setInputFiles('#files', [fixture('plan/downtime-statefulset-grace/cluster.yaml'), broken]);
  await verdictIs(page, 'INCOMPLETE');
  assert.match(await text(page, '#incomplete-unreadable'), /^No blocker among what was read, but 1 input\(s\) you picked could not be read, so the report does not cover them: broken\.yaml \(not Kubernetes YAML or JSON: .*\)\. This is not a pass\.$/);
  await page.setInputFiles('#files', [fixture('plan/downtime-statefulset-grace/cluster.yaml')]);
  await verdictIs(page, 'READY');
  assert.equal(await page.locator('#incomplete-unreadable').count(), 0);
  // The families skipped are said on the card, and travel in the link.
  assert.match(await text(page, '#not-checked summary'), /Helm charts \(skipped\)/);
  assert.match(new URL(page.url()).search, /[?&]skip=budgets%2Cadmission-webhooks%2Cadmission-policies/);
  // Without the skip, the same cluster is INCOMPLETE, and the card names what stands on nothing.
  await page.fill('#skip', '');
  await page.dispatchEvent('#skip', 'change');
  await verdictIs(page, 'INCOMPLETE');
  assert.match(await text(page, '#incomplete-families'), /6 family\(ies\) of checks in scope stand on nothing: budgets \(not read\), admission webhooks \(not read\)/);
  fs.rmSync(dir, { recursive: true });
  assert.deepEqual(errors, []);
  await context.close();
});

// The options a handler asks for are decided by the bridge from what it last asked and was answered, never from
// the render the handler was made in (one made before the load saw the demo's 1.29.2 as already asked: issue #34).
for (const screen of Object.keys(SCREENS)) test(`${screen}: a target typed while the inputs are read is the one checked, and what reading found is listed`, () => typedWhileReading(screen));

async function typedWhileReading(screen) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-typed-'));
  const big = path.join(dir, 'pods.json');
  // Enough pods to be read for a moment (12 MB); the nodes (Kubernetes 1.28) come in a file of their own.
  const pod = (i) => `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p${i}","namespace":"n${i % 50}","ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"r${i % 300}","controller":true}]},"spec":{"nodeName":"w${i % 200}","containers":[{"name":"c","image":"registry.example/app:${i}"}]},"status":{"phase":"Running"}}`;
  const fd = fs.openSync(big, 'w');
  fs.writeSync(fd, '{"apiVersion":"v1","kind":"List","items":[');
  for (let i = 0; i < 60000; i++) fs.writeSync(fd, (i ? ',' : '') + pod(i));
  fs.writeSync(fd, ']}');
  fs.closeSync(fd);
  const { page, errors, context } = await open(screen);
  await verdictIs(page, 'BLOCKED');
  await page.setInputFiles('#files', [fixture('cli/nodes-1.28.yaml'), big]);
  await page.waitForSelector('#cancel');
  // Typed while reading: left alone, the target would be the minor after the cluster's own (1.29).
  await page.fill('#to', '1.29.2');
  await page.dispatchEvent('#to', 'change');
  await page.waitForFunction(() => /→ 1\.29\.2 · kubeadm$/.test(document.querySelector('#path')?.textContent ?? '') && !document.querySelector('#summary')?.classList.contains('stale'), null, { timeout: 120000 })
    .catch(async (e) => {
      // What the page showed, for the failure's message (a screenshot beside the others).
      await shot(page, `typed-${screen}-failed`);
      const state = await page.evaluate(() => ({ path: document.querySelector('#path')?.textContent, stale: document.querySelector('#summary')?.className, loaded: document.querySelector('#loaded')?.textContent, progress: document.querySelector('#progress')?.textContent, notice: document.querySelector('#notice')?.textContent, error: document.querySelector('.error')?.textContent }));
      throw new Error(`${e.message}: ${JSON.stringify(state)}`);
    });
  assert.equal(await page.inputValue('#to'), '1.29.2');
  assert.match(await text(page, '#loaded'), /^Your inputs: 2 input\(s\), 6000\d object\(s\)/);
  fs.rmSync(dir, { recursive: true });
  assert.deepEqual(errors, []);
  await context.close();
}

// axe-core (WCAG 2.0 to 2.2, A and AA) on every view of the dashboard in both themes, with a finding and a node
// opened, and the element's views: no violation at all.
const AXE = fs.readFileSync(path.join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
async function axeViolations(page, where) {
  // Evaluated through the debugger protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(AXE);
  const r = await page.evaluate((tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags } }), WCAG);
  return r.violations.map((v) => `${where}: ${v.id} (${v.impact}) at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

each('axe-core finds no WCAG 2.2 AA violation on any view, in either theme', async (screen) => {
  const { page, errors, context } = await open(screen);
  await verdictIs(page, 'BLOCKED');
  const found = [];
  for (const theme of ['light', 'dark']) {
    await page.selectOption('#theme', theme);
    for (const tab of ['overview', 'findings', 'checks', 'plan', 'downtime', 'whatif', 'inputs', 'rules', 'export']) {
      await page.click(`#tab-${tab}`);
      await page.waitForSelector(`#tab-${tab}[aria-selected="true"]`);
      // Opened once, they stay open across the theme change.
      if (tab === 'findings' && !(await page.$('.finding.open'))) {
        await page.click('.finding-head');
        await page.waitForSelector('.finding.open');
      }
      if (tab === 'plan' && !(await page.$('tr.step.open'))) {
        await page.click('.node-open');
        await page.waitForSelector('tr.step.open');
      }
      found.push(...await axeViolations(page, `${theme} ${tab}`));
    }
  }
  assert.deepEqual(found, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('laptop: a suppressed finding lines up with the others (its tag under the severity, not a column of its own)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-suppressed-'));
  const ingress = (name, annotations) => `apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: ${name}
  namespace: shop
  annotations: ${JSON.stringify(annotations)}
spec:
  backend: {serviceName: web, servicePort: 80}
`;
  const file = path.join(dir, 'ingresses.yaml');
  fs.writeFileSync(file, `${ingress('kept', {})}---\n${ingress('accepted', { 'kube-preflight.io/ignore': 'api/removed', 'kube-preflight.io/ignore-reason': 'moved next sprint' })}`);
  const { page, errors, context } = await open('laptop');
  await verdictIs(page, 'BLOCKED');
  await page.setInputFiles('#files', [file]);
  await page.waitForFunction(() => /^Your inputs: 1 input\(s\), 2 object/.test(document.querySelector('#loaded')?.textContent ?? '') && !document.querySelector('#progress'));
  // No nodes, so no current version to take the next minor from: the target is set.
  await page.fill('#to', '1.29.2');
  await page.dispatchEvent('#to', 'change');
  await page.click('#tab-findings');
  await page.waitForSelector('.finding.suppressed', { timeout: 5000 }).catch(async (e) => { throw new Error(e.message + await page.evaluate(() => document.querySelector('#panel')?.innerText.slice(0, 800))); });
  const columns = await page.evaluate(() => [...document.querySelectorAll('li.finding[data-code="api/removed"] .finding-head')].map((h) => ({
    suppressed: h.closest('.finding').classList.contains('suppressed'),
    code: Math.round(h.querySelector('.code').getBoundingClientRect().left),
    message: Math.round(h.querySelector('.message').getBoundingClientRect().left),
    where: Math.round(h.querySelector('.where').getBoundingClientRect().left),
  })));
  assert.equal(columns.length, 2, JSON.stringify(columns));
  const [a, b] = columns;
  assert.notEqual(a.suppressed, b.suppressed);
  assert.deepEqual({ code: a.code, message: a.message, where: a.where }, { code: b.code, message: b.message, where: b.where });
  fs.rmSync(dir, { recursive: true });
  assert.deepEqual(errors, []);
  await context.close();
});
