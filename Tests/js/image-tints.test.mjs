// public/lib/image-tints.js: an image multiplied by a colour (an item's `it`, a `pimg` colour) is
// drawn once per asset and colour (multiply, then its own alpha through destination-in), kept,
// and handed back unchanged; white or no colour is the image itself; at most 64 are kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ImageTints } from '../../public/lib/image-tints.js';

/** Assets by id, each a 44×44 (or given size) image marker. */
function assets(sizes = {}) {
  const table = new Map();
  return {
    get(id) {
      if (id === 'loading') return null;
      if (!table.has(id)) {
        const [width, height] = sizes[id] ?? [44, 44];
        table.set(id, { image: { id }, width, height });
      }
      return table.get(id);
    },
  };
}

/** A canvas factory that records each canvas's size and the drawing calls on it. */
function recordingCanvases() {
  const made = [];
  const makeCanvas = (width, height) => {
    const calls = [];
    let op = 'source-over', fill = null;
    const ctx = {
      get globalCompositeOperation() { return op; },
      set globalCompositeOperation(value) { op = value; },
      get fillStyle() { return fill; },
      set fillStyle(value) { fill = value; },
      drawImage(image, x, y, w, h) { calls.push(['drawImage', op, image.id, x, y, w, h]); },
      fillRect(x, y, w, h) { calls.push(['fillRect', op, fill, x, y, w, h]); },
    };
    const canvas = { width, height, calls, getContext: () => ctx };
    made.push(canvas);
    return canvas;
  };
  return { made, makeCanvas };
}

test('a tinted image is the image multiplied by the colour with its own alpha, at 4 pixels a point', () => {
  const { made, makeCanvas } = recordingCanvases();
  const tints = new ImageTints(assets(), makeCanvas);
  const coin = tints.source('coin', '#ff8033');
  assert.equal(made.length, 1);
  assert.deepEqual([coin.width, coin.height], [44, 44]);
  assert.equal(coin.image, made[0]);
  assert.deepEqual([made[0].width, made[0].height], [176, 176]);
  assert.deepEqual(made[0].calls, [
    ['drawImage', 'source-over', 'coin', 0, 0, 176, 176],
    ['fillRect', 'multiply', '#ff8033', 0, 0, 176, 176],
    ['drawImage', 'destination-in', 'coin', 0, 0, 176, 176],
  ]);
});

test('a large image is tinted at most 2048 pixels on its longer side', () => {
  const { made, makeCanvas } = recordingCanvases();
  new ImageTints(assets({ poster: [1024, 512] }), makeCanvas).source('poster', '#808080');
  assert.deepEqual([made[0].width, made[0].height], [2048, 1024]);
});

test('asking again hands back the same tinted image without drawing it again', () => {
  const { made, makeCanvas } = recordingCanvases();
  const tints = new ImageTints(assets(), makeCanvas);
  const first = tints.source('coin', '#ff8033');
  assert.equal(tints.source('coin', '#ff8033'), first);
  assert.equal(made.length, 1);
  assert.notEqual(tints.source('coin', '#808080'), first);
  assert.notEqual(tints.source('star', '#ff8033').image, first.image);
  assert.equal(made.length, 3);
});

test('no colour or white is the image itself; a loading image is null', () => {
  const { made, makeCanvas } = recordingCanvases();
  const table = assets();
  const tints = new ImageTints(table, makeCanvas);
  assert.equal(tints.source('coin'), table.get('coin'));
  assert.equal(tints.source('coin', '#ffffff'), table.get('coin'));
  assert.equal(tints.source('loading', '#ff8033'), null);
  assert.equal(made.length, 0);
});

test('beyond 64 tinted images the oldest is dropped and made again when asked for', () => {
  const { made, makeCanvas } = recordingCanvases();
  const tints = new ImageTints(assets(), makeCanvas);
  const colour = (k) => `#0000${k.toString(16).padStart(2, '0')}`;
  const first = tints.source('coin', colour(0));
  for (let k = 1; k < 64; k += 1) tints.source('coin', colour(k));
  assert.equal(tints.source('coin', colour(0)), first, '64 are kept');
  tints.source('coin', colour(64));
  assert.equal(made.length, 65);
  assert.equal(tints.source('coin', colour(63)), tints.source('coin', colour(63)), 'the newest is kept');
  assert.equal(made.length, 65);
  const again = tints.source('coin', colour(0));
  assert.notEqual(again, first);
  assert.equal(made.length, 66);
});

test('an asset store that hands out a new {image, width, height} on each call still gets the kept tint', () => {
  const { made, makeCanvas } = recordingCanvases();
  const image = { id: 'coin' };
  const tints = new ImageTints({ get: () => ({ image, width: 44, height: 44 }) }, makeCanvas);
  const first = tints.source('coin', '#ff8033');
  assert.equal(tints.source('coin', '#ff8033'), first);
  assert.equal(tints.tint({ image, width: 44, height: 44 }, 0xff8033), first, 'the colour as 0xrrggbb');
  assert.equal(made.length, 1);
});
