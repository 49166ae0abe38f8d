/**
 * The shipped face, "Layercast Sans": subsets of Noto Sans CJK SC (public/fonts/, built by
 * scripts/make-font.sh) holding every character the scenes and pages use, so Chinese labels
 * are legible on machines without a CJK font. The pages declare it in fonts/layercast-sans.css;
 * `loadFont()` also declares it for a page that mounts a view without that style sheet, and
 * resolves once both weights are ready (or have failed: the system fonts after it in the
 * family lists take over), so the view never draws a frame in a fallback font.
 */

export const FONT_FAMILY = 'Layercast Sans';

/** A CSS font-family list: the shipped face first, then fonts close to the iOS system fonts. */
export const FONT_STACK = `"${FONT_FAMILY}", -apple-system, BlinkMacSystemFont, "SF Pro Text", "PingFang SC", `
  + '"Helvetica Neue", "Noto Sans CJK SC", "Noto Sans", Arial, sans-serif';

/** The faces: weight → file, relative to this module. */
const FACES = [
  ['400', '../fonts/layercast-sans-regular.woff2'],
  ['700', '../fonts/layercast-sans-bold.woff2'],
];

/** Sample text that needs the CJK glyphs (fonts.load loads a face only for the characters asked). */
const SAMPLE = '红包Ag';

/** How long the first frame may wait for the font (ms); after that, fallback fonts are used. */
const FONT_TIMEOUT_MS = 3000;

let loading = null;

/** Whether `document.fonts` already has a face of the family (declared by a style sheet or by us). */
function declared() {
  for (const face of document.fonts) if (face.family.replace(/["']/g, '') === FONT_FAMILY) return true;
  return false;
}

/**
 * Declares the faces when no style sheet did and loads both weights; the promise resolves
 * to whether the face is usable (never rejects; gives up after FONT_TIMEOUT_MS).
 * @returns {Promise<boolean>}
 */
export function loadFont() {
  if (loading) return loading;
  if (!document.fonts) return (loading = Promise.resolve(false));
  if (!declared()) {
    for (const [weight, file] of FACES) {
      const face = new FontFace(FONT_FAMILY, `url("${new URL(file, import.meta.url).href}") format("woff2")`,
        { weight, style: 'normal', display: 'block' });
      document.fonts.add(face);
    }
  }
  const load = Promise.all(FACES.map(([weight]) => document.fonts.load(`${weight} 16px "${FONT_FAMILY}"`, SAMPLE)))
    .then(() => fontReady(), () => false);
  const timeout = new Promise((resolve) => setTimeout(() => resolve(false), FONT_TIMEOUT_MS));
  loading = Promise.race([load, timeout]);
  return loading;
}

/** Whether the shipped face is loaded for CJK text in both weights. */
export function fontReady() {
  try {
    return FACES.every(([weight]) => document.fonts.check(`${weight} 16px "${FONT_FAMILY}"`, SAMPLE))
      && [...document.fonts].some((face) => face.family.replace(/["']/g, '') === FONT_FAMILY && face.status === 'loaded');
  } catch {
    return false;
  }
}
