// Drawing only what changed (issue 36): the redraw loop and the same-items check that decide when
// the page draws.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { applyDelta } from '../../public/lib/frame-store.js';
import { holdsLiveRecord } from '../../public/lib/particle-record.js';
import { RedrawLoop } from '../../public/lib/redraw-loop.js';
import { sameItems } from '../../public/lib/same-items.js';

/** A fake requestAnimationFrame: `run(now)` runs the callbacks scheduled so far. */
function fakeFrames() {
  let queue = new Map();
  let next = 1;
  globalThis.requestAnimationFrame = (callback) => {
    queue.set(next, callback);
    return next++;
  };
  globalThis.cancelAnimationFrame = (id) => queue.delete(id);
  return {
    pending: () => queue.size,
    run(now) {
      const callbacks = [...queue.values()];
      queue = new Map();
      for (const callback of callbacks) callback(now);
    },
  };
}

test('the loop draws once per invalidation, and keeps drawing only while the draw says it moves', () => {
  const frames = fakeFrames();
  const times = [];
  let moving = 2;
  const loop = new RedrawLoop((now) => {
    times.push(now);
    return moving-- > 0;
  });
  frames.run(0);
  assert.deepEqual(times, [], 'nothing asked, nothing drawn');
  loop.invalidate();
  loop.invalidate();
  assert.equal(frames.pending(), 1, 'asked twice, scheduled once');
  for (const now of [16, 33, 50, 66, 83]) frames.run(now);
  assert.deepEqual(times, [16, 33, 50], 'two moving draws, then the settled one, then nothing');
});

test('the loop draws nothing while hidden, once when shown again, and nothing after stop', () => {
  const frames = fakeFrames();
  let draws = 0;
  const loop = new RedrawLoop(() => {
    draws += 1;
    return false;
  });
  loop.invalidate();
  loop.setHidden(true);
  loop.invalidate();
  frames.run(16);
  assert.equal(draws, 0);
  loop.setHidden(false);
  frames.run(33);
  assert.equal(draws, 1);
  loop.stop();
  loop.invalidate();
  loop.setHidden(false);
  frames.run(50);
  assert.equal(draws, 1);
});

test('a delta that changes nothing gives the same items; one that sets a field does not', () => {
  const items = [{ id: 1, s: [10, 10], bg: '#ff0000' }, { id: 2, o: 0.5 }];
  const still = applyDelta(items, { type: 'frame', n: 2, t: 0.1, full: false });
  assert.notEqual(still, items);
  assert.equal(sameItems(items, still), true);
  const moved = applyDelta(items, { type: 'frame', n: 2, t: 0.1, full: false, set: [{ id: 2, o: 0.6 }] });
  assert.equal(sameItems(items, moved), false);
  assert.equal(sameItems(items, items.slice(0, 1)), false);
  assert.equal(sameItems(null, items), false);
  assert.equal(sameItems(null, null), true);
});

test('with no new frame the loop keeps drawing while a record is alive at the display time, then stops', () => {
  const frames = fakeFrames();
  // One record born at local 0 living 0.1 s, the emitter's clock at half speed: alive for d < 0.2.
  const items = [{ id: 1, pk: [[0, 'flake']], pt: [0.5, 0], pb: [[1, 0, 0, 0.1, 0, 0, 0, 50, 1, 0]] }];
  const times = [];
  const loop = new RedrawLoop((now) => {
    times.push(now);
    return holdsLiveRecord(items, now / 1000);
  });
  loop.invalidate();
  for (let now = 0; now <= 400; now += 50) frames.run(now);
  assert.deepEqual(times, [0, 50, 100, 150, 200], 'drawn each frame until d = 0.2 finds the record dead, then not at all');
  assert.equal(frames.pending(), 0, 'a still scene schedules nothing');
});

test('the loop draws in the frames it is given, and cancels there', () => {
  const asked = [];
  const cancelled = [];
  const frames = {
    request: (callback) => {
      asked.push(callback);
      return { n: asked.length };
    },
    cancel: (handle) => cancelled.push(handle.n),
  };
  globalThis.requestAnimationFrame = () => assert.fail('the page\'s own frames were asked for');
  const times = [];
  const loop = new RedrawLoop((now) => {
    times.push(now);
    return times.length < 2;
  }, frames);
  loop.invalidate();
  loop.invalidate();
  assert.equal(asked.length, 1, 'asked twice, scheduled once');
  asked[0](16);
  asked[1](33);
  assert.deepEqual(times, [16, 33], 'one moving draw, then the settled one');
  assert.equal(asked.length, 2);
  loop.invalidate();
  loop.setHidden(true);
  assert.deepEqual(cancelled, [3], 'hiding cancels the frame asked for');
});
