// The worker side of checkInWorker (checker.mjs): a Session fed chunk by chunk, one answer per message.

/** Serve one check: `post(message)` answers, the returned function takes each message. */
export function serve(Session, init, post) {
  let session;
  const fail = (e) => post({
    type: 'error',
    error: { message: e?.message ?? String(e), code: e?.code ?? 'internal', file: e?.file, line: e?.line, column: e?.column, field: e?.field },
  });
  return async (m) => {
    try {
      if (m.type === 'start') {
        await init(m.module);
        session = new Session(m.options);
        post({ type: 'ready' });
      } else if (m.type === 'chunk') {
        // An input's first chunk carries its size where the page knew it (read only for memory).
        if (m.size !== undefined) session.sizeHint(m.name, m.size);
        session.push(m.name, m.chunk);
        post({ type: 'ack', objects: session.progress()[1] });
      } else if (m.type === 'objects') {
        session.pushObjects(m.list, m.name);
        post({ type: 'ack', objects: session.progress()[1] });
      } else if (m.type === 'denied') {
        session.pushDenied(m.denied.kind, m.denied.namespace ?? null, m.denied.reason);
        post({ type: 'ack', objects: session.progress()[1] });
      } else if (m.type === 'end') {
        // One input ends: the next, even of the same name, is another.
        session.endInput();
        post({ type: 'ack', objects: session.progress()[1] });
      } else if (m.type === 'finish') {
        post({ type: 'report', report: session.finish() });
      }
    } catch (e) {
      fail(e);
    }
  };
}
