// `kube-preflight/wasm` and `kube-preflight/report/wasm`: the URL of a WebAssembly file of the package, as a
// bundler gives an imported asset (esbuild's `file` loader, Rollup's `@rollup/plugin-url`, Vite's `?url`).
// Give it to `init` (the checker's) or `initReport` (the element's).

/** The URL the bundler emitted the `.wasm` file at. */
declare const url: string;
export default url;
