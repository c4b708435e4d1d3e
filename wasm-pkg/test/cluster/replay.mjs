// A local API endpoint for the tests of `kube-preflight snapshot`: it replays the recorded responses of
// recording.json to whatever GETs them (the real kubectl here), over plain HTTP on 127.0.0.1. It is no API
// server: no authentication or authorization of its own (the 403s are recorded answers), no watch, no
// writes, no field or label selection of its own (a selector is part of the recorded path), no
// protobuf, no aggregated discovery (kubectl falls back to the plain APIGroupList, as with older servers).
// A request it has no answer for gets the API server's 404 Status and is listed in `unanswered`.
import http from 'node:http';

/** A path with its query parameters in a canonical order (kubectl may order them otherwise), without the
 * `timeout` kubectl adds to every request (`?timeout=32s`: the server's deadline, not what is asked). */
function key(url) {
  const u = new URL(url, 'http://replay');
  const params = [...u.searchParams.entries()].filter(([k]) => k !== 'timeout').sort(([a], [b]) => a.localeCompare(b));
  return `${u.pathname}?${new URLSearchParams(params)}`;
}

export async function startReplay(recording) {
  const queue = new Map();
  for (const e of recording.exchanges) {
    const k = key(e.path);
    if (!queue.has(k)) queue.set(k, []);
    queue.get(k).push({ ...e });
  }
  const requests = [];
  const unanswered = [];
  const server = http.createServer((req, res) => {
    const k = key(req.url);
    requests.push({ method: req.method, path: req.url });
    const list = queue.get(k) || [];
    const e = list[0];
    if (req.method !== 'GET' || e === undefined) {
      unanswered.push(`${req.method} ${req.url}`);
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 }));
      return;
    }
    if (e.once) list.shift();
    res.writeHead(e.status, { 'Content-Type': 'application/json', 'Audit-Id': `replay-${requests.length}` });
    res.end(JSON.stringify(e.body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    unanswered,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A kubeconfig for the endpoint, with one context (`name`) and a user with no credentials. */
export function kubeconfig(url, name = 'replay') {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${name}`,
    '  cluster:',
    `    server: ${url}`,
    'users:',
    '- name: jane',
    '  user: {}',
    'contexts:',
    `- name: ${name}`,
    '  context:',
    `    cluster: ${name}`,
    '    user: jane',
    `current-context: ${name}`,
    '',
  ].join('\n');
}
