/**
 * Text runs (protocol field `text`): styled runs laid on one line from the top of the item's
 * rect, aligned horizontally, sharing one baseline (the largest run's ascent below the top).
 */

/** Font families close to the iOS system fonts (San Francisco, PingFang for CJK). */
const FAMILY = '-apple-system, BlinkMacSystemFont, "SF Pro Text", "PingFang SC", "Helvetica Neue", "Noto Sans CJK SC", "Noto Sans", Arial, sans-serif';

/** UIFont.Weight raw values and the CSS weights they correspond to. */
const WEIGHTS = [[-0.8, 100], [-0.6, 200], [-0.4, 300], [0, 400], [0.23, 500], [0.3, 600], [0.4, 700], [0.56, 800], [0.62, 900]];

/** The CSS font weight nearest to a UIFont.Weight raw value. */
function cssWeight(weight = 0) {
  let best = WEIGHTS[0];
  for (const entry of WEIGHTS) if (Math.abs(entry[0] - weight) < Math.abs(best[0] - weight)) best = entry;
  return best[1];
}

/** The canvas font string of a run. */
function runFont(run) {
  return `${cssWeight(run.weight)} ${Math.max(0, run.size ?? 0)}px ${FAMILY}`;
}

/**
 * Draws `text` into the rect (0, 0)–(width, …) of the context's current (item) space, with
 * the context's current alpha. Runs without a colour are black, as in Core Text.
 */
export function drawText(ctx, text, width) {
  const runs = (text.runs ?? []).filter((run) => run.t && run.size > 0);
  if (!runs.length) return;
  let total = 0;
  let ascent = 0;
  const widths = runs.map((run) => {
    ctx.font = runFont(run);
    const metrics = ctx.measureText(run.t);
    ascent = Math.max(ascent, metrics.fontBoundingBoxAscent ?? run.size * 0.8);
    total += metrics.width;
    return metrics.width;
  });
  let x = text.align === 'right' ? width - total : text.align === 'center' ? (width - total) / 2 : 0;
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = 'left';
  runs.forEach((run, i) => {
    ctx.font = runFont(run);
    ctx.fillStyle = run.c ?? '#000000';
    ctx.fillText(run.t, x, ascent);
    x += widths[i];
  });
}
