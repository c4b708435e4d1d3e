// The module worker of checkInWorker in browsers: the browser build, initialised from the module the page
// already compiled (no second download), then a Session fed chunk by chunk.
import { init, Session } from './browser-core.mjs';
import { serve } from './worker-core.mjs';

const handle = serve(Session, (module) => init(module), (m) => self.postMessage(m));
self.onmessage = (e) => handle(e.data);
