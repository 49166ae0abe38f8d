// public/lib/frame-store.js: full frames, deltas applied to frame n − 1 (remove, set with null
// returning a field to its default, add, order), and the refusals that make a page reconnect.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { applyDelta, FrameStore } from '../../public/lib/frame-store.js';
import { interpolateItems } from '../../public/lib/interpolate.js';

const full = (n, items) => ({ type: 'frame', n, t: n / 30, full: true, items });
const delta = (n, keys) => ({ type: 'frame', n, t: n / 30, full: false, ...keys });

test('a delta needs a full frame first, then applies to frame n − 1 only', () => {
  const store = new FrameStore();
  assert.equal(store.apply(delta(1, {}), 0), false);
  assert.equal(store.apply(full(5, [{ id: 1 }]), 10), true);
  assert.deepEqual(store.latest, { n: 5, t: 5 / 30, items: [{ id: 1 }], paths: new Map(), receivedAt: 10 });
  assert.equal(store.apply(delta(7, {}), 11), false, 'a skipped frame');
  assert.equal(store.apply(delta(6, { set: [{ id: 1, o: 0.5 }] }), 12), true);
  assert.deepEqual(store.latest.items, [{ id: 1, o: 0.5 }]);
  assert.deepEqual(store.previous.items, [{ id: 1 }]);
});

test('a delta with b applies to every frame from b through n − 1 (sparse)', () => {
  const store = new FrameStore();
  store.apply(full(5, [{ id: 1 }]), 10);
  assert.equal(store.apply(delta(40, { b: 6 }), 11), false, 'frame 5 is before the range');
  assert.equal(store.apply(delta(40, { b: 5 }), 12), true, 'a keepalive: nothing changed since 5');
  assert.equal(store.latest.n, 40);
  assert.deepEqual(store.latest.items, [{ id: 1 }]);
  assert.equal(store.apply(delta(52, { b: 41, set: [{ id: 1, o: 0.5 }] }), 13), false, 'frame 40 is before the range');
  assert.equal(store.apply(delta(52, { b: 40, set: [{ id: 1, o: 0.5 }] }), 14, 1 / 30), true);
  assert.deepEqual(store.latest.items, [{ id: 1, o: 0.5 }]);
  assert.equal(store.previous.n, 51, 'the unchanged list stands for frame n − 1');
  assert.equal(store.previous.t, 51 / 30);
  assert.deepEqual(store.previous.items, [{ id: 1 }]);
  assert.equal(store.apply(delta(52, { b: 51 }), 15), false, 'n must grow');
});

test('expectFull makes only a full frame apply next', () => {
  const store = new FrameStore();
  store.apply(full(1, [{ id: 1 }]), 0);
  store.expectFull();
  assert.equal(store.apply(delta(2, {}), 1), false);
  assert.equal(store.latest.n, 1, 'the snapshot stays drawable');
  assert.equal(store.apply(full(9, []), 2), true);
  assert.equal(store.apply(delta(10, { add: [{ id: 3 }] }), 3), true);
  assert.deepEqual(store.latest.items, [{ id: 3 }]);
});

test('applyDelta removes, sets (null is the default), adds, then orders; the old list is kept', () => {
  const items = [{ id: 1, bg: '#ffffff' }, { id: 2, name: 'b', o: 0.5, bw: 2 }, { id: 3 }];
  const copy = structuredClone(items);
  const next = applyDelta(items, { remove: [3], set: [{ id: 2, o: null, bw: 1 }], add: [{ id: 4 }], order: [4, 2, 1] });
  assert.deepEqual(next, [{ id: 4 }, { id: 2, name: 'b', bw: 1 }, { id: 1, bg: '#ffffff' }]);
  assert.deepEqual(items, copy);
  assert.equal(next[2], items[0], 'an unchanged item is shared, not copied');
});

test('applyDelta refuses ids the list lacks', () => {
  assert.equal(applyDelta([{ id: 1 }], { set: [{ id: 2, o: 1 }] }), null);
  assert.equal(applyDelta([{ id: 1 }], { order: [1, 2] }), null);
  assert.equal(applyDelta([{ id: 1 }], { remove: [1], set: [{ id: 1, o: 1 }] }), null);
});

// Records [id, kid, b, l, x, y, vx, vy, s, w]: ids 1–3 born at 0, 0.5, 0.5, living 1, 2, 1 s.
const r1 = [1, 0, 0, 1, 0, 0, 0, 0, 1, 0];
const r2 = [2, 0, 0.5, 2, 5, 5, 0, 0, 1, 0];
const r3 = [3, 0, 0.5, 1, 9, 9, 0, 0, 1, 0];
const PK = [[0, 'flake']];
const at = (n, t, keys) => ({ type: 'frame', n, t, full: false, ...keys });

test('pba inserts records in drawing order (b, then id) skipping ids held, pbr drops them, neither key stays', () => {
  const items = [{ id: 1, pk: PK, pb: [r1, r3] }];
  const born = [4, 0, 0.25, 1, 0, 0, 0, 0, 1, 0];
  const [item] = applyDelta(items, at(2, 0.5, { set: [{ id: 1, pba: [r2, born, r3], pbr: [1], o: 0.5 }] }));
  assert.deepEqual(item, { id: 1, o: 0.5, pk: PK, pb: [born, r2, r3] });
  assert.equal(item.pb[2], r3, 'records are shared, not copied');
  assert.deepEqual(items[0].pb, [r1, r3], 'the old item keeps its records');
});

test('applying a frame drops the records that died naturally by its t, in every item', () => {
  const store = new FrameStore();
  store.apply({ type: 'frame', n: 1, t: 0.5, full: true, items: [{ id: 1, pk: PK, pb: [r1, r2, r3] }, { id: 2, bg: '#ffffff' }] }, 0);
  const [emitter, plain] = store.latest.items;
  store.apply(at(2, 0.9, {}), 1);
  assert.equal(store.latest.items[0], emitter, 'nothing died by 0.9: the item is shared');
  store.apply(at(3, 1, {}), 2);
  assert.deepEqual(store.latest.items[0].pb, [r2, r3], 'record 1 dies at age 1 = l');
  assert.equal(store.latest.items[1], plain);
  assert.deepEqual(store.previous.items[0].pb, [r1, r2, r3], 'the previous snapshot keeps them');
  store.apply(at(4, 1.5, { set: [{ id: 1, pk: null }] }), 3);
  assert.deepEqual(store.latest.items[0], { id: 1, pb: [r2] }, 'record 3 dies at 1.5; pk goes when the server says');
  store.apply(at(5, 2.5, {}), 4);
  assert.deepEqual(store.latest.items[0], { id: 1 }, 'an item left with no records has no pb');
  store.apply(at(6, 2.6, { set: [{ id: 1, pk: [] }] }), 5);
  assert.deepEqual(store.latest.items[0], { id: 1 }, 'an empty pk is left out, as a full frame writes it');
});

test('a full frame is pruned at its t too; pt maps the frame clock to the records\' local time', () => {
  const store = new FrameStore();
  store.apply({ type: 'frame', n: 1, t: 2, full: true, items: [{ id: 1, pk: PK, pt: [0.5, 0], pb: [r1, r2] }] }, 0);
  assert.deepEqual(store.latest.items[0].pb, [r2], 't 2 is local time 1: record 1 (age 1 = l) is dead, record 2 (age 0.5) alive');
});

test('a delta prunes with the item\'s pt as the delta leaves it, before pba is added', () => {
  const items = [{ id: 1, pk: PK, pt: [1, 10], pb: [r1] }];
  const born = [5, 0, 0.9, 1, 0, 0, 0, 0, 1, 0];
  const [item] = applyDelta(items, at(2, 0.95, { set: [{ id: 1, pt: null, pba: [born] }] }));
  assert.deepEqual(item, { id: 1, pk: PK, pb: [r1, born] }, 'pt back to [1, 0]: local 0.95, record 1 still alive');
});

test('between two frames the records drawn are the newer ones and those the newer frame dropped', () => {
  const store = new FrameStore();
  store.apply({ type: 'frame', n: 1, t: 0.9, full: true, items: [{ id: 1, pk: PK, pb: [r1, r2, r3] }] }, 0);
  const born = [4, 0, 0.95, 1, 0, 0, 0, 0, 1, 0];
  store.apply(at(2, 1.1, { set: [{ id: 1, pbr: [3], pba: [born] }] }), 1);
  assert.deepEqual(store.latest.items[0].pb, [r2, born], 'record 1 died at 1, record 3 was dropped');
  const [between] = interpolateItems(store.previous.items, store.latest.items, 0.5);
  assert.deepEqual(between.pb, [r1, r2, r3, born], 'records 1 and 3 can still be alive before 1.1: they are evaluated too');
  assert.equal(interpolateItems(store.previous.items, store.latest.items, 0.25)[0].pb, between.pb, 'made once per pair');
  assert.equal(interpolateItems(store.previous.items, store.latest.items, 1)[0].pb, store.latest.items[0].pb);
  store.apply(at(3, 2.5, {}), 2);
  const [last] = interpolateItems(store.previous.items, store.latest.items, 0.5);
  assert.deepEqual(store.latest.items[0], { id: 1, pk: PK });
  assert.deepEqual(last, { id: 1, pk: PK, pb: [r2, born] }, 'the older records, while the newer frame has none');
});
