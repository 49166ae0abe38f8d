/**
 * The rain's phase told from what is drawn, for a page that joined before any `rain` event
 * said it: the countdown label means a countdown, falling packets mean it rains, otherwise it
 * is idle.
 */
export function guessedPhase(items) {
  if (items.some((item) => item.name === 'countdown' && item.text)) return 'countdown';
  if (items.some((item) => item.img === 'rp_normal' && /^packet-/.test(item.name || ''))) return 'raining';
  return 'idle';
}
