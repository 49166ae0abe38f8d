/**
 * Draws in an animation frame only when the view changed: `invalidate()` asks for one draw, and
 * a draw that returns true (the view is still moving, e.g. interpolating) asks for the next.
 * Nothing is scheduled while the page is hidden; showing it again draws once.
 */
export class RedrawLoop {
  /** @param {(now: number) => boolean} draw draws at animation-frame time `now`; true: draw again next frame */
  constructor(draw) {
    this.draw = draw;
    this.frame = 0;
    this.hidden = false;
    this.stopped = false;
    this.tick = (now) => {
      this.frame = 0;
      if (this.draw(now)) this.invalidate();
    };
  }

  /** Schedules one draw in the next animation frame (once, however often it is asked). */
  invalidate() {
    if (!this.frame && !this.hidden && !this.stopped) this.frame = requestAnimationFrame(this.tick);
  }

  /** Stops drawing while `hidden`; when shown again, draws once. */
  setHidden(hidden) {
    this.hidden = hidden;
    if (!hidden) this.invalidate();
    else this.cancel();
  }

  /** Draws no more, whatever is asked later. */
  stop() {
    this.stopped = true;
    this.cancel();
  }

  /** Cancels the scheduled draw, if any. */
  cancel() {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
  }
}
