// <kube-preflight-report>: importing `kube-preflight/report` defines the element.
import type { InputContent, Report, UpgradeOptions } from './index.mjs';

/** Load the element's WebAssembly (next to its glue unless given a URL, bytes or a compiled module). */
export function initReport(input?: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<unknown>;

export class KubePreflightReport extends HTMLElement {
  /** The report shown (as `check` returns it); setting it shows it. */
  report: Report | undefined;
  /** Inputs to check in a worker, with `options`: once both are set, the report is checked and shown. */
  inputs: Array<{ name: string; content: InputContent } | (Blob & { name: string })> | undefined;
  options: UpgradeOptions | undefined;
  /**
   * Makes the worker that checks `inputs`, as `checkInWorker`'s `worker` option: needed with esbuild and
   * Rollup, which do not bundle `new Worker(new URL(...))` (build `kube-preflight/worker` as an entry).
   */
  worker: (() => Worker) | undefined;
  addEventListener<K extends keyof KubePreflightReportEventMap>(type: K, listener: (this: KubePreflightReport, ev: KubePreflightReportEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof KubePreflightReportEventMap>(type: K, listener: (this: KubePreflightReport, ev: KubePreflightReportEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

/** What `finding-open` says: the finding's index in `report.findings` and what names it. */
export interface FindingOpenDetail {
  index: number;
  code: string;
  severity: string;
  message: string;
  object: { apiVersion: string; kind: string; namespace: string | null; name: string } | null;
  file: string | null;
  line: number | null;
}

/** What `node-open` says: the plan step's index in `report.plan.steps` and its node. */
export interface NodeOpenDetail {
  index: number;
  node: string;
  pool: string | null;
  hop: string | null;
  phase: string;
  startSeconds: number;
  endSeconds: number;
}

/** The element's events (all bubble; the two `-open` ones are composed). */
export interface KubePreflightReportEventMap extends Omit<HTMLElementEventMap, 'error'> {
  /** A report is shown. */
  report: CustomEvent<Report>;
  /** A report cannot be shown (checking failed, or the view could not load). */
  error: CustomEvent<unknown>;
  /** A finding was opened (from the list, the overview or a link). */
  'finding-open': CustomEvent<FindingOpenDetail>;
  /** A node of the plan was opened. */
  'node-open': CustomEvent<NodeOpenDetail>;
}

/** The element's properties as JSX takes them (React 19's `JSX.IntrinsicElements`). */
export interface KubePreflightReportAttributes {
  report?: Report | string;
  inputs?: KubePreflightReport['inputs'];
  options?: UpgradeOptions;
  worker?: () => Worker;
  'data-theme'?: 'light' | 'dark';
  id?: string;
  class?: string;
  className?: string;
  style?: unknown;
  ref?: unknown;
  key?: string | number;
  children?: never;
  /** React 19 listens on a custom element for the event named by what follows `on`, as written: `onreport`
   * for `report` (an `onReport` would listen for `Report`, which is never sent). */
  onreport?: (e: CustomEvent<Report>) => void;
  onerror?: (e: CustomEvent<unknown>) => void;
  'onfinding-open'?: (e: CustomEvent<FindingOpenDetail>) => void;
  'onnode-open'?: (e: CustomEvent<NodeOpenDetail>) => void;
}

declare global {
  interface HTMLElementTagNameMap {
    'kube-preflight-report': KubePreflightReport;
  }
}

// React 19's JSX (`React.JSX.IntrinsicElements`): `<kube-preflight-report report={report} />` type-checks in
// TSX. An augmentation of `react`'s own types: where they are not installed it declares nothing usable.
declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'kube-preflight-report': KubePreflightReportAttributes;
    }
  }
}
