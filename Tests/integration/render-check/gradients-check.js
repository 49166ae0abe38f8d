// Seeded CAGradientLayer descriptions (?seed=K) of type radial or conic, each drawn twice: on the
// left as the `grad` item protocol.md ("Gradients") makes of it, by public/lib/renderer.js; on the
// right as a CSS gradient written from the description by engine-model.md §10.2 (not from the
// item): radial is `radial-gradient(rx ry at s)` with rx, ry = |e − s| times the bounds' size, and
// t = 1 on that ellipse; conic is `conic-gradient(from θ at s)`, θ the direction of e measured
// clockwise from up (CSS) where canvas measures it from +x. Stops go at `locations` (some outside
// 0…1, so the client's padding is checked) or evenly. Colours are opaque: CSS interpolates
// premultiplied, Core Animation unpremultiplied, which differ only for translucent stops; the
// layers' translucency is their opacity instead. With ?projective=1 every matrix gets an
// invisible perspective row (as in render-check.js), so gradients go through WebGL 2, or the 2D
// triangle mesh with &mesh=1; `document.body.dataset.projection` says which one drew them.
// Sets `document.body.dataset.drawn` ("yes", or the error) for test_browser_render.py.
import { Renderer } from '/public/lib/renderer.js';

const PALETTE = ['#e83a2f', '#1f77b4', '#2ca02c', '#ffd700', '#9467bd', '#17becf', '#333333'];

/** A small seeded generator (a linear congruential one is enough for picking test layers). */
function generator(seed) {
  let state = (seed * 2654435761) >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Six layers in a 3 × 2 grid of 130 × 195 cells: frame, corner radius, opacity and gradient. */
function layers(seed) {
  const random = generator(seed);
  const between = (low, high) => low + (high - low) * random();
  const round = (x) => Math.round(x * 100) / 100;
  return Array.from({ length: 6 }, (_, k) => {
    const w = Math.round(between(60, 120)), h = Math.round(between(60, 180));
    const x = 5 + 133 * (k % 3) + Math.round(between(0, 125 - w)), y = 5 + 197 * Math.floor(k / 3) + Math.round(between(0, 190 - h));
    const type = k % 2 ? 'conic' : 'radial';
    const start = [round(between(0.2, 0.8)), round(between(0.2, 0.8))];
    // Radial: radii of at least 0.15 of the side, so the ellipse is not a hairline.
    const reach = () => round((random() < 0.5 ? -1 : 1) * between(0.15, 0.7));
    const end = [round(start[0] + reach()), round(start[1] + reach())];
    const count = 2 + Math.floor(random() * 3);
    const colors = Array.from({ length: count }, () => PALETTE[Math.floor(random() * PALETTE.length)]);
    const locations = random() < 0.5 ? null
      : colors.map((_, i) => round(-0.2 + (1.4 * (i + random() * 0.8)) / count)).sort((a, b) => a - b);
    return {
      frame: [x, y, w, h], cornerRadius: random() < 0.5 ? 0 : Math.round(between(4, 30)),
      opacity: random() < 0.5 ? 1 : round(between(0.4, 0.9)), type, start, end, colors, locations,
    };
  });
}

/** The layer's stops: `locations` when there is one per colour, else evenly spread. */
function stops(layer) {
  const n = layer.colors.length;
  return layer.colors.map((c, i) => [layer.locations ? layer.locations[i] : i / (n - 1), c]);
}

/** The display-list item of a gradient layer (protocol.md, "Gradients"). */
function item(layer, id) {
  const [x, y, w, h] = layer.frame;
  const grad = { type: layer.type, stops: stops(layer), p0: [layer.start[0] * w, layer.start[1] * h], p1: [layer.end[0] * w, layer.end[1] * h] };
  return { id, m: [1, 0, 0, 1, x, y], s: [w, h], ...(layer.opacity < 1 && { o: layer.opacity }), ...(layer.cornerRadius && { cr: layer.cornerRadius }), grad };
}

/** The CSS background of a gradient layer, from engine-model.md §10.2. */
function css(layer) {
  const [, , w, h] = layer.frame;
  const [sx, sy] = [layer.start[0] * w, layer.start[1] * h], [ex, ey] = [layer.end[0] * w, layer.end[1] * h];
  const list = stops(layer).map(([t, c]) => `${c} ${t * 100}%`).join(', ');
  if (layer.type === 'radial') return `radial-gradient(${Math.abs(ex - sx)}px ${Math.abs(ey - sy)}px at ${sx}px ${sy}px, ${list})`;
  const degrees = (Math.atan2(ey - sy, ex - sx) * 180) / Math.PI + 90;
  return `conic-gradient(from ${degrees}deg at ${sx}px ${sy}px, ${list})`;
}

try {
  const query = new URLSearchParams(location.search);
  const all = layers(Number(query.get('seed')));
  const items = all.map((layer, i) => item(layer, i + 1));
  if (query.get('projective') === '1') items.forEach((it) => { it.m = [...it.m, 1e-7, 0, 1]; });
  const renderer = new Renderer(document.getElementById('ours'), { get: () => null }, { webgl: query.get('mesh') !== '1' });
  renderer.draw(items, { scale: 1, x: 0, y: 0, width: 400, height: 400 });
  document.body.dataset.projection = renderer.projection ? 'webgl' : 'mesh';
  const reference = document.getElementById('reference');
  for (const layer of all) {
    const [x, y, w, h] = layer.frame;
    const div = document.createElement('div');
    Object.assign(div.style, {
      left: `${x}px`, top: `${y}px`, width: `${w}px`, height: `${h}px`, borderRadius: `${layer.cornerRadius}px`,
      opacity: String(layer.opacity), background: css(layer),
    });
    reference.append(div);
  }
  document.body.dataset.drawn = 'yes';
} catch (error) {
  document.body.dataset.drawn = String(error);
}
