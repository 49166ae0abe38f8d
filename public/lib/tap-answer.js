/**
 * What the rain page says to a player's own tap (the rain's `tap` event, protocol.md): the
 * label's words and kind, and whether the page also vibrates (a win), flashes the stage (a
 * miss) or tells screen readers (capped). Null for a tap with nothing to say (`closed`).
 */
export function tapAnswer(data, t) {
  switch (data.result) {
    case 'award':
      return data.coins > 0 ? { text: t.win(data.coins), kind: 'win', vibrate: true } : { text: t.loseShort, kind: 'lose' };
    case 'taken':
      return { text: t.taken, kind: 'taken' };
    case 'miss':
      return { text: t.miss, kind: 'miss', flash: true };
    case 'capped':
      return { text: t.capped, kind: 'info', announce: true };
    case 'too_soon':
      return { text: t.tooSoon, kind: 'info' };
    default:
      return null; // closed: no rain falling, nothing to say
  }
}
