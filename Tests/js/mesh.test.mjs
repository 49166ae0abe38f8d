// public/lib/mesh.js: the triangles a projective raster is drawn through tile the projected rect
// without overlapping (so translucent contents are not drawn twice) and are added (`lighter`).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { mapPoint } from '../../public/lib/homography.js';
import { drawMesh } from '../../public/lib/mesh.js';

/** A 2D context that records, for each drawImage, the clip polygon, composite operation and source rect. */
function recordingContext() {
  const draws = [];
  let path = [], clip = null, op = 'source-over';
  const stack = [];
  return {
    draws,
    get globalCompositeOperation() { return op; },
    set globalCompositeOperation(value) { op = value; },
    save() { stack.push([clip, op]); },
    restore() { [clip, op] = stack.pop(); },
    setTransform() {},
    beginPath() { path = []; },
    lineTo(x, y) { path.push([x, y]); },
    closePath() {},
    clip() { clip = path; },
    drawImage(source, sx, sy, sw, sh) { draws.push({ clip, op, cell: [sx, sy, sw, sh] }); },
  };
}

/** The signed area of a polygon, by the shoelace formula. */
function area(points) {
  return points.reduce((sum, [x0, y0], k) => {
    const [x1, y1] = points[(k + 1) % points.length];
    return sum + (x0 * y1 - x1 * y0) / 2;
  }, 0);
}

test('the mesh tiles the projected rect exactly: triangle areas sum to the outline area', () => {
  // A 100 × 60 rect turned about its vertical axis in perspective (w grows along x).
  const m = [1, 0, 0, 1, 50, 40, 0.004, 0, 1];
  const ctx = recordingContext();
  drawMesh(ctx, {}, [0, 0, 200, 120], [0, 0, 100, 60], m, 4);
  assert.equal(ctx.draws.length, 32, '4 × 4 cells of two triangles');
  assert.ok(ctx.draws.every((d) => d.op === 'lighter' && d.clip.length === 3));
  // The outline through the grid's boundary points (the mesh is piecewise affine between them).
  const edge = [0, 1, 2, 3];
  const outline = [
    ...edge.map((k) => mapPoint(m, 25 * k, 0)), ...edge.map((k) => mapPoint(m, 100, 15 * k)),
    ...edge.map((k) => mapPoint(m, 100 - 25 * k, 60)), ...edge.map((k) => mapPoint(m, 0, 60 - 15 * k)),
  ];
  const sum = ctx.draws.reduce((total, d) => total + Math.abs(area(d.clip)), 0);
  assert.ok(Math.abs(sum - Math.abs(area(outline))) < 1e-6, `${sum} vs ${Math.abs(area(outline))}`);
});

test('each cell is drawn with a margin of source pixels, within the source rect', () => {
  // A 200 × 100 raster of a 100 × 50 rect drawn at scale 1: 2 source pixels per device pixel. The
  // margin is two device pixels under the bound |M|_F / |det M| = (0.5 · √2) / 0.25 source pixels
  // per device pixel: 2 · 2√2 = 5.66, rounded up to 6.
  const ctx = recordingContext();
  drawMesh(ctx, {}, [0, 0, 200, 100], [0, 0, 100, 50], [1, 0, 0, 1, 0, 0], 2);
  // Cell (0, 0) is source [0, 0]–[100, 50]: grown to [0, 0]–[106, 56].
  assert.deepEqual(ctx.draws[0].cell, [0, 0, 106, 56]);
  // Cell (1, 1) is source [100, 50]–[200, 100]: grown to [94, 44]–[200, 100].
  assert.deepEqual(ctx.draws[6].cell, [94, 44, 106, 56]);
});
