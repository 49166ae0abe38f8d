// Draws additive emitters (rm: "additive") whose particles are a 30×30 image of rgb(100, 40, 0)
// with the page client's renderer: on the white left half one opaque particle at (100, 100) and
// one at alpha 0.5 at (100, 250); on the black right half one particle at (300, 100), two on top
// of each other at (300, 250), and two on top of each other at (300, 350) in an emitter of
// opacity 0.5. Sets `window.pixels` to the RGBA at those points, or `window.failure`, for
// test_browser_additive.py.
import { Renderer } from '/public/lib/renderer.js';

try {
  const image = document.createElement('canvas');
  image.width = 30;
  image.height = 30;
  const paint = image.getContext('2d');
  paint.fillStyle = 'rgb(100, 40, 0)';
  paint.fillRect(0, 0, 30, 30);
  const asset = { image, width: 30, height: 30 };
  const right = [1, 0, 0, 1, 200, 0];
  const emitter = (id, m, pb, extra) => ({ id, m, s: [200, 400], rm: 'additive', pk: [[1, 'dot']], pb, ...extra });
  // A still record [id, kid, b, l, x, y, vx, vy, s, w, a?], born at 0 for 10 s: drawn at time 1 where it was born.
  const at = (id, x, y, ...alpha) => [id, 1, 0, 10, x, y, 0, 0, 1, 0, ...alpha];
  const items = [
    { id: 1, s: [200, 400], bg: '#ffffff' },
    { id: 2, m: right, s: [200, 400], bg: '#000000' },
    emitter(3, [1, 0, 0, 1, 0, 0], [at(1, 100, 100), at(2, 100, 250, 0.5)]),
    emitter(4, right, [at(1, 100, 100), at(2, 100, 250), at(3, 100, 250)]),
    emitter(5, right, [at(1, 100, 350), at(2, 100, 350)], { o: 0.5 }),
  ];
  const canvas = document.getElementById('ours');
  new Renderer(canvas, { get: (id) => (id === 'dot' ? asset : null) })
    .draw(items, { scale: 1, x: 0, y: 0, width: 400, height: 400 }, new Map(), 1);
  const ctx = canvas.getContext('2d');
  const probe = (x, y) => [...ctx.getImageData(x, y, 1, 1).data];
  window.pixels = {
    'one on white': probe(100, 100),
    'half on white': probe(100, 250),
    'one on black': probe(300, 100),
    'two on black': probe(300, 250),
    'two at opacity 0.5 on black': probe(300, 350),
    'white beside': probe(100, 200),
  };
} catch (error) {
  window.failure = String(error);
}
