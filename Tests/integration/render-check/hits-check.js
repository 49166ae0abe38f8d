// For test_browser_page_hits.py: `window.drawFrame(frame, points)` applies one full `frame`
// message to a FrameStore and draws its list with the page's Renderer on the 480 × 480 canvas
// at scale 1 (scene point p is canvas pixel p), then returns the canvas's [r, g, b, a] at the
// pixel holding each point. Sets `document.body.dataset.ready` when the modules have loaded.
import { FrameStore } from '/public/lib/frame-store.js';
import { Renderer } from '/public/lib/renderer.js';

const canvas = document.getElementById('ours');
const renderer = new Renderer(canvas, { get: () => null });

window.drawFrame = (frame, points) => {
  const store = new FrameStore();
  if (!store.apply(frame, performance.now())) throw new Error('the frame did not apply');
  const { width, height } = canvas;
  renderer.draw(store.latest.items, { scale: 1, x: 0, y: 0, width, height }, store.latest.paths, store.latest.t);
  const pixels = renderer.ctx.getImageData(0, 0, width, height).data;
  return points.map(([x, y]) => {
    const at = 4 * (Math.floor(y) * width + Math.floor(x));
    return Array.from(pixels.subarray(at, at + 4));
  });
};
document.body.dataset.ready = 'yes';
