// The pure parts of drawing shapes, gradients and groups (protocol.md, "Paths", "Gradients"):
// public/lib/path-table.js, gradient-stops.js, and the welcome check of features.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FEATURES, PROTOCOL_VERSION, unsupportedReason } from '../../public/lib/features.js';
import { FrameStore } from '../../public/lib/frame-store.js';
import { canvasStops, conicStartAngle, radialEllipse } from '../../public/lib/gradient-stops.js';
import { applyPathTable, pathBounds, pathEntries } from '../../public/lib/path-table.js';

test('a full frame replaces the path table; a delta drops, then adds; the old table is kept', () => {
  const first = applyPathTable(new Map([[9, 'M0 0']]), { full: true, paths: [[1, 'M0 0L10 0'], [2, 'M1 1L2 2']] });
  assert.deepEqual(pathEntries(first), [[1, 'M0 0L10 0'], [2, 'M1 1L2 2']]);
  const second = applyPathTable(first, { full: false, unpaths: [1], paths: [[3, 'M0 0L5 0']] });
  assert.deepEqual(pathEntries(second), [[2, 'M1 1L2 2'], [3, 'M0 0L5 0']]);
  assert.deepEqual(pathEntries(first), [[1, 'M0 0L10 0'], [2, 'M1 1L2 2']], 'the table before is not modified');
  assert.equal(applyPathTable(second, { full: false, set: [] }), second, 'a delta without paths shares the table');
});

test('the frame store keeps each snapshot with its path table', () => {
  const store = new FrameStore();
  store.apply({ type: 'frame', n: 1, t: 0, full: true, items: [{ id: 1, fill: { path: 4, c: '#ff0000' } }], paths: [[4, 'M0 0L1 1Z']] }, 0);
  store.apply({ type: 'frame', n: 2, t: 0.1, full: false, set: [{ id: 1, fill: { path: 5, c: '#ff0000' } }], paths: [[5, 'M0 0L2 2Z']], unpaths: [4] }, 1);
  assert.deepEqual(pathEntries(store.latest.paths), [[5, 'M0 0L2 2Z']]);
  assert.deepEqual(pathEntries(store.previous.paths), [[4, 'M0 0L1 1Z']]);
});

test('path bounds hold every point, control points included, grown by the pad', () => {
  assert.deepEqual(pathBounds('M90 50C90 72.09 72.09 90 50 90L-10.5 1e1Z'), [-10.5, 10, 100.5, 80]);
  assert.deepEqual(pathBounds('M0 0L100 0', 3), [-3, -3, 106, 6]);
  assert.equal(pathBounds('Z'), null);
});

test('canvas stops: inside 0…1 kept, outside replaced by the ramp at 0 and 1', () => {
  assert.deepEqual(canvasStops([[0, '#ff0000'], [1, '#0000ff']]), [[0, 'rgba(255, 0, 0, 1)'], [1, 'rgba(0, 0, 255, 1)']]);
  // Stops at −1 (red) and 0.5 (blue): at 0 the ramp is 2/3 of the way: (85, 0, 170); after 0.5 the last colour pads.
  assert.deepEqual(canvasStops([[-1, '#ff0000'], [0.5, '#0000ff']]),
    [[0, 'rgba(85, 0, 170, 1)'], [0.5, 'rgba(0, 0, 255, 1)'], [1, 'rgba(0, 0, 255, 1)']]);
  // Alpha interpolates unpremultiplied: #00000000 and #000000 at −1 and 1 give alpha 0.5 at 0.
  assert.deepEqual(canvasStops([[-1, '#00000000'], [1, '#000000']]), [[0, 'rgba(0, 0, 0, 0.5)'], [1, 'rgba(0, 0, 0, 1)']]);
  assert.deepEqual(canvasStops([]), []);
});

test('radial ellipse and conic start angle from p0 and p1', () => {
  // startPoint (0.5, 0.5), endPoint (1, 1) on 200×60: centre (100, 30), radii 100 and 30.
  assert.deepEqual(radialEllipse([100, 30], [200, 60]), { cx: 100, cy: 30, rx: 100, ry: 30 });
  assert.equal(radialEllipse([100, 30], [100, 60]), null);
  // Towards the top on a y-down screen: −π/2.
  assert.equal(conicStartAngle([60, 60], [60, 0]), -Math.PI / 2);
});

test('the welcome check refuses a newer protocol, an unknown feature or a server without births, and accepts this server', () => {
  const features = ['paths', 'shape', 'gradient', 'group', 'replicator', 'additive', 'imagetint', 'sparse', 'acks', 'births'];
  assert.deepEqual([...FEATURES].sort(), [...features].sort());
  assert.equal(unsupportedReason({ protocol: 2, features }), null);
  assert.equal(unsupportedReason({ protocol: 2, features: features.filter((name) => name !== 'births') }),
    'this page needs a newer server (features births)', 'such a server sends the old particle tuples');
  assert.equal(unsupportedReason({ protocol: 1 }), 'this page needs a newer server (features births)');
  assert.match(unsupportedReason({ protocol: PROTOCOL_VERSION + 1, features }), /protocol 3.*reload/);
  assert.equal(unsupportedReason({ protocol: 2, features: [...features, 'filters'] }), 'this page cannot draw filters: reload the page');
});
