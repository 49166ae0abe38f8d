/**
 * The render worker (worker-renderer.js starts it): draws the view's pictures on the page's canvas,
 * handed to it as an `OffscreenCanvas`, so that rasterising never holds up the page's main thread
 * (taps, the socket). Out first: `started` {frames}, once this script runs (`frames`: whether it
 * answers `frame?`). Messages in: `init` {rasterise,
 * canvas}, `assets` {table: id → {url, width, height}}, `image` {url, bitmap}, `paint` {picture}
 * (paint.js, with the page's backing size as `canvasWidth` × `canvasHeight`, and `fontReady`,
 * whether the page has the shipped face loaded), `frame?`. Out: `frame` {time} after each
 * `frame?`, at the worker's next animation frame, or at once if the last came more than a display
 * frame ago (`time`: since the epoch, in ms), `painted` after
 * each picture (with `error` when it could not be drawn), `invalidate` when an image or a face
 * arrived and the picture may look different.
 */
import { fontReady, fontSoon, loadFont } from './font.js';
import { paint } from './paint.js';
import { Renderer } from './renderer.js';

/** The asset table and the images that arrived, as the renderer asks for them (assets.js's `get`). */
const assets = {
  table: new Map(),
  bitmaps: new Map(),
  get(id) {
    const asset = this.table.get(id);
    const bitmap = asset && this.bitmaps.get(asset.url);
    return bitmap ? { image: bitmap, width: asset.width, height: asset.height } : null;
  },
};

/** One frame of a 60 Hz display, ms. */
const DISPLAY_FRAME_MS = 1000 / 60;

let renderer = null;
/** When the last `frame` was answered (the worker's clock, ms). */
let lastFrame = -Infinity;
loadFont();
/** Whether a picture has waited for the worker's face (once is enough: a face that fails or hangs holds no more). */
let waitedForFace = false;
// A face that arrives after the font's deadline was drawn in a fallback: draw again in it.
self.fonts?.addEventListener('loadingdone', () => self.postMessage({ type: 'invalidate' }));

self.onmessage = async ({ data }) => {
  switch (data.type) {
    case 'init':
      renderer = new Renderer(data.canvas, assets, { rasterise: data.rasterise });
      break;
    case 'assets':
      assets.table = new Map(Object.entries(data.table));
      break;
    case 'image':
      assets.bitmaps.set(data.url, data.bitmap);
      self.postMessage({ type: 'invalidate' });
      break;
    case 'frame?': {
      // The page draws in the frames of the thread that shows the canvas: its own then run none.
      // Asked for more than a display frame after the last (a picture that outlasted its frame,
      // or the first after a rest), the frame is now: waiting for the next would idle the worker.
      const now = performance.now();
      if (now - lastFrame > DISPLAY_FRAME_MS) {
        lastFrame = now;
        self.postMessage({ type: 'frame', time: performance.timeOrigin + now });
      } else {
        self.requestAnimationFrame((time) => {
          lastFrame = time;
          self.postMessage({ type: 'frame', time: performance.timeOrigin + time });
        });
      }
      break;
    }
    case 'paint': {
      // The page has the face: the worker's own copy comes from the cache in a moment, so the
      // first such picture waits for it (font.js's deadline at most). Else draw now: the page has
      // given up waiting, and `invalidate` redraws in the face when it arrives.
      if (data.picture.fontReady && !waitedForFace && !fontReady()) {
        waitedForFace = true;
        await fontSoon();
      }
      const { canvas } = renderer;
      const { canvasWidth, canvasHeight } = data.picture;
      if (canvas.width !== canvasWidth || canvas.height !== canvasHeight) {
        canvas.width = canvasWidth;
        canvas.height = canvasHeight;
      }
      try {
        if (canvasWidth > 0 && canvasHeight > 0) paint(renderer, data.picture); // nothing to draw on an empty canvas
      } catch (error) { // answered all the same: the page sends the next picture only after an answer
        self.postMessage({ type: 'painted', error: String(error?.stack ?? error) });
        break;
      }
      self.postMessage({ type: 'painted' });
      break;
    }
  }
};

self.postMessage({ type: 'started', frames: typeof self.requestAnimationFrame === 'function' });
