'use strict';
// `kube-preflight mcp`: the checks, the plan and the what-if as Model Context Protocol tools, over stdio, for
// agents. The SDK (`@modelcontextprotocol/sdk`) is an optional peer of the package, loaded only here: the
// library entry points keep no runtime dependency. Answers are compact JSON: a report is kept under an id
// (the last MAX_REPORTS of them), its findings come 25 a page, and every answer carries the report's
// certainty (CONTRACT section 6): the verdict, the scope, and each family in scope that was not checked,
// with why. Unknown is never a pass: a family not checked is never said to have passed.

const fs = require('node:fs');
const path = require('node:path');

/** Findings a page. */
const PAGE = 25;
/** Reports kept (with their inputs, for what-ifs): the oldest goes first. */
const MAX_REPORTS = 8;
const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

class ToolError extends Error {}

/** Files and folders (walked for .yaml, .yml, .json; other files listed as skipped), as `check` takes them. */
function readInputs(paths) {
  if (!Array.isArray(paths) || paths.length === 0 || !paths.every((p) => typeof p === 'string' && p !== '')) {
    throw new ToolError('paths: give one or more files or folders (a snapshot, manifests)');
  }
  const files = [];
  const walk = (dir) => {
    const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (EXTENSIONS.has(path.extname(e.name).toLowerCase())) files.push({ name: full, content: fs.readFileSync(full), discovered: true });
      else files.push({ name: full, content: '', skipped: 'not a .yaml, .yml or .json file' });
    }
  };
  for (const p of paths) {
    let st;
    try {
      st = fs.statSync(p);
    } catch (e) {
      throw new ToolError(`${p}: ${e.code === 'ENOENT' ? 'no such file or folder' : e.message}`);
    }
    if (st.isDirectory()) walk(p);
    else files.push({ name: p, content: fs.readFileSync(p) });
  }
  return files;
}

/** What the report stands on (CONTRACT section 6), in every answer. */
function certainty(r) {
  const cov = r.coverage || { families: [], incomplete: [] };
  const open = cov.families.filter((f) => f.inScope && f.state !== 'checked');
  const said = {
    ready: 'ready: nothing blocks, and every family of checks in scope was checked',
    blocked: 'blocked: a finding at blocker severity',
    incomplete: 'incomplete: not a pass; the families below were not checked (not read, not simulated or unreadable)',
    'nothing-checked': 'nothing checked: no Kubernetes object was read',
  };
  return {
    verdict: r.summary.verdict,
    meaning: said[r.summary.verdict] || r.summary.verdict,
    scope: cov.scope,
    incomplete: cov.incomplete,
    notChecked: open.map((f) => ({ family: f.id, state: f.state, reason: f.reason })),
    rule: 'Unknown is never a pass: a family not checked above has not passed, whatever the findings say.',
  };
}

function minutes(seconds) {
  return Math.round((seconds / 60) * 10) / 10;
}

function finding(f) {
  const o = f.object || {};
  return {
    code: f.code,
    severity: f.severity,
    object: [o.kind, o.namespace ? `${o.namespace}/${o.name}` : o.name].filter(Boolean).join(' '),
    message: f.message,
    help: f.help,
    source: f.source ? `${f.source.file}:${f.source.line}` : undefined,
  };
}

function page(list, n) {
  const pages = Math.max(1, Math.ceil(list.length / PAGE));
  const p = Math.min(Math.max(1, Math.floor(Number(n) || 1)), pages);
  return { page: p, pages, total: list.length, items: list.slice((p - 1) * PAGE, p * PAGE) };
}

function planSummary(plan) {
  return {
    complete: plan.complete,
    hops: [...new Set(plan.phases.map((p) => p.hop))],
    phases: plan.phases.map((p) => ({ hop: p.hop, name: p.name, nodes: p.nodes.length, concurrency: p.concurrency, minutes: minutes(p.endSeconds - p.startSeconds) })),
    totalMinutes: minutes(plan.totalSeconds),
    stops: plan.stops.length,
  };
}

function stops(plan) {
  return plan.stops.map((s) => ({ hop: s.hop, phase: s.phase, pool: s.pool, node: s.node, atMinute: minutes(s.atSeconds), outcome: s.outcome, code: s.code, reason: s.reason, neverReached: s.pending.length }));
}

class Reports {
  constructor(api) {
    this.api = api;
    this.kept = new Map();
    this.next = 1;
  }

  run(files, options, from) {
    let report;
    try {
      report = this.api.check(files, options);
    } catch (e) {
      throw new ToolError(e && e.message ? e.message : String(e));
    }
    const id = `r${this.next++}`;
    this.kept.set(id, { report, files, options, from });
    while (this.kept.size > MAX_REPORTS) this.kept.delete(this.kept.keys().next().value);
    return { id, report };
  }

  get(id) {
    const r = this.kept.get(id);
    if (!r) throw new ToolError(`no report ${JSON.stringify(id)} (kept: ${[...this.kept.keys()].join(', ') || 'none'}; run check first)`);
    return r;
  }
}

const OPTIONS_SCHEMA = {
  type: 'object',
  description: 'UpgradeOptions as the JS API takes them: to, from, profile, maxUnavailableWorker, maxUnavailableControlPlane, maxSurge, drain, drainForce, drainDeleteLocalData, skip, windows...',
  additionalProperties: true,
};

const TOOLS = [
  {
    name: 'check',
    description: 'Check a cluster snapshot (kube-preflight snapshot, or kubectl get -o yaml|json output), manifests and distribution configs for an upgrade to a target version. Returns a report id, the verdict with its certainty, the plan in brief and the first page of findings.',
    inputSchema: {
      type: 'object',
      properties: {
        paths: { type: 'array', items: { type: 'string' }, description: 'files or folders to read' },
        to: { type: 'string', description: 'the target Kubernetes (or OpenShift) version, e.g. 1.29' },
        options: OPTIONS_SCHEMA,
      },
      required: ['paths', 'to'],
    },
  },
  {
    name: 'findings',
    description: 'A page of a report\'s findings (25 a page), most severe first, optionally of one severity or rule code (a category ends in /).',
    inputSchema: {
      type: 'object',
      properties: {
        reportId: { type: 'string' },
        page: { type: 'integer', minimum: 1 },
        severity: { type: 'string', enum: ['blocker', 'warning', 'info'] },
        code: { type: 'string' },
      },
      required: ['reportId'],
    },
  },
  {
    name: 'explain_stops',
    description: 'Why the upgrade plan stops: each stop (hop, phase, node, when, the rule and the reason), the nodes it never reaches, and the findings behind it.',
    inputSchema: { type: 'object', properties: { reportId: { type: 'string' } }, required: ['reportId'] },
  },
  {
    name: 'plan_for',
    description: 'The plan for one node or one pool (a phase name): its steps with start and end, the stops there, and the findings about it.',
    inputSchema: {
      type: 'object',
      properties: { reportId: { type: 'string' }, node: { type: 'string' }, pool: { type: 'string' } },
      required: ['reportId'],
    },
  },
  {
    name: 'what_if',
    description: 'Check the same inputs again with some options changed (concurrency, drain flags, surge, profile...): a new report id and what changed against the first.',
    inputSchema: {
      type: 'object',
      properties: { reportId: { type: 'string' }, options: OPTIONS_SCHEMA },
      required: ['reportId', 'options'],
    },
  },
  {
    name: 'compare',
    description: 'Compare two reports (by id): verdict, plan length and stops, and the findings only one has.',
    inputSchema: {
      type: 'object',
      properties: { before: { type: 'string' }, after: { type: 'string' } },
      required: ['before', 'after'],
    },
  },
];

function key(f) {
  const o = f.object || {};
  return `${f.code} ${o.kind || ''} ${o.namespace || ''}/${o.name || ''}`;
}

function comparison(a, b) {
  const before = new Map(a.findings.map((f) => [key(f), f]));
  const after = new Map(b.findings.map((f) => [key(f), f]));
  const only = (x, y) => [...x.entries()].filter(([k]) => !y.has(k)).map(([, f]) => finding(f));
  return {
    verdict: { before: a.summary.verdict, after: b.summary.verdict },
    planMinutes: { before: minutes(a.plan.totalSeconds), after: minutes(b.plan.totalSeconds) },
    planComplete: { before: a.plan.complete, after: b.plan.complete },
    stops: { before: a.plan.stops.length, after: b.plan.stops.length },
    newFindings: page(only(after, before), 1),
    goneFindings: page(only(before, after), 1),
  };
}

function handlers(reports) {
  return {
    check(args) {
      if (typeof args.to !== 'string' || args.to === '') throw new ToolError('to: give the target version');
      const options = { ...(args.options || {}), to: args.to };
      const { id, report } = reports.run(readInputs(args.paths), options, undefined);
      return {
        reportId: id,
        certainty: certainty(report),
        summary: { blocker: report.summary.blocker, warning: report.summary.warning, info: report.summary.info },
        plan: planSummary(report.plan),
        findings: page(report.findings.map(finding), 1),
      };
    },
    findings(args) {
      const { report } = reports.get(args.reportId);
      let list = report.findings;
      if (args.severity) list = list.filter((f) => f.severity === args.severity);
      if (args.code) list = list.filter((f) => (args.code.endsWith('/') ? f.code.startsWith(args.code) : f.code === args.code));
      return { reportId: args.reportId, certainty: certainty(report), findings: page(list.map(finding), args.page) };
    },
    explain_stops(args) {
      const { report } = reports.get(args.reportId);
      const s = stops(report.plan);
      // The findings of the rules the plan stops on (a stop names its rule).
      const codes = new Set(report.plan.stops.map((x) => x.code));
      const behind = report.findings.filter((f) => codes.has(f.code));
      return {
        reportId: args.reportId,
        certainty: certainty(report),
        complete: report.plan.complete,
        stops: s,
        explanation: s.length === 0 ? (report.plan.complete ? 'the plan runs to its end: no stop' : 'the plan did not run: see certainty') : 'nothing is planned after a stop in its sequence: the nodes it never reaches are not simulated, and their families are not a pass',
        findings: page(behind.map(finding), 1),
      };
    },
    plan_for(args) {
      const { report } = reports.get(args.reportId);
      if (!args.node && !args.pool) throw new ToolError('give node or pool');
      // A node the plan stops on, or never reaches, is in its stop's phase.
      const stoppedIn = (p) => report.plan.stops.some((x) => x.hop === p.hop && x.phase === p.name && (x.node === args.node || x.pending.includes(args.node)));
      const phases = report.plan.phases.filter((p) => (args.pool ? p.name === args.pool : p.nodes.includes(args.node) || stoppedIn(p)));
      if (phases.length === 0) {
        const names = [...new Set(report.plan.phases.map((p) => p.name))];
        throw new ToolError(args.pool ? `no pool ${JSON.stringify(args.pool)} in the plan (pools: ${names.join(', ')})` : `node ${JSON.stringify(args.node)} is in no phase of the plan`);
      }
      const nodes = new Set(args.node ? [args.node] : phases.flatMap((p) => p.nodes));
      const steps = report.plan.steps.filter((s) => nodes.has(s.node)).map((s) => ({ node: s.node, hop: s.hop, phase: s.phase, startMinute: minutes(s.startSeconds), endMinute: minutes(s.endSeconds), segments: s.segments }));
      const about = report.findings.filter((f) => [...nodes].some((n) => JSON.stringify(f).includes(JSON.stringify(n))));
      return {
        reportId: args.reportId,
        certainty: certainty(report),
        phases: phases.map((p) => ({ hop: p.hop, name: p.name, concurrency: p.concurrency, nodes: p.nodes.length, startMinute: minutes(p.startSeconds), endMinute: minutes(p.endSeconds) })),
        steps: page(steps, 1),
        stops: stops(report.plan).filter((s, i) => nodes.has(s.node) || report.plan.stops[i].pending.some((n) => nodes.has(n)) || (!s.node && phases.some((p) => p.name === s.phase))),
        neverReached: report.plan.stops.flatMap((x) => x.pending).filter((n) => nodes.has(n)),
        findings: page(about.map(finding), 1),
      };
    },
    what_if(args) {
      const base = reports.get(args.reportId);
      if (!args.options || typeof args.options !== 'object') throw new ToolError('options: give the options to change');
      const options = { ...base.options, ...args.options };
      const { id, report } = reports.run(base.files, options, args.reportId);
      return { reportId: id, from: args.reportId, options, certainty: certainty(report), plan: planSummary(report.plan), changed: comparison(base.report, report) };
    },
    compare(args) {
      const a = reports.get(args.before).report;
      const b = reports.get(args.after).report;
      return { before: args.before, after: args.after, certainty: { before: certainty(a), after: certainty(b) }, ...comparison(a, b) };
    },
  };
}

async function load(name) {
  try {
    return await import(name);
  } catch (e) {
    if (e && (e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'MODULE_NOT_FOUND')) {
      const err = new Error('kube-preflight mcp needs the Model Context Protocol SDK, an optional dependency: npm install @modelcontextprotocol/sdk');
      err.code = 'options';
      throw err;
    }
    throw e;
  }
}

/** Serve until the client closes stdin: resolves to the exit status. */
async function serve(api) {
  const { Server } = await load('@modelcontextprotocol/sdk/server/index.js');
  const { StdioServerTransport } = await load('@modelcontextprotocol/sdk/server/stdio.js');
  const { ListToolsRequestSchema, CallToolRequestSchema } = await load('@modelcontextprotocol/sdk/types.js');
  const server = new Server({ name: 'kube-preflight', version: api.version() }, { capabilities: { tools: {} } });
  const reports = new Reports(api);
  const h = handlers(reports);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const fn = h[req.params.name];
    if (!fn) return { isError: true, content: [{ type: 'text', text: `no tool ${req.params.name}` }] };
    try {
      const answer = fn(req.params.arguments || {});
      return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer };
    } catch (e) {
      if (e instanceof ToolError) return { isError: true, content: [{ type: 'text', text: e.message }] };
      throw e;
    }
  });
  const transport = new StdioServerTransport();
  const closed = new Promise((resolve) => {
    server.onclose = () => resolve(0);
    process.stdin.on('end', () => resolve(0));
  });
  await server.connect(transport);
  return closed;
}

module.exports = { serve, TOOLS, PAGE };
