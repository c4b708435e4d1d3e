// Shared by the package tests: where things are, and how to run the CLI.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const pkg = path.join(root, 'wasm-pkg/pkg');
export const bin = path.join(pkg, 'bin/kube-preflight.cjs');
export const fixture = (...p) => path.join(root, 'tests/fixtures', ...p);

export function cli(args, { input, cwd } = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    input,
    cwd: cwd || root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export const tools = path.join(root, 'node_modules');
export const multitool = path.join(tools, '@microsoft/sarif-multitool-linux/Sarif.Multitool');

/** Validate a SARIF file with Microsoft's SARIF multitool (schema and GitHub rules); returns the errors. */
export function sarifErrors(file) {
  const out = `${file}.validation.sarif`;
  const r = spawnSync(multitool, ['validate', file, '-o', out, '--log', 'ForceOverwrite', '--rule-kind', 'Sarif;Gh', '--level', 'Error;Warning'], { encoding: 'utf8' });
  if (r.error) throw r.error;
  return (r.stdout + r.stderr).split('\n').filter((l) => / (error|warning) [A-Z]+\d+:/.test(l));
}

/** The code block that follows `<!-- snippet: name -->` in the README, verbatim: the tests run the
 * README's own examples. A block inside a list item is indented with its marker; the indent is taken off. */
export function snippet(name, file = 'README.md') {
  const readme = fs.readFileSync(path.join(root, file), 'utf8');
  const m = new RegExp(`^( *)<!-- snippet: ${name} -->\\n+\\1\`\`\`\\w*\\n([\\s\\S]*?)\\n\\1\`\`\``, 'm').exec(readme);
  assert.ok(m, `${file} has no snippet ${name}`);
  return m[2].split('\n').map((l) => (l.startsWith(m[1]) ? l.slice(m[1].length) : l)).join('\n');
}

/** Every fenced code block of a Markdown file: its line, its info string and the snippet name marking it (or
 * null). */
export function codeBlocks(file) {
  const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
  const blocks = [];
  let open = null;
  let marker = null;
  lines.forEach((line, i) => {
    const fence = /^( *)```(\S*)/.exec(line);
    if (open) {
      if (fence && fence[1] === open.indent && !fence[2]) open = null;
      return;
    }
    if (fence) {
      open = { indent: fence[1] };
      blocks.push({ line: i + 1, info: fence[2], name: marker });
      return;
    }
    if (line.trim()) marker = /^ *<!-- snippet: ([\w-]+) -->$/.exec(line)?.[1] ?? null;
  });
  return blocks;
}
