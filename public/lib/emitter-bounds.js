import { pixelsPerUnit } from './homography.js';

/**
 * The device-pixel box `{left, top, right, bottom}` an emitter item can ink through device matrix
 * `m`: its rect and every particle of `p` as a disc of radius s × half the diagonal of the largest
 * image its `pimg` names (`sizeOf(id)`: `{width, height}` in points, or null while loading), each
 * grown by `reach` device pixels (a shadow's offset and blur). Null when a point lies behind the
 * eye of a projective `m` (the box is then unbounded). Nothing is allocated per particle.
 */
export function emitterBounds(item, m, sizeOf, reach) {
  let half = 0;
  for (const [image] of item.pimg ?? []) {
    const size = sizeOf(image);
    if (size) half = Math.max(half, Math.hypot(size.width, size.height) / 2);
  }
  const [w, h] = item.s ?? [0, 0];
  const projective = m.length === 9;
  const scale = projective ? pixelsPerUnit(m, w || 1, h || 1) : Math.max(Math.hypot(m[0], m[1]), Math.hypot(m[2], m[3]));
  const box = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
  const add = (x, y, radius) => {
    const W = projective ? m[6] * x + m[7] * y + m[8] : 1;
    if (!(W > 0)) return false;
    const X = (m[0] * x + m[2] * y + m[4]) / W, Y = (m[1] * x + m[3] * y + m[5]) / W;
    const r = radius + reach;
    box.left = Math.min(box.left, X - r);
    box.top = Math.min(box.top, Y - r);
    box.right = Math.max(box.right, X + r);
    box.bottom = Math.max(box.bottom, Y + r);
    return true;
  };
  if (!(add(0, 0, 0) && add(w, 0, 0) && add(w, h, 0) && add(0, h, 0))) return null;
  for (const particle of item.p ?? []) if (!add(particle[1], particle[2], half * particle[3] * scale)) return null;
  return { left: Math.floor(box.left), top: Math.floor(box.top), right: Math.ceil(box.right), bottom: Math.ceil(box.bottom) };
}
