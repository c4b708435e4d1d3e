// `cargo xtask bench`'s measures inside Node: `node wasm.mjs <pkg dir> <file> parse|check`.
// - parse: V8's JSON.parse of the file's text (read and decoded first, not timed), the reference for the CLI;
// - check: the npm package's check() on the file's bytes twice in one process (the first call and the
//   second), after a warm-up on a small input.
// Prints one JSON line.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const [pkg, file, mode] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const bytes = fs.readFileSync(file);
const now = () => Number(process.hrtime.bigint()) / 1e9;
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
