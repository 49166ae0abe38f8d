/**
 * Draws the view in a worker (render-worker.js) on the page's canvas handed over as an
 * `OffscreenCanvas`, where the browser has them (`WorkerRenderer.supported()`), so that taps and
 * frames are never queued behind a draw. At most one picture is in the worker at a time: one asked
 * for meanwhile waits, and a newer one replaces it.
 */
export class WorkerRenderer {
  /** Whether this browser can draw the view in a worker. */
  static supported() {
    return typeof Worker === 'function' && typeof OffscreenCanvas === 'function'
      && typeof HTMLCanvasElement.prototype.transferControlToOffscreen === 'function'
      && typeof OffscreenCanvasRenderingContext2D === 'function'
      && typeof OffscreenCanvasRenderingContext2D.prototype.createConicGradient === 'function';
  }

  /**
   * @param {HTMLCanvasElement} canvas the page's canvas (its control is handed to the worker; its
   *   backing size is then set by each picture's `canvasWidth` × `canvasHeight`)
   * @param {{rasterise: boolean, onPainted: () => void, onInvalidate: () => void}} options
   *   `onPainted` after each picture has been drawn, `onInvalidate` when an image arrived
   */
  constructor(canvas, { rasterise, onPainted, onInvalidate }) {
    this.worker = new Worker(new URL('./render-worker.js', import.meta.url), { type: 'module' });
    const offscreen = canvas.transferControlToOffscreen();
    this.worker.postMessage({ type: 'init', canvas: offscreen, rasterise }, [offscreen]);
    this.busy = false;
    this.waiting = null;
    /** Image URLs already sent to the worker. */
    this.sent = new Set();
    this.worker.onmessage = ({ data }) => {
      if (data.type === 'invalidate') onInvalidate();
      if (data.type !== 'painted') return;
      this.busy = false;
      onPainted();
      if (this.waiting) this.paint(this.waiting);
    };
  }

  /** Sends the asset table (`{id: {url, width, height}}`, absolute URLs) and every image loaded so far. */
  setAssets(table, images) {
    this.worker.postMessage({ type: 'assets', table });
    this.sendImages(images);
  }

  /** Sends each loaded image of `images` (assets.js's url → {image, ready}) not sent yet, as a bitmap. */
  sendImages(images) {
    for (const [url, { image, ready }] of images) {
      if (!ready || this.sent.has(url)) continue;
      this.sent.add(url);
      createImageBitmap(image).then((bitmap) => this.worker.postMessage({ type: 'image', url, bitmap }, [bitmap]),
        () => this.sent.delete(url));
    }
  }

  /** Draws `picture` (paint.js, with `canvasWidth` and `canvasHeight`) now, or after the one being drawn. */
  paint(picture) {
    if (this.busy) {
      this.waiting = picture;
      return;
    }
    this.waiting = null;
    this.busy = true;
    this.worker.postMessage({ type: 'paint', picture });
  }

  /** Stops the worker. */
  destroy() {
    this.worker.terminate();
  }
}
