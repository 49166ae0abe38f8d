/**
 * Text runs (protocol field `text`): styled runs laid on one line, aligned horizontally,
 * sharing one baseline, inside the item's rect (0, 0)–(width, height).
 *
 * Metrics come from the glyphs (`actualBoundingBoxAscent/Descent`), not from the font's
 * ascent alone: the line's font box is centred in the rect, then moved so that the inked
 * glyphs lie inside it; a line whose ink is taller or wider than the rect is scaled down to
 * fit. So no descender or accent is clipped whatever font a machine draws with.
 *
 * Light text (a fill lighter than mid-grey) gets a dark outline, so a label keeps a contrast of
 * at least 4.5:1 against whatever it floats over (a gold label over a gold coin, white over sky).
 */
import { FONT_STACK } from './font.js';

/** UIFont.Weight raw values and the CSS weights they correspond to. */
const WEIGHTS = [[-0.8, 100], [-0.6, 200], [-0.4, 300], [0, 400], [0.23, 500], [0.3, 600], [0.4, 700], [0.56, 800], [0.62, 900]];

/** Outline width as a fraction of the run's size, for light text. */
const OUTLINE = 0.14;
/** The outline's colour: dark enough for 4.5:1 against any fill lighter than LIGHT. */
const OUTLINE_COLOR = 'rgba(28, 10, 4, 0.92)';
/** Relative luminance above which a fill counts as light. */
const LIGHT = 0.4;

/** The outline's width (item units) for a run of `size`: a share of it, at most 5. */
function outlineWidth(size) {
  return Math.min(OUTLINE * size, 5);
}

/** The CSS font weight nearest to a UIFont.Weight raw value. */
function cssWeight(weight = 0) {
  let best = WEIGHTS[0];
  for (const entry of WEIGHTS) if (Math.abs(entry[0] - weight) < Math.abs(best[0] - weight)) best = entry;
  return best[1];
}

/** The canvas font string of a run at `scale` × its size. */
function runFont(run, scale = 1) {
  return `${cssWeight(run.weight)} ${Math.max(0, (run.size ?? 0) * scale)}px ${FONT_STACK}`;
}

/** WCAG relative luminance of a `#rrggbb` (or `#rrggbbaa`) colour; 0 for anything else. */
export function luminance(color) {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(color ?? '');
  if (!match) return 0;
  const [r, g, b] = match.slice(1, 4).map((hex) => {
    const c = parseInt(hex, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * Lays `text` out in a `width` × `height` rect: `{runs: [{run, font, x, width}], baseline,
 * ink: {left, top, right, bottom}}` in item space, or null when there is nothing to draw.
 */
export function layoutText(ctx, text, width, height) {
  const runs = (text.runs ?? []).filter((run) => run.t && run.size > 0);
  if (!runs.length) return null;
  const measure = (scale) => {
    let total = 0, fontAscent = 0, fontDescent = 0, inkAscent = 0, inkDescent = 0, outline = 0;
    const parts = runs.map((run) => {
      const font = runFont(run, scale);
      ctx.font = font;
      const m = ctx.measureText(run.t);
      const size = run.size * scale;
      fontAscent = Math.max(fontAscent, m.fontBoundingBoxAscent ?? size * 0.8);
      fontDescent = Math.max(fontDescent, m.fontBoundingBoxDescent ?? size * 0.2);
      const light = luminance(run.c) > LIGHT;
      const pad = light ? outlineWidth(size) / 2 : 0;
      outline = Math.max(outline, pad);
      inkAscent = Math.max(inkAscent, (m.actualBoundingBoxAscent ?? size * 0.8) + pad);
      inkDescent = Math.max(inkDescent, (m.actualBoundingBoxDescent ?? size * 0.2) + pad);
      const part = { run, font, width: m.width, light, size, x: 0 };
      total += m.width;
      return part;
    });
    return { parts, total: total + 2 * outline, fontAscent, fontDescent, inkAscent, inkDescent, outline };
  };
  let layout = measure(1);
  const tall = layout.inkAscent + layout.inkDescent;
  const fit = Math.min(1, height > 0 && tall > 0 ? height / tall : 1, width > 0 && layout.total > 0 ? width / layout.total : 1);
  if (fit < 0.999) layout = measure(fit * 0.98);
  const { parts, total, fontAscent, fontDescent, inkAscent, inkDescent, outline } = layout;
  // The font box centred in the rect, then moved so that the ink is inside it.
  let baseline = (height - (fontAscent + fontDescent)) / 2 + fontAscent;
  baseline = Math.min(baseline, height - inkDescent);
  baseline = Math.max(baseline, inkAscent);
  let x = text.align === 'right' ? width - total : text.align === 'center' ? (width - total) / 2 : 0;
  x += outline;
  for (const part of parts) {
    part.x = x;
    x += part.width;
  }
  const left = parts[0].x - outline;
  return { runs: parts, baseline, ink: { left, top: baseline - inkAscent, right: x + outline, bottom: baseline + inkDescent } };
}

/**
 * Draws `text` laid out by `layoutText` (or lays it out) in the context's current (item)
 * space, with the context's current alpha. Runs without a colour are black, as in Core Text.
 */
export function drawText(ctx, text, width, height, layout = layoutText(ctx, text, width, height)) {
  if (!layout) return;
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = 'left';
  ctx.lineJoin = 'round';
  for (const part of layout.runs) {
    if (!part.light) continue;
    ctx.font = part.font;
    ctx.lineWidth = outlineWidth(part.size);
    ctx.strokeStyle = OUTLINE_COLOR;
    ctx.strokeText(part.run.t, part.x, layout.baseline);
  }
  for (const part of layout.runs) {
    ctx.font = part.font;
    ctx.fillStyle = part.run.c ?? '#000000';
    ctx.fillText(part.run.t, part.x, layout.baseline);
  }
}
