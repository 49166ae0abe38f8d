// The small pure modules of public/lib/: backoff, colour, contents gravity, letterbox, UTF-8
// length, media clock, rate meter, server URLs and the page words.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Backoff } from '../../public/lib/backoff.js';
import { withAlpha } from '../../public/lib/color.js';
import { contentsRect } from '../../public/lib/gravity.js';
import { letterbox } from '../../public/lib/letterbox.js';
import { MediaClock } from '../../public/lib/media-clock.js';
import { RateMeter } from '../../public/lib/rate-meter.js';
import { serverUrls } from '../../public/lib/server-url.js';
import { utf8Length } from '../../public/lib/utf8-length.js';
import { documentLanguage, pageLanguage, words } from '../../public/lib/words.js';

test('backoff doubles up to its cap, jittered, and starts over on reset', () => {
  const middle = new Backoff({ random: () => 0.5 });
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map(() => middle.next()), [500, 1000, 2000, 4000, 8000, 15000, 15000]);
  middle.reset();
  assert.equal(middle.next(), 500);
  assert.equal(new Backoff({ random: () => 0 }).next(), 250);
  assert.equal(new Backoff({ random: () => 1 }).next(), 750);
});

test('backoff comes back soon after a restart close three times in a row, then backs off, and starts over on reset', () => {
  const middle = new Backoff({ random: () => 0.5 });
  assert.deepEqual([1, 2, 3, 4, 5].map(() => middle.soon()), [200, 200, 200, 500, 1000]);
  middle.reset();
  assert.equal(middle.soon(), 200);
  assert.equal(middle.next(), 500);
  assert.equal(new Backoff({ random: () => 0 }).soon(), 100);
  assert.equal(new Backoff({ random: () => 1 }).soon(), 300);
});

test('withAlpha multiplies a protocol colour\'s alpha', () => {
  assert.equal(withAlpha('#ff8000', 0.5), 'rgba(255, 128, 0, 0.5)');
  assert.equal(withAlpha('#00000080', 1), `rgba(0, 0, 0, ${128 / 255})`);
  assert.equal(withAlpha('red', 0.5), 'red');
});

test('contentsRect places an image by gravity', () => {
  assert.deepEqual(contentsRect('resize', 100, 50, 10, 10), [0, 0, 100, 50]);
  assert.deepEqual(contentsRect('resizeAspect', 100, 50, 10, 10), [25, 0, 50, 50]);
  assert.deepEqual(contentsRect('resizeAspectFill', 100, 50, 10, 10), [0, -25, 100, 100]);
  assert.deepEqual(contentsRect('center', 100, 50, 10, 10), [45, 20, 10, 10]);
  assert.deepEqual(contentsRect('topLeft', 100, 50, 10, 10), [0, 0, 10, 10]);
  assert.deepEqual(contentsRect('bottomRight', 100, 50, 10, 10), [90, 40, 10, 10]);
  assert.deepEqual(contentsRect('right', 100, 50, 10, 10), [90, 20, 10, 10]);
  assert.deepEqual(contentsRect('nonsense', 100, 50, 10, 10), [0, 0, 100, 50]);
});

test('letterbox fits the scene centred', () => {
  assert.deepEqual(letterbox({ width: 414, height: 736 }, 828, 2000), { scale: 2, x: 0, y: 264, width: 828, height: 1472 });
  assert.equal(letterbox({ width: 0, height: 736 }, 100, 100).scale, 0);
});

test('utf8Length counts bytes as UTF-8 does', () => {
  for (const text of ['', 'abc', 'é', '金币', '😀', 'a😀b\ud800']) {
    assert.equal(utf8Length(text), Buffer.byteLength(text, 'utf8'), JSON.stringify(text));
  }
});

test('the media clock smooths small changes and snaps to big ones', () => {
  const clock = new MediaClock({ smoothing: 0.5, snapSeconds: 0.5 });
  assert.equal(clock.now(0), null);
  clock.observe(10, 1000);
  assert.equal(clock.now(2000), 11);
  clock.observe(10.2, 1000);
  assert.ok(Math.abs(clock.now(1000) - 10.1) < 1e-9);
  clock.observe(50, 1000);
  assert.equal(clock.now(1000), 50);
});

test('the rate meter counts over its window', () => {
  const meter = new RateMeter(1000);
  meter.add(0);
  meter.add(500, 3);
  assert.equal(meter.perSecond(900), 4);
  assert.equal(meter.perSecond(1200), 3);
  assert.equal(meter.perSecond(1500), 0);
});

test('serverUrls: the page origin, a path prefix, ws URLs, token before player', () => {
  globalThis.location = new URL('https://game.example/rain.html?room=x');
  try {
    const join = { scene: 'rain', room: 'lobby', role: 'player' };
    assert.deepEqual(serverUrls('', { ...join, player: 'anon-abc' }),
      { http: 'https://game.example/', socket: 'wss://game.example/ws?scene=rain&room=lobby&role=player&player=anon-abc' });
    assert.deepEqual(serverUrls('ws://10.0.0.2:8080/layercast?x=1', { ...join, token: 't', player: 'anon-abc' }),
      { http: 'http://10.0.0.2:8080/layercast/', socket: 'ws://10.0.0.2:8080/layercast/ws?scene=rain&room=lobby&role=player&token=t' });
  } finally {
    delete globalThis.location;
  }
});

test('the page language and its words', () => {
  assert.equal(pageLanguage('?lang=zh'), 'zh');
  assert.equal(pageLanguage('?lang=en'), 'en');
  assert.equal(documentLanguage('zh'), 'zh-Hans');
  assert.equal(documentLanguage('en'), 'en');
  assert.equal(words('zh').connecting, '正在连接…');
  assert.equal(words('en').reconnecting(2), 'Reconnecting… (attempt 2)');
  for (const key of Object.keys(words('en'))) assert.ok(key in words('zh'), `zh lacks ${key}`);
  for (const code of Object.keys(words('en').errors)) assert.ok(words('zh').errors[code], `zh lacks errors.${code}`);
});
