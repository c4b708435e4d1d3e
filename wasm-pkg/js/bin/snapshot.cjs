'use strict';
// `kube-preflight snapshot`: the live cluster read through the user's own kubectl (or oc, on OpenShift, when
// it is installed), with the user's own credentials and permissions. Every kind the checks read is listed
// across the cluster in pages (`limit` and `continue`, as kubectl's own `--chunk-size` does), each item
// written on its own line into one JSON List as it comes (memory holds one page), and the snapshot's own
// document last (`apiVersion: kube-preflight.io/v1`, `kind: Snapshot`): when, from which context and
// server, by which client, `kubectl version`'s output, what was listed and what could not be (a list the
// API refused, 403, or a kind the cluster does not serve, 404), which the checks read as `inventory.denied`
// and `coverage` says as "not visible to you" or "not served by this cluster".

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

/** kubectl's own default page size (`--chunk-size`). */
const DEFAULT_CHUNK = 500;
/** An expired `continue` token (410) restarts the kind's list from the start, this many times at most. */
const MAX_RESTARTS = 3;

/**
 * Each kind the checks read. `versions`: the API versions it may be served at, the preferred first; `query`:
 * the selector the list is made with; `keep`: what of each item is written. `platform`: listed only where its
 * group is served (the platform's own kinds); the others are the checks' families, and a group not served is
 * said as such (`not-served`).
 */
const KINDS = [
  { kind: 'Namespace', group: '', versions: ['v1'], resource: 'namespaces', cluster: true },
  { kind: 'Node', group: '', versions: ['v1'], resource: 'nodes', cluster: true },
  { kind: 'Pod', group: '', versions: ['v1'], resource: 'pods' },
  { kind: 'Service', group: '', versions: ['v1'], resource: 'services' },
  { kind: 'PersistentVolume', group: '', versions: ['v1'], resource: 'persistentvolumes', cluster: true },
  { kind: 'PersistentVolumeClaim', group: '', versions: ['v1'], resource: 'persistentvolumeclaims' },
  { kind: 'Deployment', group: 'apps', versions: ['v1'], resource: 'deployments' },
  { kind: 'StatefulSet', group: 'apps', versions: ['v1'], resource: 'statefulsets' },
  { kind: 'DaemonSet', group: 'apps', versions: ['v1'], resource: 'daemonsets' },
  { kind: 'ReplicaSet', group: 'apps', versions: ['v1'], resource: 'replicasets' },
  { kind: 'Job', group: 'batch', versions: ['v1'], resource: 'jobs' },
  { kind: 'CronJob', group: 'batch', versions: ['v1'], resource: 'cronjobs' },
  { kind: 'PodDisruptionBudget', group: 'policy', versions: ['v1'], resource: 'poddisruptionbudgets' },
  { kind: 'EndpointSlice', group: 'discovery.k8s.io', versions: ['v1'], resource: 'endpointslices' },
  { kind: 'ValidatingWebhookConfiguration', group: 'admissionregistration.k8s.io', versions: ['v1'], resource: 'validatingwebhookconfigurations', cluster: true },
  { kind: 'MutatingWebhookConfiguration', group: 'admissionregistration.k8s.io', versions: ['v1'], resource: 'mutatingwebhookconfigurations', cluster: true },
  { kind: 'ValidatingAdmissionPolicy', group: 'admissionregistration.k8s.io', versions: ['v1', 'v1beta1'], resource: 'validatingadmissionpolicies', cluster: true },
  { kind: 'ValidatingAdmissionPolicyBinding', group: 'admissionregistration.k8s.io', versions: ['v1', 'v1beta1'], resource: 'validatingadmissionpolicybindings', cluster: true },
  { kind: 'APIService', group: 'apiregistration.k8s.io', versions: ['v1'], resource: 'apiservices', cluster: true },
  { kind: 'CustomResourceDefinition', group: 'apiextensions.k8s.io', versions: ['v1'], resource: 'customresourcedefinitions', cluster: true },
  // Helm's release records: only the Secrets Helm labels as its own, and only their release data.
  { kind: 'Secret', group: '', versions: ['v1'], resource: 'secrets', query: { labelSelector: 'owner=helm' }, keep: helmRecord },
  // The kubelets' cordon and uncordon events: the step times of an upgrade under way.
  { kind: 'Event', group: '', versions: ['v1'], resource: 'events', query: { fieldSelector: 'involvedObject.kind=Node' }, platform: true },
  // OpenShift.
  { kind: 'ClusterVersion', group: 'config.openshift.io', versions: ['v1'], resource: 'clusterversions', cluster: true, platform: true },
  { kind: 'ClusterOperator', group: 'config.openshift.io', versions: ['v1'], resource: 'clusteroperators', cluster: true, platform: true },
  { kind: 'MachineConfigPool', group: 'machineconfiguration.openshift.io', versions: ['v1'], resource: 'machineconfigpools', cluster: true, platform: true },
  { kind: 'MachineConfig', group: 'machineconfiguration.openshift.io', versions: ['v1'], resource: 'machineconfigs', cluster: true, platform: true, keep: machineConfig },
  { kind: 'ClusterServiceVersion', group: 'operators.coreos.com', versions: ['v1alpha1'], resource: 'clusterserviceversions', query: { labelSelector: '!olm.copiedFrom' }, platform: true },
  // GKE on Bare Metal (the admin cluster's kubeconfig).
  { kind: 'Cluster', group: 'baremetal.cluster.gke.io', versions: ['v1'], resource: 'clusters', platform: true },
  { kind: 'NodePool', group: 'baremetal.cluster.gke.io', versions: ['v1'], resource: 'nodepools', platform: true },
  { kind: 'PreflightCheck', group: 'baremetal.cluster.gke.io', versions: ['v1'], resource: 'preflightchecks', platform: true },
];

/** Single objects the checks read where they exist: kubeadm's ClusterConfiguration, OpenShift's admin gates. */
const OBJECTS = [
  { namespace: 'kube-system', name: 'kubeadm-config' },
  { namespace: 'openshift-config-managed', name: 'admin-gates', group: 'config.openshift.io' },
  { namespace: 'openshift-config', name: 'admin-acks', group: 'config.openshift.io' },
];

/** A Helm release record as the checks read it: its name, labels and release data, nothing else. */
function helmRecord(item) {
  const m = item.metadata || {};
  const meta = { name: m.name, namespace: m.namespace, uid: m.uid, labels: m.labels, creationTimestamp: m.creationTimestamp };
  return { apiVersion: item.apiVersion, kind: item.kind, type: item.type, metadata: meta, data: { release: item.data && item.data.release } };
}

/** A MachineConfig without its files and units (the checks read its metadata: the release it renders). */
function machineConfig(item) {
  const spec = item.spec || {};
  return { ...item, spec: { osImageURL: spec.osImageURL, kernelType: spec.kernelType } };
}

/** What no check reads and costs the most: each managed-fields entry's `fieldsV1` (its apiVersion stays). */
function trimmed(item) {
  const m = item.metadata;
  if (m && Array.isArray(m.managedFields)) {
    m.managedFields = m.managedFields.map(({ manager, operation, apiVersion, time, subresource }) => ({ manager, operation, apiVersion, time, subresource }));
  }
  return item;
}

class SnapshotError extends Error {
  constructor(message) {
    super(message);
    this.code = 'input';
  }
}

/** The client: `kubectl` (or `$KUBECTL`) with the user's context and kubeconfig. */
function client(opts) {
  const global = [];
  if (opts.kubeconfig !== undefined) global.push('--kubeconfig', opts.kubeconfig);
  if (opts.context !== undefined) global.push('--context', opts.context);
  const run = (bin, args) => {
    const r = spawnSync(bin, [...global, ...args], { maxBuffer: 1 << 30, encoding: 'buffer', env: process.env });
    if (r.error) {
      if (r.error.code === 'ENOENT') throw new SnapshotError(`${bin} is not installed (or not on PATH): kube-preflight snapshot reads the cluster through it`);
      throw new SnapshotError(`${bin}: ${r.error.message}`);
    }
    return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8').trim() };
  };
  return { bin: process.env.KUBECTL || 'kubectl', run };
}

/** The status reason kubectl prints for an API error (`Error from server (Forbidden): ...`). */
function reasonOf(stderr) {
  const m = /Error from server \(([A-Za-z]+)\)/.exec(stderr);
  if (m) return m[1];
  if (/the server could not find the requested resource/.test(stderr)) return 'NotFound';
  return undefined;
}

/** GET a path of the API as JSON: `{ body }` or `{ reason, message }` for an API error. */
function getRaw(c, url) {
  const r = c.run(c.bin, ['get', '--raw', url]);
  if (r.status === 0) {
    try {
      return { body: JSON.parse(r.stdout.toString('utf8')) };
    } catch (e) {
      throw new SnapshotError(`${c.bin} get --raw ${url}: the answer is not JSON (${e.message})`);
    }
  }
  const reason = reasonOf(r.stderr);
  if (reason === undefined || reason === 'Unauthorized') {
    throw new SnapshotError(`${c.bin} get --raw ${url} failed: ${r.stderr || `exit ${r.status}`}`);
  }
  return { reason, message: r.stderr };
}

function listPath(k, version, namespace) {
  const base = k.group === '' ? `/api/${version}` : `/apis/${k.group}/${version}`;
  return namespace === undefined ? `${base}/${k.resource}` : `${base}/namespaces/${encodeURIComponent(namespace)}/${k.resource}`;
}

/** Writes the List, item by item, at known positions (a list restarted after a 410 is written over). */
class Writer {
  constructor(file) {
    this.fd = fs.openSync(file, 'w');
    this.pos = 0;
    this.first = true;
    this.write('{"apiVersion": "v1", "kind": "List", "metadata": {}, "items": [\n');
  }

  write(text) {
    const b = Buffer.from(text, 'utf8');
    let off = 0;
    while (off < b.length) off += fs.writeSync(this.fd, b, off, b.length - off, this.pos + off);
    this.pos += b.length;
  }

  item(obj) {
    this.write(`${this.first ? '' : ',\n'}${JSON.stringify(obj)}`);
    this.first = false;
  }

  mark() {
    return { pos: this.pos, first: this.first };
  }

  rewind(m) {
    fs.ftruncateSync(this.fd, m.pos);
    this.pos = m.pos;
    this.first = m.first;
  }

  close(header) {
    this.item(header);
    this.write('\n]}\n');
    fs.closeSync(this.fd);
  }
}

/**
 * List one kind at one version (across the cluster, or in one namespace), page by page into `w`.
 * `{ items }`, or `{ reason }` when the API refused or does not serve it.
 */
function listKind(c, w, k, version, namespace, chunk, say, seen = () => {}) {
  const start = w.mark();
  for (let attempt = 0; ; attempt++) {
    let items = 0;
    let token;
    let expired = false;
    do {
      const q = new URLSearchParams();
      if (k.query && k.query.labelSelector) q.set('labelSelector', k.query.labelSelector);
      if (k.query && k.query.fieldSelector) q.set('fieldSelector', k.query.fieldSelector);
      q.set('limit', String(chunk));
      if (token) q.set('continue', token);
      const r = getRaw(c, `${listPath(k, version, namespace)}?${q}`);
      if (r.reason !== undefined) {
        if ((r.reason === 'Expired' || r.reason === 'Gone') && token) {
          expired = true;
          break;
        }
        if (items > 0 || token) throw new SnapshotError(`listing ${k.resource} failed part-way: ${r.message}`);
        return { reason: r.reason, message: r.message };
      }
      const page = r.body || {};
      const listKindName = typeof page.kind === 'string' && page.kind.endsWith('List') ? page.kind.slice(0, -4) : k.kind;
      const apiVersion = page.apiVersion || (k.group === '' ? version : `${k.group}/${version}`);
      for (const raw of Array.isArray(page.items) ? page.items : []) {
        const item = { apiVersion, kind: listKindName, ...raw };
        w.item(k.keep ? k.keep(trimmed(item)) : trimmed(item));
        seen(item);
        items += 1;
      }
      token = page.metadata && typeof page.metadata.continue === 'string' && page.metadata.continue !== '' ? page.metadata.continue : undefined;
    } while (token);
    if (!expired) return { items };
    seen(undefined);
    if (attempt + 1 >= MAX_RESTARTS) {
      throw new SnapshotError(`listing ${k.resource}: the continue token expired (410) ${MAX_RESTARTS} times; the cluster changes faster than the list pages: try a larger --chunk-size`);
    }
    say(`${k.resource}: the continue token expired (410 Gone): listing it again from the start`);
    w.rewind(start);
  }
}

/** The groups the cluster serves, with their versions (`/apis`). */
function servedGroups(c) {
  const r = getRaw(c, '/apis');
  if (r.reason !== undefined) throw new SnapshotError(`${c.bin} get --raw /apis failed: ${r.message}`);
  const groups = new Map([['', ['v1']]]);
  for (const g of (r.body && r.body.groups) || []) {
    groups.set(g.name, (g.versions || []).map((v) => v.version));
  }
  return groups;
}

function oneLine(buf) {
  return buf.toString('utf8').trim();
}

/**
 * Take a snapshot into `file`. `opts`: `{ context, kubeconfig, chunkSize, say }`. Returns what the Snapshot
 * document says (`lists`, `denied`, `context`...).
 */
function takeSnapshot(file, opts) {
  const say = opts.say || (() => {});
  const chunk = opts.chunkSize || DEFAULT_CHUNK;
  let c = client(opts);
  const takenAt = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const v = c.run(c.bin, ['version', '-o', 'json']);
  let version;
  try {
    version = JSON.parse(v.stdout.toString('utf8'));
  } catch {
    version = undefined;
  }
  if (v.status !== 0 || !version || !version.serverVersion) {
    throw new SnapshotError(`the cluster could not be reached through ${c.bin}: ${v.stderr || `exit ${v.status}`}`);
  }
  const ctx = opts.context ?? oneLine(c.run(c.bin, ['config', 'current-context']).stdout);
  const server = oneLine(c.run(c.bin, ['config', 'view', '--minify', '-o', 'jsonpath={.clusters[0].cluster.server}']).stdout);
  const groups = servedGroups(c);
  // OpenShift: its own client where installed (the same calls; `oc` knows its own login).
  if (groups.has('config.openshift.io') && !process.env.KUBECTL) {
    const oc = spawnSync('oc', ['version', '--client'], { encoding: 'utf8' });
    if (!oc.error && oc.status === 0) c = { ...c, bin: 'oc' };
  }
  const tool = `${c.bin} ${(version.clientVersion && version.clientVersion.gitVersion) || ''}`.trim();
  const lists = [];
  const denied = [];
  const w = new Writer(file);
  const namespaces = [];
  try {
    for (const k of KINDS) {
      const served = groups.get(k.group);
      const version = served && k.versions.find((x) => served.includes(x));
      if (!version) {
        if (!k.platform) denied.push({ kind: k.kind, reason: 'not-served' });
        continue;
      }
      const selectors = { ...(k.query || {}) };
      // The namespaces' names, for a kind refused across the cluster (undefined: a list started again).
      const seen = (item) => {
        if (k.kind !== 'Namespace') return;
        if (item === undefined) namespaces.length = 0;
        else if (item.metadata && typeof item.metadata.name === 'string') namespaces.push(item.metadata.name);
      };
      const r = listKind(c, w, k, version, undefined, chunk, say, seen);
      if (r.reason === 'NotFound') {
        if (!k.platform) denied.push({ kind: k.kind, reason: 'not-served' });
        say(`${k.resource}: not served by this cluster`);
        continue;
      }
      if (r.reason === 'Forbidden' && !k.cluster && namespaces.length > 0) {
        // Refused across the cluster: each namespace the user may list it in is read, the others said.
        let read = 0;
        const refused = [];
        for (const ns of namespaces) {
          const n = listKind(c, w, k, version, ns, chunk, say);
          if (n.reason === 'Forbidden') {
            refused.push(ns);
            denied.push({ kind: k.kind, namespace: ns, reason: 'forbidden' });
          } else if (n.reason !== undefined) {
            throw new SnapshotError(`listing ${k.resource} in ${ns}: ${n.message}`);
          } else {
            read += n.items;
          }
        }
        // Listed across the cluster but for the namespaces refused (said in `denied`).
        lists.push({ kind: k.kind, apiVersion: k.group === '' ? version : `${k.group}/${version}`, ...selectors, items: read, namespaces: namespaces.length - refused.length });
        say(`${k.resource}: refused across the cluster; ${read} read in ${namespaces.length - refused.length} namespace(s), refused in ${refused.length}`);
        continue;
      }
      if (r.reason === 'Forbidden') {
        denied.push({ kind: k.kind, reason: 'forbidden' });
        say(`${k.resource}: not visible to you (forbidden)`);
        continue;
      }
      if (r.reason !== undefined) throw new SnapshotError(`listing ${k.resource}: ${r.message}`);
      lists.push({ kind: k.kind, apiVersion: k.group === '' ? version : `${k.group}/${version}`, ...selectors, items: r.items });
      say(`${k.resource}: ${r.items}`);
    }
    for (const o of OBJECTS) {
      if (o.group !== undefined && !groups.has(o.group)) continue;
      const r = getRaw(c, `/api/v1/namespaces/${o.namespace}/configmaps/${o.name}`);
      if (r.reason === undefined) {
        w.item(trimmed({ apiVersion: 'v1', kind: 'ConfigMap', ...r.body }));
        say(`configmap ${o.namespace}/${o.name}: read`);
      } else if (r.reason === 'Forbidden') {
        denied.push({ kind: 'ConfigMap', namespace: o.namespace, reason: 'forbidden' });
      }
    }
    w.close({
      apiVersion: 'kube-preflight.io/v1',
      kind: 'Snapshot',
      metadata: { name: ctx || 'snapshot' },
      takenAt,
      context: ctx || undefined,
      server: server || undefined,
      tool,
      chunkSize: chunk,
      version,
      lists,
      denied,
    });
  } catch (e) {
    try {
      fs.closeSync(w.fd);
    } catch {
      // already closed
    }
    throw e;
  }
  return { context: ctx, server, tool, takenAt, lists, denied };
}

/** A file name in the system's temporary folder, for a snapshot `check --context` reads and removes. */
function tempFile() {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kube-preflight-')), 'snapshot.json');
}

module.exports = { takeSnapshot, tempFile, SnapshotError, DEFAULT_CHUNK, KINDS };
