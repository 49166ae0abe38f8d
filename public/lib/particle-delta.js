/**
 * An emitter item's particle changes in a delta's `set` entry (protocol.md, "Particles"):
 * `pimg` replaces the table, then `pr` removes ids, `pc` updates particles (a 4-number
 * `[id, x, y, r]` moves one, keeping its scale, alpha and image; a longer tuple replaces it),
 * `pa` appends, and `po`, when given, is the new order of every id. An item left with no
 * particles and an empty table has neither key, as a full frame writes it.
 */
export const PARTICLE_DELTA_KEYS = new Set(['pimg', 'pr', 'pc', 'pa', 'po']);

/** Whether a `set` entry changes particles. */
export function hasParticleDelta(change) {
  return 'pimg' in change || 'pr' in change || 'pc' in change || 'pa' in change || 'po' in change;
}

/**
 * `item` with `change`'s particle keys applied, as a new object (`item` and its tuples are not
 * modified). Entries naming ids the item lacks are skipped.
 */
export function applyParticleDelta(item, change) {
  const updated = { ...item };
  if ('pimg' in change) updated.pimg = change.pimg ?? [];
  const removed = new Set(change.pr ?? []);
  const byId = new Map();
  const order = [];
  for (const particle of item.p ?? []) {
    if (removed.has(particle[0])) continue;
    byId.set(particle[0], particle);
    order.push(particle[0]);
  }
  for (const entry of change.pc ?? []) {
    const old = byId.get(entry[0]);
    if (!old) continue;
    if (entry.length === 4) {
      const moved = old.slice();
      moved[1] = entry[1];
      moved[2] = entry[2];
      moved[4] = entry[3];
      byId.set(entry[0], moved);
    } else {
      byId.set(entry[0], entry);
    }
  }
  for (const particle of change.pa ?? []) {
    if (!byId.has(particle[0])) order.push(particle[0]);
    byId.set(particle[0], particle);
  }
  updated.p = (change.po ?? order).filter((id) => byId.has(id)).map((id) => byId.get(id));
  if (updated.p.length === 0 && !updated.pimg?.length) {
    delete updated.p;
    delete updated.pimg;
  }
  return updated;
}
