#!/usr/bin/env node
'use strict';
// The kube-preflight command line (CONTRACT section 2). Reads files, hands them to the wasm core, writes
// the rendered report and exits 0 (nothing at or above --fail-on), 1 (something), 3 (incomplete: a family
// of checks in scope was not read, not simulated or unreadable) or 2 (usage, options or input error,
// explained on stderr; nothing written to stdout or --output).

const fs = require('node:fs');
const path = require('node:path');
const api = require('../index.cjs');
const live = require('./snapshot.cjs');

const USAGE = `Usage:
  kube-preflight check [options] <path|->...
  kube-preflight check --context <name> [options] [<path|->...]
  kube-preflight snapshot [--context <name>] [--kubeconfig <file>] [--chunk-size <n>] [-o <file>]
  kube-preflight mcp
  kube-preflight rules [--format json|markdown]
  kube-preflight --version | --help

snapshot: reads the live cluster through your own kubectl (oc on OpenShift where installed), with your
credentials and permissions: every kind the checks read, listed in pages, into one JSON file (default
stdout) that says when and from which context it was taken, what was listed, what the API refused you
(403: not visible to you) and what this cluster does not serve (404). Secrets: only Helm's release
records (label owner=helm), and only their release data.
  --context <name>                        the kubeconfig context (default: the current one)
  --kubeconfig <file>                     the kubeconfig (default: kubectl's own, KUBECONFIG)
  --chunk-size <n>                        items a page (default 500, as kubectl's)
  -o, --output <file>                     where the snapshot goes (default stdout)

mcp: serves the Model Context Protocol over stdio, for agents (needs the optional dependency
@modelcontextprotocol/sdk: npm install @modelcontextprotocol/sdk).

check options:
  --context <name>, --kubeconfig <file>   take a snapshot of the live cluster first (as snapshot does) and
                                          check it with the paths given, in one run; --chunk-size too
  --to <version>                          target version (required unless --config gives it)
  --from <version>                        current version (default: inferred from control-plane nodes)
  --profile <name>                        kubeadm | rke | rke-legacy | kops | openshift | gke-baremetal
  --max-unavailable-worker <n|n%>
  --max-unavailable-control-plane <n|n%>
  --max-surge <n|n%>
  --drain | --no-drain
  --drain-force                           the drain deletes pods with no controller (kubectl drain --force)
  --drain-delete-local-data               the drain deletes emptyDir data (--delete-emptydir-data)
  --additional-annotation <key>           an annotation holding the applied manifest (repeatable)
  --skip <family,...>                     leave these families of checks out by choice (repeatable; ids as
                                          in the report's coverage: helm-charts, aggregated-apis, ...):
                                          listed as skipped, they do not make the run incomplete
  --config <file>                         YAML or JSON UpgradeOptions; flags override it
  --baseline <report.json>                a previous --format json report: the findings it holds are
                                          suppressed (kept, counted apart, never failing); new ones count
  --since <report.json>                   the --format json report taken before the upgrade started: a
                                          snapshot taken while it runs is checked against its plan
                                          (progress: done, in progress, stuck, ahead or behind, the end)
  --format <text|json|markdown|sarif|junit|timings>  output format (default text); timings: the step
                                          times this run measured per pool, as a --config file for the
                                          next upgrade's plan
  --output <file>                         write the report there (default stdout)
  --output <format>=<file|->              also write the report in that format (repeatable: one run,
                                          several files; - is stdout, for one of them at most)
  --max-findings <n>                      Markdown lists at most n findings (most severe first) and says
                                          how many it left out (a pull-request comment's size limit)
  --help-uri <url>                        where your team publishes the rule catalogue (kube-preflight rules
                                          --format markdown): SARIF rules link to <url>#<code, / as ->
  --stdin-name <name>                     the name stdin's input is reported under (default <stdin>),
                                          e.g. the file it was piped from, for SARIF and annotations
  --fail-on <blocker|warning|never>       exit 1 when a finding is at or above this (default blocker)
  --allow-empty                           accept inputs with no Kubernetes object (verdict nothing-checked,
                                          exit 0); without it, reading nothing is an input error (exit 2)

Paths: files, directories (walked for .yaml, .yml, .json) or - for stdin.
Exit status: 0 ready, 1 findings at or above --fail-on, 3 incomplete (nothing at or above --fail-on, but
a family of checks in scope was not read, not simulated or unreadable, or the current version is unknown:
not a pass), 2 usage, options or input error. --fail-on never exits 0 whatever the verdict.`;

class UsageError extends Error {}

const VALUE_FLAGS = {
  '--to': 'to',
  '--from': 'from',
  '--profile': 'profile',
  '--max-unavailable-worker': 'maxUnavailableWorker',
  '--max-unavailable-control-plane': 'maxUnavailableControlPlane',
  '--max-surge': 'maxSurge',
  '--additional-annotation': null,
  '--skip': null,
  '--config': null,
  '--baseline': null,
  '--since': null,
  '--help-uri': null,
  '--format': null,
  '--output': null,
  '--fail-on': null,
  '--stdin-name': null,
  '--max-findings': null,
  '--context': null,
  '--kubeconfig': null,
  '--chunk-size': null,
};

function parseArgs(argv) {
  const out = { options: {}, paths: [], format: undefined, output: undefined, outputs: [], failOn: 'blocker', config: undefined, allowEmpty: false };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    if (arg === '-' || !arg.startsWith('-')) {
      out.paths.push(arg);
      continue;
    }
    if (arg === '--') {
      out.paths.push(...argv.slice(i + 1));
      break;
    }
    let value;
    const eq = arg.indexOf('=');
    if (eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    if (arg === '--drain' || arg === '--no-drain') {
      if (value !== undefined) throw new UsageError(`${arg} takes no value`);
      out.options.drain = arg === '--drain';
      continue;
    }
    if (arg === '--allow-empty') {
      if (value !== undefined) throw new UsageError(`${arg} takes no value`);
      out.allowEmpty = true;
      continue;
    }
    if (arg === '--drain-force' || arg === '--drain-delete-local-data') {
      if (value !== undefined) throw new UsageError(`${arg} takes no value`);
      out.options[arg === '--drain-force' ? 'drainForce' : 'drainDeleteLocalData'] = true;
      continue;
    }
    if (!(arg in VALUE_FLAGS)) throw new UsageError(`unknown option ${arg}`);
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value`);
      value = argv[++i];
    }
    const field = VALUE_FLAGS[arg];
    if (arg === '--additional-annotation') (out.options.additionalAnnotations ||= []).push(value);
    else if (arg === '--skip') (out.options.skip ||= []).push(...value.split(',').map((s) => s.trim()).filter((s) => s !== ''));
    else if (field) out.options[field] = value;
    else if (arg === '--config') out.config = value;
    else if (arg === '--baseline') out.baseline = value;
    else if (arg === '--since') out.since = value;
    else if (arg === '--help-uri') {
      let url;
      try {
        url = new URL(value);
      } catch {
        throw new UsageError(`--help-uri ${value}: not an absolute URL`);
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`--help-uri ${value}: not an http(s) URL`);
      out.helpUri = value;
    }
    else if (arg === '--format') out.format = value;
    else if (arg === '--output') {
      const m = /^(text|json|markdown|md|sarif|junit|timings)=(.+)$/.exec(value);
      if (m) out.outputs.push({ format: m[1], path: outputPath(m[2]) });
      else if (out.output !== undefined) throw new UsageError('--output <file> given twice; for several formats, give --output <format>=<file>');
      else out.output = value;
    }
    else if (arg === '--fail-on') out.failOn = value;
    else if (arg === '--max-findings') {
      if (!/^\d{1,9}$/.test(value)) throw new UsageError('--max-findings takes a whole number, 0 or more');
      out.maxFindings = Number(value);
    } else if (arg === '--context' || arg === '--kubeconfig') {
      if (value === '') throw new UsageError(`${arg} needs a non-empty value`);
      out.live = { ...out.live, [arg.slice(2)]: value };
    } else if (arg === '--chunk-size') {
      if (!/^[1-9]\d{0,5}$/.test(value)) throw new UsageError('--chunk-size takes a whole number from 1 to 999999');
      out.chunkSize = Number(value);
    } else if (arg === '--stdin-name') {
      if (value === '') throw new UsageError('--stdin-name needs a non-empty name');
      out.stdinName = value;
    }
  }
  return out;
}

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);
/** A device, pipe or stdin is read up to this many bytes (an endless stream must end); files have no limit.
 * Inputs are streamed in chunks of CHUNK_BYTES: memory follows what the checks keep, not the input. */
const MAX_STREAM_BYTES = 2 ** 30;
const CHUNK_BYTES = 1 << 20;
/** A --config file larger than this is refused. */
const MAX_CONFIG_BYTES = 1 << 20;
/** A --baseline report larger than this is refused. */
const MAX_BASELINE_BYTES = 1 << 28;

/** An Error that the CLI reports as an input (or options, or output) error, naming the path. */
function inputError(message, code = 'input') {
  return Object.assign(new Error(message), { code });
}

/**
 * Text from outside (a file name, a message naming one) as a terminal may show it: the characters that
 * could move the cursor, set a title, colour the screen, add a line or reorder what is read (C0 and C1
 * controls, DEL, line and paragraph separators, the bidirectional marks and overrides) written as visible
 * escapes, as the report's own renderers write them (core/src/render/mod.rs, `printable`).
 */
function term(text) {
  return String(text).replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => ({ '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c] || `\\u{${c.codePointAt(0).toString(16)}}`,
  );
}

/** What went wrong with a path, in words (the errno code kept for the curious). */
function describe(e) {
  const words = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ELOOP: 'a symbolic link loop',
    EISDIR: 'is a folder',
    ENOTDIR: 'not a folder',
    ENOSPC: 'no space left on the device',
    EROFS: 'read-only file system',
    EMFILE: 'too many open files',
  };
  return e && e.code in words ? `${words[e.code]} (${e.code})` : (e && e.message) || String(e);
}

/** A path for messages and reports: file names that are not UTF-8 keep a visible replacement character. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A path as shown and named in the report: its UTF-8 as it is, and each byte that is not UTF-8 as `\xNN`, so
 * that two names that differ only there (`caf\xe8.yaml`, `caf\xe9.yaml`, Latin-1 names) stay two inputs,
 * never one name for both.
 */
function shown(p) {
  if (!Buffer.isBuffer(p)) return p;
  try {
    return strictUtf8.decode(p);
  } catch {
    // Not UTF-8 throughout: decoded character by character below.
  }
  let out = '';
  let i = 0;
  while (i < p.length) {
    let n = 1;
    let ch = null;
    for (; n <= 4 && i + n <= p.length; n++) {
      try {
        ch = strictUtf8.decode(p.subarray(i, i + n));
        break;
      } catch {
        // A character needs more bytes, or this byte starts none.
      }
    }
    if (ch === null) {
      out += `\\x${p[i].toString(16).padStart(2, '0')}`;
      i += 1;
    } else {
      out += ch;
      i += n;
    }
  }
  return out;
}

/** The read buffers, one per size, reused from file to file: a new megabyte per file made 50,000 small
 * files spend most of their time collecting garbage (18 s). Inputs are read one after another. */
const buffers = new Map();

/** The bytes of an open file, device or pipe, in chunks (one buffer, reused: use each before the next). */
function* chunksOf(fd, size) {
  let buf = buffers.get(size);
  if (buf === undefined) {
    buf = Buffer.allocUnsafe(size);
    buffers.set(size, buf);
  }
  for (;;) {
    let n;
    try {
      n = fs.readSync(fd, buf, 0, buf.length, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      if (e.code === 'EOF') return;
      throw e;
    }
    if (n === 0) return;
    yield buf.subarray(0, n);
  }
}

/** Read the --config file (or, with `what`, the --baseline report) whole, up to `limit` bytes. */
function readConfigBytes(p, limit = MAX_CONFIG_BYTES, what = 'the config file', limitName = 'MAX_CONFIG_BYTES') {
  let fd;
  try {
    fd = fs.openSync(p, 'r');
    if (fs.fstatSync(fd).isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
    const chunks = [];
    let total = 0;
    for (const chunk of chunksOf(fd, 1 << 16)) {
      total += chunk.length;
      if (total > limit) {
        throw inputError(`${shown(p)}: more than ${limit >> 20} MiB (${limitName}): not read`, 'options');
      }
      chunks.push(Buffer.from(chunk));
    }
    return Buffer.concat(chunks, total);
  } catch (e) {
    if (e.code === 'options') throw e;
    throw inputError(`${shown(p)}: cannot read ${what}: ${describe(e)}`, 'options');
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Walk a folder: .yaml/.yml/.json files are read; everything else found is listed (`skipped`), never
 * passed over in silence. Symbolic links to folders are followed once (a loop is listed); names that are
 * not UTF-8 are read by their bytes.
 */
function walk(dir, files, seen) {
  // A folder is known by its device and inode (one stat), not its real path: resolving the real path of
  // every folder of a deep tree walks every folder above it again (2,000 nested folders took minutes).
  let real;
  try {
    const st = fs.statSync(dir, { bigint: true });
    real = `${st.dev}:${st.ino}`;
  } catch (e) {
    files.push({ name: shown(dir), content: '', skipped: `cannot be walked: ${describe(e)}` });
    return;
  }
  if (seen.has(real)) {
    files.push({ name: shown(dir), content: '', skipped: 'the same folder as one already walked (through a symbolic link): not walked again', repeat: true });
    return;
  }
  seen.add(real);
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
  } catch (e) {
    files.push({ name: shown(dir), content: '', skipped: `cannot be walked: ${describe(e)}` });
    return;
  }
  const nameOf = (e) => (Buffer.isBuffer(e) ? e : Buffer.isBuffer(e.name) ? e.name : Buffer.from(e.name));
  entries.sort((a, b) => Buffer.compare(nameOf(a), nameOf(b)));
  const sep = Buffer.from(path.sep);
  // `manifests/` names its files `manifests/a.yaml`, not `manifests//a.yaml` (nor the root `//a.yaml`).
  const base = Buffer.isBuffer(dir) ? dir : Buffer.from(dir);
  let end = base.length;
  while (end > 1 && base[end - 1] === sep[0]) end -= 1;
  const parent = end === 1 && base[0] === sep[0] ? Buffer.alloc(0) : base.subarray(0, end);
  for (const entry of entries) {
    // Bun's readdirSync gives the names as Buffers, not Dirents, for these options: each is then looked at.
    let e = entry;
    if (Buffer.isBuffer(entry)) {
      try {
        const st = fs.lstatSync(Buffer.concat([parent, sep, entry]));
        e = { name: entry, isDirectory: () => st.isDirectory(), isFile: () => st.isFile(), isSymbolicLink: () => st.isSymbolicLink() };
      } catch (err) {
        files.push({ name: shown(Buffer.concat([parent, sep, entry])), content: '', skipped: `cannot be read: ${describe(err)}` });
        continue;
      }
    }
    const full = Buffer.concat([parent, sep, Buffer.isBuffer(e.name) ? e.name : Buffer.from(e.name)]);
    const name = e.name.toString('utf8');
    let isDir = e.isDirectory();
    let isFile = e.isFile();
    if (e.isSymbolicLink()) {
      try {
        const st = fs.statSync(full);
        isDir = st.isDirectory();
        isFile = st.isFile();
      } catch (err) {
        files.push({ name: shown(full), content: '', skipped: `a symbolic link that cannot be followed: ${describe(err)}` });
        continue;
      }
    }
    if (isDir) {
      if (!name.startsWith('.') && name !== 'node_modules') walk(full, files, seen);
      else files.push({ name: shown(full) + path.sep, content: '', skipped: 'a hidden folder or node_modules: not walked' });
    } else if (!isFile) {
      files.push({ name: shown(full), content: '', skipped: 'not a regular file (a device, socket or pipe): not read' });
    } else if (EXTENSIONS.has(path.extname(name).toLowerCase())) {
      files.push({ name: shown(full), path: full, discovered: true });
    } else {
      // Nothing found is left out in silence: the report lists it (inventory.skipped).
      files.push({ name: shown(full), content: '', skipped: 'not .yaml, .yml or .json: not read' });
    }
  }
}

/** The inputs to read, in order: `{ name, path, discovered }` (path 0 is stdin) or `{ name, skipped }`. */
function listInputs(paths, stdinName = '<stdin>') {
  const files = [];
  const seen = new Set();
  for (const p of paths) {
    if (p === '-') {
      files.push({ name: stdinName, path: 0 });
      continue;
    }
    let st;
    try {
      st = fs.statSync(p);
    } catch (e) {
      throw inputError(`${p}: ${describe(e)}`);
    }
    if (st.isDirectory()) {
      const before = files.length;
      walk(p, files, seen);
      // A folder named again (itself, or through a link) was read already: not an empty folder.
      const repeat = files.length === before + 1 && files[before].repeat === true;
      if (!repeat && !files.slice(before).some((f) => f.skipped === undefined)) {
        // Never a silent "no findings": a folder with nothing to read is an error, its contents listed.
        const listed = files.slice(before).map((f) => `${f.name} (${f.skipped})`);
        throw inputError(`${p}: no .yaml, .yml or .json file to read in this folder${listed.length ? `; found: ${listed.slice(0, 5).join(', ')}${listed.length > 5 ? ', ...' : ''}` : ''}`);
      }
    } else {
      files.push({ name: p, path: p });
    }
  }
  return readOnce(files);
}

/** An input is read once: the same path named twice, a file inside a folder also given, a symbolic link to
 * a file also given, stdin named twice. Each later naming is listed as passed over, with the first name. */
function readOnce(files) {
  const first = new Map();
  const out = [];
  for (const f of files) {
    if (f.skipped !== undefined) {
      out.push(f);
      continue;
    }
    const id = f.path === 0 ? 'stdin' : identity(f.path) ?? `path:${path.resolve(String(f.path))}`;
    const seen = first.get(id);
    if (seen === undefined) {
      first.set(id, f.name);
      out.push({ ...f, id });
    } else {
      const name = f.name === seen ? `${f.name} (named again)` : f.name;
      out.push({ name, content: '', skipped: `the same file as ${seen}: read once` });
    }
  }
  return out;
}

/**
 * Progress on stderr for inputs that take more than a moment (bytes read, objects so far), only on a
 * terminal and never in CI: a line rewritten in place, erased at the end.
 */
function progressLine(session) {
  const on = process.stderr.isTTY === true && !process.env.CI && process.env.TERM !== 'dumb';
  const start = Date.now();
  let last = 0;
  let shown = false;
  return {
    tick(name) {
      if (!on) return;
      const now = Date.now();
      if (now - start < 1000 || now - last < 200) return;
      last = now;
      const [bytes, objects] = session.progress();
      const mb = (bytes / 1e6).toFixed(bytes < 1e8 ? 1 : 0);
      const line = `kube-preflight: reading ${term(name)}: ${mb} MB, ${objects.toLocaleString('en-US')} objects`;
      process.stderr.write(`\r\x1b[2K${line.length > 120 ? line.slice(0, 117) + '...' : line}`);
      shown = true;
    },
    done() {
      if (shown) process.stderr.write('\r\x1b[2K');
    },
  };
}

/** Stream one input into the session in chunks; a file found in a folder that cannot be opened is listed
 * (as `skipped`), a named one is an error. */
function streamInput(session, f, progress) {
  const name = f.name;
  let fd;
  let limit;
  let size;
  try {
    fd = f.path === 0 ? 0 : fs.openSync(f.path, 'r');
    const st = fs.fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
    limit = st.isFile() ? Infinity : MAX_STREAM_BYTES;
    // A file's size lets a YAML document that runs to its end be held in one buffer of its size.
    if (st.isFile()) size = st.size;
  } catch (e) {
    if (fd !== undefined && fd !== 0) fs.closeSync(fd);
    if (f.discovered) {
      session.skip(name, describe(e));
      return;
    }
    throw inputError(`${name}: ${describe(e)}`);
  }
  try {
    if (size !== undefined) session.sizeHint(name, size);
    let total = 0;
    let pushed = false;
    try {
      for (const chunk of chunksOf(fd, CHUNK_BYTES)) {
        total += chunk.length;
        if (total > limit) {
          throw inputError(`${name}: more than ${Math.round(limit / 2 ** 20)} MiB (MAX_STREAM_BYTES): not read`);
        }
        if (f.discovered) session.pushFound(name, chunk);
        else session.push(name, chunk);
        pushed = true;
        progress.tick(name);
      }
    } catch (e) {
      // A read error (from the file system) names the path; the session's own errors pass as they are.
      if (!e.syscall) throw e;
      throw inputError(`${name}: ${describe(e)}`);
    }
    // An empty file is still a file (listed as empty).
    if (!pushed) {
      if (f.discovered) session.pushFound(name, new Uint8Array(0));
      else session.push(name, new Uint8Array(0));
    }
    // It ends here: the next input, even of the same name (`--stdin-name x.yaml` beside a file x.yaml), is
    // another.
    session.endInput();
  } finally {
    if (fd !== 0) fs.closeSync(fd);
  }
}

function readConfig(p) {
  return { name: p, content: readConfigBytes(p) };
}

/** The file's identity (device and inode), following symbolic links; `undefined` when it does not exist. */
/** Names of standard output and standard error for --output, written there rather than opened. */
const STDOUT_PATHS = ['-', '/dev/stdout', '/dev/fd/1'];
const STDERR_PATHS = ['/dev/stderr', '/dev/fd/2'];

/** Where an --output path writes: `undefined` for standard output, the path otherwise. */
function outputPath(p) {
  return p === undefined || STDOUT_PATHS.includes(p) ? undefined : p;
}

function identity(p) {
  try {
    const st = fs.statSync(p);
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/** The temporary file being written for --output, removed if a signal ends the run. */
let pendingTemp;

/** Signals while the report is written: the write is finished or undone, the temporary file removed, and
 * the run ends as interrupted (128 + the signal's number). Installed once, just before writing: reading
 * stays interruptible at once. */
let signalsDeferred = false;
function deferSignals() {
  if (signalsDeferred) return;
  signalsDeferred = true;
  for (const [sig, n] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
    process.on(sig, () => {
      if (pendingTemp) {
        try {
          fs.unlinkSync(pendingTemp);
        } catch {
          // already renamed into place or never created
        }
      }
      process.exit(128 + n);
    });
  }
}

/** Write to stdout: a reader that goes away (`| head`) ends the run quietly; another write error is an
 * output error (exit 2). */
function writeStdout(produce) {
  process.stdout.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    process.stderr.write(`kube-preflight: output error: standard output: ${term(describe(e))}\n`);
    process.exit(2);
  });
  // A piece is overwritten by the next once this returns, and a pipe may be written later (macOS): copied.
  produce((piece) => process.stdout.write(Buffer.from(piece)));
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Write all of `bytes` to `fd`. A write may take part of them (a pipe, a device); a full pipe that was
 * handed over non-blocking (stderr when the parent reads it through a pipe) says EAGAIN, and is waited on
 * (1 ms at a time), not taken for an error: a report larger than the pipe's buffer was cut short. */
function writeAll(fd, bytes) {
  for (let off = 0; off < bytes.length; ) {
    try {
      off += fs.writeSync(fd, bytes, off, bytes.length - off);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}

/** Open `file` with `flags` (and `mode`), write what `produce` hands over, and close it. */
function writeFile(file, produce, flags, mode) {
  const fd = fs.openSync(file, flags, mode);
  try {
    produce((piece) => writeAll(fd, piece));
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Write the report to stdout or to --output. A regular file (or a new one) is written to a temporary file
 * beside it and renamed into place, so that a failure (a full disk, a signal) never leaves a half-written
 * report; a symbolic link is followed (its target is written, the link stays); anything else (a device, a
 * FIFO, a socket) is written in place, as a shell redirection would. A write error is an output error.
 * `text` is a string, or a function that hands its pieces (`Uint8Array`s) to the function it is given, in
 * order, as they are rendered (each overwritten by the next: written at once): the report is never held
 * whole.
 */
function writeOut(text, output) {
  const produce = typeof text === 'function' ? text : (emit) => emit(Buffer.from(text));
  if (!output) {
    writeStdout(produce);
    return;
  }
  if (STDERR_PATHS.includes(output)) {
    try {
      produce((piece) => writeAll(2, piece));
    } catch (e) {
      throw inputError(`--output ${output}: ${describe(e)}`, 'output');
    }
    return;
  }
  let target = output;
  let link = false;
  try {
    link = fs.lstatSync(output).isSymbolicLink();
    if (link) target = fs.realpathSync(output);
  } catch {
    // a new file, or a link to a file not there yet (written through the link, in place)
  }
  const dangling = link && target === output;
  let st;
  try {
    st = fs.statSync(target);
  } catch {
    st = undefined;
  }
  const fail = (e) => inputError(`--output ${output}: ${describe(e)}`, 'output');
  if (st && st.isDirectory()) throw inputError(`--output ${output}: is a folder; give a file name`, 'output');
  if ((st && !st.isFile()) || dangling) {
    try {
      writeFile(target, produce, 'w');
    } catch (e) {
      throw fail(e);
    }
    return;
  }
  deferSignals();
  let tmp;
  try {
    // Created, never opened if it exists (`wx`): a name planted beside the target (a link to elsewhere) is
    // passed over for the next one. Its name is short (a long target name would make it too long), and
    // where no file can be created beside the target (a read-only folder holding a writable report, a
    // name at the file system's limit), the target is written in place, as a shell redirection would.
    let fd;
    for (let k = 0; ; k++) {
      tmp = path.join(path.dirname(target), `.${path.basename(target).slice(0, 64)}.${process.pid}${k ? `.${k}` : ''}.tmp`);
      try {
        fd = fs.openSync(tmp, 'wx', st ? st.mode & 0o7777 : 0o666);
        pendingTemp = tmp;
        break;
      } catch (e) {
        if (['EACCES', 'EPERM', 'EROFS', 'ENAMETOOLONG'].includes(e.code)) break;
        if (e.code !== 'EEXIST') throw e;
        // Not ours: never removed.
        if (k >= 100) throw e;
      }
    }
    if (fd === undefined) {
      writeFile(target, produce, 'w');
      return;
    }
    try {
      produce((piece) => writeAll(fd, piece));
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, target);
  } catch (e) {
    if (pendingTemp) {
      try {
        fs.unlinkSync(pendingTemp);
      } catch {
        // nothing was written
      }
    }
    throw fail(e);
  } finally {
    pendingTemp = undefined;
  }
}

/** Take a snapshot, saying each kind as it is listed (on stderr, where a terminal shows it). */
function liveSnapshot(file, opts) {
  try {
    return live.takeSnapshot(file, { ...opts, say: (m) => process.stderr.write(`kube-preflight: ${term(m)}\n`) });
  } catch (e) {
    if (e instanceof live.SnapshotError) throw inputError(e.message);
    throw e;
  }
}

/** `kube-preflight snapshot`: one snapshot file (or stdout) from the live cluster. */
function snapshotCommand(argv) {
  const opts = {};
  let output;
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let value;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    if (!['--context', '--kubeconfig', '--chunk-size', '-o', '--output'].includes(arg)) {
      throw new UsageError(arg.startsWith('-') ? `snapshot: unknown option ${arg}` : `snapshot takes no paths (${arg})`);
    }
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value`);
      value = argv[++i];
    }
    if (value === '') throw new UsageError(`${arg} needs a non-empty value`);
    if (arg === '--chunk-size') {
      if (!/^[1-9]\d{0,5}$/.test(value)) throw new UsageError('--chunk-size takes a whole number from 1 to 999999');
      opts.chunkSize = Number(value);
    } else if (arg === '-o' || arg === '--output') output = value === '-' ? undefined : value;
    else opts[arg.slice(2)] = value;
  }
  const file = live.tempFile();
  try {
    const s = liveSnapshot(file, opts);
    const refused = s.denied.filter((d) => d.reason === 'forbidden').length;
    const unserved = s.denied.filter((d) => d.reason === 'not-served').length;
    process.stderr.write(`kube-preflight: snapshot of ${term(s.context || 'the current context')} taken at ${s.takenAt} by ${term(s.tool)}: ${s.lists.length} lists${refused ? `, ${refused} refused to you` : ''}${unserved ? `, ${unserved} kinds not served` : ''}\n`);
    if (output === undefined) {
      const fd = fs.openSync(file, 'r');
      try {
        for (const chunk of chunksOf(fd, CHUNK_BYTES)) writeAll(1, chunk);
      } finally {
        fs.closeSync(fd);
      }
    } else {
      try {
        fs.copyFileSync(file, output);
      } catch (e) {
        throw inputError(`--output ${output}: ${describe(e)}`, 'output');
      }
    }
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
  return 0;
}

function main(argv) {
  const [cmd, ...rest] = argv;
  if (cmd === undefined) {
    // No command is a usage error: the usage goes where errors go, so that `kube-preflight > out` says why.
    process.stderr.write(USAGE + '\n');
    return 2;
  }
  if (cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (cmd === '--version' || cmd === '-V') {
    process.stdout.write(api.version() + '\n');
    return 0;
  }
  if (cmd === 'rules') {
    const args = parseArgs(rest);
    if (args.paths.length) throw new UsageError('rules takes no paths');
    writeOut(api.renderRules(args.format || 'json'), args.output);
    return 0;
  }
  if (cmd === 'snapshot') return snapshotCommand(rest);
  if (cmd === 'mcp') return require('./mcp.cjs').serve(api);
  if (cmd !== 'check') throw new UsageError(`unknown command ${cmd}`);
  const args = parseArgs(rest);
  if (args.chunkSize !== undefined && args.live === undefined) throw new UsageError('--chunk-size is for a live snapshot: give --context or --kubeconfig');
  if (args.paths.length === 0 && args.live === undefined) throw new UsageError('check needs at least one path (or - for stdin), or --context to read the live cluster');
  // Where each format goes: --format's report to --output <file> or stdout (unless only
  // --output <format>=... are given, and no --format), then every --output <format>=<file|->.
  const main = args.outputs.length && !args.format && args.output === undefined ? undefined : { format: args.format || 'text', path: outputPath(args.output) };
  const targets = [...(main ? [main] : []), ...args.outputs];
  if (targets.filter((t) => t.path === undefined).length > 1) {
    throw new UsageError('only one output can go to stdout');
  }
  // Two reports to one file would leave one of them: each output its own file (a link to a file, or its
  // name written another way, is that file).
  const sameFile = new Map();
  for (const t of targets.filter((t) => t.path !== undefined)) {
    const key = STDERR_PATHS.includes(t.path) ? 'stderr' : identity(t.path) ?? path.resolve(t.path);
    if (sameFile.has(key)) throw new UsageError(`--output ${sameFile.get(key)} and --output ${t.path} are the same file: give each report its own`);
    sameFile.set(key, t.path);
  }
  const [first, ...more] = targets;
  const request = {
    options: args.options,
    config: args.config === undefined ? undefined : readConfig(args.config),
    baseline: args.baseline === undefined ? undefined : { name: args.baseline, content: readConfigBytes(args.baseline, MAX_BASELINE_BYTES, 'the baseline report', 'MAX_BASELINE_BYTES') },
    since: args.since === undefined ? undefined : { name: args.since, content: readConfigBytes(args.since, MAX_BASELINE_BYTES, 'the --since report', 'MAX_BASELINE_BYTES') },
    format: first.format,
    extraFormats: more.map((t) => t.format),
    color: first.path === undefined && process.stdout.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== 'dumb',
    failOn: args.failOn,
    maxFindings: args.maxFindings,
    helpUri: args.helpUri,
    allowEmpty: args.allowEmpty,
  };
  const files = listInputs(args.paths, args.stdinName);
  // The live cluster first: a snapshot into a temporary file, read as the input `kubectl:<context>`.
  let taken;
  if (args.live !== undefined) {
    const file = live.tempFile();
    taken = file;
    const s = liveSnapshot(file, { ...args.live, chunkSize: args.chunkSize });
    files.unshift({ name: `${path.basename(s.tool.split(' ')[0])}:${s.context || 'current-context'}`, path: file });
  }
  // Never overwrite what is read: an input (or the config file) named as --output is refused.
  const read = new Map(files.filter((f) => f.id !== undefined).map((f) => [f.id, f.name]));
  if (args.config !== undefined) read.set(identity(args.config), args.config);
  if (args.baseline !== undefined) read.set(identity(args.baseline), args.baseline);
  if (args.since !== undefined) read.set(identity(args.since), args.since);
  for (const t of targets.filter((t) => t.path !== undefined)) {
    const id = identity(t.path);
    const input = id === undefined ? undefined : read.get(id);
    if (input !== undefined) {
      throw inputError(`--output ${t.path} is also an input (${shown(input)}): refused, it would be overwritten`, 'output');
    }
  }
  const session = api.cliSession(request);
  const progress = progressLine(session);
  try {
    for (const f of files) {
      if (f.skipped !== undefined) session.skip(f.name, f.skipped);
      else streamInput(session, f, progress);
    }
  } finally {
    progress.done();
    if (taken !== undefined) fs.rmSync(path.dirname(taken), { recursive: true, force: true });
  }
  const { exitCode } = session.finish();
  // Files first, stdout last (a reader that goes away must not keep the files from being written). Each
  // output is rendered as it is written (`write(i, sink)`).
  const order = targets.map((t, i) => [t, i]).sort(([a], [b]) => Number(a.path === undefined) - Number(b.path === undefined));
  for (const [t, i] of order) writeOut((emit) => session.write(i, emit), t.path);
  return exitCode;
}

function fail(e) {
  // Messages name paths and values from the command line and the inputs: escaped for the terminal.
  if (e instanceof UsageError) {
    process.stderr.write(`kube-preflight: ${term(e.message)}\n\n${USAGE}\n`);
  } else if (e && (e.code === 'input' || e.code === 'options' || e.code === 'output')) {
    process.stderr.write(`kube-preflight: ${e.code} error: ${term(e.message)}\n`);
  } else {
    const text = e && e.stack ? e.stack : String(e);
    process.stderr.write(`kube-preflight: internal error: ${text.split('\n').map(term).join('\n')}\n`);
  }
  process.exitCode = 2;
}

try {
  const code = main(process.argv.slice(2));
  // `mcp` serves until its client goes: a promise of its exit status.
  if (code && typeof code.then === 'function') code.then((c) => { process.exitCode = c; }, fail);
  else process.exitCode = code;
} catch (e) {
  fail(e);
}
