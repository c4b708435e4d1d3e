// Inputs named more than once read as the single reading (the layouts of `layout.mjs`, seeded).
import { test } from 'node:test';
import { layoutCase } from './layout.mjs';

test('a folder and a file in it, a path twice, links to a file or folder: read as the single reading', () => {
  for (let seed = 1; seed <= 24; seed++) layoutCase(seed * 7919);
});
