/**
 * The red-packet rain's countdowns (protocol.md, "The red-packet rain"): which one a page shows
 * in each phase, its whole seconds, the words of the state line, and how much of a running
 * rain is left. `now` is the room's media time as a view gives it, `{time, estimated}` (an
 * estimate while disconnected), or null; `rain` is the latest `rain` event's data.
 */

/**
 * The countdown to show: `{kind, seconds, estimated}`, kind `countdown` (to the start),
 * `raining` (to the end) or `next` (to the next rain, when idle or showing results); null when
 * there is none to compute. Seconds round up and never go below 0.
 */
export function rainCountdown(phase, rain, now) {
  if (!now) return null;
  const left = (at) => Math.max(0, Math.ceil(at - now.time));
  if (phase === 'countdown' && typeof rain?.startsAt === 'number') return { kind: 'countdown', seconds: left(rain.startsAt), estimated: now.estimated };
  if (phase === 'raining' && typeof rain?.endsAt === 'number') return { kind: 'raining', seconds: left(rain.endsAt), estimated: now.estimated };
  if ((phase === 'idle' || phase === 'results' || !phase) && typeof rain?.nextAt === 'number') {
    return { kind: 'next', seconds: left(rain.nextAt), estimated: now.estimated };
  }
  return null;
}

/**
 * The state line's words for `clock` (from `rainCountdown`) in `phase`, in the words `t` of
 * lib/words.js; a spectator's line says it is watching.
 */
export function stateText(clock, { phase, connected, spectator }, t) {
  let text;
  if (clock?.kind === 'countdown') text = clock.seconds > 0 ? t.countdown(clock.seconds) : t.getReady;
  else if (clock?.kind === 'raining') text = t.rainLeft(clock.seconds);
  else if (clock?.kind === 'next') text = t.nextRain(clock.seconds);
  else if (phase === 'results') text = t.results;
  else if (phase === 'raining') text = t.raining;
  else if (phase === 'countdown') text = t.getReady;
  else if (phase === 'idle') text = connected ? t.idle : t.idleOffline;
  else text = connected ? '' : t.connecting;
  if (spectator && text) text = `${text} · ${t.watching}`;
  return text;
}

/** The part of the rain still to fall at media time `time`, 0…1; null when it cannot be told. */
export function rainLeftFraction(rain, time) {
  if (!rain || typeof rain.startsAt !== 'number' || typeof rain.endsAt !== 'number' || typeof time !== 'number') return null;
  if (!(rain.endsAt > rain.startsAt)) return null;
  return Math.min(1, Math.max(0, (rain.endsAt - time) / (rain.endsAt - rain.startsAt)));
}
