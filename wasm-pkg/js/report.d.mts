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
}

declare global {
  interface HTMLElementTagNameMap {
    'kube-preflight-report': KubePreflightReport;
  }
}
