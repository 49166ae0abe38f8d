/**
 * The protocol version and the draw-item and stream features this client knows (protocol.md, "welcome"). A
 * server that announces a newer version or a feature not listed here sends items this client
 * would draw wrongly, so the view refuses to draw and says so instead.
 */
export const PROTOCOL_VERSION = 2;

export const FEATURES = new Set(['paths', 'shape', 'gradient', 'group', 'replicator', 'additive', 'imagetint', 'sparse', 'acks']);

/**
 * Why this client cannot draw what `welcome` announces, or null when it can.
 * @param {{protocol?: number, features?: string[]}} welcome
 */
export function unsupportedReason(welcome) {
  const version = welcome.protocol ?? 1;
  if (!Number.isInteger(version) || version > PROTOCOL_VERSION) {
    return `this page speaks Layercast protocol ${PROTOCOL_VERSION}, the server protocol ${version}: reload the page`;
  }
  const unknown = (welcome.features ?? []).filter((name) => !FEATURES.has(name));
  return unknown.length ? `this page cannot draw ${unknown.join(', ')}: reload the page` : null;
}
