'use strict';
// Node entry (require): the wasm is read synchronously from disk by the nodejs glue.
const wasm = require('./node/kube_preflight_wasm.js');

module.exports = {
  check: wasm.check,
  Session: wasm.Session,
  rules: wasm.rules,
  version: wasm.version,
  /** Node needs no initialisation; kept so code written for browsers runs unchanged. */
  init: async () => undefined,
  /** @internal used by the command line */
  runCli: wasm.runCli,
  /** @internal used by the command line */
  renderRules: wasm.renderRules,
};
