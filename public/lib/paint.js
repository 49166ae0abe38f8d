import { drawOverlay } from './overlay.js';
import { drawVeil } from './veil.js';

/**
 * Draws one picture of the view with `renderer`, on the page or in the render worker alike:
 * `picture` is `{items, device, paths?, time?, veil, overlay}`, the items and path table at display
 * time `time` in the scene's rect `device` (device pixels); `veil` false for none, else the veil's
 * words ('' for none); `overlay` null or `{dpr, stats}` for the statistics overlay.
 */
export function paint(renderer, { items, device, paths, time, veil, overlay }) {
  renderer.draw(items, device, paths, time);
  if (veil !== false) drawVeil(renderer.ctx, device, veil);
  if (overlay) drawOverlay(renderer.ctx, overlay.dpr, overlay.stats);
}
