import { localTime } from './particle-record.js';

/**
 * Applying an emitter item's particle records at a frame's `t` (protocol.md, "Particles"): drop
 * the records that died naturally by then (age ≥ l), then a delta's `pbr` ids, then insert its
 * `pba` records in drawing order, by (b, id). A list left empty is left out, as a full frame
 * writes it. Records are shared, never modified; a changed list is a new array.
 */
export const BIRTH_DELTA_KEYS = new Set(['pba', 'pbr']);

/** The earliest local time at which a record of a `pb` list dies (its min b + l), made once per list. */
const FIRST_DEATH = new WeakMap();

/**
 * `item` (already a copy with the `set` entry's other keys, `pk` and `pt` among them) with
 * `change`'s `pba`/`pbr` applied at `t`; an empty `pk` is left out. A `pba` id already held is skipped.
 */
export function applyBirths(item, change, t) {
  if (item.pk?.length === 0) delete item.pk;
  if (!('pba' in change) && !('pbr' in change)) return item;
  const local = localTime(item, t);
  const removed = change.pbr?.length ? new Set(change.pbr) : null;
  const kept = (item.pb ?? []).filter((record) => local - record[2] < record[3] && !removed?.has(record[0]));
  const held = new Set(kept.map((record) => record[0]));
  setRecords(item, merge(kept, (change.pba ?? []).filter((record) => !held.has(record[0]))));
  return item;
}

/**
 * `items` with every record that died naturally by frame time `t` dropped; an item that lost
 * none is shared, and so is the list when no item changed.
 */
export function pruneDeaths(items, t) {
  let result = items;
  items.forEach((item, index) => {
    const records = item.pb;
    if (!records) return;
    const local = localTime(item, t);
    if (firstDeath(records) > local) return;
    if (result === items) result = items.slice();
    result[index] = setRecords({ ...item }, records.filter((record) => local - record[2] < record[3]));
  });
  return result;
}

/**
 * The unions made, by older list, then newer list (weakly both ways: a union holds records, not
 * lists, so the frames it was made from are not kept alive by it).
 */
const UNIONS = new WeakMap();

/**
 * The records to evaluate between two frames, in drawing order: the newer frame's, and those of
 * the older frame that the newer one dropped (dead by its `t`, or `pbr`), which can still be
 * alive at a display time before it. Made once per pair of lists, not per draw.
 */
export function recordsBetween(older, newer) {
  if (!older || older === newer) return newer;
  if (!newer) return older;
  let byNewer = UNIONS.get(older);
  if (!byNewer) UNIONS.set(older, (byNewer = new WeakMap()));
  let union = byNewer.get(newer);
  if (!union) {
    const ids = new Set(newer.map((record) => record[0]));
    union = merge(newer, older.filter((record) => !ids.has(record[0])));
    byNewer.set(newer, union);
  }
  return union;
}

/** The earliest b + l of `records`. */
function firstDeath(records) {
  let first = FIRST_DEATH.get(records);
  if (first === undefined) {
    first = Infinity;
    for (const record of records) first = Math.min(first, record[2] + record[3]);
    FIRST_DEATH.set(records, first);
  }
  return first;
}

/** Sets `item.pb` to `records`, or removes it when there are none; returns `item`. */
function setRecords(item, records) {
  if (records.length) item.pb = records;
  else delete item.pb;
  return item;
}

/** Whether record `a` is drawn before record `b`: by birth, then id. */
function before(a, b) {
  return a[2] < b[2] || (a[2] === b[2] && a[0] < b[0]);
}

/** `held` (in drawing order) with `added` inserted in drawing order; `added` need not be sorted. */
function merge(held, added) {
  if (!added.length) return held;
  const sorted = added.slice().sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  const result = [];
  let i = 0, j = 0;
  while (i < held.length || j < sorted.length) {
    if (j >= sorted.length || (i < held.length && before(held[i], sorted[j]))) result.push(held[i++]);
    else result.push(sorted[j++]);
  }
  return result;
}
