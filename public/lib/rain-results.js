/**
 * What the rain's results card says after a rain (its `rain` event in phase `results`,
 * protocol.md): the summary line, the player's own lines, and the room's leaderboard
 * (`/api/rooms/{room}/leaderboard`) as rows, the top three with a medal and the viewer's own
 * row marked, with a note when the viewer is not among them. Words from lib/words.js (`t`).
 */

/** The summary of the rain `data`: packets claimed (of how many, when known), coins awarded, and whether it was stopped early. */
export function resultsSummary(data, t) {
  const claimed = data.claimed ?? 0;
  const packets = typeof data.packets === 'number' ? data.packets : null;
  const stopped = typeof data.stoppedAt === 'number' ? `${t.stopped} ` : '';
  return stopped + t.summary(claimed, packets, data.awarded ?? 0);
}

/** The player's own lines: what they won this rain and their total; empty for a spectator. */
export function ownResults({ playing, rainCoins, total }, t) {
  if (!playing) return { mine: '', total: '' };
  return { mine: rainCoins > 0 ? t.wonThisRain(rainCoins) : t.noCoins, total: t.yourTotal(total ?? 0) };
}

/** The rows for `players` (the answer's `players`), `me` the viewer's public id or null. */
export function leaderboardRows(players, me) {
  return players.map((entry) => ({
    player: entry.player ?? '',
    rank: String(entry.rank ?? ''),
    medal: entry.rank >= 1 && entry.rank <= 3 ? String(entry.rank) : null,
    name: entry.name || entry.player || '?',
    coins: String(entry.coins ?? 0),
    me: Boolean(me && entry.player === me),
  }));
}

/** Whether to say the viewer is not in the list: a player (not watching) missing from it. */
export function missingFromLeaderboard(players, me, spectator) {
  return Boolean(me && !spectator && !players.some((entry) => entry.player === me));
}

/** The leaderboard's path under the server for `room`, at most `limit` players. */
export function leaderboardPath(room, limit) {
  return `api/rooms/${encodeURIComponent(room)}/leaderboard?limit=${limit}`;
}
