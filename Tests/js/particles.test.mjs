// public/lib/particles.js: the painter draws an emitter item's records at the display time, each
// its kind's image tinted by its 8-bit colour, and skips the dead, the invisible and the off-canvas.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ImageTints } from '../../public/lib/image-tints.js';
import { ParticlePainter } from '../../public/lib/particles.js';

/** A context that records each drawImage with its transform and alpha. */
function recordingContext() {
  const draws = [];
  let transform = [1, 0, 0, 1, 0, 0];
  return {
    draws,
    globalAlpha: 1,
    save() {},
    restore() {},
    setTransform(...m) { transform = m; },
    drawImage(image, x, y, w, h) { draws.push({ image: image.id ?? image.colour, transform, alpha: this.globalAlpha, x, y, w, h }); },
  };
}

/** Assets: a 10×10 `dot`; tinted canvases remember their colour. */
function tints() {
  const dot = { image: { id: 'dot' }, width: 10, height: 10 };
  const makeCanvas = () => {
    let fill = null;
    const canvas = { getContext: () => ({ drawImage() {}, fillRect() { canvas.colour = fill; }, set fillStyle(v) { fill = v; } }) };
    return canvas;
  };
  return new ImageTints({ get: (id) => (id === 'dot' ? dot : null) }, makeCanvas);
}

const BOX = { left: 0, top: 0, right: 400, bottom: 400 };

test('each drawn record is its image at scale, spin and alpha through the matrix, tinted by its colour', () => {
  const ctx = recordingContext();
  const item = {
    pk: [[1, 'dot', 0, 0, 0, -0.5, 0, -1]],
    pb: [
      [1, 1, 0, 2, 100, 50, 20, 0, 2, Math.PI / 2, 0.8, '#ff8000'],
      [2, 1, 5, 1, 0, 0, 0, 0, 1, 0], // not born at time 1
      [3, 1, 0, 0.5, 0, 0, 0, 0, 1, 0], // dead at time 1
      [4, 1, 0, 2, 10, 10, 0, 0, 0.00004, 0], // scale 0
    ],
  };
  new ParticlePainter(tints()).draw(ctx, item, [2, 0, 0, 2, 5, 5], 0.5, null, 1, BOX);
  assert.equal(ctx.draws.length, 1);
  const [draw] = ctx.draws;
  // At age 1: centre (120, 50) → device (245, 105); rotation π/2 at scale 2 through 2×: [0, 4, −4, 0].
  assert.deepEqual(draw.transform.map((v) => Math.round(v * 1e9) / 1e9), [0, 4, -4, 0, 245, 105]);
  assert.ok(Math.abs(draw.alpha - 0.5 * 0.3) < 1e-12, 'item opacity × (0.8 − 0.5)');
  assert.equal(draw.image, '#ff0000', 'green 128/255 − 1 clamps to 0');
  assert.deepEqual([draw.x, draw.y, draw.w, draw.h], [-5, -5, 10, 10]);
});

test('a disc wholly outside the box is not drawn; one overlapping it is', () => {
  const ctx = recordingContext();
  // The dot's half diagonal is 7.07 points: a particle 7 points outside still overlaps the box.
  const at = (id, x, y) => [id, 1, 0, 9, x, y, 0, 0, 1, 0];
  const item = { pk: [[1, 'dot']], pb: [at(1, -7, 100), at(2, -7.1, 100), at(3, 100, 407), at(4, 100, 407.1)] };
  new ParticlePainter(tints()).draw(ctx, item, [1, 0, 0, 1, 0, 0], 1, null, 1, BOX);
  assert.deepEqual(ctx.draws.map((d) => d.transform.slice(4)), [[-7, 100], [100, 407]]);
});

test('the emitter\'s pt sets the records\' local time', () => {
  const ctx = recordingContext();
  const item = { pk: [[1, 'dot']], pt: [2, -10], pb: [[1, 1, 0, 1, 0, 0, 10, 0, 1, 0]] };
  const painter = new ParticlePainter(tints());
  painter.draw(ctx, item, [1, 0, 0, 1, 0, 0], 1, null, 5.25, BOX);
  assert.equal(ctx.draws[0].transform[4], 5, 'local 0.5: x = 10 × 0.5');
  painter.draw(ctx, item, [1, 0, 0, 1, 0, 0], 1, null, 5.5, BOX);
  assert.equal(ctx.draws.length, 1, 'local 1: dead');
});
