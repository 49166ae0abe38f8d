import { FONT_STACK } from './font.js';

/**
 * Dims the scene's rect `device` (device pixels) on `ctx` and, when `words` are given, says them
 * in a dark band across its middle: the view's veil while the connection is down.
 */
export function drawVeil(ctx, device, words) {
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.fillStyle = 'rgba(0, 0, 0, 0.6)';
  ctx.fillRect(device.x, device.y, device.width, device.height);
  if (words) {
    const size = Math.max(12, Math.min(22, device.width / 18));
    ctx.font = `600 ${size}px ${FONT_STACK}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const width = Math.min(device.width, ctx.measureText(words).width + 2 * size);
    const cx = device.x + device.width / 2, cy = device.y + device.height / 2;
    ctx.fillStyle = 'rgba(0, 0, 0, 0.75)';
    ctx.fillRect(cx - width / 2, cy - size, width, 2 * size);
    ctx.fillStyle = '#ffffff';
    ctx.fillText(words, cx, cy, device.width - size);
  }
  ctx.restore();
}
