/**
 * The largest rect of the scene's aspect that fits a `width` × `height` box, centred:
 * `{scale, x, y, width, height}`, where a scene point (sx, sy) lands at
 * (x + sx · scale, y + sy · scale) in the box's coordinates.
 * @param {{width: number, height: number}} scene the scene size in points
 */
export function letterbox(scene, width, height) {
  const scale = scene.width > 0 && scene.height > 0 ? Math.min(width / scene.width, height / scene.height) : 0;
  const w = scene.width * scale, h = scene.height * scale;
  return { scale, x: (width - w) / 2, y: (height - h) / 2, width: w, height: h };
}
