/**
 * Maps this page's clock to the room's media time, from the `t` of frames and when they
 * arrived: media time = wall seconds + offset, with the offset an exponential moving average
 * of (t − arrival) so network jitter is smoothed out. A jump of more than `snapSeconds` (a
 * new room, a long stall) is taken at once.
 */
export class MediaClock {
  /** @param {{smoothing?: number, snapSeconds?: number}} [options] */
  constructor({ smoothing = 0.1, snapSeconds = 0.5 } = {}) {
    this.smoothing = smoothing;
    this.snapSeconds = snapSeconds;
    this.offset = null;
  }

  /** Records that the frame of media time `t` arrived at `wallMs` (performance.now()). */
  observe(t, wallMs) {
    const sample = t - wallMs / 1000;
    if (this.offset === null || Math.abs(sample - this.offset) > this.snapSeconds) this.offset = sample;
    else this.offset += (sample - this.offset) * this.smoothing;
  }

  /** The room's media time at `wallMs`, or null before any frame. */
  now(wallMs) {
    return this.offset === null ? null : wallMs / 1000 + this.offset;
  }
}
