/**
 * The pure parts of drawing a `grad` (protocol.md, "Gradients") with canvas gradients.
 */

/** `#rrggbb[aa]` as [r, g, b, a] with a in 0…1. */
function parse(hex) {
  const bytes = [1, 3, 5, 7].map((i) => parseInt(hex.slice(i, i + 2) || 'ff', 16));
  return [bytes[0], bytes[1], bytes[2], bytes[3] / 255];
}

/** [r, g, b, a] as a CSS colour. */
function css([r, g, b, a]) {
  return `rgba(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)}, ${+a.toFixed(4)})`;
}

/** The colour of `stops` (ascending) at t: padded with the end colours, linear (unpremultiplied) between. */
function colorAt(stops, t) {
  if (t <= stops[0][0]) return parse(stops[0][1]);
  const last = stops[stops.length - 1];
  if (t >= last[0]) return parse(last[1]);
  let i = 0;
  while (stops[i + 1][0] < t) i += 1;
  const [t0, c0] = stops[i], [t1, c1] = stops[i + 1];
  const u = t1 > t0 ? (t - t0) / (t1 - t0) : 1;
  const a = parse(c0), b = parse(c1);
  return a.map((x, k) => x + (b[k] - x) * u);
}

/**
 * `stops` (`[[offset, colour], …]`, ascending, offsets anywhere) as canvas colour stops, which must
 * lie in 0…1: stops outside are replaced by the ramp's colour at 0 and at 1, so the canvas draws the
 * same ramp over 0…1 and pads beyond it as Core Animation does.
 * @returns {[number, string][]}
 */
export function canvasStops(stops) {
  if (!stops.length) return [];
  const inside = stops.filter(([t]) => t >= 0 && t <= 1).map(([t, c]) => [t, css(parse(c))]);
  if (!inside.length || inside[0][0] > 0) inside.unshift([0, css(colorAt(stops, 0))]);
  if (inside[inside.length - 1][0] < 1) inside.push([1, css(colorAt(stops, 1))]);
  return inside;
}

/**
 * A radial `grad`'s ellipse: centre `p0`, radii |p1 − p0| along x and y (the ellipse with t = 1
 * passes through the corner box of p1). A zero radius gives null: the gradient is then its last
 * colour everywhere off the centre line (engine-model.md §10.2), drawn as a solid fill.
 */
export function radialEllipse(p0, p1) {
  const rx = Math.abs(p1[0] - p0[0]), ry = Math.abs(p1[1] - p0[1]);
  return rx > 0 && ry > 0 ? { cx: p0[0], cy: p0[1], rx, ry } : null;
}

/** A conic `grad`'s start angle for `createConicGradient`: the direction from p0 to p1 (clockwise on screen). */
export function conicStartAngle(p0, p1) {
  return Math.atan2(p1[1] - p0[1], p1[0] - p0[0]);
}
