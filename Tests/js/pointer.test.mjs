// Gestures from pointer events (public/lib/pointer.js): when a tap is reported, and with what.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { PointerInput } from '../../public/lib/pointer.js';

/** An element that keeps its listeners, and a pointer event on it. */
function fakeElement() {
  const listeners = {};
  return {
    captured: [],
    addEventListener: (type, listener) => { listeners[type] = listener; },
    removeEventListener: (type) => { delete listeners[type]; },
    setPointerCapture(id) { this.captured.push(id); },
    fire: (type, fields) => listeners[type]?.({ pointerId: 1, isPrimary: true, button: 0, preventDefault() {}, ...fields }),
  };
}

function input(options) {
  const element = fakeElement();
  const reported = [];
  let now = 10;
  const pointer = new PointerInput(element, {
    stamp: () => now,
    onTap: (gesture) => reported.push(['tap', gesture]),
    onDrag: (phase, gesture) => reported.push([phase, gesture]),
  }, options);
  return { element, reported, pointer, later: () => { now += 1; } };
}

test('a tap is reported on the pointer up, with the down position and stamp, when drags are taken', () => {
  const { element, reported, later } = input();
  element.fire('pointerdown', { clientX: 5, clientY: 6 });
  assert.deepEqual(reported, [], 'a press may still become a drag');
  later();
  element.fire('pointerup', { clientX: 8, clientY: 6 });
  assert.deepEqual(reported, [['tap', { clientX: 5, clientY: 6, stamp: 10 }]]);
});

test('a tap is reported as the pointer goes down when the scene takes taps alone', () => {
  const { element, reported, pointer, later } = input();
  pointer.tapOnDown = true;
  element.fire('pointerdown', { clientX: 5, clientY: 6 });
  assert.deepEqual(reported, [['tap', { clientX: 5, clientY: 6, stamp: 10 }]]);
  later();
  element.fire('pointermove', { clientX: 60, clientY: 6 });
  element.fire('pointerup', { clientX: 60, clientY: 6 });
  assert.equal(reported.length, 1, 'the press is not followed: no drag, no second tap');
  assert.deepEqual(element.captured, [], 'nor is the pointer captured');
  element.fire('pointerdown', { clientX: 7, clientY: 8, button: 2 });
  element.fire('pointerdown', { clientX: 7, clientY: 8, isPrimary: false });
  assert.equal(reported.length, 1, 'only the primary button of the primary pointer taps');
  element.fire('pointerdown', { clientX: 7, clientY: 8 });
  assert.deepEqual(reported[1], ['tap', { clientX: 7, clientY: 8, stamp: 11 }], 'each press taps');
});

test('a press that moves past the slop is a drag when drags are taken', () => {
  const { element, reported } = input();
  element.fire('pointerdown', { clientX: 5, clientY: 6 });
  element.fire('pointermove', { clientX: 60, clientY: 6 });
  element.fire('pointerup', { clientX: 60, clientY: 6 });
  assert.deepEqual(reported.map(([kind]) => kind), ['began', 'moved', 'ended']);
});
