import { withAlpha } from './color.js';
import { mapPoint, pixelsPerUnit } from './homography.js';

/** Tinted rasters kept at most; the least recently made is dropped beyond this. */
const MAX_TINTS = 64;

/** Device pixels per point a tinted raster is made at (covers scales up to about 2 on 2× screens). */
const TINT_DENSITY = 4;

/**
 * Draws an emitter item's particles (protocol.md, "Particles"): each `[id, x, y, s, r, a?, k?]`
 * is its `pimg[k]` image at natural size × s, centred on (x, y) of the item's rect, rotated by r,
 * at alpha item opacity × a. An image whose `pimg` colour is not white is drawn tinted
 * (multiplied by the colour, its alpha kept) from an offscreen canvas made once per image and
 * colour. The matrix of each particle is composed by hand, so drawing allocates nothing per
 * particle.
 */
export class ParticlePainter {
  /** @param {{get(id: string): {image: CanvasImageSource, width: number, height: number} | null}} assets */
  constructor(assets) {
    this.assets = assets;
    /** @type {Map<string, HTMLCanvasElement>} `image colour` → tinted raster */
    this.tints = new Map();
  }

  /**
   * Draws `item.p` on `ctx` through the device matrix `m` at `opacity`, with `shadow` (item
   * space offset, as the renderer's) when its opacity is above 0.
   */
  draw(ctx, item, m, opacity, shadow) {
    const particles = item.p ?? [];
    const table = item.pimg ?? [];
    if (!particles.length || !table.length) return;
    const sources = table.map(([image, colour]) => this.source(image, colour));
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

  /** The image to draw for a `pimg` entry (tinted when `colour` is given), or null while loading. */
  source(id, colour) {
    const asset = this.assets.get(id);
    if (!asset) return null;
    if (!colour || /^#ffffff$/i.test(colour)) return asset;
    const key = `${id} ${colour}`;
    let canvas = this.tints.get(key);
    if (!canvas) {
      canvas = tinted(asset, colour);
      this.tints.set(key, canvas);
      if (this.tints.size > MAX_TINTS) this.tints.delete(this.tints.keys().next().value);
    }
    return { image: canvas, width: asset.width, height: asset.height };
  }
}

/** `asset`'s image multiplied by `colour`, keeping its alpha, in a new canvas. */
function tinted(asset, colour) {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.ceil(asset.width * TINT_DENSITY));
  canvas.height = Math.max(1, Math.ceil(asset.height * TINT_DENSITY));
  const ctx = canvas.getContext('2d');
  ctx.drawImage(asset.image, 0, 0, canvas.width, canvas.height);
  ctx.globalCompositeOperation = 'multiply';
  ctx.fillStyle = colour;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.globalCompositeOperation = 'destination-in';
  ctx.drawImage(asset.image, 0, 0, canvas.width, canvas.height);
  return canvas;
}
