/**
 * Item matrices (protocol.md, "Matrices"): 6 numbers [a,b,c,d,tx,ty] are affine, 9 numbers
 * [a,b,c,d,tx,ty,g,h,w] projective; a point (x, y) maps to (X/W, Y/W) with
 * X = a·x + c·y + tx, Y = b·x + d·y + ty, W = g·x + h·y + w.
 */

/** True when `m` is projective (9 numbers with g or h non-zero, or w ≠ 1). */
export function isProjective(m) {
  return m.length === 9 && (m[6] !== 0 || m[7] !== 0 || m[8] !== 1);
}

/**
 * The matrix of "`m`, then scale by `scale` and translate by (`dx`, `dy`)" (item space to
 * device pixels), in the same 6- or 9-number form.
 */
export function toDevice(m, scale, dx, dy) {
  const [a, b, c, d, tx, ty] = m;
  if (m.length === 6) return [a * scale, b * scale, c * scale, d * scale, tx * scale + dx, ty * scale + dy];
  const [g, h, w] = m.slice(6);
  return [
    a * scale + g * dx, b * scale + g * dy,
    c * scale + h * dx, d * scale + h * dy,
    tx * scale + w * dx, ty * scale + w * dy,
    g, h, w,
  ];
}

/** Maps the point (x, y) through `m`; returns [X/W, Y/W]. */
export function mapPoint(m, x, y) {
  const X = m[0] * x + m[2] * y + m[4];
  const Y = m[1] * x + m[3] * y + m[5];
  const W = m.length === 9 ? m[6] * x + m[7] * y + m[8] : 1;
  return [X / W, Y / W];
}

/**
 * The affine map [a,b,c,d,e,f] (canvas `setTransform` order) that takes the triangle `from`
 * onto the triangle `to` (each [[x0,y0],[x1,y1],[x2,y2]]), or null if `from` is degenerate.
 */
export function triangleMap(from, to) {
  const [[x0, y0], [x1, y1], [x2, y2]] = from;
  const [[X0, Y0], [X1, Y1], [X2, Y2]] = to;
  const ux = x1 - x0, uy = y1 - y0, vx = x2 - x0, vy = y2 - y0;
  const det = ux * vy - vx * uy;
  if (Math.abs(det) < 1e-12) return null;
  const Ux = X1 - X0, Uy = Y1 - Y0, Vx = X2 - X0, Vy = Y2 - Y0;
  const a = (Ux * vy - Vx * uy) / det;
  const c = (Vx * ux - Ux * vx) / det;
  const b = (Uy * vy - Vy * uy) / det;
  const d = (Vy * ux - Uy * vx) / det;
  return [a, b, c, d, X0 - a * x0 - c * y0, Y0 - b * x0 - d * y0];
}

/**
 * How many device pixels one unit of item space spans near the item's rect, at most (used
 * to pick raster resolutions and blur radii): the longest edge of the mapped rect divided by
 * the edge's length in item space.
 */
export function pixelsPerUnit(m, width, height) {
  const [p0, p1, p2, p3] = [[0, 0], [width, 0], [width, height], [0, height]].map(([x, y]) => mapPoint(m, x, y));
  const length = (p, q) => Math.hypot(q[0] - p[0], q[1] - p[1]);
  const across = width > 0 ? Math.max(length(p0, p1), length(p3, p2)) / width : 0;
  const down = height > 0 ? Math.max(length(p0, p3), length(p1, p2)) / height : 0;
  return Math.max(across, down);
}

/** The W of the point (x, y) under `m` (1 when affine); the point is in front of the eye when W > 0. */
export function weightAt(m, x, y) {
  return m.length === 9 ? m[6] * x + m[7] * y + m[8] : 1;
}
