/**
 * The link to a rain room for a friend: the page at `pathname` on `origin` with the room and,
 * when the page has them, its server and language; never a token or a player id.
 */
export function roomLink({ origin, pathname }, { room, server = '', lang = '' }) {
  const url = new URL(pathname, origin);
  url.searchParams.set('room', room);
  if (server) url.searchParams.set('server', server);
  if (lang) url.searchParams.set('lang', lang);
  return url.href;
}
