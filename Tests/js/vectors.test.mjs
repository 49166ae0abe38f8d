// The golden vectors of Tests/vectors/ (Tests/vectors/README.md), made by the Swift encoder,
// applied by the page's decoder: FrameStore (frame-store.js) with particle-births.js. After each
// message the store's newest list must be exactly the list the vector gives. particle-states.json
// holds emitter items with the particles the engine draws at given times: the page's evaluator
// (particle-record.js) must draw the same ones, within one quantisation step.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { FrameStore } from '../../public/lib/frame-store.js';
import { evaluate, kindsOf, localTime, ParticleState, rgb24 } from '../../public/lib/particle-record.js';
import { pathEntries } from '../../public/lib/path-table.js';

const folder = new URL('../vectors/', import.meta.url);
const files = readdirSync(folder).filter((name) => name.endsWith('.json')).sort();
const STATES = 'particle-states.json';
const read = (file) => JSON.parse(readFileSync(new URL(file, folder), 'utf8'));

test('there are vectors, the particle ones among them', () => {
  assert.ok(files.length >= 4, `vectors in Tests/vectors: ${files}`);
  for (const file of ['births.json', STATES]) {
    assert.ok(existsSync(new URL(file, folder)),
      `Tests/vectors/${file} is missing: LAYERCAST_WRITE_VECTORS=1 swift test --filter GoldenVectorTests makes it`);
  }
});

for (const file of files.filter((name) => name !== STATES)) {
  test(`frame-store applies ${file}`, () => {
    const vector = read(file);
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

/** The particles `item` draws at display time `d`: `[id, x, y, scale, rotation, alpha, rgb24]` in drawing order. */
function drawnAt(item, d) {
  const kinds = kindsOf(item.pk ?? []);
  const local = localTime(item, d);
  const state = new ParticleState();
  const drawn = [];
  for (const record of item.pb ?? []) {
    if (evaluate(record, kinds.get(record[1]), local, state)) {
      drawn.push([record[0], state.x, state.y, state.scale, state.rotation, state.alpha, rgb24(state)]);
    }
  }
  return drawn;
}

/** Each element's quantisation step: x, y 1e-2, scale 1e-4, rotation 1e-3, alpha 1e-3. */
const STEPS = [0, 1e-2, 1e-2, 1e-4, 1e-3, 1e-3];

test(`the page's evaluator draws the particles of ${STATES} within one step`, { skip: !files.includes(STATES) && 'missing' }, () => {
  const vector = read(STATES);
  assert.ok(vector.cases.length > 0);
  let compared = 0;
  for (const { note, item, at, states } of vector.cases) {
    at.forEach((d, i) => {
      const got = drawnAt(item, d);
      const want = states[i];
      const where = `${note} at ${d}`;
      assert.deepEqual(got.map((p) => p[0]), want.map((p) => p[0]), `${where}: the particles drawn`);
      got.forEach((particle, k) => {
        for (let e = 1; e <= 5; e += 1) {
          assert.ok(Math.abs(particle[e] - want[k][e]) <= STEPS[e] * 1.0001,
            `${where}, particle ${particle[0]}, element ${e}: ${particle[e]} against ${want[k][e]}`);
        }
        const colour = parseInt(want[k][6].slice(1), 16);
        for (const shift of [16, 8, 0]) {
          assert.ok(Math.abs(((particle[6] >> shift) & 255) - ((colour >> shift) & 255)) <= 1, `${where}, particle ${particle[0]}: colour`);
        }
        compared += 1;
      });
    });
  }
  assert.ok(compared > 0, 'the vector draws some particles');
});
