// The box an additive emitter's group covers on screen (issue 36, item 3): its rect and its
// particles' discs through the device matrix, grown by a shadow's reach.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { emitterBounds } from '../../public/lib/emitter-bounds.js';

const sizes = { spark: { width: 30, height: 40 }, dot: { width: 6, height: 8 } };
const sizeOf = (id) => sizes[id] ?? null;

// Records [id, kid, b, l, x, y, vx, vy, s, w]: drawn at display time 1 (ages 1).
const record = (id, kid, x, y, scale, vx = 0) => [id, kid, 0, 5, x, y, vx, 0, scale, 0];

test('the box holds the rect and each record drawn at the time as a disc of scale times half the largest diagonal', () => {
  const item = { s: [10, 10], pk: [[1, 'dot'], [2, 'spark', 0, 0, -0.5]], pb: [record(1, 1, 90, 50, 0.5, 10), record(2, 2, -20, 5, 2.5)] };
  // At time 1 record 1 is at (100, 50), record 2 at scale 2. Half the spark's diagonal is 25:
  // radii 12.5 and 50 points, doubled by the matrix.
  assert.deepEqual(emitterBounds(item, [2, 0, 0, 2, 10, 20], sizeOf, 0, 1),
    { left: 10 - 40 - 100, top: 20 + 10 - 100, right: 10 + 200 + 25, bottom: 20 + 100 + 25 });
  assert.deepEqual(emitterBounds(item, [2, 0, 0, 2, 10, 20], sizeOf, 3.5, 1),
    { left: -134, top: -74, right: 239, bottom: 149 });
  assert.deepEqual(emitterBounds(item, [2, 0, 0, 2, 10, 20], sizeOf, 0, 6), { left: 10, top: 20, right: 30, bottom: 40 },
    'at time 6 both are dead: the rect');
});

test('without records or loaded images the box is the rect; behind the eye it is unbounded', () => {
  assert.deepEqual(emitterBounds({ s: [40, 20], pk: [[1, 'missing']], pb: [record(1, 1, 500, 500, 1)] }, [1, 0, 0, 1, 5.5, 0], sizeOf, 0, 1),
    { left: 5, top: 0, right: 506, bottom: 500 });
  assert.deepEqual(emitterBounds({ s: [40, 20] }, [1, 0, 0, 1, 5.5, 0.5], sizeOf, 0, 1), { left: 5, top: 0, right: 46, bottom: 21 });
  assert.equal(emitterBounds({ s: [40, 20], pk: [[1, 'dot']], pb: [record(1, 1, 2000, 0, 1)] }, [1, 0, 0, 1, 0, 0, -0.001, 0, 1], sizeOf, 0, 1), null);
});
