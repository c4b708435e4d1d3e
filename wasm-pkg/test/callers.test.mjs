// Caller values of every shape read as the plain object (the cases of `callers.mjs`, seeded).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callerCase } from './callers.mjs';

test('options as a Proxy, a class with getters, frozen, null-prototype, with holes: read as the plain object, in check() and in the worker', async () => {
  const unhandled = [];
  const onUnhandled = (e) => unhandled.push(e);
  process.on('unhandledRejection', onUnhandled);
  try {
    for (let seed = 1; seed <= 120; seed++) await callerCase(seed * 104729, { worker: seed % 10 === 0 });
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
