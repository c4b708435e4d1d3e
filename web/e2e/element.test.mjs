// <kube-preflight-report> from the packed tarball: in a plain page under a strict Content-Security-Policy
// (a report, then inputs checked in its worker), and in a Vite React app built from the README's snippet;
// by keyboard, themed from outside, with no request to any other host.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { snippet } from '../../wasm-pkg/test/helpers.mjs';
import { installApp, launch, packTarball, recordingPage, root, serve, shots } from './helpers.mjs';

// The policy the README gives for the element: no 'unsafe-inline' (its stylesheet is a constructed one and it
// sets no style attribute); its worker and its .wasm from the page's own origin.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; worker-src 'self'; connect-src 'self'; img-src 'self' data:";

let tarball;
let browser;
let demoReport;

before(async () => {
  tarball = packTarball();
  const cli = spawnSync(process.execPath, [path.join(root, 'wasm-pkg/pkg/bin/kube-preflight.cjs'), 'check', path.join(root, 'tests/fixtures/demo'), '--to', '1.29.2', '--format', 'json'], { encoding: 'utf8' });
  demoReport = cli.stdout;
  assert.equal(JSON.parse(demoReport).summary.verdict, 'blocked');
  fs.mkdirSync(shots, { recursive: true });
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** A fresh project from the tarball, with the demo's report beside it. */
function project(name, tools) {
  const dir = installApp(name, tarball, tools);
  fs.writeFileSync(path.join(dir, 'report.json'), demoReport);
  return dir;
}

/** Serve `dir` under `csp`, open it; every request is recorded. */
async function open(dir, csp) {
  const server = await serve(dir, { headers: () => ({ 'content-security-policy': csp }) });
  const { page, seen } = await recordingPage(browser, server.origin);
  await page.goto(`${server.origin}/`);
  return { page, seen, close: async () => { await page.close(); server.close(); } };
}

test('a plain page under a strict CSP: the report, its tabs by keyboard, a theme from outside; then inputs checked in its worker', async () => {
  const dir = project('element-plain', []);
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html lang="en"><meta charset="utf-8"><link rel="icon" href="data:,"><title>portal</title><link rel="stylesheet" href="./portal.css"><body><h1>Portal</h1><script type="module" src="./main.js"></script></body>\n');
  fs.writeFileSync(path.join(dir, 'main.js'), `import './node_modules/kube-preflight/report.mjs';
const report = await (await fetch('./report.json')).json();
const view = document.createElement('kube-preflight-report');
view.id = 'view';
// Heard on the document: \`report\` bubbles, as the types say every event does.
document.addEventListener('report', (e) => { if (e.target === view) document.body.dataset.shown = String(Number(document.body.dataset.shown || 0) + 1); });
view.addEventListener('finding-open', (e) => { document.body.dataset.opened = \`\${e.detail.code} \${view.report.findings[e.detail.index].message === e.detail.message}\`; });
view.addEventListener('node-open', (e) => { document.body.dataset.node = \`\${e.detail.node} \${view.report.plan.steps[e.detail.index].node === e.detail.node}\`; });
view.report = report;
document.body.append(view);
window.checkInputs = async () => {
  const nodes = await (await fetch('./nodes.yaml')).text();
  // Two nodes alone: the families they cannot feed are left out by choice, so the run may be ready.
  view.options = { to: '1.30.1', skip: ['drains', 'budgets', 'admission-webhooks', 'admission-policies', 'aggregated-apis', 'custom-resources', 'helm-charts'] };
  view.inputs = [new File([nodes], 'nodes.yaml')];
};
`);
  // The portal styles the element's parts from outside.
  fs.writeFileSync(path.join(dir, 'portal.css'), 'kube-preflight-report::part(verdict) { outline: 3px solid rgb(9, 8, 7); }\nkube-preflight-report::part(tab-selected) { text-decoration-color: rgb(4, 5, 6); }\n');
  fs.copyFileSync(path.join(root, 'tests/fixtures/cli/nodes-1.28.yaml'), path.join(dir, 'nodes.yaml'));
  const { page, seen, close } = await open(dir, CSP);
  try {
    await page.waitForSelector('body[data-shown="1"]', { timeout: 20000 });
    // The dashboard's verdict card and counts, inside the element's shadow root.
    assert.equal(await page.textContent('kube-preflight-report #verdict'), 'BLOCKED');
    assert.match(await page.textContent('kube-preflight-report .counts'), /8 blocker\(s\)/);
    // By keyboard: focus the Findings tab, Enter opens its view; the first finding opens with Enter too.
    await page.focus('kube-preflight-report #tab-findings');
    await page.keyboard.press('Enter');
    await page.waitForSelector('kube-preflight-report .finding');
    // The arrow keys move the selection, and the focus follows it inside the shadow root.
    const focused = () => page.$eval('kube-preflight-report', (el) => [el.shadowRoot.activeElement?.id, el.shadowRoot.activeElement?.getAttribute('aria-selected')].join(' '));
    await page.keyboard.press('ArrowRight');
    assert.equal(await focused(), 'tab-checks true');
    await page.keyboard.press('End');
    assert.equal(await focused(), 'tab-downtime true');
    await page.keyboard.press('Home');
    assert.equal(await focused(), 'tab-overview true');
    await page.keyboard.press('ArrowRight');
    assert.equal(await focused(), 'tab-findings true');
    await page.waitForSelector('kube-preflight-report .finding');
    assert.equal(await page.locator('kube-preflight-report .finding').count() >= 20, true);
    await page.focus('kube-preflight-report .finding-head');
    await page.keyboard.press('Enter');
    await page.waitForSelector('kube-preflight-report .finding.open .finding-details');
    // The page hears which finding was opened, with its place in the report (for a deep link).
    assert.match(await page.getAttribute('body', 'data-opened'), /^[a-z-]+\/[a-z-]+ true$/);
    // The plan's timeline and the downtime views render from the same report.
    await page.click('kube-preflight-report #tab-checks');
    await page.waitForSelector('kube-preflight-report #checks tr.check');
    await page.click('kube-preflight-report #tab-plan');
    await page.waitForSelector('kube-preflight-report svg');
    await page.click('kube-preflight-report .node-open');
    assert.match(await page.getAttribute('body', 'data-node'), /^\S+ true$/);
    // Parts styled by the page's own stylesheet.
    assert.equal(await page.$eval('kube-preflight-report', (el) => getComputedStyle(el.shadowRoot.querySelector('[part~="verdict"]')).outlineColor), 'rgb(9, 8, 7)');
    assert.equal(await page.$eval('kube-preflight-report', (el) => getComputedStyle(el.shadowRoot.querySelector('[part~="tab-selected"]')).textDecorationColor), 'rgb(4, 5, 6)');
    await page.click('kube-preflight-report #tab-downtime');
    assert.match(await page.textContent('kube-preflight-report #panel'), /prometheus/);
    // Themed from outside through the custom properties; the page's own styles stay out.
    await page.evaluate(() => document.getElementById('view').style.setProperty('--bg', 'rgb(1, 2, 3)'));
    assert.equal(await page.$eval('kube-preflight-report', (el) => getComputedStyle(el.shadowRoot.querySelector('.kp-report')).backgroundColor), 'rgb(1, 2, 3)');
    await page.screenshot({ path: path.join(shots, 'element.png'), fullPage: true });
    // axe-core (WCAG 2.2 AA, which sees into shadow roots) on each of its views, in both themes.
    const axe = fs.readFileSync(path.join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
    const found = [];
    // The element's own palettes (the test's --bg from outside, a near-black, taken off).
    await page.evaluate(() => document.getElementById('view').style.removeProperty('--bg'));
    for (const theme of ['light', 'dark']) {
      await page.evaluate((t) => document.getElementById('view').setAttribute('data-theme', t), theme);
      for (const tab of ['overview', 'findings', 'checks', 'plan', 'downtime']) {
        await page.click(`kube-preflight-report #tab-${tab}`);
        await page.waitForSelector(`kube-preflight-report #tab-${tab}[aria-selected="true"]`);
        await page.evaluate(axe);
        const r = await page.evaluate(() => window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } }));
        found.push(...r.violations.map((v) => `${theme} ${tab}: ${v.id} at ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(', ')}`));
      }
    }
    await page.evaluate(() => document.getElementById('view').removeAttribute('data-theme'));
    assert.deepEqual(found, []);
    // Inputs and options: checked in the element's worker, then shown.
    await page.evaluate(() => window.checkInputs());
    await page.waitForSelector('body[data-shown="2"]', { timeout: 20000 });
    assert.equal(await page.textContent('kube-preflight-report #verdict'), 'READY');
    assert.deepEqual(seen.failed, []);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.foreign, [], 'no request to any other host');
  } finally {
    await close();
  }
});

test('a Vite React app: the README\'s element snippet in a component', async () => {
  const dir = project('element-react', ['vite', 'react', 'react-dom']);
  // The README's lines, as a React component's effect would run them.
  const lines = snippet('element').replace("import 'kube-preflight/report';\n", '');
  fs.writeFileSync(path.join(dir, 'main.jsx'), `import React, { useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import 'kube-preflight/report';

function Preflight({ report }) {
  const host = useRef(null);
  useEffect(() => {
    const body = { append: (el) => host.current.append(el) };
    const document = { createElement: (t) => window.document.createElement(t), body };
    let view;
    (() => {
${lines.split('\n').map((l) => `      ${l}`).join('\n').replace('const view =', 'view =')}
    })();
    view.addEventListener('report', () => { window.document.body.dataset.shown = '1'; });
    return () => view.remove();
  }, [report]);
  return <section ref={host} aria-label="Preflight" />;
}

const report = await (await fetch('./report.json')).json();
createRoot(window.document.getElementById('root')).render(<Preflight report={report} />);
`);
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>portal</title><div id="root"></div><script type="module" src="./main.jsx"></script>\n');
  const vite = await import(pathToFileURL(path.join(dir, 'node_modules/vite/dist/node/index.js')));
  await vite.build({ root: dir, logLevel: 'silent', configFile: false, publicDir: false, build: { target: 'es2022' } });
  fs.copyFileSync(path.join(dir, 'report.json'), path.join(dir, 'dist/report.json'));
  const { page, seen, close } = await open(path.join(dir, 'dist'), CSP);
  try {
    await page.waitForSelector('body[data-shown="1"]', { timeout: 20000 }).catch((e) => assert.fail(`${e.message}\n${JSON.stringify(seen)}`));
    assert.equal(await page.textContent('kube-preflight-report #verdict'), 'BLOCKED');
    assert.deepEqual(seen.failed, []);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.foreign, []);
  } finally {
    await close();
  }
});
