#!/usr/bin/env node
'use strict';
// The kube-preflight command line (CONTRACT section 2). Reads files, hands them to the wasm core, writes
// the rendered report and exits 0 (nothing at or above --fail-on), 1 (something) or 2 (usage, options or
// input error, explained on stderr; nothing written to stdout or --output).

const fs = require('node:fs');
const path = require('node:path');
const api = require('../index.cjs');

const USAGE = `Usage:
  kube-preflight check [options] <path|->...
  kube-preflight rules [--format json|markdown]
  kube-preflight --version | --help

check options:
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
  --config <file>                         YAML or JSON UpgradeOptions; flags override it
  --format <text|json|markdown|sarif|junit>  output format (default text)
  --output <file>                         write the report there (default stdout)
  --fail-on <blocker|warning|never>       exit 1 when a finding is at or above this (default blocker)

Paths: files, directories (walked for .yaml, .yml, .json) or - for stdin.
Exit status: 0 ready, 1 findings at or above --fail-on, 2 usage, options or input error.`;

class UsageError extends Error {}

const VALUE_FLAGS = {
  '--to': 'to',
  '--from': 'from',
  '--profile': 'profile',
  '--max-unavailable-worker': 'maxUnavailableWorker',
  '--max-unavailable-control-plane': 'maxUnavailableControlPlane',
  '--max-surge': 'maxSurge',
  '--additional-annotation': null,
  '--config': null,
  '--format': null,
  '--output': null,
  '--fail-on': null,
};

function parseArgs(argv) {
  const out = { options: {}, paths: [], format: undefined, output: undefined, failOn: 'blocker', config: undefined };
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
    else if (field) out.options[field] = value;
    else if (arg === '--config') out.config = value;
    else if (arg === '--format') out.format = value;
    else if (arg === '--output') out.output = value;
    else if (arg === '--fail-on') out.failOn = value;
  }
  return out;
}

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

function walk(dir, files) {
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!e.name.startsWith('.') && e.name !== 'node_modules') walk(full, files);
      else files.push({ name: full + path.sep, content: '', skipped: 'a hidden folder or node_modules: not walked' });
    } else if (EXTENSIONS.has(path.extname(e.name).toLowerCase())) {
      files.push({ name: full, content: fs.readFileSync(full), discovered: true });
    } else {
      // Nothing found is left out in silence: the report lists it (inventory.skipped).
      files.push({ name: full, content: '', skipped: 'not .yaml, .yml or .json: not read' });
    }
  }
}

function readInputs(paths) {
  const files = [];
  for (const p of paths) {
    if (p === '-') {
      files.push({ name: '<stdin>', content: fs.readFileSync(0) });
      continue;
    }
    let st;
    try {
      st = fs.statSync(p);
    } catch (e) {
      throw Object.assign(new Error(`${p}: ${e.code === 'ENOENT' ? 'no such file or directory' : e.message}`), { code: 'input' });
    }
    if (st.isDirectory()) walk(p, files);
    else files.push({ name: p, content: fs.readFileSync(p) });
  }
  return files;
}

function readConfig(p) {
  try {
    return { name: p, content: fs.readFileSync(p) };
  } catch (e) {
    throw Object.assign(new Error(`${p}: cannot read the config file: ${e.code === 'ENOENT' ? 'no such file' : e.message}`), { code: 'options' });
  }
}

function writeOut(text, output) {
  if (output) fs.writeFileSync(output, text);
  else process.stdout.write(text);
}

function main(argv) {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(USAGE + '\n');
    return cmd === undefined ? 2 : 0;
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
  if (cmd !== 'check') throw new UsageError(`unknown command ${cmd}`);
  const args = parseArgs(rest);
  if (args.paths.length === 0) throw new UsageError('check needs at least one path (or - for stdin)');
  const request = {
    options: args.options,
    config: args.config === undefined ? undefined : readConfig(args.config),
    format: args.format || 'text',
    color: !args.output && process.stdout.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== 'dumb',
    failOn: args.failOn,
  };
  const files = readInputs(args.paths);
  const { output, exitCode } = api.runCli(files, request);
  writeOut(output, args.output);
  return exitCode;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  if (e instanceof UsageError) {
    process.stderr.write(`kube-preflight: ${e.message}\n\n${USAGE}\n`);
  } else if (e && (e.code === 'input' || e.code === 'options')) {
    process.stderr.write(`kube-preflight: ${e.code} error: ${e.message}\n`);
  } else {
    process.stderr.write(`kube-preflight: internal error: ${e && e.stack ? e.stack : e}\n`);
  }
  process.exitCode = 2;
}
