import { newCanvas } from './new-canvas.js';

/** Tinted rasters kept at most; the least recently made is dropped beyond this. */
const MAX_TINTS = 64;

/** Device pixels per point a tinted raster is made at (covers scales up to about 2 on 2× screens). */
const TINT_DENSITY = 4;

/** The longest side of a tinted raster, in pixels. */
const MAX_SIDE = 2048;

/** White as 0xrrggbb: the image itself. */
const WHITE = 0xffffff;

/**
 * The images of `welcome.assets`, multiplied by a colour when one is asked for (an item's `it`,
 * a particle's colour; protocol.md, "Replicators", "Particles"): each image's red, green and
 * blue times the colour's, its alpha kept. A tinted image is drawn once per asset and colour into
 * an offscreen canvas and kept (at most MAX_TINTS of them), so asking again allocates nothing.
 */
export class ImageTints {
  /**
   * @param {{get(id: string): {image: CanvasImageSource, width: number, height: number} | null}} assets
   * @param {(width: number, height: number) => HTMLCanvasElement} makeCanvas a new blank canvas
   */
  constructor(assets, makeCanvas = newCanvas) {
    this.assets = assets;
    this.makeCanvas = makeCanvas;
    /**
     * @type {Map<CanvasImageSource, Map<number, {image: CanvasImageSource, width: number, height: number}>>}
     * image → 0xrrggbb → tinted, by the image itself (an asset store may hand out a new
     * `{image, width, height}` on each call)
     */
    this.tinted = new Map();
    /** @type {[CanvasImageSource, number][]} the kept rasters, oldest first */
    this.order = [];
  }

  /**
   * The image `id` multiplied by `colour` (`#rrggbb`; none or white: the image itself), as
   * `{image, width, height}` in the image's natural size, or null while it loads.
   */
  source(id, colour) {
    return this.tint(this.assets.get(id), colour ? parseInt(colour.slice(1, 7), 16) : WHITE);
  }

  /**
   * `asset` (as the assets give it; null while loading) multiplied by the colour 0xrrggbb, kept:
   * asking again makes no string and no raster.
   */
  tint(asset, rgb) {
    if (!asset || rgb === WHITE) return asset;
    let byColour = this.tinted.get(asset.image);
    const kept = byColour?.get(rgb);
    if (kept) return kept;
    if (!byColour) this.tinted.set(asset.image, (byColour = new Map()));
    const colour = `#${rgb.toString(16).padStart(6, '0')}`;
    const made = { image: tinted(asset, colour, this.makeCanvas), width: asset.width, height: asset.height };
    byColour.set(rgb, made);
    this.order.push([asset.image, rgb]);
    if (this.order.length > MAX_TINTS) {
      const [oldImage, oldColour] = this.order.shift();
      const old = this.tinted.get(oldImage);
      old.delete(oldColour);
      if (!old.size) this.tinted.delete(oldImage);
    }
    return made;
  }
}

/** `asset`'s image multiplied by `colour`, keeping its alpha, in a new canvas. */
function tinted(asset, colour, makeCanvas) {
  const density = Math.min(TINT_DENSITY, MAX_SIDE / Math.max(asset.width, asset.height, 1));
  const canvas = makeCanvas(Math.max(1, Math.ceil(asset.width * density)), Math.max(1, Math.ceil(asset.height * density)));
  const ctx = canvas.getContext('2d');
  ctx.drawImage(asset.image, 0, 0, canvas.width, canvas.height);
  ctx.globalCompositeOperation = 'multiply';
  ctx.fillStyle = colour;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.globalCompositeOperation = 'destination-in';
  ctx.drawImage(asset.image, 0, 0, canvas.width, canvas.height);
  return canvas;
}
