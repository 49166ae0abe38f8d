import { pixelsPerUnit } from './homography.js';
import { evaluate, kindsOf, localTime, ParticleState } from './particle-record.js';

/** The state `emitterBounds` evaluates records into (one for all calls). */
const STATE = new ParticleState();

/**
 * The device-pixel box `{left, top, right, bottom}` an emitter item can ink through device matrix
 * `m` at display time `time`: its rect and every record of `pb` drawn then as a disc of radius
 * scale × half the diagonal of the largest image its `pk` names (`sizeOf(id)`: `{width, height}`
 * in points, or null while loading), each grown by `reach` device pixels (a shadow's offset and
 * blur). Null when a point lies behind the eye of a projective `m` (the box is then unbounded).
 * Nothing is allocated per record.
 */
export function emitterBounds(item, m, sizeOf, reach, time) {
  let half = 0;
  for (const kind of item.pk ?? []) {
    const size = sizeOf(kind[1]);
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
  if (item.pb && item.pk) {
    const kinds = kindsOf(item.pk);
    const local = localTime(item, time);
    for (const record of item.pb) {
      if (!evaluate(record, kinds.get(record[1]), local, STATE)) continue;
      if (!add(STATE.x, STATE.y, half * STATE.scale * scale)) return null;
    }
  }
  return { left: Math.floor(box.left), top: Math.floor(box.top), right: Math.ceil(box.right), bottom: Math.ceil(box.bottom) };
}
