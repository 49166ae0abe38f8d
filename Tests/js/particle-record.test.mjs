// public/lib/particle-record.js: a birth record evaluated at a display time by protocol.md's closed
// form ("Particles"), against numbers worked out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { evaluate, holdsLiveRecord, isAlive, kindsOf, localTime, ParticleState, rgb24 } from '../../public/lib/particle-record.js';

// Kind 2: acceleration (1, 2), scale speed −0.1, alpha speed −0.2, colour speeds (0.1, 0, −0.5).
const PK = [[2, 'dot', 1, 2, -0.1, -0.2, 0.1, 0, -0.5], [5, 'spark']];
// Born at local 1 for 2 s, at (10, 20) moving (3, −4), scale 0.5, spin 0.25, alpha 0.8, colour #804020.
const RECORD = [7, 2, 1, 2, 10, 20, 3, -4, 0.5, 0.25, 0.8, '#804020'];
const ITEM = { id: 1, pk: PK, pt: [2, -1], pb: [RECORD] };

const close = (got, want, what) => assert.ok(Math.abs(got - want) < 1e-9, `${what}: ${got} ≠ ${want}`);

test('a kind table fills in trailing zeros and is made once per pk', () => {
  const kinds = kindsOf(PK);
  assert.deepEqual(kinds.get(5), { image: 'spark', ax: 0, ay: 0, ds: 0, da: 0, dr: 0, dg: 0, db: 0 });
  assert.equal(kindsOf(PK), kinds);
});

test('the local time is rate · d + offset, d itself without pt', () => {
  assert.equal(localTime(ITEM, 1.25), 1.5);
  assert.equal(localTime({ pb: [] }, 1.25), 1.25);
});

test('a record at age 0.5: position, scale, spin, alpha and colour by the closed form', () => {
  const state = new ParticleState();
  assert.equal(evaluate(RECORD, kindsOf(PK).get(2), localTime(ITEM, 1.25), state), true);
  close(state.x, 10 + 3 * 0.5 + 0.5 * 1 * 0.25, 'x'); // 11.625
  close(state.y, 20 - 4 * 0.5 + 0.5 * 2 * 0.25, 'y'); // 18.25
  close(state.scale, 0.45, 'scale');
  close(state.rotation, 0.125, 'rotation');
  close(state.alpha, 0.7, 'alpha');
  close(state.r, 128 / 255 + 0.05, 'red');
  close(state.g, 64 / 255, 'green');
  assert.equal(state.b, 0, 'blue clamps at 0');
  assert.equal(rgb24(state), 0x8d4000, '140.75 → 141, 64, 0');
});

test('alive while 0 ≤ age < l: not before birth, not at b + l', () => {
  const state = new ParticleState();
  const kind = kindsOf(PK).get(2);
  assert.equal(evaluate(RECORD, kind, 0.999, state), false);
  assert.equal(evaluate(RECORD, kind, 1, state), true, 'age 0');
  assert.equal(evaluate(RECORD, kind, 2.999, state), true);
  assert.equal(evaluate(RECORD, kind, 3, state), false, 'age = l');
  assert.equal(isAlive(RECORD, 3), false);
  assert.equal(isAlive(RECORD, 2.5), true);
});

test('without a and rgb a record is opaque white; alpha clamps at 1', () => {
  const state = new ParticleState();
  const kind = { image: 'dot', ax: 0, ay: 0, ds: 0, da: 0.5, dr: 0, dg: 0, db: 0 };
  assert.equal(evaluate([1, 2, 0, 5, 0, 0, 0, 0, 1, 0], kind, 1, state), true);
  assert.equal(state.alpha, 1);
  assert.equal(rgb24(state), 0xffffff);
  assert.equal(evaluate([1, 2, 0, 5, 0, 0, 0, 0, 1, 0, 2.5], { ...kind, da: -1 }, 1, state), true);
  assert.equal(state.alpha, 1, 'unclamped 2.5 − 1 = 1.5 drawn at 1');
});

test('a record whose scale or alpha quantises to 0 is not drawn', () => {
  const state = new ParticleState();
  const kind = kindsOf(PK).get(5);
  assert.equal(evaluate([1, 5, 0, 5, 0, 0, 0, 0, 0.00004, 0], kind, 1, state), false, 'scale 0.00004 → 0');
  assert.equal(evaluate([1, 5, 0, 5, 0, 0, 0, 0, 0.00005, 0], kind, 1, state), true, 'scale 0.00005 → 1e-4');
  assert.equal(evaluate([1, 5, 0, 5, 0, 0, 0, 0, 1, 0, 0.0004], kind, 1, state), false, 'alpha 0.0004 → 0');
  const shrinking = [1, 2, 0, 10, 0, 0, 0, 0, 0.5, 0];
  assert.equal(evaluate(shrinking, kindsOf(PK).get(2), 4, state), true, 'age 4: scale 0.1, alpha 0.2');
  assert.equal(evaluate(shrinking, kindsOf(PK).get(2), 6, state), false, 'age 6: alive, but scale and alpha 0');
  assert.equal(state.scale, 0, 'the scale stops at 0');
});

test('a record of a kind missing from pk is not drawn', () => {
  assert.equal(evaluate(RECORD, undefined, 1.5, new ParticleState()), false);
});

test('the view holds a live record while any emitter item has one alive at d', () => {
  const items = [{ id: 3, bg: '#ffffff' }, ITEM];
  assert.equal(holdsLiveRecord(items, 1), true, 'local 1: age 0');
  assert.equal(holdsLiveRecord(items, 1.999), true);
  assert.equal(holdsLiveRecord(items, 2), false, 'local 3: dead');
  assert.equal(holdsLiveRecord(items, 0.9), false, 'local 0.8: not yet born');
  assert.equal(holdsLiveRecord([{ id: 3 }], 1), false);
});
