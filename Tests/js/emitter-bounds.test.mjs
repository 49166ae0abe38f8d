// The box an additive emitter's group covers on screen (issue 36, item 3): its rect and its
// particles' discs through the device matrix, grown by a shadow's reach.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { emitterBounds } from '../../public/lib/emitter-bounds.js';

const sizes = { spark: { width: 30, height: 40 }, dot: { width: 6, height: 8 } };
const sizeOf = (id) => sizes[id] ?? null;

test('the box holds the rect and each particle as a disc of s times half the largest diagonal', () => {
  const item = { s: [10, 10], pimg: [['dot'], ['spark']], p: [[1, 100, 50, 0.5, 0], [2, -20, 5, 2, 1.2, 0.5, 1]] };
  // Half the spark's diagonal is 25: radii 12.5 and 50 points, doubled by the matrix.
  assert.deepEqual(emitterBounds(item, [2, 0, 0, 2, 10, 20], sizeOf, 0),
    { left: 10 - 40 - 100, top: 20 + 10 - 100, right: 10 + 200 + 25, bottom: 20 + 100 + 25 });
  assert.deepEqual(emitterBounds(item, [2, 0, 0, 2, 10, 20], sizeOf, 3.5),
    { left: -134, top: -74, right: 239, bottom: 149 });
});

test('without particles or loaded images the box is the rect; behind the eye it is unbounded', () => {
  assert.deepEqual(emitterBounds({ s: [40, 20], pimg: [['missing']], p: [[1, 500, 500, 1, 0]] }, [1, 0, 0, 1, 5.5, 0], sizeOf, 0),
    { left: 5, top: 0, right: 506, bottom: 500 });
  assert.deepEqual(emitterBounds({ s: [40, 20] }, [1, 0, 0, 1, 5.5, 0.5], sizeOf, 0), { left: 5, top: 0, right: 46, bottom: 21 });
  assert.equal(emitterBounds({ s: [40, 20], pimg: [['dot']], p: [[1, 2000, 0, 1, 0]] }, [1, 0, 0, 1, 0, 0, -0.001, 0, 1], sizeOf, 0), null);
});
