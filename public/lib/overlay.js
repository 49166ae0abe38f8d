/**
 * Draws the statistics overlay in the canvas's top-left corner: frames drawn per second,
 * the age of the newest frame, and bytes received per second.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} dpr device pixels per CSS pixel
 * @param {{fps: number, frameAgeMs: number | null, bytesPerSecond: number}} stats
 */
export function drawOverlay(ctx, dpr, { fps, frameAgeMs, bytesPerSecond }) {
  const lines = [
    `${Math.round(fps)} fps`,
    `age ${frameAgeMs === null ? '–' : Math.round(frameAgeMs)} ms`,
    `${(bytesPerSecond / 1000).toFixed(1)} kB/s`,
  ];
  ctx.save();
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.globalAlpha = 1;
  ctx.font = '11px ui-monospace, Menlo, Consolas, monospace';
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left';
  const width = Math.max(...lines.map((line) => ctx.measureText(line).width));
  ctx.fillStyle = 'rgba(0, 0, 0, 0.6)';
  ctx.fillRect(4, 4, width + 12, lines.length * 14 + 8);
  ctx.fillStyle = '#e8f0ff';
  lines.forEach((line, i) => ctx.fillText(line, 10, 8 + i * 14));
  ctx.restore();
}
