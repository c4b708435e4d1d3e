// The portal's script: a file of its own, so that a Content-Security-Policy with no 'unsafe-inline' runs it.
// Without a bundler, the installed package's browser build by its path (a bundler takes `from 'kube-preflight'`).
import init, { check, version } from './node_modules/kube-preflight/browser.mjs';

await init();
const tbody = document.querySelector('#findings tbody');
const cell = (text, cls) => Object.assign(document.createElement('td'), { textContent: text, className: cls || '' });

function run() {
  tbody.replaceChildren();
  try {
    const report = check([{ name: 'pasted.yaml', content: document.getElementById('input').value }], { to: document.getElementById('to').value });
    document.getElementById('verdict').textContent =
      `${report.summary.verdict.toUpperCase()}: ${report.summary.blocker} blocker(s), ${report.summary.warning} warning(s) (kube-preflight ${version()}, ${report.upgrade.from ?? 'unknown'} → ${report.upgrade.to})`;
    for (const f of report.findings) {
      const tr = document.createElement('tr');
      tr.dataset.code = f.code;
      tr.append(cell(f.severity, f.severity), cell(f.code), cell(f.message), cell(f.help));
      tbody.append(tr);
    }
  } catch (e) {
    // e.code is "input" (with e.file, e.line, e.column) or "options" (with e.field).
    document.getElementById('verdict').textContent = `Cannot check: ${e.message}`;
  }
}
document.getElementById('run').addEventListener('click', run);
run();
  
