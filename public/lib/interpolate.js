import { recordsBetween } from './particle-births.js';

/**
 * The display list to draw between two frames.
 *
 * At fraction `f` of the way from `older` to `newer` (0 ≤ f ≤ 1): while f < 1 the list has the
 * older frame's items and order (an item the newer frame adds appears only at the newer
 * frame's time, one the newer frame removes lasts until then), and every item the newer frame
 * also has gets its numbers interpolated — `m` elementwise (an affine `m` counts as projective
 * with g = h = 0, w = 1), `o`, `s`, `bw`, `cr`, shadow and text numbers — with missing fields at
 * their defaults; strings (colours, images, text) switch at the newer frame's time. An emitter
 * item's particle records are the newer frame's with those it dropped (particle-births.js,
 * `recordsBetween`), under the newer `pt` and `pk` (the older `pk` when the newer has none): they
 * are evaluated at the display time itself (particle-record.js). At f = 1 it is the newer list.
 *
 * @param {object[] | null} older items of the older frame (null: draw `newer` as is)
 * @param {object[]} newer items of the newer frame
 * @param {number} f
 * @returns {object[]} items; unchanged ones are shared with the inputs, not copied
 */
export function interpolateItems(older, newer, f) {
  if (!older || f >= 1) return newer;
  const newerById = new Map(newer.map((item) => [item.id, item]));
  return older.map((item) => {
    const next = newerById.get(item.id);
    return next ? blendItem(item, next, Math.max(0, f)) : item;
  });
}

/** Protocol defaults of the interpolated top-level numeric fields. */
const DEFAULTS = { m: [1, 0, 0, 1, 0, 0], s: [0, 0], o: 1, bw: 0, cr: 0 };

/** `a` with its numbers moved fraction `f` towards those of `b`. */
function blendItem(a, b, f) {
  const result = { ...a };
  for (const key of Object.keys(DEFAULTS)) {
    const from = a[key] ?? DEFAULTS[key];
    const to = b[key] ?? DEFAULTS[key];
    if (from !== to) result[key] = key === 'm' ? blendMatrix(from, to, f) : blendValue(from, to, f);
  }
  for (const key of ['sh', 'text']) {
    if (a[key] && b[key]) result[key] = blendValue(a[key], b[key], f);
  }
  if (a.pb || b.pb) {
    setOrDelete(result, 'pk', b.pk ?? a.pk);
    setOrDelete(result, 'pt', b.pt);
    setOrDelete(result, 'pb', recordsBetween(a.pb, b.pb));
  }
  return result;
}

/** Sets `object[key]` to `value`, or removes the key when `value` is undefined. */
function setOrDelete(object, key, value) {
  if (value === undefined) delete object[key];
  else object[key] = value;
}

/** Elementwise blend of two matrices, widening a 6-number affine one to 9 numbers if the other is projective. */
function blendMatrix(a, b, f) {
  if (a.length !== b.length) {
    a = a.length === 6 ? [...a, 0, 0, 1] : a;
    b = b.length === 6 ? [...b, 0, 0, 1] : b;
  }
  return blendValue(a, b, f);
}

/**
 * Numbers are interpolated; arrays of equal length and objects recursively (keys of `a`);
 * anything else keeps `a`'s value.
 */
function blendValue(a, b, f) {
  if (typeof a === 'number' && typeof b === 'number') return a + (b - a) * f;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length ? a.map((value, i) => blendValue(value, b[i], f)) : a;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const result = {};
    for (const [key, value] of Object.entries(a)) result[key] = key in b ? blendValue(value, b[key], f) : value;
    return result;
  }
  return a;
}
