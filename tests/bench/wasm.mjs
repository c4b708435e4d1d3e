// `cargo xtask bench`'s measures inside Node: `node wasm.mjs <pkg dir> <file> parse|check|stages [checks]`.
// - parse: V8's JSON.parse of the file's text (read and decoded first, not timed), the reference for the CLI;
// - check: the npm package's check() on the file's bytes twice in one process (the first call and the
//   second), after a warm-up on a small input;
// - stages: where the time of one check goes in WebAssembly (the package's bench-only `BenchStages`): the
//   file in 1 MiB chunks through our JSON reader alone (trees dropped), then through a session (reading:
//   parse + build objects), then the stages after reading as the core marks them (the mean of `checks`
//   checks of the objects read). The file is streamed,
//   never held: 150,000 pods (2.9 GB) fit.
// Prints one JSON line.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const [pkg, file, mode, checksArg] = process.argv.slice(2);
// stages: how many checks of the objects read the stages after reading are the mean of (a block of the same
// work at every size: the bench's `block_of`).
const checks = Number(checksArg ?? 1);
const require = createRequire(import.meta.url);
const now = () => Number(process.hrtime.bigint()) / 1e9;
if (mode === 'stages') {
  const glue = require(path.resolve(pkg, 'node', 'kube_preflight_wasm.js'));
  const buf = Buffer.allocUnsafe(1 << 20);
  // Seconds spent in push() over the whole file, chunk by chunk (reading the file itself not counted).
  const pushAll = (b) => {
    const fd = fs.openSync(file, 'r');
    let spent = 0;
    try {
      for (;;) {
        const n = fs.readSync(fd, buf, 0, buf.length, null);
        if (n === 0) break;
        const t = now();
        b.push(buf.subarray(0, n));
        spent += now() - t;
      }
    } finally {
      fs.closeSync(fd);
    }
    return spent;
  };
  const p = new glue.BenchStages(path.basename(file), '1.29.2', true);
  let parse = pushAll(p);
  let t = now();
  p.finish(1);
  parse += now() - t;
  const s = new glue.BenchStages(path.basename(file), '1.29.2', false);
  let read = pushAll(s);
  t = now();
  const after = JSON.parse(s.finish(checks));
  // finish() also ended the reading (the last object, the inventory): counted with it.
  read += now() - t - after.seconds;
  // Each row: [stage, seconds (the mean of the checks), the WebAssembly memory's size after it in MB] (the
  // first, "read", takes 0 s).
  console.log(JSON.stringify({ parse_s: parse, read_s: read, checks: after.checks, stages: after.rows }));
  process.exit(0);
}
const bytes = fs.readFileSync(file);
if (mode === 'parse') {
  const text = bytes.toString('utf8');
  const t = now();
  JSON.parse(text);
  console.log(JSON.stringify({ parse_s: now() - t }));
} else {
  const api = require(path.resolve(pkg, 'index.cjs'));
  const opts = { to: '1.29.2' };
  api.check([{ name: 'warm.json', content: '{"kind":"List","items":[]}' }], opts);
  const times = [];
  for (let i = 0; i < 2; i++) {
    const t = now();
    api.check([{ name: path.basename(file), content: bytes }], opts);
    times.push(now() - t);
  }
  console.log(JSON.stringify({ first_s: times[0], second_s: times[1] }));
}
