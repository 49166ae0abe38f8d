// Items large enough, with shadows wide enough, to be blurred at a lower resolution (renderer.js,
// `drawCoarseShadow`): an opaque rounded rect, a thin stroked ring, and a translucent item through
// a perspective row (g = 1e-7 per point, too small to see; the projective path). #ours has them
// as the page client's renderer draws them; #reference has each item drawn by the renderer
// without its shadow, then composited with Chromium's canvas shadow at full resolution (blur
// 2 × radius, the offset as is, at scale 1), as the renderer drew every shadow before. Sets
// `window.compared` ({worst, where, mean, inked}) or `window.failure`, for test_browser_render.py.
import { Renderer } from '/public/lib/renderer.js';
import { newCanvas } from '/public/lib/new-canvas.js';
import { withAlpha } from '/public/lib/color.js';

try {
  // A circle of radius 260 in four cubics, as the server writes paths (path-table.js).
  const [r, k] = [260, 260 * 0.5523];
  const ring = `M ${2 * r} ${r} C ${2 * r} ${r + k} ${r + k} ${2 * r} ${r} ${2 * r} C ${r - k} ${2 * r} 0 ${r + k} 0 ${r} `
    + `C 0 ${r - k} ${r - k} 0 ${r} 0 C ${r + k} 0 ${2 * r} ${r - k} ${2 * r} ${r} Z`;
  const paths = new Map([[1, ring]]);
  // Each at least 512 × 512 device pixels with its margin, as a coarse shadow's caster must be.
  const items = [
    { id: 1, m: [1, 0, 0, 1, 30, 30], s: [620, 460], bg: '#3366cc', cr: 14, sh: { c: '#000000', o: 0.8, dx: 6, dy: 9, r: 6 } },
    { id: 2, m: [1, 0, 0, 1, 400, 380], s: [520, 520], stroke: { path: 1, c: '#cc3333', w: 2 }, sh: { c: '#002288', o: 1, dx: -4, dy: 5, r: 5 } },
    { id: 3, m: [1, 0, 0, 1, 60, 420, 1e-7, 0, 1], s: [560, 500], o: 0.6, bg: '#33aa55',
      sh: { c: '#000000', o: 0.5, dx: 10, dy: -8, r: 8 } },
  ];
  const view = { scale: 1, x: 0, y: 0, width: 1000, height: 1000 };
  const ours = document.getElementById('ours');
  new Renderer(ours, { get: () => null }).draw(items, view, paths);

  const reference = document.getElementById('reference').getContext('2d');
  for (const { sh, o = 1, ...plain } of items) {
    const alone = newCanvas(1000, 1000);
    new Renderer(alone, { get: () => null }).draw([plain], view, paths);
    reference.save();
    reference.globalAlpha = o;
    reference.shadowColor = withAlpha(sh.c, sh.o);
    reference.shadowOffsetX = sh.dx;
    reference.shadowOffsetY = sh.dy;
    reference.shadowBlur = 2 * sh.r;
    reference.drawImage(alone, 0, 0);
    reference.restore();
  }
  const a = ours.getContext('2d').getImageData(0, 0, 1000, 1000).data;
  const b = reference.getImageData(0, 0, 1000, 1000).data;
  let worst = 0, where = null, total = 0, inked = 0;
  // Channels compared premultiplied (colour × alpha / 255, and alpha): the colour of a nearly
  // transparent pixel is not seen.
  const premultiplied = (data, i) => (i % 4 === 3 ? data[i] : (data[i] * data[i - (i % 4) + 3]) / 255);
  for (let i = 0; i < a.length; i += 1) {
    const difference = Math.abs(premultiplied(a, i) - premultiplied(b, i));
    if (difference > worst) {
      worst = difference;
      const pixel = i - (i % 4);
      where = { x: (pixel / 4) % 1000, y: Math.floor(pixel / 4000), ours: [...a.subarray(pixel, pixel + 4)], reference: [...b.subarray(pixel, pixel + 4)] };
    }
    total += difference;
    if (i % 4 === 3 && b[i] > 0) inked += 1;
  }
  window.compared = { worst, where, mean: total / a.length, inked };
} catch (error) {
  window.failure = String(error);
}
