/**
 * The protocol version and the draw-item and stream features this client knows (protocol.md, "welcome"). A
 * server that announces a newer version or a feature not listed here sends items this client
 * would draw wrongly, and so does one that lacks a required feature: the view refuses to draw
 * and says so instead.
 */
export const PROTOCOL_VERSION = 2;

export const FEATURES = new Set(['paths', 'shape', 'gradient', 'group', 'replicator', 'additive', 'imagetint', 'sparse', 'acks', 'births']);

/**
 * The features this client requires: without `births` a server sends particles in the old
 * tuples (`p`, `pimg`), which this client no longer draws.
 */
const REQUIRED_FEATURES = ['births'];

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
  if (unknown.length) return `this page cannot draw ${unknown.join(', ')}: reload the page`;
  const missing = REQUIRED_FEATURES.filter((name) => !(welcome.features ?? []).includes(name));
  return missing.length ? `this page needs a newer server (features ${missing.join(', ')})` : null;
}
