import { mapPoint, triangleMap, weightAt } from './homography.js';

/**
 * Draws a raster through a projective map by subdivision: the target rect is cut into a
 * `cols` × `rows` grid, each cell into two triangles, and each triangle of the source is
 * drawn with the affine map that takes its corners exactly onto the projected corners,
 * clipped to the projected triangle. Within a cell the error is that of replacing the
 * homography by that affine map. The grid is as fine as the map needs (`gridFor`): a straight
 * line of the raster (a book cover's frame) bends at most MAX_BEND device pixels where it
 * crosses from one cell to the next, so it shows no kink even when the cover is turned far
 * round in strong perspective.
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
export function drawMesh(ctx, source, sourceRect, targetRect, m, grid = gridFor(m, targetRect)) {
  const [cols, rows] = typeof grid === 'number' ? [grid, grid] : grid;
  const [sx, sy, sw, sh] = sourceRect;
  const [tx, ty, tw, th] = targetRect;
  const points = [];
  for (let j = 0; j <= rows; j += 1) {
    for (let i = 0; i <= cols; i += 1) {
      const x = tx + (tw * i) / cols, y = ty + (th * j) / rows;
      points.push({
        source: [sx + (sw * i) / cols, sy + (sh * j) / rows],
        target: weightAt(m, x, y) > 0 ? mapPoint(m, x, y) : null,
      });
    }
  }
  const at = (i, j) => points[j * (cols + 1) + i];
  // A grown inner edge meeting the outline at a sharp corner pushes that corner a little outside
  // the outline: clip the whole mesh to the projected rect (exact: its edges stay straight).
  const outline = [
    ...Array.from({ length: cols }, (_, k) => at(k, 0)),
    ...Array.from({ length: rows }, (_, k) => at(cols, k)),
    ...Array.from({ length: cols }, (_, k) => at(cols - k, rows)),
    ...Array.from({ length: rows }, (_, k) => at(0, rows - k)),
  ];
  ctx.save();
  if (outline.every((corner) => corner.target)) {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.beginPath();
    for (const { target: [x, y] } of outline) ctx.lineTo(x, y);
    ctx.closePath();
    ctx.clip();
  }
  for (let j = 0; j < rows; j += 1) {
    for (let i = 0; i < cols; i += 1) {
      // The cell's source pixels with one pixel of margin (within the source rect), so the
      // clip edge has image under it.
      const x0 = Math.max(sx, sx + (sw * i) / cols - 1), x1 = Math.min(sx + sw, sx + (sw * (i + 1)) / cols + 1);
      const y0 = Math.max(sy, sy + (sh * j) / rows - 1), y1 = Math.min(sy + sh, sy + (sh * (j + 1)) / rows + 1);
      const cell = [x0, y0, x1 - x0, y1 - y0];
      // Edges: top, right, diagonal; then diagonal, bottom, left. Inner ones are grown.
      drawTriangle(ctx, source, cell, [at(i, j), at(i + 1, j), at(i + 1, j + 1)], [j > 0, i < cols - 1, true]);
      drawTriangle(ctx, source, cell, [at(i, j), at(i + 1, j + 1), at(i, j + 1)], [true, j < rows - 1, i > 0]);
    }
  }
  ctx.restore();
}

/** The most a straight line may bend (device pixels) where it crosses between triangles. */
const MAX_BEND = 0.4;

/** The finest grid drawn (cells per side): 32 × 32 is 2 048 triangles, for extreme tilts only. */
const MAX_CELLS = 32;

/**
 * The grid [cols, rows] for drawing `targetRect` (item space) through `m`: the fewest cells per
 * side (at least 4) such that, at the middle of every cell's edges and diagonals, the affine
 * pieces stray at most MAX_BEND device pixels from the true projection; that is where a
 * straight line of the raster bends as it crosses into the next triangle. The error falls with
 * the square of the cell size, so the count is estimated from an 8 × 8 grid and then checked.
 * An affine `m` needs one cell.
 */
export function gridFor(m, targetRect) {
  if (m.length !== 9 || (m[6] === 0 && m[7] === 0)) return [1, 1];
  const error = (n) => meshError(m, targetRect, n);
  let n = Math.min(MAX_CELLS, Math.max(4, Math.ceil(8 * Math.sqrt(error(8) / MAX_BEND))));
  while (n < MAX_CELLS && error(n) > MAX_BEND) n = Math.min(MAX_CELLS, Math.ceil(n * 1.25));
  return [n, n];
}

/** The largest distance (device pixels) between the true projection and the affine pieces of an n × n grid. */
function meshError(m, [tx, ty, tw, th], n) {
  const sag = (ax, ay, bx, by) => {
    if (!(weightAt(m, ax, ay) > 0 && weightAt(m, bx, by) > 0)) return 0;
    const a = mapPoint(m, ax, ay), b = mapPoint(m, bx, by), c = mapPoint(m, (ax + bx) / 2, (ay + by) / 2);
    return Math.hypot((a[0] + b[0]) / 2 - c[0], (a[1] + b[1]) / 2 - c[1]);
  };
  let worst = 0;
  for (let j = 0; j < n; j += 1) {
    const y0 = ty + (th * j) / n, y1 = ty + (th * (j + 1)) / n;
    for (let i = 0; i < n; i += 1) {
      const x0 = tx + (tw * i) / n, x1 = tx + (tw * (i + 1)) / n;
      worst = Math.max(worst, sag(x0, y0, x1, y1), sag(x1, y0, x0, y1), sag(x0, y0, x1, y0), sag(x0, y0, x0, y1));
    }
  }
  return worst;
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
