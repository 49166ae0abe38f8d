/**
 * Where a tap's answer plate goes on a `width` × `height` stage (CSS pixels): centred above
 * the tap `point` (below it when `below`, as for a claimed packet, whose own label the scene
 * floats upwards from there), flipped to the other side near an edge, and clamped inside the
 * stage `edge` pixels from its sides. `box` is the plate's `{width, height}`; returns its
 * top-left `{x, y}`.
 */
export function labelPosition({ point, box, width, height, below = false, gap = 14, edge = 4 }) {
  const x = Math.min(Math.max(point.x - box.width / 2, edge), Math.max(edge, width - box.width - edge));
  const over = point.y - gap - box.height, under = point.y + gap;
  let y = below ? under : over;
  if (y === over && y < edge) y = under; // flip below near the top
  else if (y === under && y + box.height > height - edge) y = over; // flip above near the bottom
  y = Math.min(Math.max(y, edge), Math.max(edge, height - box.height - edge));
  return { x, y };
}
