// The worker_thread of checkInWorker in Node: the Node build (loaded from disk), a Session fed chunk by
// chunk.
import { parentPort } from 'node:worker_threads';
import { init, Session } from './index.mjs';
import { serve } from './worker-core.mjs';

const handle = serve(Session, init, (m) => parentPort.postMessage(m));
parentPort.on('message', handle);
