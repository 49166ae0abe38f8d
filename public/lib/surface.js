/**
 * A canvas that fills a container element and stays sharp: its backing store (`width` ×
 * `height`) is its CSS size times devicePixelRatio, updated when the element resizes
 * (ResizeObserver) and when the ratio changes (browser zoom, a move to another screen). Once its
 * control is transferred (`transferControl()`), whoever draws sizes the backing store to
 * `width` × `height` itself.
 */
export class Surface {
  /**
   * @param {HTMLElement} container the canvas is absolutely positioned over its padding box
   *   (a statically positioned container is made `position: relative`)
   * @param {() => void} onResize called after the backing store changed (the canvas is blank then)
   */
  constructor(container, onResize) {
    this.container = container;
    this.onResize = onResize;
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'layercast-canvas';
    Object.assign(this.canvas.style, {
      position: 'absolute', left: '0', top: '0', width: '100%', height: '100%', display: 'block', touchAction: 'none',
    });
    this.restorePosition = null;
    if (getComputedStyle(container).position === 'static') {
      this.restorePosition = container.style.position;
      container.style.position = 'relative';
    }
    container.appendChild(this.canvas);
    this.cssWidth = 0;
    this.cssHeight = 0;
    this.width = this.canvas.width;
    this.height = this.canvas.height;
    this.transferred = false;
    this.dpr = window.devicePixelRatio || 1;
    this.observer = new ResizeObserver(([entry]) => {
      this.cssWidth = entry.contentRect.width;
      this.cssHeight = entry.contentRect.height;
      this.measure();
    });
    this.observer.observe(this.canvas);
    this.watchRatio();
  }

  /** Re-reads the ratio; resizes the backing store to the CSS size × ratio and reports if it changed. */
  measure() {
    this.dpr = window.devicePixelRatio || 1;
    const width = Math.round(this.cssWidth * this.dpr);
    const height = Math.round(this.cssHeight * this.dpr);
    if (width === this.width && height === this.height) return;
    this.width = width;
    this.height = height;
    if (!this.transferred) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
    this.onResize();
  }

  /** Hands the canvas's drawing to an `OffscreenCanvas` (for a worker): the canvas shows what it draws. */
  transferControl() {
    const offscreen = this.canvas.transferControlToOffscreen(); // throws if the canvas has a context already
    this.transferred = true;
    return offscreen;
  }

  /** Listens for the next change of devicePixelRatio (a media query matches only one ratio). */
  watchRatio() {
    this.ratioQuery?.removeEventListener('change', this.ratioChanged);
    this.ratioQuery = matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
    this.ratioChanged = () => {
      this.watchRatio();
      this.measure();
    };
    this.ratioQuery.addEventListener('change', this.ratioChanged);
  }

  /** Removes the canvas and every listener; restores the container's position style. */
  destroy() {
    this.observer.disconnect();
    this.ratioQuery.removeEventListener('change', this.ratioChanged);
    this.canvas.remove();
    if (this.restorePosition !== null) this.container.style.position = this.restorePosition;
  }
}
