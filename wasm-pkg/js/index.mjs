// Node entry (import): the same synchronous build as require().
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const api = require('./index.cjs');

export const { check, checkObjects, checkInWorker, Session, rules, version, init } = api;
/** As in the browser build: `init`, a no-op in Node. */
export default init;
