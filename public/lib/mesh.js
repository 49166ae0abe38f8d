import { mapPoint, triangleMap, weightAt } from './homography.js';

/**
 * Draws a raster through a projective map by subdivision: the target rect is cut into a
 * `cells` × `cells` grid, each cell into two triangles, and each triangle of the source is
 * drawn with the affine map that takes its corners exactly onto the projected corners,
 * clipped to the projected triangle. Within a cell the error is that of replacing the
 * homography by that affine map (well under a pixel at 8 × 8 for the tilts scenes use).
 * Each triangle's edges inside the rect are pushed out by `GROW` device pixels so neighbours
 * overlap and no hairline seams show; edges on the rect's outline are exact.
 *
 * @param {CanvasRenderingContext2D} ctx drawn in device pixels (its transform is replaced)
 * @param {CanvasImageSource} source
 * @param {number[]} sourceRect [x, y, w, h] in the source's pixels
 * @param {number[]} targetRect [x, y, w, h] in item space
 * @param {number[]} m the item-to-device matrix (6 or 9 numbers)
 * @param {number} [cells]
 */
export function drawMesh(ctx, source, sourceRect, targetRect, m, cells = 8) {
  const [sx, sy, sw, sh] = sourceRect;
  const [tx, ty, tw, th] = targetRect;
  const grid = [];
  for (let j = 0; j <= cells; j += 1) {
    for (let i = 0; i <= cells; i += 1) {
      const x = tx + (tw * i) / cells, y = ty + (th * j) / cells;
      grid.push({
        source: [sx + (sw * i) / cells, sy + (sh * j) / cells],
        target: weightAt(m, x, y) > 0 ? mapPoint(m, x, y) : null,
      });
    }
  }
  const at = (i, j) => grid[j * (cells + 1) + i];
  // A grown inner edge meeting the outline at a sharp corner pushes that corner a little outside
  // the outline: clip the whole mesh to the projected rect (exact: its edges stay straight).
  const outline = [
    ...Array.from({ length: cells }, (_, k) => at(k, 0)),
    ...Array.from({ length: cells }, (_, k) => at(cells, k)),
    ...Array.from({ length: cells }, (_, k) => at(cells - k, cells)),
    ...Array.from({ length: cells }, (_, k) => at(0, cells - k)),
  ];
  ctx.save();
  if (outline.every((corner) => corner.target)) {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.beginPath();
    for (const { target: [x, y] } of outline) ctx.lineTo(x, y);
    ctx.closePath();
    ctx.clip();
  }
  for (let j = 0; j < cells; j += 1) {
    for (let i = 0; i < cells; i += 1) {
      // The cell's source pixels with one pixel of margin (within the source rect), so the
      // clip edge has image under it.
      const x0 = Math.max(sx, sx + (sw * i) / cells - 1), x1 = Math.min(sx + sw, sx + (sw * (i + 1)) / cells + 1);
      const y0 = Math.max(sy, sy + (sh * j) / cells - 1), y1 = Math.min(sy + sh, sy + (sh * (j + 1)) / cells + 1);
      const cell = [x0, y0, x1 - x0, y1 - y0];
      // Edges: top, right, diagonal; then diagonal, bottom, left. Inner ones are grown.
      drawTriangle(ctx, source, cell, [at(i, j), at(i + 1, j), at(i + 1, j + 1)], [j > 0, i < cells - 1, true]);
      drawTriangle(ctx, source, cell, [at(i, j), at(i + 1, j + 1), at(i, j + 1)], [true, j < cells - 1, i > 0]);
    }
  }
  ctx.restore();
}

/** Device pixels by which each triangle's inner edges are pushed out, so neighbours overlap. */
const GROW = 0.75;

/** The furthest (device pixels) a corner may move when its edges are pushed out (sharp corners). */
const MITER_LIMIT = 3;

/**
 * Draws the part `cell` of `source` mapped by the affine map of the triangle's corners,
 * clipped to the triangle with its inner edges (`inner[k]`: the edge from corner k to k + 1)
 * pushed out by GROW; edges on the rect's outline stay exact.
 */
function drawTriangle(ctx, source, cell, corners, inner) {
  if (corners.some((corner) => !corner.target)) return;
  const targets = corners.map((corner) => corner.target);
  const map = triangleMap(corners.map((corner) => corner.source), targets);
  if (!map) return;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.beginPath();
  for (const [x, y] of grownTriangle(targets, inner.map((isInner) => (isInner ? GROW : 0)))) ctx.lineTo(x, y);
  ctx.closePath();
  ctx.clip();
  ctx.setTransform(...map);
  ctx.drawImage(source, ...cell, ...cell);
  ctx.restore();
}

/** The triangle `points` with edge k (from point k to k + 1) moved outwards by `offsets[k]`. */
function grownTriangle(points, offsets) {
  const cx = (points[0][0] + points[1][0] + points[2][0]) / 3;
  const cy = (points[0][1] + points[1][1] + points[2][1]) / 3;
  const normals = points.map(([x0, y0], k) => {
    const [x1, y1] = points[(k + 1) % 3];
    const length = Math.hypot(x1 - x0, y1 - y0) || 1;
    let nx = (y1 - y0) / length, ny = (x0 - x1) / length;
    if (nx * ((x0 + x1) / 2 - cx) + ny * ((y0 + y1) / 2 - cy) < 0) [nx, ny] = [-nx, -ny];
    return [nx, ny];
  });
  return points.map(([x, y], k) => {
    // Corner k lies on edges k − 1 and k: move it by v with v · n = offset for both.
    const before = (k + 2) % 3;
    const [ax, ay] = normals[before], [bx, by] = normals[k];
    const da = offsets[before], db = offsets[k];
    const det = ax * by - ay * bx;
    if (Math.abs(det) < 1e-9) return [x, y];
    let vx = (da * by - db * ay) / det, vy = (ax * db - bx * da) / det;
    const length = Math.hypot(vx, vy);
    if (length > MITER_LIMIT) [vx, vy] = [(vx * MITER_LIMIT) / length, (vy * MITER_LIMIT) / length];
    return [x + vx, y + vy];
  });
}
