import { newCanvas } from './new-canvas.js';

/** The most canvases a pool keeps; past it, it starts again empty. */
const MAX_CANVASES = 8;

/**
 * Offscreen 2D contexts for one kind of intermediate drawing, one per size class: `fit(w, h)` gives
 * a context whose canvas is at least w × h and at most about twice that on each side (sides are
 * powers of two, from 64). One large canvas reused for small items would make every small item
 * pay for the largest: a canvas that was drawn from is copied whole on its next change while
 * that draw is pending (the browser's copy-on-write snapshot).
 */
export class ScratchCanvases {
  /** @param {(canvas: HTMLCanvasElement | OffscreenCanvas) => CanvasRenderingContext2D} context the context to draw on a new canvas with */
  constructor(context) {
    this.context = context;
    this.contexts = new Map();
  }

  /** A context of this pool's whose canvas holds `width` × `height` pixels; its contents are left as they were. */
  fit(width, height) {
    const w = side(width), h = side(height);
    const key = `${w}x${h}`;
    let ctx = this.contexts.get(key);
    if (!ctx) {
      if (this.contexts.size >= MAX_CANVASES) this.contexts.clear();
      ctx = this.context(newCanvas(w, h));
      this.contexts.set(key, ctx);
    }
    return ctx;
  }
}

/** The power of two (at least 64) at or above `n`. */
function side(n) {
  return Math.max(64, 2 ** Math.ceil(Math.log2(Math.max(1, n))));
}
