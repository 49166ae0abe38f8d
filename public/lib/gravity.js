/**
 * Where a layer's contents go (protocol field `g`, Core Animation's `contentsGravity`).
 *
 * Returns the rect [x, y, width, height], in the item's own coordinates (origin top-left, y
 * down), that an image of natural size `imageWidth` × `imageHeight` points fills inside bounds
 * `width` × `height`. `top`/`bottom` name the top and bottom of the item's rect as drawn (y down).
 * Unknown gravities behave as `resize`.
 */
export function contentsRect(gravity, width, height, imageWidth, imageHeight) {
  switch (gravity) {
    case 'resizeAspect':
    case 'resizeAspectFill': {
      const fit = gravity === 'resizeAspect' ? Math.min : Math.max;
      const scale = imageWidth > 0 && imageHeight > 0 ? fit(width / imageWidth, height / imageHeight) : 0;
      const w = imageWidth * scale, h = imageHeight * scale;
      return [(width - w) / 2, (height - h) / 2, w, h];
    }
    case 'center': case 'top': case 'bottom': case 'left': case 'right':
    case 'topLeft': case 'topRight': case 'bottomLeft': case 'bottomRight': {
      const x = /Left|^left/.test(gravity) ? 0 : /Right|^right/.test(gravity) ? width - imageWidth : (width - imageWidth) / 2;
      const y = /^top/.test(gravity) ? 0 : /^bottom/.test(gravity) ? height - imageHeight : (height - imageHeight) / 2;
      return [x, y, imageWidth, imageHeight];
    }
    default:
      return [0, 0, width, height];
  }
}
