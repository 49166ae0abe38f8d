/**
 * Particle birth records (protocol.md, "Particles"): an emitter item's `pk` kinds, `pt` local
 * clock and `pb` records `[id, kid, b, l, x, y, vx, vy, s, w, a?, rgb?]`, evaluated at a display
 * time by the protocol's closed form. Nothing here allocates per record.
 */

/** A kind: `{image, ax, ay, ds, da, dr, dg, db}` (a `pk` entry with its trailing zeros filled in). */
const KINDS = new WeakMap();

/** The kinds of `pk` by kid, made once per table. */
export function kindsOf(pk) {
  let kinds = KINDS.get(pk);
  if (!kinds) {
    kinds = new Map();
    for (const [kid, image, ax = 0, ay = 0, ds = 0, da = 0, dr = 0, dg = 0, db = 0] of pk) {
      kinds.set(kid, { image, ax, ay, ds, da, dr, dg, db });
    }
    KINDS.set(pk, kinds);
  }
  return kinds;
}

/** The emitter layer's local time at frame-clock time `d` (`pt` is `[rate, offset]`, default `[1, 0]`). */
export function localTime(item, d) {
  const pt = item.pt;
  return pt ? pt[0] * d + pt[1] : d;
}

/** Whether `record` is alive at local time `local`: 0 ≤ age < l. */
export function isAlive(record, local) {
  const age = local - record[2];
  return age >= 0 && age < record[3];
}

/** Whether any emitter item of `items` holds a record alive at display time `d` (the view still moves). */
export function holdsLiveRecord(items, d) {
  for (const item of items) {
    const records = item.pb;
    if (!records) continue;
    const local = localTime(item, d);
    for (const record of records) if (isAlive(record, local)) return true;
  }
  return false;
}

/**
 * A particle's state, filled in by `evaluate`: centre (x, y) in the item's rect, scale, rotation,
 * alpha, colour components r, g, b (0…1), and `drawn` (alive, scale and alpha above zero once
 * quantised as the protocol quantises them).
 */
export class ParticleState {
  constructor() {
    this.drawn = false;
    this.x = 0;
    this.y = 0;
    this.scale = 0;
    this.rotation = 0;
    this.alpha = 0;
    this.r = 1;
    this.g = 1;
    this.b = 1;
  }
}

/**
 * Fills `state` with `record` of `kind` at local time `local` (protocol.md, "Evaluating a record");
 * returns `state.drawn`.
 */
export function evaluate(record, kind, local, state) {
  const age = local - record[2];
  state.drawn = false;
  if (!(age >= 0 && age < record[3]) || !kind) return false;
  const half = 0.5 * age * age;
  state.x = record[4] + record[6] * age + kind.ax * half;
  state.y = record[5] + record[7] * age + kind.ay * half;
  state.scale = Math.max(0, record[8] + kind.ds * age);
  state.rotation = record[9] * age;
  state.alpha = clamp01((record[10] ?? 1) + kind.da * age);
  const rgb = record[11];
  state.r = clamp01((rgb === undefined ? 1 : hexByte(rgb, 1) / 255) + kind.dr * age);
  state.g = clamp01((rgb === undefined ? 1 : hexByte(rgb, 3) / 255) + kind.dg * age);
  state.b = clamp01((rgb === undefined ? 1 : hexByte(rgb, 5) / 255) + kind.db * age);
  state.drawn = Math.round(state.scale * 1e4) > 0 && Math.round(state.alpha * 1e3) > 0;
  return state.drawn;
}

/** The state's colour quantised to 8 bits, as the integer 0xrrggbb. */
export function rgb24(state) {
  return (Math.round(state.r * 255) << 16) | (Math.round(state.g * 255) << 8) | Math.round(state.b * 255);
}

/** `value` clamped to 0…1. */
function clamp01(value) {
  return value < 0 ? 0 : value > 1 ? 1 : value;
}

/** The byte of hex digits `text[i]`, `text[i + 1]` (no string is made). */
function hexByte(text, i) {
  return 16 * hexDigit(text.charCodeAt(i)) + hexDigit(text.charCodeAt(i + 1));
}

/** The value of one hex digit's character code. */
function hexDigit(code) {
  return code <= 57 ? code - 48 : (code | 32) - 87;
}
