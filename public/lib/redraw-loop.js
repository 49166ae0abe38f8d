/**
 * The page's animation frames, as a `RedrawLoop` schedules them: `request(callback)` calls
 * `callback(time)` once, at the next frame, and returns a handle (never 0) for `cancel`.
 */
export const pageFrames = {
  request: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
};

/**
 * Draws in an animation frame only when the view changed: `invalidate()` asks for one draw, and
 * a draw that returns true (the view is still moving, e.g. interpolating) asks for the next.
 * Nothing is scheduled while the page is hidden; showing it again draws once.
 */
export class RedrawLoop {
  /**
   * @param {(now: number) => boolean} draw draws at animation-frame time `now`; true: draw again next frame
   * @param {{request: (callback: (time: number) => void) => unknown, cancel: (handle: unknown) => void}} frames
   *   whose animation frames to draw in (`pageFrames`, or the render worker's: worker-renderer.js)
   */
  constructor(draw, frames = pageFrames) {
    this.draw = draw;
    this.frames = frames;
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
    if (!this.frame && !this.hidden && !this.stopped) this.frame = this.frames.request(this.tick);
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
    if (this.frame) this.frames.cancel(this.frame);
    this.frame = 0;
  }
}
