import { withAlpha } from './color.js';
import { canvasStops, conicStartAngle, radialEllipse } from './gradient-stops.js';
import { emitterBounds } from './emitter-bounds.js';
import { contentsRect } from './gravity.js';
import { isProjective, mapPoint, pixelsPerUnit, toDevice, weightAt } from './homography.js';
import { ImageTints } from './image-tints.js';
import { newCanvas } from './new-canvas.js';
import { drawMesh } from './mesh.js';
import { ParticlePainter } from './particles.js';
import { pathBounds } from './path-table.js';
import { clampRadius, roundedRectPoints, traceRoundedRect } from './rounded-rect.js';
import { drawText, layoutText } from './text.js';
import { ScratchCanvases } from './scratch-canvases.js';
import { unrasterised } from './unrasterised.js';
import { WebGLProjection } from './webgl-projection.js';

const IDENTITY = [1, 0, 0, 1, 0, 0];

/** Core Animation's shadow defaults, for fields a `sh` leaves out. */
const SHADOW_DEFAULTS = { c: '#000000', o: 0, dx: 0, dy: -3, r: 3 };

/**
 * Device pixels by which an opaque background with slanted edges grows, so that items sharing
 * an edge (the faces of a cube) leave no antialiased seam between them; Core Animation does
 * not antialias layer edges by default, so it shows none either.
 */
const SEAM_GROW = 0.5;

/**
 * A shadow whose canvas blur is at least COARSE_SHADOW_BLUR device pixels, cast by an item
 * covering at least COARSE_SHADOW_AREA of them, is blurred at 1/SHADOW_COARSENESS of the
 * resolution and scaled up (`drawCoarseShadow`): blurring a large area costs a software
 * rasteriser the most of any drawing, and so wide a blur has no fine detail to lose. A small
 * item's shadow is cheaper blurred as it is than shrunk and grown again (the book's shelf of
 * 200 × 292 covers: 9 % of the worker's time as it is, 25 % coarse).
 */
const COARSE_SHADOW_BLUR = 8;
const COARSE_SHADOW_AREA = 512 * 512;
const SHADOW_COARSENESS = 2;

/** The longest side, in pixels, of the raster a projective item's contents are drawn into. */
const MAX_RASTER = 2048;

/** The most Path2D objects kept for reuse (an animated path makes a new one each frame). */
const PATH_CACHE = 256;

/**
 * Draws display lists (protocol.md, "Draw items") on a canvas.
 *
 * Each item is drawn as Core Animation composites a layer: background (rounded by `cr`), then
 * contents (the image placed by `g`, clipped by `cr` and multiplied by `it`; the gradient `grad`, clipped by `cr`;
 * the shape's `fill` then `stroke`, unclipped, their paths from the frame's path table as
 * `Path2D`; or the text, clipped to the bounds), then the border inside the bounds, all with the
 * item's effective opacity `o`.

An emitter with `rm: "additive"` is drawn as Core Animation draws one: its particles add to each
other (canvas `lighter`) inside the emitter's own group, drawn at full opacity into an offscreen
layer over the box they can ink on screen (at most the scene's rect), and that group is then
composited over the backdrop source-over with the item's opacity, so a burst shows on white too.
 *
 * An item's `grp` covers the `n` items after it: `clip` clips them to its rect rounded by `cr`
 * (through its matrix, projective too); `mask` draws the item and them into an offscreen layer,
 * draws the mask's items into a second one, keeps the first where the second has alpha
 * (`destination-in`), and draws the result onto the scene.
 *
 * Affine items are drawn in item space through `setTransform`. Projective items (9-number `m`)
 * are drawn in device pixels: background and border by mapping their outline's points through
 * the homography (exact for edges; corner arcs are cut into pieces under a pixel long), and
 * contents by rastering them in item space at the item's on-screen resolution and drawing that
 * raster through a grid of affine-mapped, clipped triangles (see mesh.js); gradients,
 * fills and strokes are rastered with the contents. The mesh's triangles are added together in
 * a layer of their own, which is composited once with the item's alpha, so neither opaque nor
 * translucent contents (a half-transparent fill, a gradient to transparent, a translucent item)
 * show seams along the triangles' edges.
 *
 * An item with a shadow is first drawn at full opacity into a scratch canvas; that is then
 * drawn onto the scene with the item's opacity and a canvas shadow, so the shadow follows the
 * item's combined alpha as Core Animation's does. The shadow offset, given in item space, goes
 * through the matrix (from the rect's centre); the blur radius is scaled like the item.
 */
export class Renderer {
  /**
   * @param {HTMLCanvasElement | OffscreenCanvas} canvas
   * @param {{get(id: string): {image: CanvasImageSource, width: number, height: number} | null}} assets
   * @param {{rasterise?: boolean, webgl?: boolean}} [options] `rasterise: false` (bench only): walk
   *   and measure as usual, put no pixels on any canvas (unrasterised.js); `webgl: false`: draw
   *   projective contents through the 2D mesh even where WebGL 2 is there
   */
  constructor(canvas, assets, { rasterise = true, webgl = true } = {}) {
    this.rasterise = rasterise;
    /** Projective contents go through WebGL 2 (webgl-projection.js): undefined until first needed, null for the 2D mesh. */
    this.projection = rasterise && webgl ? undefined : null;
    this.canvas = canvas;
    this.ctx = this.context(canvas);
    this.assets = assets;
    const pool = () => new ScratchCanvases((canvas) => this.context(canvas));
    this.scratch = pool();
    this.raster = pool();
    this.meshLayer = pool();
    /** The two steps of a coarse shadow (drawCoarseShadow). */
    this.shadowSource = pool();
    this.shadowLayer = pool();
    /** The group of an additive emitter (its parts and particles), reused from item to item. */
    this.additive = pool();
    this.images = new ImageTints(assets);
    this.particles = new ParticlePainter(this.images);
    /** Path2D objects by path data; cleared when it grows past PATH_CACHE entries. */
    this.path2d = new Map();
    /** The current frame's path table (id → data). */
    this.paths = new Map();
    /** Offscreen canvases for masked groups, reused from frame to frame: the canvas's size, by depth. */
    this.layers = [];
    /** Pools of a clipped masked group's two layers, its box's size, by depth. */
    this.boxLayers = [];
    /** The current draw's display time, for particle records. */
    this.time = 0;
  }

  /** The 2D context of `canvas`, its drawing calls muted when not rasterising. */
  context(canvas) {
    const ctx = canvas.getContext('2d');
    return this.rasterise ? ctx : unrasterised(ctx);
  }

  /** The Path2D of path `id` of the current table, or null when the table lacks it. */
  path(id) {
    const data = this.paths.get(id);
    if (data === undefined) return null;
    let path = this.path2d.get(data);
    if (!path) {
      if (this.path2d.size >= PATH_CACHE) this.path2d.clear();
      path = new Path2D(data);
      this.path2d.set(data, path);
    }
    return path;
  }

  /**
   * Clears the canvas and draws `items` back to front, clipped to the scene's rect.
   * @param {object[]} items display list
   * @param {{scale: number, x: number, y: number, width: number, height: number}} view the
   *   scene's rect on the canvas in device pixels (scene point p lands at (x, y) + p · scale)
   * @param {Map<number, string>} [paths] the frame's path table
   * @param {number} [time] the display time on the frames' clock, at which particle records are drawn
   */
  draw(items, view, paths = new Map(), time = 0) {
    this.paths = paths;
    this.time = time;
    const { ctx } = this;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    if (!(view.scale > 0)) return;
    ctx.save();
    ctx.beginPath();
    ctx.rect(view.x, view.y, view.width, view.height);
    ctx.clip();
    this.drawList(items, view, 0);
    ctx.restore();
  }

  /**
   * Draws `items` on `this.ctx`, opening each item's group after it and closing it after its
   * `grp.n` following items. `depth` counts the offscreen layers in use. A group drawn in a
   * layer of its box's size is drawn with the view moved by the box's corner.
   */
  drawList(items, view, depth) {
    const open = [];
    const current = () => (open.length ? open[open.length - 1].view : view);
    items.forEach((item, index) => {
      const group = item.grp;
      if (group?.mask) {
        const box = group.clip && !item.sh ? this.groupBox(item, current()) : null;
        open.push(this.openMask(group.mask, index + (group.n ?? 0), depth + open.length, box, current()));
      }
      this.drawItem(item, current());
      if (group?.clip) {
        this.ctx.save();
        this.clipTo(item, current());
        open.push({ end: index + (group.n ?? 0), view: current(), close: () => this.ctx.restore() });
      }
      while (open.length && open[open.length - 1].end <= index) open.pop().close();
    });
    while (open.length) open.pop().close();
  }

  /**
   * The device box `{x, y, width, height}` a clipping group's item and its group can ink: the item's
   * content box through its matrix, grown by a pixel for antialiasing, within the scene's rect;
   * null when a corner lies behind the eye.
   */
  groupBox(item, view) {
    const m = toDevice(item.m ?? IDENTITY, view.scale, view.x, view.y);
    const corners = rectCorners(this.contentBox(item));
    if (!corners.every(([x, y]) => weightAt(m, x, y) > 0)) return null;
    const points = corners.map(([x, y]) => mapPoint(m, x, y));
    const left = Math.max(Math.floor(view.x), Math.floor(Math.min(...points.map((p) => p[0]))) - 1);
    const top = Math.max(Math.floor(view.y), Math.floor(Math.min(...points.map((p) => p[1]))) - 1);
    const right = Math.min(Math.ceil(view.x + view.width), Math.ceil(Math.max(...points.map((p) => p[0]))) + 1);
    const bottom = Math.min(Math.ceil(view.y + view.height), Math.ceil(Math.max(...points.map((p) => p[1]))) + 1);
    return { x: left, y: top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
  }

  /**
   * Sends drawing to a clear offscreen layer until the group ending at `end` closes; then masks it.
   * With a `box` (a clipping group: nothing it draws lies outside), the layers are the box's size
   * (a full-size layer costs its whole size however little of it is drawn) and the group is drawn
   * in them with `view` moved by the box's corner. `view` is where the group is drawn.
   */
  openMask(mask, end, depth, box, view) {
    const target = this.ctx;
    let layer, maskLayer, area, at, groupView;
    if (box) {
      area = { x: 0, y: 0, width: box.width, height: box.height };
      at = box;
      groupView = { ...view, x: view.x - box.x, y: view.y - box.y };
      this.boxLayers[depth] ??= [new ScratchCanvases((c) => this.context(c)), new ScratchCanvases((c) => this.context(c))];
      [layer, maskLayer] = this.boxLayers[depth].map((pool) => cleared(pool.fit(box.width, box.height), area));
    } else {
      area = at = { x: 0, y: 0, width: this.canvas.width, height: this.canvas.height };
      groupView = view;
      [layer, maskLayer] = [this.layer(2 * depth, area), this.layer(2 * depth + 1, area)];
    }
    layer.save();
    this.ctx = layer;
    return {
      end,
      view: groupView,
      close: () => {
        layer.restore();
        this.ctx = maskLayer;
        maskLayer.save();
        this.drawList(mask, groupView, depth + 1);
        maskLayer.restore();
        layer.save();
        layer.setTransform(1, 0, 0, 1, 0, 0);
        layer.globalAlpha = 1;
        layer.globalCompositeOperation = 'destination-in';
        copyArea(layer, maskLayer.canvas, area);
        layer.restore();
        this.ctx = target;
        target.save();
        target.setTransform(1, 0, 0, 1, 0, 0);
        target.globalAlpha = 1;
        if (area.width > 0 && area.height > 0) {
          target.drawImage(layer.canvas, area.x, area.y, area.width, area.height, at.x, at.y, area.width, area.height);
        }
        target.restore();
      },
    };
  }

  /** Offscreen context number `index`, the canvas's size, with `area` (device pixels) cleared. */
  layer(index, area) {
    while (this.layers.length <= index) this.layers.push(this.context(newCanvas()));
    const ctx = this.layers[index];
    if (ctx.canvas.width !== this.canvas.width || ctx.canvas.height !== this.canvas.height) {
      ctx.canvas.width = this.canvas.width;
      ctx.canvas.height = this.canvas.height;
    }
    return cleared(ctx, area);
  }

  /** Clips `this.ctx` to the item's rect rounded by its `cr`, through its matrix. */
  clipTo(item, view) {
    const { ctx } = this;
    const m = toDevice(item.m ?? IDENTITY, view.scale, view.x, view.y);
    const [w, h] = item.s ?? [0, 0];
    ctx.beginPath();
    if (isProjective(m)) {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      const radius = clampRadius(w, h, item.cr ?? 0);
      const segments = Math.min(32, Math.max(2, Math.ceil(2 * Math.sqrt(radius * pixelsPerUnit(m, w, h)))));
      tracePolygon(ctx, roundedRectPoints(0, 0, w, h, radius, segments).map(([x, y]) => mapPoint(m, x, y)));
    } else {
      ctx.setTransform(...m);
      traceRoundedRect(ctx, 0, 0, w, h, item.cr ?? 0);
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clip();
  }

  /** Draws one item at its opacity, through the scratch canvas when it has a shadow. */
  drawItem(item, view) {
    const opacity = item.o ?? 1;
    if (!(opacity > 0)) return;
    let m = toDevice(item.m ?? IDENTITY, view.scale, view.x, view.y);
    if (item.text && !isProjective(m)) m = this.keepInView(item, m, view);
    const shadow = item.sh && { ...SHADOW_DEFAULTS, ...item.sh };
    if (item.pb && item.rm === 'additive') {
      this.drawAdditive(item, m, opacity, shadow, view);
      return;
    }
    if (item.pb) {
      // An emitter item: its own parts, then its particles, each with the shadow (particles.js).
      this.ctx.save();
      this.ctx.globalAlpha = opacity;
      this.drawParts(this.ctx, item, m);
      const viewBox = { left: view.x, top: view.y, right: view.x + view.width, bottom: view.y + view.height };
      this.particles.draw(this.ctx, item, m, opacity, shadow, this.time, viewBox);
      this.ctx.restore();
      return;
    }
    if (!item.bg && !item.img && !item.text && !item.bc && !item.grad && !item.fill && !item.stroke) return;
    if (shadow && shadow.o > 0) {
      this.drawShadowed(item, m, opacity, shadow);
      return;
    }
    const { ctx } = this;
    ctx.save();
    ctx.globalAlpha = opacity;
    this.drawParts(ctx, item, m);
    ctx.restore();
  }

  /**
   * Draws an additive emitter (device matrix `m`) as a group: its parts, then its particles with
   * `lighter`, at full opacity into the additive layer over the box they can ink within the
   * scene's rect `view`; then that box onto the scene source-over at `opacity`.
   */
  drawAdditive(item, m, opacity, shadow, view) {
    const shadowed = shadow && shadow.o > 0;
    const reach = shadowed
      ? Math.hypot(m[0] * shadow.dx + m[2] * shadow.dy, m[1] * shadow.dx + m[3] * shadow.dy) + 4 * shadow.r * Math.hypot(m[0], m[1])
      : 0;
    const box = emitterBounds(item, m, (id) => this.assets.get(id), reach, this.time);
    const left = Math.max(Math.floor(view.x), box ? box.left : -Infinity);
    const top = Math.max(Math.floor(view.y), box ? box.top : -Infinity);
    const right = Math.min(Math.ceil(view.x + view.width), box ? box.right : Infinity);
    const bottom = Math.min(Math.ceil(view.y + view.height), box ? box.bottom : Infinity);
    if (!(right > left && bottom > top)) return;
    const width = right - left, height = bottom - top;
    const group = cleared(this.additive.fit(width, height), { x: 0, y: 0, width, height });
    const local = shifted(m, -left, -top);
    this.drawParts(group, item, local);
    group.globalCompositeOperation = 'lighter';
    this.particles.draw(group, item, local, 1, shadow, this.time, { left: 0, top: 0, right: width, bottom: height });
    group.globalCompositeOperation = 'source-over';

    const { ctx } = this;
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = opacity;
    ctx.drawImage(group.canvas, 0, 0, width, height, left, top, width, height);
    ctx.restore();
  }

  /**
   * The device matrix `m` of a text item moved (by whole device pixels) so that its inked
   * glyphs lie inside the scene's rect `view`: a label near an edge (a tap answer floating over
   * a packet by the border) stays readable instead of running off the stage.
   */
  keepInView(item, m, view) {
    const [w, h] = item.s ?? [0, 0];
    const layout = layoutText(this.ctx, item.text, w, h);
    if (!layout) return m;
    const { left, top, right, bottom } = layout.ink;
    const corners = [[left, top], [right, top], [right, bottom], [left, bottom]].map(([x, y]) => mapPoint(m, x, y));
    const xs = corners.map((p) => p[0]), ys = corners.map((p) => p[1]);
    const shift = (low, high, from, to) => (low < from ? Math.min(from - low, Math.max(0, to - high))
      : high > to ? -Math.min(high - to, Math.max(0, low - from)) : 0);
    const dx = Math.round(shift(Math.min(...xs), Math.max(...xs), view.x, view.x + view.width));
    const dy = Math.round(shift(Math.min(...ys), Math.max(...ys), view.y, view.y + view.height));
    return dx || dy ? shifted(m, dx, dy) : m;
  }

  /**
   * Draws `item` (device matrix `m`) at full opacity into the scratch canvas over its
   * on-screen bounding box, then that box onto the scene with `opacity` and the shadow.
   */
  drawShadowed(item, m, opacity, shadow) {
    const [w, h] = item.s ?? [0, 0];
    const [ox, oy] = mapPoint(m, w / 2, h / 2);
    const [sx, sy] = mapPoint(m, w / 2 + shadow.dx, h / 2 + shadow.dy);
    const blur = 2 * shadow.r * pixelsPerUnit(m, w, h);
    const reach = Math.hypot(sx - ox, sy - oy) + 2 * blur;

    // The item's content box on screen, limited to where it or its shadow can be seen.
    const corners = rectCorners(this.contentBox(item)).map(([x, y]) => mapPoint(m, x, y));
    const left = Math.max(Math.floor(Math.min(...corners.map((p) => p[0]))), -Math.ceil(reach));
    const top = Math.max(Math.floor(Math.min(...corners.map((p) => p[1]))), -Math.ceil(reach));
    const right = Math.min(Math.ceil(Math.max(...corners.map((p) => p[0]))), this.canvas.width + Math.ceil(reach));
    const bottom = Math.min(Math.ceil(Math.max(...corners.map((p) => p[1]))), this.canvas.height + Math.ceil(reach));
    if (!(right > left && bottom > top)) return;
    const width = right - left, height = bottom - top;

    const scratch = cleared(this.scratch.fit(width, height), { x: 0, y: 0, width, height });
    this.drawParts(scratch, item, shifted(m, -left, -top));

    const { ctx } = this;
    const color = withAlpha(shadow.c, shadow.o);
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = opacity;
    if (blur >= COARSE_SHADOW_BLUR && width * height >= COARSE_SHADOW_AREA) {
      this.drawCoarseShadow(scratch.canvas, { left, top, width, height }, sx - ox, sy - oy, blur, color);
    } else {
      ctx.shadowColor = color;
      ctx.shadowOffsetX = sx - ox;
      ctx.shadowOffsetY = sy - oy;
      ctx.shadowBlur = blur;
    }
    ctx.drawImage(scratch.canvas, 0, 0, width, height, left, top, width, height);
    ctx.restore();
  }

  /**
   * Draws on `ctx` (device pixels, at its alpha) only the shadow that `source`'s top-left `box`
   * pixels, drawn at (`box.left`, `box.top`), cast with canvas `blur`, `color` and offset (`dx`,
   * `dy`), computed at 1/SHADOW_COARSENESS of the resolution and scaled up: for a quarter of the
   * blurring, within 16 levels in 255 of the full-resolution shadow (Chromium rounds a blur's
   * radius, so halving it is not exact).
   */
  drawCoarseShadow(source, { left, top, width, height }, dx, dy, blur, color) {
    const coarse = SHADOW_COARSENESS;
    // Small pixels of margin around the item for the blur to spread into (3σ).
    const pad = Math.ceil((1.5 * blur) / coarse) + 1;
    const w = Math.ceil(width / coarse) + 2 * pad, h = Math.ceil(height / coarse) + 2 * pad;
    // A pixel more is cleared: scaling up filters across the edge of the area read.
    const area = { x: 0, y: 0, width: w + 1, height: h + 1 };
    const small = cleared(this.shadowSource.fit(w + 1, h + 1), area);
    const layer = cleared(this.shadowLayer.fit(w + 1, h + 1), area);
    // Halving with bilinear filtering samples between each 2 × 2 block of pixels: their mean.
    small.drawImage(source, 0, 0, width, height, pad, pad, width / coarse, height / coarse);
    // The item is drawn a layer's width to the left, out of the layer; only its shadow falls in.
    layer.save();
    layer.shadowColor = color;
    layer.shadowBlur = blur / coarse;
    layer.shadowOffsetX = w;
    layer.drawImage(small.canvas, 0, 0, w, h, -w, 0, w, h);
    layer.restore();
    this.ctx.drawImage(layer.canvas, 0, 0, w, h, left + dx - pad * coarse, top + dy - pad * coarse, w * coarse, h * coarse);
  }

  /** Draws background, contents and border of `item` with device matrix `m` on `ctx`, at ctx's alpha. */
  drawParts(ctx, item, m) {
    if (isProjective(m)) this.drawProjective(ctx, item, m);
    else this.drawAffine(ctx, item, m);
  }

  /** The affine case: everything drawn in item space. */
  drawAffine(ctx, item, m) {
    const [w, h] = item.s ?? [0, 0];
    const radius = item.cr ?? 0;
    ctx.save();
    ctx.setTransform(...m);
    if (item.bg) {
      ctx.beginPath();
      traceRoundedRect(ctx, 0, 0, w, h, radius);
      ctx.fillStyle = item.bg;
      ctx.fill();
      if (sealsSeams(item, m)) {
        ctx.lineWidth = (2 * SEAM_GROW) / pixelsPerUnit(m, w, h);
        ctx.strokeStyle = item.bg;
        ctx.stroke();
      }
    }
    const image = item.img && this.images.source(item.img, item.it);
    if (image) {
      ctx.save();
      if (radius > 0) {
        ctx.beginPath();
        traceRoundedRect(ctx, 0, 0, w, h, radius);
        ctx.clip();
      }
      ctx.drawImage(image.image, ...contentsRect(item.g, w, h, image.width, image.height));
      ctx.restore();
    }
    this.drawShape(ctx, item);
    if (item.text) {
      ctx.save();
      ctx.beginPath();
      ctx.rect(0, 0, w, h);
      ctx.clip();
      drawText(ctx, item.text, w, h);
      ctx.restore();
    }
    const border = item.bw ?? 0;
    if (item.bc && border > 0) {
      ctx.beginPath();
      traceRoundedRect(ctx, 0, 0, w, h, radius);
      if (2 * border < Math.min(w, h)) {
        const outer = clampRadius(w, h, radius);
        traceRoundedRect(ctx, border, border, w - 2 * border, h - 2 * border, Math.max(0, outer - border));
      }
      ctx.fillStyle = item.bc;
      ctx.fill('evenodd');
    }
    ctx.restore();
  }

  /** The projective case: outlines mapped point by point, contents through WebGL or a triangle mesh. */
  drawProjective(ctx, item, m) {
    const [w, h] = item.s ?? [0, 0];
    const radius = clampRadius(w, h, item.cr ?? 0);
    const density = pixelsPerUnit(m, w, h);
    // Enough pieces per corner arc that each is under about a pixel off the true curve.
    const segments = Math.min(32, Math.max(2, Math.ceil(2 * Math.sqrt(radius * density))));
    const outline = (x, y, width, height, r) =>
      roundedRectPoints(x, y, width, height, r, segments).map(([px, py]) => mapPoint(m, px, py));

    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (item.bg) {
      ctx.beginPath();
      tracePolygon(ctx, outline(0, 0, w, h, radius));
      ctx.fillStyle = item.bg;
      ctx.fill();
    }
    if (item.img || item.text || item.grad || item.fill || item.stroke) {
      let box = this.contentBox(item);
      // The raster's density in steps of 2^¼ upwards, so that a turning item keeps its raster a while.
      const steps = 2 ** (Math.ceil(4 * Math.log2(Math.max(density, 0.01))) / 4);
      let contents = { key: this.contentsKey(item, box, steps), raster: () => this.rasterContents(item, box, steps) };
      const image = this.projection !== null && this.imageOnly(item);
      if (image) { // the image itself is the texture, at any density: a turning cover uploads it once
        box = contentsRect(item.g, w, h, image.width, image.height);
        const { image: source } = image;
        contents = { key: source, mipmaps: true, raster: () => ({ canvas: source, width: source.width, height: source.height }) };
      }
      ctx.save();
      if (item.img && radius > 0) {
        ctx.beginPath();
        tracePolygon(ctx, outline(0, 0, w, h, radius));
        ctx.clip();
      }
      this.drawMeshed(ctx, contents, box, m);
      ctx.restore();
    }
    const border = item.bw ?? 0;
    if (item.bc && border > 0) {
      ctx.beginPath();
      tracePolygon(ctx, outline(0, 0, w, h, radius));
      if (2 * border < Math.min(w, h)) {
        tracePolygon(ctx, outline(border, border, w - 2 * border, h - 2 * border, Math.max(0, radius - border)));
      }
      ctx.fillStyle = item.bc;
      ctx.fill('evenodd');
    }
    ctx.restore();
  }

  /**
   * Draws `contents` (rastered over `box` in item space by `contents.raster()`, which WebGL
   * skips when it holds the raster of `contents.key`) through `m` at full alpha, over the device
   * box the contents cover on `ctx`'s canvas, then that box onto `ctx` (device pixels) with
   * ctx's alpha and clip, so translucent contents are composited once. WebGL 2 draws it exactly
   * (webgl-projection.js); without it, the 2D mesh does, in a layer of its own where the mesh's
   * triangles are added to each other (mesh.js) so that their shared edges leave no seam.
   */
  drawMeshed(ctx, contents, box, m) {
    const corners = rectCorners(box);
    let left = 0, top = 0, right = ctx.canvas.width, bottom = ctx.canvas.height;
    if (corners.every(([x, y]) => weightAt(m, x, y) > 0)) {
      // In front of the eye the rect maps to a convex quad: its corners bound it.
      const points = corners.map(([x, y]) => mapPoint(m, x, y));
      left = Math.max(left, Math.floor(Math.min(...points.map((p) => p[0]))));
      top = Math.max(top, Math.floor(Math.min(...points.map((p) => p[1]))));
      right = Math.min(right, Math.ceil(Math.max(...points.map((p) => p[0]))));
      bottom = Math.min(bottom, Math.ceil(Math.max(...points.map((p) => p[1]))));
    }
    if (!(right > left && bottom > top)) return;
    const width = right - left, height = bottom - top;
    const local = shifted(m, -left, -top);
    if (this.projection === undefined) this.projection = WebGLProjection.create();
    if (this.projection?.draw(contents, box, local, width, height)) {
      ctx.drawImage(this.projection.canvas, 0, 0, width, height, left, top, width, height);
      return;
    }
    this.projection = null;
    const raster = contents.raster();
    if (!raster) return;
    const layer = this.meshLayer.fit(width, height);
    layer.setTransform(1, 0, 0, 1, 0, 0);
    layer.clearRect(0, 0, width, height);
    drawMesh(layer, raster.canvas, [0, 0, raster.width, raster.height], box, local);
    ctx.drawImage(layer.canvas, 0, 0, width, height, left, top, width, height);
  }

  /**
   * The item's image (`{image, width, height}`, tinted by `it`) when its contents are that image
   * alone, held as a bitmap (an `ImageBitmap` or a canvas, the worker's kind: an SVG element is
   * rastered at the item's density instead); null otherwise.
   */
  imageOnly(item) {
    if (!item.img || item.text || item.grad || item.fill || item.stroke) return null;
    const image = this.images.source(item.img, item.it);
    const bitmap = image && ((typeof ImageBitmap === 'function' && image.image instanceof ImageBitmap)
      || typeof image.image.getContext === 'function');
    return bitmap ? image : null;
  }

  /**
   * What the raster of the item's contents over `box` at `density` depends on, as a string: the
   * contents' fields, the paths' data, whether the image has arrived and whether fonts are
   * still loading.
   */
  contentsKey(item, box, density) {
    const fonts = (globalThis.document ?? globalThis).fonts;
    return JSON.stringify([item.img, item.it, item.g, item.s, item.text, item.grad, item.fill, item.stroke,
      item.fill && this.paths.get(item.fill.path), item.stroke && this.paths.get(item.stroke.path),
      Boolean(item.img && this.assets.get(item.img)), fonts?.status, fonts?.size, box, density]);
  }

  /**
   * Draws the item's contents (image by gravity, or text clipped to the bounds) in item space
   * into the raster canvas over `box`, at about `density` pixels per point.
   * @returns {{canvas: HTMLCanvasElement, width: number, height: number} | null} null when empty
   */
  rasterContents(item, box, density) {
    const [x, y, w, h] = box;
    const image = item.img && this.images.source(item.img, item.it);
    const shaped = item.grad || item.fill || item.stroke;
    if (!(w > 0 && h > 0) || (item.img && !image && !shaped)) return null;
    const scale = Math.min(Math.max(density, 0.01), MAX_RASTER / Math.max(w, h));
    const width = Math.max(1, Math.ceil(w * scale));
    const height = Math.max(1, Math.ceil(h * scale));
    const ctx = this.raster.fit(width, height);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.setTransform(width / w, 0, 0, height / h, (-x * width) / w, (-y * height) / h);
    const [bw, bh] = item.s ?? [0, 0];
    if (image) ctx.drawImage(image.image, ...contentsRect(item.g, bw, bh, image.width, image.height));
    this.drawShape(ctx, item);
    if (item.text) {
      ctx.save();
      ctx.beginPath();
      ctx.rect(0, 0, bw, bh);
      ctx.clip();
      drawText(ctx, item.text, bw, bh);
      ctx.restore();
    }
    return { canvas: ctx.canvas, width, height };
  }

  /**
   * Draws the item's gradient (clipped to its rect rounded by `cr`), fill and stroke in item
   * space on `ctx` (already in item space), at ctx's alpha.
   */
  drawShape(ctx, item) {
    const [w, h] = item.s ?? [0, 0];
    if (item.grad) {
      ctx.save();
      ctx.beginPath();
      traceRoundedRect(ctx, 0, 0, w, h, item.cr ?? 0);
      ctx.clip();
      this.fillGradient(ctx, item.grad, w, h);
      ctx.restore();
    }
    const fill = item.fill && this.path(item.fill.path);
    if (fill) {
      ctx.fillStyle = item.fill.c;
      ctx.fill(fill, item.fill.rule === 'evenodd' ? 'evenodd' : 'nonzero');
    }
    const stroke = item.stroke && this.path(item.stroke.path);
    if (stroke) {
      const s = item.stroke;
      ctx.save();
      ctx.strokeStyle = s.c;
      ctx.lineWidth = s.w;
      ctx.lineCap = s.cap ?? 'butt';
      ctx.lineJoin = s.join ?? 'miter';
      ctx.miterLimit = s.ml ?? 10;
      ctx.setLineDash(s.dash ?? []);
      ctx.lineDashOffset = s.dp ?? 0;
      ctx.stroke(stroke);
      ctx.restore();
    }
  }

  /** Fills the rect (0,0)–(w,h) with the gradient `grad` (protocol.md, "Gradients"). */
  fillGradient(ctx, grad, w, h) {
    const stops = canvasStops(grad.stops ?? []);
    if (!stops.length) return;
    const [p0, p1] = [grad.p0, grad.p1];
    let style;
    if (grad.type === 'radial') {
      const ellipse = radialEllipse(p0, p1);
      if (!ellipse) {
        ctx.fillStyle = stops[stops.length - 1][1];
        ctx.fillRect(0, 0, w, h);
        return;
      }
      // A unit circle scaled into the ellipse; the rect is filled in that space.
      ctx.save();
      ctx.translate(ellipse.cx, ellipse.cy);
      ctx.scale(ellipse.rx, ellipse.ry);
      style = ctx.createRadialGradient(0, 0, 0, 0, 0, 1);
      for (const [t, c] of stops) style.addColorStop(t, c);
      ctx.fillStyle = style;
      ctx.fillRect(-ellipse.cx / ellipse.rx, -ellipse.cy / ellipse.ry, w / ellipse.rx, h / ellipse.ry);
      ctx.restore();
      return;
    }
    if (grad.type === 'conic') style = ctx.createConicGradient(conicStartAngle(p0, p1), p0[0], p0[1]);
    else if (p0[0] === p1[0] && p0[1] === p1[1]) style = null;
    else style = ctx.createLinearGradient(p0[0], p0[1], p1[0], p1[1]);
    if (!style) {
      // A zero-length axis: t is 0 everywhere, the ramp's colour at 0.
      ctx.fillStyle = stops[0][1];
    } else {
      for (const [t, c] of stops) style.addColorStop(t, c);
      ctx.fillStyle = style;
    }
    ctx.fillRect(0, 0, w, h);
  }

  /**
   * The rect [x, y, w, h] in item space that the item draws in: its bounds, any image
   * overflowing them, and its fill and stroke paths (the stroke grown by its width).
   */
  contentBox(item) {
    const [w, h] = item.s ?? [0, 0];
    const boxes = [[0, 0, w, h]];
    const image = item.img && this.assets.get(item.img);
    if (image) boxes.push(contentsRect(item.g, w, h, image.width, image.height));
    const fill = item.fill && this.paths.get(item.fill.path);
    if (fill) boxes.push(pathBounds(fill));
    const stroke = item.stroke && this.paths.get(item.stroke.path);
    if (stroke) boxes.push(pathBounds(stroke, (item.stroke.w * Math.max(1, item.stroke.ml ?? 10)) / 2));
    const present = boxes.filter(Boolean);
    const left = Math.min(...present.map((b) => b[0])), top = Math.min(...present.map((b) => b[1]));
    const right = Math.max(...present.map((b) => b[0] + b[2])), bottom = Math.max(...present.map((b) => b[1] + b[3]));
    return [left, top, right - left, bottom - top];
  }
}

/**
 * Whether the item's background is grown by SEAM_GROW: its edges are slanted on screen (so
 * antialiasing shows the backdrop between neighbours) and growing it cannot show as a darker
 * rim (opaque colour, full opacity).
 */
function sealsSeams(item, m) {
  return (m[1] !== 0 || m[2] !== 0) && (item.o ?? 1) >= 1 && /^#[0-9a-f]{6}$/.test(item.bg);
}

/** The four corners of the rect [x, y, w, h]. */
function rectCorners([x, y, w, h]) {
  return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]];
}

/** The matrix `m` followed by a translation of (dx, dy) device pixels. */
function shifted(m, dx, dy) {
  return toDevice(m, 1, dx, dy);
}

/** Adds the closed polygon `points` to the context's path. */
function tracePolygon(ctx, points) {
  points.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
  ctx.closePath();
}

/** `ctx` with its transform, alpha and composite operation reset and `area` (device pixels) cleared. */
function cleared(ctx, area) {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.globalCompositeOperation = 'source-over';
  ctx.clearRect(area.x, area.y, area.width, area.height);
  return ctx;
}

/** Draws the `area` of `source` onto the same area of `ctx` (in device pixels, ctx's transform reset). */
function copyArea(ctx, source, { x, y, width, height }) {
  if (width > 0 && height > 0) ctx.drawImage(source, x, y, width, height, x, y, width, height);
}

