/** Counts amounts over a sliding one-second window (frames drawn, bytes received, …). */
export class RateMeter {
  /** @param {number} [windowMs] the window length in milliseconds */
  constructor(windowMs = 1000) {
    this.windowMs = windowMs;
    /** @type {{time: number, amount: number}[]} */
    this.samples = [];
  }

  /** Records `amount` (default 1) at time `now` (milliseconds, monotonic). */
  add(now, amount = 1) {
    this.samples.push({ time: now, amount });
    this.trim(now);
  }

  /** The amount per second over the window ending at `now`. */
  perSecond(now) {
    this.trim(now);
    const total = this.samples.reduce((sum, sample) => sum + sample.amount, 0);
    return (total * 1000) / this.windowMs;
  }

  /** Drops the samples older than the window. */
  trim(now) {
    const oldest = now - this.windowMs;
    let drop = 0;
    while (drop < this.samples.length && this.samples[drop].time <= oldest) drop += 1;
    if (drop) this.samples.splice(0, drop);
  }
}
