/**
 * Jittered exponential backoff for reconnecting.
 *
 * The n-th delay (n = 0, 1, …) is min(cap, base · factor^n) scaled by a random factor in
 * [1 − jitter, 1 + jitter], so many clients dropped together do not come back together.
 * `soon()` is for a close that asks to come back at once (1012: the node gave the room up): the
 * first `quickTries` in a row wait `quick`, jittered alike; then it is `next()`.
 */
export class Backoff {
  /**
   * @param {{base?: number, factor?: number, cap?: number, jitter?: number, random?: () => number}} [options]
   *   delays in milliseconds; `random` returns a number in [0, 1) (defaults to Math.random).
   */
  constructor({ base = 500, factor = 2, cap = 15000, jitter = 0.5, quick = 200, quickTries = 3, random = Math.random } = {}) {
    this.base = base;
    this.quick = quick;
    this.quickTries = quickTries;
    this.quickAttempt = 0;
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

  /** Returns a short delay while fewer than `quickTries` came in a row, else `next()`. */
  soon() {
    if (this.quickAttempt >= this.quickTries) return this.next();
    this.quickAttempt += 1;
    return this.quick * (1 + this.jitter * (2 * this.random() - 1));
  }

  /** Starts over from the base delay (call after a successful join). */
  reset() {
    this.attempt = 0;
    this.quickAttempt = 0;
  }
}
