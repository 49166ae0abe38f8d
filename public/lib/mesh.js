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
 * The triangles do not overlap and are added (`lighter`) rather than blended: along an edge two
 * neighbours' antialiased coverages sum to one pixel, so the raster comes out whole, translucent
 * or not, with no seam. `ctx` must therefore be a clear layer of its own under the rect, drawn at
 * alpha 1 and composited onto the scene afterwards.
 *
 * @param {CanvasRenderingContext2D} ctx drawn in device pixels (its transform is replaced)
 * @param {CanvasImageSource} source
 * @param {number[]} sourceRect [x, y, w, h] in the source's pixels
 * @param {number[]} targetRect [x, y, w, h] in item space
 * @param {number[]} m the item-to-device matrix (6 or 9 numbers)
 * @param {number | number[]} [grid] cells per side, or [cols, rows]
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
  ctx.save();
  ctx.globalCompositeOperation = 'lighter';
  for (let j = 0; j < rows; j += 1) {
    for (let i = 0; i < cols; i += 1) {
      const cell = [sx + (sw * i) / cols, sy + (sh * j) / rows, sx + (sw * (i + 1)) / cols, sy + (sh * (j + 1)) / rows];
      drawTriangle(ctx, source, sourceRect, cell, [at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
      drawTriangle(ctx, source, sourceRect, cell, [at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
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

/** The most source pixels of margin drawn around a cell (for triangles squeezed nearly flat). */
const MAX_MARGIN = 16;

/**
 * Draws the source's cell [x0, y0, x1, y1] mapped by the affine map of the triangle's corners,
 * clipped to the triangle, on `ctx` with its composite operation. The cell is drawn with a
 * margin (within `sourceRect`) of at least two device pixels, so the triangle's antialiased
 * edges have image under them.
 */
function drawTriangle(ctx, source, [sx, sy, sw, sh], [x0, y0, x1, y1], corners) {
  if (corners.some((corner) => !corner.target)) return;
  const targets = corners.map((corner) => corner.target);
  const map = triangleMap(corners.map((corner) => corner.source), targets);
  if (!map) return;
  // Source pixels per device pixel, at most: the inverse map's norm is at most |M|_F / |det M|.
  const det = Math.abs(map[0] * map[3] - map[1] * map[2]);
  const norm = Math.hypot(map[0], map[1], map[2], map[3]);
  const margin = det > 0 ? Math.min(MAX_MARGIN, Math.ceil((2 * norm) / det)) : MAX_MARGIN;
  const left = Math.max(sx, x0 - margin), top = Math.max(sy, y0 - margin);
  const cell = [left, top, Math.min(sx + sw, x1 + margin) - left, Math.min(sy + sh, y1 + margin) - top];
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.beginPath();
  for (const [x, y] of targets) ctx.lineTo(x, y);
  ctx.closePath();
  ctx.clip();
  ctx.setTransform(...map);
  ctx.drawImage(source, ...cell, ...cell);
  ctx.restore();
}
