/**
 * Rounded-rectangle outlines in item space. The radius is clamped to half the shorter side,
 * as Core Animation clamps `cornerRadius`.
 */

/** Adds the closed outline of the rect (x, y, w, h) with corner radius `r` to the context's path. */
export function traceRoundedRect(ctx, x, y, w, h, r) {
  r = clampRadius(w, h, r);
  if (r <= 0) {
    ctx.rect(x, y, w, h);
    return;
  }
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/**
 * The same outline as a polygon, clockwise from the top edge, each corner arc cut into
 * `segments` straight pieces: for mapping point by point through a projective matrix.
 * @returns {number[][]} points [x, y]
 */
export function roundedRectPoints(x, y, w, h, r, segments) {
  r = clampRadius(w, h, r);
  if (r <= 0) return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]];
  const corners = [
    [x + w - r, y + r, -Math.PI / 2],
    [x + w - r, y + h - r, 0],
    [x + r, y + h - r, Math.PI / 2],
    [x + r, y + r, Math.PI],
  ];
  const points = [];
  for (const [cx, cy, start] of corners) {
    for (let i = 0; i <= segments; i += 1) {
      const angle = start + (Math.PI / 2) * (i / segments);
      points.push([cx + r * Math.cos(angle), cy + r * Math.sin(angle)]);
    }
  }
  return points;
}

/** The corner radius Core Animation uses for a w × h rect: `r` clamped to [0, min(w, h)/2]. */
export function clampRadius(w, h, r) {
  return Math.max(0, Math.min(r, Math.min(w, h) / 2));
}
