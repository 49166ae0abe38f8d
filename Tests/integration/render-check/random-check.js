// Draws case ?case=K of random.json on both sides of random.html, then sets
// `document.body.dataset.drawn` ("yes", or the error) for test_browser_render.py.
import { Renderer } from '/public/lib/renderer.js';

try {
  const fixture = await (await fetch('random.json')).json();
  const { items, paths, svg } = fixture.cases[Number(new URLSearchParams(location.search).get('case'))];
  new Renderer(document.getElementById('ours'), { get: () => null })
    .draw(items, { scale: 1, x: 0, y: 0, width: 400, height: 400 }, new Map(paths));
  document.getElementById('reference').innerHTML = svg;
  document.body.dataset.drawn = 'yes';
} catch (error) {
  document.body.dataset.drawn = String(error);
}
