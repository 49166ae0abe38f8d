/**
 * A new blank canvas for offscreen drawing, `width` × `height`: an element on a page, an
 * `OffscreenCanvas` in a worker (render-worker.js), so the renderer runs in either.
 */
export function newCanvas(width = 300, height = 150) {
  if (typeof document === 'undefined') return new OffscreenCanvas(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}
