// Draws a 40×40 image (left half white, right half grey 128, bottom quarter transparent) three
// times at 80×80 with the page client's renderer: tinted by `it` #ff8033 (affine), the same with a
// perspective row (g = 1e-7 per point, too small to see; the raster-and-mesh path), and without
// `it`. Sets `window.pixels` to the RGBA of the probe points, or `window.failure`, for
// test_browser_render.py.
import { Renderer } from '/public/lib/renderer.js';

try {
  const image = document.createElement('canvas');
  image.width = 40;
  image.height = 40;
  const paint = image.getContext('2d');
  paint.fillStyle = '#ffffff';
  paint.fillRect(0, 0, 20, 30);
  paint.fillStyle = '#808080';
  paint.fillRect(20, 0, 20, 30);
  const asset = { image, width: 40, height: 40 };
  const canvas = document.getElementById('ours');
  const item = (id, tx, ty, extra) => ({ id, m: [1, 0, 0, 1, tx, ty], s: [80, 80], img: 'square', ...extra });
  const items = [
    item(1, 0, 0, { it: '#ff8033' }),
    { ...item(2, 200, 0, { it: '#ff8033' }), m: [1, 0, 0, 1, 200, 0, 1e-7, 0, 1] },
    item(3, 0, 200, {}),
  ];
  new Renderer(canvas, { get: (id) => (id === 'square' ? asset : null) })
    .draw(items, { scale: 1, x: 0, y: 0, width: 400, height: 400 });
  const ctx = canvas.getContext('2d');
  const probe = (x, y) => [...ctx.getImageData(x, y, 1, 1).data];
  window.pixels = {};
  for (const [name, [x, y]] of Object.entries({ white: [20, 20], grey: [60, 20], clear: [40, 70] })) {
    window.pixels[`affine ${name}`] = probe(x, y);
    window.pixels[`projective ${name}`] = probe(200 + x, y);
    window.pixels[`untinted ${name}`] = probe(x, 200 + y);
  }
} catch (error) {
  window.failure = String(error);
}
