/**
 * A player's secret anonymous id (protocol.md, "Player tokens"): `anon-` and 22 base64url
 * characters of 16 random bytes, made up once and kept in the browser's storage under
 * `layercast.player`. The id is a credential: a page passes it on and never shows it.
 *
 * `getStorage` returns the Storage to use (`() => localStorage` on a page); reading it may
 * throw (private mode, a sandboxed frame), and then nothing is kept.
 */
export const STORAGE_KEY = 'layercast.player';
export const ANONYMOUS_ID = /^anon-[A-Za-z0-9_-]{16,64}$/;

/** The anonymous id kept from an earlier visit, or '' (none, unreadable or malformed). */
export function storedPlayer(getStorage) {
  try {
    const id = getStorage().getItem(STORAGE_KEY) || '';
    return ANONYMOUS_ID.test(id) ? id : '';
  } catch {
    return ''; // storage blocked (private mode, sandboxed frame): play as a new guest
  }
}

/** A new secret anonymous id: `anon-` and 22 base64url characters of 16 random bytes. */
export function newPlayer(random = globalThis.crypto) {
  const bytes = random.getRandomValues(new Uint8Array(16));
  const base64 = btoa(String.fromCharCode(...bytes));
  return `anon-${base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

/** Keeps `id` for the next visit when it is an anonymous id. */
export function storePlayer(getStorage, id) {
  if (!ANONYMOUS_ID.test(id)) return;
  try {
    getStorage().setItem(STORAGE_KEY, id);
  } catch {
    // storage blocked: the id lasts as long as the page
  }
}

/** Forgets the kept id. */
export function forgetPlayer(getStorage) {
  try {
    getStorage().removeItem(STORAGE_KEY);
  } catch {
    // nothing kept
  }
}
