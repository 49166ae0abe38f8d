// Draws a turning item (a perspective row whose strength changes a little from frame to frame)
// with a gradient for contents, four frames, then the same with the gradient's colours changed,
// then two green frames after the WebGL context was lost. Sets `window.frames` to, per frame, the
// pixel at the item's centre and how many times the renderer rastered the contents, with
// `window.projection` and `window.afterLoss` ('webgl' or 'mesh'), or `window.failure`, for
// test_browser_render.py.
import { Renderer } from '/public/lib/renderer.js';

try {
  const renderer = new Renderer(document.getElementById('ours'), { get: () => null });
  let rastered = 0;
  const rasterContents = renderer.rasterContents.bind(renderer);
  renderer.rasterContents = (...args) => {
    rastered += 1;
    return rasterContents(...args);
  };
  const item = (g, from, to) => ({
    id: 1, m: [1, 0, 0, 1, 50, 50, g, 0, 1], s: [100, 100],
    grad: { type: 'axial', p0: [0, 50], p1: [100, 50], stops: [[0, from], [1, to]] },
  });
  const view = { scale: 1, x: 0, y: 0, width: 200, height: 200 };
  window.frames = [];
  for (const [from, to] of [['#ff0000', '#ff0000'], ['#0000ff', '#0000ff']]) {
    for (const g of [1e-4, 1.01e-4, 1.02e-4, 1.03e-4]) {
      renderer.draw([item(g, from, to)], view);
      window.frames.push({ pixel: [...renderer.ctx.getImageData(100, 100, 1, 1).data], rastered });
    }
  }
  window.projection = renderer.projection ? 'webgl' : 'mesh';
  // The GPU takes the context away (WEBGL_lose_context stands in for it): the next picture is
  // drawn through the 2D mesh, and so is every later one.
  renderer.projection.gl.getExtension('WEBGL_lose_context').loseContext();
  for (const g of [1.04e-4, 1.05e-4]) {
    renderer.draw([item(g, '#00ff00', '#00ff00')], view);
    window.frames.push({ pixel: [...renderer.ctx.getImageData(100, 100, 1, 1).data], rastered });
  }
  window.afterLoss = renderer.projection ? 'webgl' : 'mesh';
} catch (error) {
  window.failure = String(error);
}
