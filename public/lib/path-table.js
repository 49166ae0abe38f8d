/**
 * A frame's path table (protocol.md, "Paths"): the SVG path data of every path its items' `fill`
 * and `stroke` name, by id. A full frame's `paths` (`[[id, data], …]`) is the whole table; a
 * delta's `unpaths` drops ids and its `paths` adds entries.
 */

/**
 * The table after `frame`, as a new Map (`table` is not modified; it is returned as it is when
 * a delta does not touch it).
 * @param {Map<number, string> | null} table the table of the frame before (ignored for a full frame)
 * @param {{full: boolean, paths?: [number, string][], unpaths?: number[]}} frame
 * @returns {Map<number, string>}
 */
export function applyPathTable(table, frame) {
  if (frame.full) return new Map(frame.paths ?? []);
  if (!frame.paths && !frame.unpaths) return table ?? new Map();
  const next = new Map(table ?? []);
  for (const id of frame.unpaths ?? []) next.delete(id);
  for (const [id, data] of frame.paths ?? []) next.set(id, data);
  return next;
}

/** The table as a full frame writes it: `[[id, data], …]` in ascending id order. */
export function pathEntries(table) {
  return [...table.entries()].sort((a, b) => a[0] - b[0]);
}

/**
 * The box `[x, y, w, h]` holding every point of SVG path data written as the server writes it
 * (absolute `M L Q C Z` with numbers; control points included, so it may be larger than the
 * drawn path), grown by `pad` on each side; null when the data has no point.
 */
export function pathBounds(data, pad = 0) {
  const numbers = data.match(/-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/gi)?.map(Number) ?? [];
  if (numbers.length < 2) return null;
  let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
  for (let i = 0; i + 1 < numbers.length; i += 2) {
    left = Math.min(left, numbers[i]);
    right = Math.max(right, numbers[i]);
    top = Math.min(top, numbers[i + 1]);
    bottom = Math.max(bottom, numbers[i + 1]);
  }
  return [left - pad, top - pad, right - left + 2 * pad, bottom - top + 2 * pad];
}
