// public/lib/particle-delta.js: an emitter item's `pimg`, `pr`, `pc`, `pa` and `po`
// (protocol.md, "Particles"), applied in that order to a copy.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { applyParticleDelta, hasParticleDelta, PARTICLE_DELTA_KEYS } from '../../public/lib/particle-delta.js';

const item = () => ({
  id: 2, name: 'flakeLayer', s: [414, 736], pimg: [['snowflake'], ['petal', '#99a8bd']],
  p: [[7, 400.73, 717.43, 0.2, 1.513], [9, 286.16, 713.7, 0.2, -2.334], [12, 157.02, 20.5, 1, 0.3, 0.8, 1]],
});

test("protocol.md's example: one removed, two moved, one born", () => {
  const before = item();
  const copy = structuredClone(before);
  const after = applyParticleDelta(before, { id: 2, pr: [7], pc: [[9, 286.3, 714.21, -2.339], [12, 157.1, 21.3, 0.31]], pa: [[13, 90.12, -4.4, 0.2, 0]] });
  assert.deepEqual(after.p, [[9, 286.3, 714.21, 0.2, -2.339], [12, 157.1, 21.3, 1, 0.31, 0.8, 1], [13, 90.12, -4.4, 0.2, 0]]);
  assert.deepEqual(after.pimg, copy.pimg);
  assert.deepEqual(before, copy, 'the item and its tuples are not modified');
});

test('a whole tuple in pc replaces the particle; po reorders; pimg replaces the table', () => {
  const after = applyParticleDelta(item(), { pimg: [['snowflake']], pc: [[12, 1, 2, 0.5, 0, 0.25]], po: [12, 9, 7] });
  assert.deepEqual(after.pimg, [['snowflake']]);
  assert.deepEqual(after.p.map((p) => p[0]), [12, 9, 7]);
  assert.deepEqual(after.p[0], [12, 1, 2, 0.5, 0, 0.25]);
});

test('entries naming ids the item lacks are skipped', () => {
  const after = applyParticleDelta(item(), { pc: [[99, 1, 1, 1]], pr: [98], po: [9, 99, 7, 12] });
  assert.deepEqual(after.p.map((p) => p[0]), [9, 7, 12]);
});

test('an emitter left with no particles and no images has neither key, as in a full frame', () => {
  const after = applyParticleDelta(item(), { pimg: [], pr: [7, 9, 12] });
  assert.equal('p' in after || 'pimg' in after, false);
  assert.deepEqual(applyParticleDelta(after, { pimg: [['snowflake']], pa: [[1, 0, 0, 1, 0]] }).p, [[1, 0, 0, 1, 0]]);
});

test('which set keys are particle keys', () => {
  assert.deepEqual([...PARTICLE_DELTA_KEYS].sort(), ['pa', 'pc', 'pimg', 'po', 'pr']);
  assert.equal(hasParticleDelta({ id: 1, o: 1 }), false);
  for (const key of PARTICLE_DELTA_KEYS) assert.equal(hasParticleDelta({ id: 1, [key]: [] }), true, key);
});
