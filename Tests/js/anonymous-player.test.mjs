// public/lib/anonymous-player.js: the secret anonymous id a page makes up once and keeps.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ANONYMOUS_ID, forgetPlayer, newPlayer, STORAGE_KEY, storedPlayer, storePlayer } from '../../public/lib/anonymous-player.js';

/** A Storage of a Map. */
function memoryStorage() {
  const map = new Map();
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => map.set(k, String(v)), removeItem: (k) => map.delete(k), map };
}

test('a new id is anon- and 22 base64url characters of 16 random bytes', () => {
  const id = newPlayer({ getRandomValues: (bytes) => bytes.fill(0xfb) });
  assert.equal(id, 'anon--_v7-_v7-_v7-_v7-_v7-w');
  assert.match(newPlayer(), ANONYMOUS_ID);
  assert.notEqual(newPlayer(), newPlayer());
});

test('an id is kept, read back and forgotten; only anonymous ids are kept', () => {
  const storage = memoryStorage();
  const get = () => storage;
  assert.equal(storedPlayer(get), '');
  storePlayer(get, 'p-06d4493eb2101b31');
  storePlayer(get, 'anon-short');
  assert.equal(storage.map.size, 0);
  const id = newPlayer();
  storePlayer(get, id);
  assert.equal(storage.map.get(STORAGE_KEY), id);
  assert.equal(storedPlayer(get), id);
  forgetPlayer(get);
  assert.equal(storedPlayer(get), '');
});

test('a malformed kept id reads as none', () => {
  const storage = memoryStorage();
  storage.setItem(STORAGE_KEY, 'anon-<script>');
  assert.equal(storedPlayer(() => storage), '');
});

test('blocked storage keeps nothing and throws nothing', () => {
  const blocked = () => { throw new Error('SecurityError'); };
  assert.equal(storedPlayer(blocked), '');
  storePlayer(blocked, newPlayer());
  forgetPlayer(blocked);
  const failing = { getItem() { throw new Error('no'); }, setItem() { throw new Error('full'); }, removeItem() { throw new Error('no'); } };
  assert.equal(storedPlayer(() => failing), '');
  storePlayer(() => failing, newPlayer());
  forgetPlayer(() => failing);
});
