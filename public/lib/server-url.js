/**
 * Where a Layercast server is and how to reach it.
 *
 * `server` may be an http(s) or ws(s) URL, with or without a path (a server behind a path
 * prefix), or empty for the page's own origin. Returns the http(s) base that asset URLs and
 * `/api/…` resolve against, and the WebSocket URL of a join.
 *
 * The join names the player (protocol.md, "Player tokens"): `token` (a signed token) when
 * given, else `player` (a secret anonymous id, `anon-…`) when given, else neither (the server
 * makes up an anonymous id and tells it, to this player alone, in `welcome.player.secret`).
 */
export function serverUrls(server, { scene, room, role, token, player }) {
  const base = new URL(server || location.origin, location.href);
  if (base.protocol === 'ws:') base.protocol = 'http:';
  if (base.protocol === 'wss:') base.protocol = 'https:';
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  base.search = '';
  base.hash = '';

  const socket = new URL('ws', base);
  socket.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
  socket.searchParams.set('scene', scene);
  socket.searchParams.set('room', room);
  socket.searchParams.set('role', role);
  if (token) socket.searchParams.set('token', token);
  else if (player) socket.searchParams.set('player', player);
  return { http: base.href, socket: socket.href };
}
