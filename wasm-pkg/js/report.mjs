// <kube-preflight-report>: a report shown with the dashboard's own views (verdict, findings with their
// filters, the plan's timeline and replay, downtime), compiled from the same Yew components, in a shadow
// root styled by the dashboard's stylesheet. Give it a report (`el.report = report`, or the `report`
// attribute as JSON), or inputs and options (`el.inputs`, `el.options`) to check in a worker
// (`checkInWorker`). Themable by the dashboard's CSS custom properties (`--accent`, `--bg`, `--fg`, ...);
// no request leaves the page but those for its own `.wasm` files.
import initView, { mountReport } from './report/kube_preflight_element.js';
import css from './report/style.mjs';
import { checkInWorker } from './browser.mjs';

let viewReady;
/** Load the view's WebAssembly once (next to its glue unless given a URL, bytes or a Module). */
export function initReport(input) {
  viewReady ??= initView(input === undefined ? undefined : { module_or_path: input }).catch((e) => {
    viewReady = undefined;
    throw e;
  });
  return viewReady;
}

// Importing this module where there is no DOM (server-side rendering) defines nothing.
const Base = typeof HTMLElement === 'undefined' ? class {} : HTMLElement;

export class KubePreflightReport extends Base {
  static observedAttributes = ['report'];
  #view;
  #mount;
  #report;
  #inputs;
  #options;
  #worker;
  #abort;
  #shown = 0;

  constructor() {
    super();
    const shadow = this.attachShadow({ mode: 'open' });
    // A constructed stylesheet: allowed under a Content-Security-Policy without 'unsafe-inline' styles.
    // Where there is none (jsdom, which a plugin's unit tests run in), a <style> in the shadow root.
    if (typeof CSSStyleSheet === 'function' && typeof CSSStyleSheet.prototype.replaceSync === 'function' && 'adoptedStyleSheets' in shadow) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      shadow.adoptedStyleSheets = [sheet];
    } else {
      const style = document.createElement('style');
      style.textContent = css;
      shadow.append(style);
    }
    this.#view = document.createElement('div');
    this.#view.setAttribute('part', 'view');
    shadow.append(this.#view);
  }

  /** The report shown (as `check` returns it). */
  get report() {
    return this.#report;
  }

  set report(report) {
    this.#abort?.abort();
    this.#show(report);
  }

  /** Inputs to check in a worker (as `checkInWorker` takes them), with `options`. */
  get inputs() {
    return this.#inputs;
  }

  set inputs(inputs) {
    this.#inputs = inputs;
    this.#check();
  }

  get options() {
    return this.#options;
  }

  /**
   * Makes the worker that checks `inputs` (as `checkInWorker`'s `worker` option): needed where the bundler
   * does not see `new Worker(new URL('./worker.mjs', import.meta.url))` (esbuild, Rollup).
   */
  get worker() {
    return this.#worker;
  }

  set worker(make) {
    this.#worker = typeof make === 'function' ? make : undefined;
  }

  set options(options) {
    this.#options = options;
    this.#check();
  }

  attributeChangedCallback(name, _old, value) {
    if (name !== 'report' || value === null) return;
    let report;
    try {
      report = JSON.parse(value);
    } catch (e) {
      this.#fail(new Error(`kube-preflight-report: the report attribute is not JSON: ${e.message}`));
      return;
    }
    this.report = report;
  }

  disconnectedCallback() {
    this.#abort?.abort();
    this.#mount?.destroy();
    this.#mount = undefined;
  }

  connectedCallback() {
    if (this.#report && !this.#mount) this.#show(this.#report);
  }

  #check() {
    if (!this.#inputs || !this.#options) return;
    this.#abort?.abort();
    const abort = new AbortController();
    this.#abort = abort;
    this.setAttribute('aria-busy', 'true');
    checkInWorker(this.#inputs, this.#options, { signal: abort.signal, worker: this.#worker }).then(
      (report) => {
        if (!abort.signal.aborted) this.#show(report);
      },
      (e) => {
        if (!abort.signal.aborted) this.#fail(e);
      },
    );
  }

  #show(report) {
    this.#report = report;
    const shown = ++this.#shown;
    initReport().then(
      () => {
        if (shown !== this.#shown || !this.isConnected) return;
        this.#mount?.destroy();
        this.#mount = undefined;
        this.#view.replaceChildren();
        this.#mount = mountReport(this.#view, JSON.stringify(report));
        this.removeAttribute('aria-busy');
        this.dispatchEvent(new CustomEvent('report', { detail: report, bubbles: true }));
      },
      (e) => this.#fail(e),
    );
  }

  #fail(e) {
    this.removeAttribute('aria-busy');
    this.#mount?.destroy();
    this.#mount = undefined;
    const p = document.createElement('p');
    p.className = 'error';
    p.setAttribute('role', 'alert');
    p.textContent = `Cannot show the report: ${e?.message ?? e}`;
    this.#view.replaceChildren(p);
    this.dispatchEvent(new CustomEvent('error', { detail: e, bubbles: true }));
  }
}

if (typeof customElements !== 'undefined' && !customElements.get('kube-preflight-report')) {
  customElements.define('kube-preflight-report', KubePreflightReport);
}
