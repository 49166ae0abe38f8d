/**
 * A one-line text for a scene `event` message: its name, its data, and who caused it, e.g.
 * "select item-3 by c7". Data with one field shows the value alone, otherwise `key=value`
 * pairs; `null` shows as "none"; objects as JSON.
 */
export function describeEvent({ name, data, by }) {
  const show = (value) => (value === null ? 'none' : typeof value === 'object' ? JSON.stringify(value) : String(value));
  const parts = [name];
  if (data !== undefined && data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const entries = Object.entries(data);
    if (entries.length === 1) parts.push(show(entries[0][1]));
    else parts.push(...entries.map(([key, value]) => `${key}=${show(value)}`));
  } else if (data !== undefined) {
    parts.push(show(data));
  }
  if (by) parts.push(`by ${by}`);
  return parts.join(' ');
}
