// `kube-preflight/worker`: the module worker of `checkInWorker` and of `<kube-preflight-report>`. Built as an
// entry of your own where the bundler does not bundle it on its own (esbuild, Rollup), then given as
// `worker: () => new Worker(url, { type: 'module' })`. It exports nothing: it answers the messages the
// page's `checkInWorker` sends.
export {};
