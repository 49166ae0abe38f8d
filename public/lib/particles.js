import { withAlpha } from './color.js';
import { mapPoint, pixelsPerUnit } from './homography.js';

/**
 * Draws an emitter item's particles (protocol.md, "Particles"): each `[id, x, y, s, r, a?, k?]`
 * is its `pimg[k]` image at natural size × s, centred on (x, y) of the item's rect, rotated by r,
 * at alpha item opacity × a. An image whose `pimg` colour is not white is drawn tinted
 * (multiplied by the colour, its alpha kept) from `ImageTints`. The matrix of each particle is
 * composed by hand, so drawing allocates nothing per particle.
 */
export class ParticlePainter {
  /** @param {import('./image-tints.js').ImageTints} images the assets, tinted on request */
  constructor(images) {
    this.images = images;
  }

  /**
   * Draws `item.p` on `ctx` through the device matrix `m` at `opacity`, with `shadow` (item
   * space offset, as the renderer's) when its opacity is above 0.
   */
  draw(ctx, item, m, opacity, shadow) {
    const particles = item.p ?? [];
    const table = item.pimg ?? [];
    if (!particles.length || !table.length) return;
    const sources = table.map(([image, colour]) => this.images.source(image, colour));
    ctx.save();
    if (shadow && shadow.o > 0) {
      ctx.shadowColor = withAlpha(shadow.c, shadow.o);
      ctx.shadowOffsetX = m[0] * shadow.dx + m[2] * shadow.dy;
      ctx.shadowOffsetY = m[1] * shadow.dx + m[3] * shadow.dy;
      ctx.shadowBlur = 2 * shadow.r * Math.hypot(m[0], m[1]);
    }
    const projective = m.length === 9;
    // A projective item's particles: centres through the homography, sizes by its scale at the rect.
    const k = projective ? pixelsPerUnit(m, item.s?.[0] || 1, item.s?.[1] || 1) : 0;
    for (const particle of particles) {
      const source = sources[particle[6] ?? 0];
      const alpha = opacity * (particle[5] ?? 1);
      if (!source || !(alpha > 0)) continue;
      const x = particle[1], y = particle[2], s = particle[3], r = particle[4];
      const cos = Math.cos(r) * s, sin = Math.sin(r) * s;
      let a = m[0], b = m[1], c = m[2], d = m[3], e, f;
      if (projective) {
        const [X, Y] = mapPoint(m, x, y);
        a = k; b = 0; c = 0; d = k; e = X; f = Y;
      } else {
        e = m[0] * x + m[2] * y + m[4];
        f = m[1] * x + m[3] * y + m[5];
      }
      ctx.setTransform(a * cos + c * sin, b * cos + d * sin, c * cos - a * sin, d * cos - b * sin, e, f);
      ctx.globalAlpha = alpha;
      ctx.drawImage(source.image, -source.width / 2, -source.height / 2, source.width, source.height);
    }
    ctx.restore();
  }
}
