// The view's animation frames with a render worker (public/lib/worker-renderer.js): the page's
// until the worker holds the canvas, the worker's after, when it has them.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { WorkerRenderer } from '../../public/lib/worker-renderer.js';

/** A worker that keeps what it is sent; `say(data)` delivers a message from it. */
class FakeWorker {
  constructor() {
    this.sent = [];
  }
  postMessage(data) {
    this.sent.push(data.type);
  }
  addEventListener() {}
  removeEventListener() {}
  terminate() {}
  say(data) {
    this.onmessage({ data });
  }
}

function renderer() {
  globalThis.Worker = FakeWorker;
  const pageAsked = [];
  globalThis.requestAnimationFrame = (callback) => pageAsked.push(callback);
  globalThis.cancelAnimationFrame = () => {};
  const view = new WorkerRenderer({ transferControl: () => ({}) }, {
    rasterise: true, onPainted() {}, onInvalidate() {}, onFailed: () => assert.fail('failed'),
  });
  return { view, worker: view.worker, pageAsked };
}

test('frames are the page\'s before the worker holds the canvas, the worker\'s after', () => {
  const { view, worker, pageAsked } = renderer();
  const times = [];
  const before = view.requestFrame((time) => times.push(time));
  assert.equal(pageAsked.length, 1, 'before it started: the page\'s frame');
  assert.equal(typeof before, 'number');
  worker.say({ type: 'started', frames: true });
  assert.deepEqual(worker.sent, ['init']);
  view.requestFrame(() => assert.fail('replaced by the next request'));
  view.requestFrame((time) => times.push(time));
  assert.deepEqual(worker.sent, ['init', 'frame?'], 'asked of the worker once, however often requested');
  assert.equal(pageAsked.length, 1, 'and not of the page');
  worker.say({ type: 'frame', time: performance.timeOrigin + 1234.5 });
  assert.deepEqual(times, [1234.5], 'the latest callback, at the frame\'s time on the page\'s clock');
  worker.say({ type: 'frame', time: performance.timeOrigin + 1250 });
  assert.deepEqual(times, [1234.5], 'an answer nobody waits for is ignored');
});

test('a cancelled frame is not drawn, and the next request asks again', () => {
  const { view, worker } = renderer();
  worker.say({ type: 'started', frames: true });
  const handle = view.requestFrame(() => assert.fail('cancelled'));
  view.cancelFrame(handle);
  const times = [];
  view.requestFrame((time) => times.push(time));
  assert.deepEqual(worker.sent, ['init', 'frame?', 'frame?']);
  worker.say({ type: 'frame', time: performance.timeOrigin + 10 });
  worker.say({ type: 'frame', time: performance.timeOrigin + 26 });
  assert.deepEqual(times, [10]);
});

test('a worker without animation frames leaves them to the page', () => {
  const { view, worker, pageAsked } = renderer();
  worker.say({ type: 'started', frames: false });
  view.requestFrame(() => {});
  assert.equal(pageAsked.length, 1);
  assert.deepEqual(worker.sent, ['init']);
});
