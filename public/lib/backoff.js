/**
 * Jittered exponential backoff for reconnecting.
 *
 * The n-th delay (n = 0, 1, …) is min(cap, base · factor^n) scaled by a random factor in
 * [1 − jitter, 1 + jitter], so many clients dropped together do not come back together.
 */
export class Backoff {
  /**
   * @param {{base?: number, factor?: number, cap?: number, jitter?: number, random?: () => number}} [options]
   *   delays in milliseconds; `random` returns a number in [0, 1) (defaults to Math.random).
   */
  constructor({ base = 500, factor = 2, cap = 15000, jitter = 0.5, random = Math.random } = {}) {
    this.base = base;
    this.factor = factor;
    this.cap = cap;
    this.jitter = jitter;
    this.random = random;
    this.attempt = 0;
  }

  /** Returns the next delay in milliseconds and advances the attempt count. */
  next() {
    const nominal = Math.min(this.cap, this.base * this.factor ** this.attempt);
    this.attempt += 1;
    return nominal * (1 + this.jitter * (2 * this.random() - 1));
  }

  /** Starts over from the base delay (call after a successful join). */
  reset() {
    this.attempt = 0;
  }
}
