/**
 * Bench-only (`?rasterise=0`, docs/performance.md): `ctx` with every call that puts pixels on a
 * canvas turned into a no-op, so the renderer's walk, its state changes and its measuring run as
 * usual while nothing is rasterised. `clearRect` is kept (the bench counts draws by it).
 */
export function unrasterised(ctx) {
  for (const name of ['fill', 'fillRect', 'stroke', 'strokeRect', 'drawImage', 'fillText', 'strokeText', 'putImageData']) {
    ctx[name] = noop;
  }
  return ctx;
}

function noop() {}
