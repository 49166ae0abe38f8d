// Draws the first frame of Tests/vectors/shapes.json into #ours with the page client's renderer,
// then sets `document.body.dataset.drawn` ("yes", or the error) for test_browser_render.py. With
// ?projective=1 every matrix gets a perspective row (g = 1e-7 per point, too small to see), so the
// renderer takes the path of 3D-transformed items: outlines through the homography, gradients,
// fills and strokes rastered in item space and drawn through WebGL 2, or through the 2D triangle
// mesh with &mesh=1. `document.body.dataset.projection` then says which one drew them.
import { Renderer } from '/public/lib/renderer.js';

try {
  const vector = await (await fetch('/Tests/vectors/shapes.json')).json();
  const { items, paths, t } = vector.steps[0].message;
  const query = new URLSearchParams(location.search);
  if (query.get('projective') === '1') {
    const lift = (item) => {
      item.m = [...(item.m ?? [1, 0, 0, 1, 0, 0]), 1e-7, 0, 1];
      item.grp?.mask?.forEach(lift);
    };
    items.forEach(lift);
  }
  const canvas = document.getElementById('ours');
  const renderer = new Renderer(canvas, { get: () => null }, { webgl: query.get('mesh') !== '1' });
  renderer.draw(items, { scale: 1, x: 0, y: 0, width: 400, height: 400 }, new Map(paths), t);
  document.body.dataset.projection = renderer.projection ? 'webgl' : 'mesh';
  document.body.dataset.drawn = 'yes';
} catch (error) {
  document.body.dataset.drawn = String(error);
}
