import { withAlpha } from './color.js';
import { pixelsPerUnit } from './homography.js';
import { evaluate, kindsOf, localTime, ParticleState, rgb24 } from './particle-record.js';

/**
 * Draws an emitter item's particle records (protocol.md, "Particles") at a display time: each
 * drawn record is its kind's image at natural size × scale, centred on (x, y) of the item's
 * rect, rotated by its rotation, at alpha item opacity × its alpha, multiplied by its colour
 * (8 bits, from `ImageTints`). A particle whose disc lies outside the target's box is skipped.
 * The matrix of each particle is composed by hand, so drawing allocates nothing per particle.
 */
export class ParticlePainter {
  /** @param {import('./image-tints.js').ImageTints} images the assets, tinted on request */
  constructor(images) {
    this.images = images;
    this.state = new ParticleState();
    /** Each kind's asset during a draw, by kid (looked up once per kind, not per particle). */
    this.assets = new Map();
  }

  /**
   * Draws `item.pb` at display time `time` on `ctx` through the device matrix `m` at `opacity`,
   * with `shadow` (item space offset, as the renderer's) when its opacity is above 0, culling
   * discs outside `box` ({left, top, right, bottom} in the target's device pixels).
   */
  draw(ctx, item, m, opacity, shadow, time, box) {
    const records = item.pb;
    if (!records || !item.pk || !(opacity > 0)) return;
    const kinds = kindsOf(item.pk);
    const local = localTime(item, time);
    const { state, images, assets } = this;
    assets.clear();
    for (const [kid, kind] of kinds) assets.set(kid, images.assets.get(kind.image));
    ctx.save();
    const reach = shadow && shadow.o > 0 ? applyShadow(ctx, shadow, m) : 0;
    const projective = m.length === 9;
    // A projective item's particles: centres through the homography, sizes by its scale at the rect.
    const k = projective ? pixelsPerUnit(m, item.s?.[0] || 1, item.s?.[1] || 1) : 0;
    const stretch = projective ? k : Math.max(Math.hypot(m[0], m[1]), Math.hypot(m[2], m[3]));
    for (const record of records) {
      if (!evaluate(record, kinds.get(record[1]), local, state)) continue;
      const source = images.tint(assets.get(record[1]), rgb24(state));
      if (!source) continue;
      const { x, y, scale } = state;
      let a = m[0], b = m[1], c = m[2], d = m[3], e, f;
      if (projective) {
        const W = m[6] * x + m[7] * y + m[8];
        if (!(W > 0)) continue;
        e = (m[0] * x + m[2] * y + m[4]) / W;
        f = (m[1] * x + m[3] * y + m[5]) / W;
        a = k; b = 0; c = 0; d = k;
      } else {
        e = m[0] * x + m[2] * y + m[4];
        f = m[1] * x + m[3] * y + m[5];
      }
      const radius = 0.5 * scale * stretch * Math.hypot(source.width, source.height) + reach;
      if (e + radius < box.left || e - radius > box.right || f + radius < box.top || f - radius > box.bottom) continue;
      const cos = Math.cos(state.rotation) * scale, sin = Math.sin(state.rotation) * scale;
      ctx.setTransform(a * cos + c * sin, b * cos + d * sin, c * cos - a * sin, d * cos - b * sin, e, f);
      ctx.globalAlpha = opacity * state.alpha;
      ctx.drawImage(source.image, -source.width / 2, -source.height / 2, source.width, source.height);
    }
    ctx.restore();
  }
}

/** Sets the context's shadow from an item's `shadow` through `m`; returns how far (device pixels) it can reach. */
function applyShadow(ctx, shadow, m) {
  const dx = m[0] * shadow.dx + m[2] * shadow.dy, dy = m[1] * shadow.dx + m[3] * shadow.dy;
  const blur = 2 * shadow.r * Math.hypot(m[0], m[1]);
  ctx.shadowColor = withAlpha(shadow.c, shadow.o);
  ctx.shadowOffsetX = dx;
  ctx.shadowOffsetY = dy;
  ctx.shadowBlur = blur;
  return Math.hypot(dx, dy) + 2 * blur;
}
