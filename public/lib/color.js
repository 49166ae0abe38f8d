/**
 * A protocol colour (`#rrggbb`, or `#rrggbbaa` when alpha < 1) as a CSS `rgba()` string with
 * its alpha multiplied by `alpha`. Anything that is not such a colour is returned unchanged.
 */
export function withAlpha(hex, alpha) {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})?$/i.exec(hex);
  if (!match) return hex;
  const [r, g, b] = match.slice(1, 4).map((part) => parseInt(part, 16));
  const a = (match[4] === undefined ? 1 : parseInt(match[4], 16) / 255) * alpha;
  return `rgba(${r}, ${g}, ${b}, ${a})`;
}
