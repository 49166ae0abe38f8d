import { applyBirths, BIRTH_DELTA_KEYS, pruneDeaths } from './particle-births.js';
import { applyPathTable } from './path-table.js';

/**
 * The display lists of the two latest frames, kept by applying `frame` messages as
 * protocol.md says: a full frame replaces the list; a delta applies to the list of any frame
 * from its `b` (`n − 1` when absent) through `n − 1`, which all hold one list (remove, then
 * set — `null` returns a field to its default — then add, then order). An emitter item's
 * particle records are applied as particle-births.js says, at the frame's `t`. The server sends
 * no frame for a tick that changed nothing (`sparse`), so frames may skip numbers.
 *
 * Snapshots are immutable: applying a delta copies the items it changes, so the previous
 * snapshot stays valid for interpolation. A snapshot is `{n, t, items, paths, receivedAt}` with
 * `paths` the frame's path table (a Map id → path data, path-table.js) and `receivedAt` the
 * `performance.now()` of its arrival.
 */
export class FrameStore {
  constructor() {
    this.previous = null;
    this.latest = null;
    this.needsFull = true;
  }

  /**
   * Applies one `frame` message received at `receivedAt`, from a room of `interval` seconds a frame.
   * @returns {boolean} false when it cannot apply (a delta whose range lacks the latest frame,
   *   or that names an id the list lacks): the caller should reconnect to get a full frame.
   */
  apply(frame, receivedAt, interval = 1 / 30) {
    let items;
    let previous = this.latest;
    if (frame.full) {
      items = pruneDeaths(frame.items ?? [], frame.t);
      this.needsFull = false;
    } else {
      const base = frame.b ?? frame.n - 1;
      if (this.needsFull || !(base <= this.latest.n && this.latest.n < frame.n)) return false;
      items = applyDelta(this.latest.items, frame);
      if (!items) return false;
      items = pruneDeaths(items, frame.t);
      // Frames latest.n + 1 … n − 1 held the latest list and were not sent: the change is
      // interpolated from that list as frame n − 1, one interval before this one.
      if (this.latest.n < frame.n - 1) {
        previous = { ...this.latest, n: frame.n - 1, t: Math.max(this.latest.t, frame.t - interval) };
      }
    }
    this.previous = previous;
    this.latest = { n: frame.n, t: frame.t, items, paths: applyPathTable(this.latest?.paths ?? null, frame), receivedAt };
    return true;
  }

  /** Makes only a full frame apply next (after a reconnect); the snapshots stay drawable until then. */
  expectFull() {
    this.needsFull = true;
  }
}

/**
 * The list that `delta` makes of `items`, or null when the delta names an id the list lacks.
 * `items` is not modified. Records that died naturally by the delta's `t` are left for
 * `pruneDeaths` to drop (an item the delta does not name may hold some too).
 */
export function applyDelta(items, delta) {
  const removed = new Set(delta.remove ?? []);
  const byId = new Map();
  const list = [];
  for (const item of items) {
    if (removed.has(item.id)) continue;
    byId.set(item.id, item);
    list.push(item.id);
  }
  for (const change of delta.set ?? []) {
    const item = byId.get(change.id);
    if (!item) return null;
    const updated = { ...item };
    for (const [key, value] of Object.entries(change)) {
      if (BIRTH_DELTA_KEYS.has(key)) continue;
      if (value === null) delete updated[key];
      else updated[key] = value;
    }
    byId.set(change.id, applyBirths(updated, change, delta.t));
  }
  for (const item of delta.add ?? []) {
    byId.set(item.id, item);
    list.push(item.id);
  }
  const order = delta.order ?? list;
  if (order.some((id) => !byId.has(id))) return null;
  return order.map((id) => byId.get(id));
}
