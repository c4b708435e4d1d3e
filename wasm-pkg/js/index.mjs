// Node entry (import): the same synchronous build as require().
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const api = require('./index.cjs');

export const { check, Session, rules, version, init } = api;
export default api;
