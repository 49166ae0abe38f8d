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

/** The book scene's titles by slug (BookScene.books). */
const BOOK_TITLES = {
  'moby-dick': 'Moby-Dick', 'pride-and-prejudice': 'Pride and Prejudice', walden: 'Walden',
  dracula: 'Dracula', emma: 'Emma', frankenstein: 'Frankenstein',
};

/**
 * A scene event in plain words for the status line, e.g. "Pull released at 56 %",
 * "Refreshing…", "《Walden》 opened by a player"; `self` is this viewer's client id (so its own
 * actions read "by you"). Events it does not know read as their name.
 */
export function describeScene({ name, data, by }, self = null) {
  const who = by ? (by === self ? ' by you' : ' by a player') : '';
  const d = data && typeof data === 'object' ? data : {};
  const percent = typeof d.percent === 'number' ? `${Math.round(d.percent * 100)} %` : '';
  const book = (slug) => `《${BOOK_TITLES[slug] ?? slug ?? 'a book'}》`;
  switch (name) {
    case 'select':
      return d.item ? `${String(d.item).replace(/^item-/, 'Item ')} selected${who}` : 'Selection cleared';
    case 'pull':
      if (d.phase === 'began') return `Pulling${who}…`;
      if (d.phase === 'ended') return d.refresh ? `Pull released at ${percent}${who}: refreshing` : `Pull released at ${percent}${who}`;
      if (d.phase === 'cancelled') return `Pull cancelled at ${percent}`;
      return 'Pulling…';
    case 'refresh':
      return d.phase === 'finishing' ? 'Loaded; finishing…' : 'Refreshing…';
    case 'refreshed':
      return 'Refreshed';
    case 'open':
      return `${book(d.book)} opened${who}`;
    case 'opened':
      return `Reading ${book(d.book)}`;
    case 'close':
      return `${book(d.book)} closed${who}`;
    case 'closed':
      return `${book(d.book)} back on the shelf`;
    default:
      return String(name ?? '');
  }
}
