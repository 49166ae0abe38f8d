// Draws the first frame of Tests/vectors/shapes.json into #ours with the page client's renderer,
// then sets `document.body.dataset.drawn` ("yes", or the error) for test_browser_render.py.
import { Renderer } from '/public/lib/renderer.js';

try {
  const vector = await (await fetch('/Tests/vectors/shapes.json')).json();
  const { items, paths } = vector.steps[0].message;
  const canvas = document.getElementById('ours');
  new Renderer(canvas, { get: () => null }).draw(items, { scale: 1, x: 0, y: 0, width: 400, height: 400 }, new Map(paths));
  document.body.dataset.drawn = 'yes';
} catch (error) {
  document.body.dataset.drawn = String(error);
}
