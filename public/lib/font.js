/**
 * The shipped face, "Layercast Sans": subsets of Noto Sans CJK SC (public/fonts/, built by
 * scripts/make-font.sh) holding every character the scenes and pages use, so Chinese labels
 * are legible on machines without a CJK font. The pages declare it in fonts/layercast-sans.css;
 * `loadFont()` also declares it for a page that mounts a view without that style sheet, and
 * resolves once both weights are ready, have failed (the system fonts after it in the family
 * lists take over) or FONT_DEADLINE_MS have passed: the view's first frame waits no longer for
 * the face (the pages preload it), draws in a fallback face after that, and the next frames draw
 * in the shipped one as soon as it has arrived (the canvas is redrawn every animation frame).
 */

export const FONT_FAMILY = 'Layercast Sans';

/** A CSS font-family list: the shipped face first, then fonts close to the iOS system fonts. */
export const FONT_STACK = `"${FONT_FAMILY}", -apple-system, BlinkMacSystemFont, "SF Pro Text", "PingFang SC", `
  + '"Helvetica Neue", "Noto Sans CJK SC", "Noto Sans", Arial, sans-serif';

/** The faces: weight → file, relative to this module, with the `?v=` of fonts/layercast-sans.css. */
const FACES = [
  ['400', '../fonts/layercast-sans-regular.woff2?v=97a1d8c51b57122d'],
  ['700', '../fonts/layercast-sans-bold.woff2?v=8e9a1e642d3af2ba'],
];

/** Sample text that needs the CJK glyphs (fonts.load loads a face only for the characters asked). */
const SAMPLE = '红包Ag';

/**
 * How long the first frame may wait for the font (ms) from the view's mount; after that it is
 * drawn in a fallback face. The socket's first frame comes about two round trips after the mount,
 * so on a phone network this rarely delays it; the face, preloaded from the page's head but
 * fetched after the modules, comes a little later. At 300 ms the wait held a first frame that
 * had arrived by 70–90 ms on Lighthouse's mobile profile (issue 36, docs/performance.md).
 */
const FONT_DEADLINE_MS = 200;

/** The faces' load raced with FONT_DEADLINE_MS (`loadFont`), and the load alone; null before it starts. */
let loading = null;
let faces = null;

/** The font set of the page, or of the worker this runs in (render-worker.js); null without one. */
function fontSet() {
  return globalThis.document ? document.fonts ?? null : globalThis.fonts ?? null;
}

/** Whether the font set already has a face of the family (declared by a style sheet or by us). */
function declared() {
  for (const face of fontSet()) if (face.family.replace(/["']/g, '') === FONT_FAMILY) return true;
  return false;
}

/**
 * Declares the faces when no style sheet did and loads both weights; the promise resolves
 * to whether the face is usable (never rejects; gives up after FONT_DEADLINE_MS).
 * @returns {Promise<boolean>}
 */
export function loadFont() {
  if (loading) return loading;
  const fonts = fontSet();
  if (!fonts) return (loading = faces = Promise.resolve(false));
  if (!declared()) {
    for (const [weight, file] of FACES) {
      const face = new FontFace(FONT_FAMILY, `url("${new URL(file, import.meta.url).href}") format("woff2")`,
        { weight, style: 'normal', display: 'swap' });
      fonts.add(face);
    }
  }
  faces = Promise.all(FACES.map(([weight]) => fonts.load(`${weight} 16px "${FONT_FAMILY}"`, SAMPLE)))
    .then(() => fontReady(), () => false);
  loading = Promise.race([faces, after(FONT_DEADLINE_MS)]);
  return loading;
}

/**
 * Like `loadFont`, but gives up FONT_DEADLINE_MS from now rather than from the first call: the
 * render worker waits this long for its own copy of a face the page already has.
 * @returns {Promise<boolean>}
 */
export function fontSoon() {
  loadFont();
  return Promise.race([faces, after(FONT_DEADLINE_MS)]);
}

/** A promise of false, `ms` from now. */
function after(ms) {
  return new Promise((resolve) => setTimeout(() => resolve(false), ms));
}

/** Whether the shipped face is loaded for CJK text in both weights. */
export function fontReady() {
  try {
    const fonts = fontSet();
    return FACES.every(([weight]) => fonts.check(`${weight} 16px "${FONT_FAMILY}"`, SAMPLE))
      && [...fonts].some((face) => face.family.replace(/["']/g, '') === FONT_FAMILY && face.status === 'loaded');
  } catch {
    return false;
  }
}
