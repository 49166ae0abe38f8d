// Draws a turning item (a perspective row whose strength changes a little from frame to frame)
// with a gradient for contents, four frames, then the same with the gradient's colours changed,
// then an image alone drawn at three sizes (`window.images`: a pixel of each half, the textures
// uploaded so far), then two green frames after the WebGL context was lost. Sets `window.frames` to, per frame, the
// pixel at the item's centre and how many times the renderer rastered the contents, with
// `window.projection` and `window.afterLoss` ('webgl' or 'mesh'), or `window.failure`, for
// test_browser_render.py.
import { Renderer } from '/public/lib/renderer.js';

try {
  // A 40 × 40 image, left half yellow, right half magenta, as the worker holds one (a bitmap).
  const photo = new OffscreenCanvas(40, 40);
  const paint = photo.getContext('2d');
  paint.fillStyle = '#ffff00';
  paint.fillRect(0, 0, 20, 40);
  paint.fillStyle = '#ff00ff';
  paint.fillRect(20, 0, 20, 40);
  const renderer = new Renderer(document.getElementById('ours'), { get: (id) => (id === 'photo' ? { image: photo, width: 40, height: 40 } : null) });
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
  // An image alone is its own texture: uploaded once however its size on screen changes.
  const { gl } = renderer.projection;
  const upload = gl.texImage2D.bind(gl);
  let uploads = 0;
  gl.texImage2D = (...args) => {
    uploads += 1;
    return upload(...args);
  };
  window.images = [];
  for (const size of [40, 100, 160]) {
    renderer.draw([{ id: 2, m: [size / 40, 0, 0, size / 40, 20, 20, 1e-4, 0, 1], s: [40, 40], img: 'photo' }], view);
    const at = (x) => [...renderer.ctx.getImageData(20 + x * size, 20 + size / 2, 1, 1).data];
    window.images.push({ left: at(0.25), right: at(0.75), uploads, rastered });
  }
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
