import { pageFrames } from './redraw-loop.js';

/** Pixels per natural pixel of an SVG image's bitmap: sharp up to a scale of 3 on a 2× screen. */
const SVG_DENSITY = 6;

/** The longest side of an SVG image's bitmap, in pixels. */
const MAX_SVG_SIDE = 2048;

/** The handle of an animation frame asked of the worker (`requestFrame`). */
const WORKER_FRAME = Object.freeze({ worker: true });

/** A render worker started before any view mounted (`startEarly`) and what it said meanwhile; null once taken. */
let early = null;

/** Whether a view has made its renderer: a worker started early after that would never be taken. */
let viewMade = false;

/**
 * Draws the view in a worker (render-worker.js), where the browser can (`WorkerRenderer.supported()`),
 * so that taps and frames are not queued behind rasterising: once the worker has started, the
 * page's canvas is handed to it (`transferControlToOffscreen`) and shows what it draws, with no
 * work on the page's thread. The canvas stays readable as an image source (`drawImage` of it onto
 * another canvas). At most one picture is in the worker at a time: one asked for meanwhile waits,
 * and a newer one replaces it. Once the worker holds the canvas, the view's animation frames are
 * the worker's (`requestFrame`), so the page's thread runs no frame of its own to draw.
 */
export class WorkerRenderer {
  /** Whether this browser can draw the view in a worker. */
  static supported() {
    return typeof Worker === 'function' && typeof OffscreenCanvas === 'function'
      && typeof HTMLCanvasElement.prototype.transferControlToOffscreen === 'function'
      && typeof OffscreenCanvasRenderingContext2D === 'function'
      && typeof OffscreenCanvasRenderingContext2D.prototype.createConicGradient === 'function';
  }

  /** Whether the view should draw in a worker: the browser can, and `search` has no `renderer=main`. */
  static wanted(search = location.search) {
    return new URLSearchParams(search).get('renderer') !== 'main' && WorkerRenderer.supported();
  }

  /**
   * Starts a render worker now, for the next view that mounts to take: its thread and its script's
   * round trip then overlap the loading of the page's other modules (render-worker-start.js).
   */
  static startEarly() {
    if (early || viewMade || !WorkerRenderer.wanted()) return;
    let worker;
    try {
      worker = renderWorker();
    } catch { // refused outright: the view's own attempt is refused too, and says so
      return;
    }
    const said = [];
    const keep = (event) => said.push(event);
    worker.addEventListener('message', keep);
    worker.addEventListener('error', keep);
    early = { worker, said, keep };
  }

  /**
   * @param {import('./surface.js').Surface} surface the page's canvas, handed to the worker once it
   *   runs: a worker that fails to start, or a canvas that has a context by then, is left to the
   *   page's thread (`onFailed`)
   * @param {{rasterise: boolean, onPainted: () => void, onInvalidate: () => void, onFailed: () => void}} options
   *   `rasterise` false: bench only (unrasterised.js); `onPainted` after each picture is on the
   *   canvas, `onInvalidate` when an image or a face arrived, `onFailed` when the worker cannot
   *   run (its script did not load, e.g. refused by a Content-Security-Policy) or have the canvas
   * @throws when the browser refuses the worker outright (a page that imports this module from
   *   another origin: a worker's script must be of the page's origin)
   */
  constructor(surface, { rasterise, onPainted, onInvalidate, onFailed }) {
    const parked = early;
    early = null;
    viewMade = true;
    this.worker = parked?.worker ?? renderWorker();
    this.started = false;
    /** Whether the view's animation frames are the worker's: it holds the canvas and has requestAnimationFrame. */
    this.workerFrames = false;
    /** The callback of the frame asked for, and whether a `frame?` is out unanswered. */
    this.frameCallback = null;
    this.frameAsked = false;
    this.busy = false;
    this.waiting = null;
    /** Image URLs already sent to the worker. */
    this.sent = new Set();
    this.worker.onerror = (event) => {
      if (this.started) { // the canvas is the worker's now: report, and go on
        console.error(`layercast: render worker: ${event.message}`);
        return;
      }
      this.destroy();
      onFailed();
    };
    this.worker.onmessage = ({ data }) => {
      switch (data.type) {
        case 'started': {
          let canvas;
          try {
            canvas = surface.transferControl();
          } catch { // something took a context of the canvas first: it stays the page's thread's
            this.destroy();
            onFailed();
            return;
          }
          this.worker.postMessage({ type: 'init', rasterise, canvas }, [canvas]);
          this.started = true;
          this.workerFrames = data.frames === true;
          if (this.waiting) this.paint(this.waiting);
          break;
        }
        case 'frame': {
          this.frameAsked = false;
          const callback = this.frameCallback;
          this.frameCallback = null;
          callback?.(data.time - performance.timeOrigin);
          break;
        }
        case 'invalidate':
          onInvalidate();
          break;
        case 'painted':
          this.busy = false;
          if (data.error) console.error(`layercast: a picture was not drawn: ${data.error}`);
          else onPainted();
          if (this.waiting) this.paint(this.waiting);
          break;
      }
    };
    if (parked) {
      parked.worker.removeEventListener('message', parked.keep);
      parked.worker.removeEventListener('error', parked.keep);
      // What the early worker said before this view took it, in order, once the view holds this
      // renderer (after the constructor, before any later message): a script that failed ends it.
      queueMicrotask(() => {
        for (const event of parked.said) {
          if (event.type === 'error') {
            this.worker.onerror(event);
            if (!this.started) return; // its script did not load: the page's thread draws
          } else {
            this.worker.onmessage(event);
          }
        }
      });
    }
  }

  /** Sends the asset table (`{id: {url, width, height}}`, absolute URLs) and every image loaded so far. */
  setAssets(table, images) {
    this.worker.postMessage({ type: 'assets', table });
    this.sendImages(images);
  }

  /**
   * Sends each loaded image of `images` (assets.js's url → {image, ready}) not sent yet, as a
   * bitmap: an SVG at SVG_DENSITY times its natural size (a bitmap is a raster, unlike the vector
   * image the page's thread draws), any other image as it is.
   */
  sendImages(images) {
    for (const [url, { image, ready }] of images) {
      if (!ready || this.sent.has(url)) continue;
      this.sent.add(url);
      createImageBitmap(image, bitmapSize(url, image)).then(
        (bitmap) => this.worker.postMessage({ type: 'image', url, bitmap }, [bitmap]),
        () => this.sent.delete(url));
    }
  }

  /**
   * Draws `picture` (paint.js, with the backing store's `canvasWidth` and `canvasHeight`) now, or
   * once the worker has started or finished the one it draws.
   */
  paint(picture) {
    if (!this.started || this.busy) {
      this.waiting = picture;
      return;
    }
    this.waiting = null;
    this.busy = true;
    this.worker.postMessage({ type: 'paint', picture });
  }

  /**
   * Calls `callback(time)` (the page's clock) at the next animation frame: the worker's once it
   * holds the canvas, the page's before. Returns a handle for `cancelFrame`.
   */
  requestFrame(callback) {
    if (!this.workerFrames) return pageFrames.request(callback);
    this.frameCallback = callback;
    if (!this.frameAsked) {
      this.frameAsked = true;
      this.worker.postMessage({ type: 'frame?' });
    }
    return WORKER_FRAME;
  }

  /**
   * Cancels the frame `requestFrame` returned `handle` for. A `frame?` already out is answered and
   * ignored; the next request asks again rather than wait for it (a hidden page's may come late).
   */
  cancelFrame(handle) {
    if (handle !== WORKER_FRAME) {
      pageFrames.cancel(handle);
      return;
    }
    this.frameCallback = null;
    this.frameAsked = false;
  }

  /** Stops the worker. */
  destroy() {
    this.worker.terminate();
  }
}

/** A new render worker (render-worker.js); throws where the browser refuses it. */
function renderWorker() {
  return new Worker(new URL('./render-worker.js', import.meta.url), { type: 'module' });
}

/** `createImageBitmap`'s options for the image at `url`: an SVG rasterised at SVG_DENSITY, others as they are. */
function bitmapSize(url, image) {
  const side = Math.max(image.naturalWidth, image.naturalHeight);
  if (!new URL(url).pathname.endsWith('.svg') || !(side > 0)) return {};
  const density = Math.min(SVG_DENSITY, MAX_SVG_SIDE / side);
  return {
    resizeWidth: Math.max(1, Math.round(image.naturalWidth * density)),
    resizeHeight: Math.max(1, Math.round(image.naturalHeight * density)),
    resizeQuality: 'high',
  };
}
