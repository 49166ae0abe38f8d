/**
 * Turns pointer events on an element into gestures.
 *
 * The first pointer down is followed (others are ignored until it is up). If it comes up
 * within `slop` CSS pixels of where it went down and within `tapMs`, it is a tap, reported
 * with the down position. Otherwise it is a drag: `began` (with the down position) as soon as
 * it moves further than `slop` or is held longer than `tapMs`, then `moved` at most every
 * `moveIntervalMs` (the latest position; one left pending is sent when the interval is over),
 * then `ended` on up or `cancelled` when the browser cancels the pointer.
 *
 * With `tapOnDown` (a scene that takes no drags), every primary press is a tap, reported as the
 * pointer goes down: nothing is followed, so the tap leaves without waiting for the up.
 *
 * Gestures are `{clientX, clientY, stamp}`; `stamp` is what `stamp()` returned at pointer down
 * for a tap and a drag's `began`, and what it returns when the gesture is reported otherwise.
 */
export class PointerInput {
  /**
   * @param {HTMLElement} element
   * @param {{onTap: (gesture: object) => void, onDrag: (phase: string, gesture: object) => void, stamp: () => any}} handlers
   * @param {{slop?: number, tapMs?: number, moveIntervalMs?: number}} [options]
   */
  constructor(element, { onTap, onDrag, stamp }, { slop = 10, tapMs = 500, moveIntervalMs = 1000 / 60 } = {}) {
    Object.assign(this, { element, onTap, onDrag, stamp, slop, tapMs, moveIntervalMs });
    /** Whether a press is a tap at once (the scene takes no drags). */
    this.tapOnDown = false;
    this.press = null;
    this.listeners = {
      pointerdown: (event) => this.down(event),
      pointermove: (event) => this.move(event),
      pointerup: (event) => this.up(event),
      pointercancel: (event) => this.cancel(event),
      lostpointercapture: (event) => this.cancel(event),
    };
    for (const [type, listener] of Object.entries(this.listeners)) element.addEventListener(type, listener);
  }

  /** Removes the listeners and forgets any press in progress without reporting it. */
  destroy() {
    for (const [type, listener] of Object.entries(this.listeners)) this.element.removeEventListener(type, listener);
    this.forget();
  }

  /** Taps at once (`tapOnDown`), or starts following a primary-button press unless one is already followed. */
  down(event) {
    if (this.press || !event.isPrimary || event.button !== 0) return;
    event.preventDefault();
    if (this.tapOnDown) {
      this.onTap(this.gesture(event));
      return;
    }
    this.element.setPointerCapture?.(event.pointerId);
    this.press = {
      id: event.pointerId,
      start: { clientX: event.clientX, clientY: event.clientY, stamp: this.stamp() },
      dragging: false,
      lastMoveAt: -Infinity,
      pending: null,
      moveTimer: 0,
      holdTimer: setTimeout(() => this.beginDrag(), this.tapMs),
    };
  }

  /** Starts the drag once the press leaves the slop; reports moves while dragging. */
  move(event) {
    const press = this.press;
    if (!press || event.pointerId !== press.id) return;
    const point = { clientX: event.clientX, clientY: event.clientY };
    if (!press.dragging) {
      if (Math.hypot(point.clientX - press.start.clientX, point.clientY - press.start.clientY) <= this.slop) return;
      this.beginDrag();
    }
    press.pending = point;
    this.flushMove();
  }

  /** Ends the press: the drag ends, or it was a tap. */
  up(event) {
    const press = this.press;
    if (!press || event.pointerId !== press.id) return;
    this.forget();
    if (press.dragging) this.onDrag('ended', this.gesture(event));
    else this.onTap(press.start);
  }

  /** The browser took the pointer away: a drag is cancelled, a would-be tap forgotten. */
  cancel(event) {
    const press = this.press;
    if (!press || event.pointerId !== press.id) return;
    this.forget();
    if (press.dragging) this.onDrag('cancelled', this.gesture(event));
  }

  /** Starts the drag of the current press (reported with the down position and stamp). */
  beginDrag() {
    const press = this.press;
    if (!press || press.dragging) return;
    press.dragging = true;
    clearTimeout(press.holdTimer);
    this.onDrag('began', press.start);
  }

  /** Reports the pending move now if the interval allows, else when it does. */
  flushMove() {
    const press = this.press;
    if (!press?.pending || press.moveTimer) return;
    const wait = press.lastMoveAt + this.moveIntervalMs - performance.now();
    if (wait > 0) {
      press.moveTimer = setTimeout(() => {
        press.moveTimer = 0;
        this.flushMove();
      }, wait);
      return;
    }
    press.lastMoveAt = performance.now();
    const point = press.pending;
    press.pending = null;
    this.onDrag('moved', { ...point, stamp: this.stamp() });
  }

  /** The gesture of `event`'s position, stamped now. */
  gesture(event) {
    return { clientX: event.clientX, clientY: event.clientY, stamp: this.stamp() };
  }

  /** Ends the current press without reporting anything. */
  forget() {
    if (!this.press) return;
    clearTimeout(this.press.holdTimer);
    clearTimeout(this.press.moveTimer);
    this.press = null;
  }
}
