// Draws the first frame of Tests/vectors/shapes.json into #ours with the page client's renderer,
// then sets `document.body.dataset.drawn` ("yes", or the error) for test_browser_render.py. With
// ?projective=1 every matrix gets a perspective row (g = 1e-7 per point, too small to see), so the
// renderer takes the path of 3D-transformed items: outlines through the homography, gradients,
// fills and strokes rastered in item space and drawn through the triangle mesh.
import { Renderer } from '/public/lib/renderer.js';

try {
  const vector = await (await fetch('/Tests/vectors/shapes.json')).json();
  const { items, paths, t } = vector.steps[0].message;
  if (new URLSearchParams(location.search).get('projective') === '1') {
    const lift = (item) => {
      item.m = [...(item.m ?? [1, 0, 0, 1, 0, 0]), 1e-7, 0, 1];
      item.grp?.mask?.forEach(lift);
    };
    items.forEach(lift);
  }
  const canvas = document.getElementById('ours');
  new Renderer(canvas, { get: () => null }).draw(items, { scale: 1, x: 0, y: 0, width: 400, height: 400 }, new Map(paths), t);
  document.body.dataset.drawn = 'yes';
} catch (error) {
  document.body.dataset.drawn = String(error);
}
