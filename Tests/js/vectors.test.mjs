// The golden vectors of Tests/vectors/ (Tests/vectors/README.md), made by the Swift encoder,
// applied by the page's decoder: FrameStore (frame-store.js) with particle-delta.js. After each
// message the store's newest list must be exactly the list the vector gives.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { FrameStore } from '../../public/lib/frame-store.js';
import { pathEntries } from '../../public/lib/path-table.js';

const folder = new URL('../vectors/', import.meta.url);
const files = readdirSync(folder).filter((name) => name.endsWith('.json')).sort();

test('there are vectors', () => {
  assert.ok(files.length >= 3, `vectors in Tests/vectors: ${files}`);
});

for (const file of files) {
  test(`frame-store applies ${file}`, () => {
    const vector = JSON.parse(readFileSync(new URL(file, folder), 'utf8'));
    const store = new FrameStore();
    vector.steps.forEach((step, index) => {
      const before = store.latest;
      const frozen = before && structuredClone(before.items);
      assert.equal(store.apply(step.message, index), true, `${file} step ${index} (${step.note}) did not apply`);
      assert.deepEqual(store.latest.items, step.items, `${file} step ${index}: ${step.note}`);
      assert.equal(store.latest.n, step.message.n);
      assert.deepEqual(pathEntries(store.latest.paths), step.paths ?? [], `${file} step ${index}: paths`);
      // The snapshot before stays as it was (it is kept for interpolation).
      if (before) assert.deepEqual(before.items, frozen, `${file} step ${index} changed the previous snapshot`);
    });
  });
}
