// public/lib/tap-answer.js, label-position.js, rain-results.js and room-link.js: what the rain
// page says to a tap and where, its results card, and the link it shares.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { labelPosition } from '../../public/lib/label-position.js';
import { leaderboardPath, leaderboardRows, missingFromLeaderboard, ownResults, resultsSummary } from '../../public/lib/rain-results.js';
import { roomLink } from '../../public/lib/room-link.js';
import { tapAnswer } from '../../public/lib/tap-answer.js';
import { words } from '../../public/lib/words.js';

const t = words('en');

test('each tap result has its words and kind', () => {
  assert.deepEqual(tapAnswer({ result: 'award', coins: 37 }, t), { text: '+37 金币!', kind: 'win', vibrate: true });
  assert.deepEqual(tapAnswer({ result: 'award', coins: 0 }, t), { text: t.loseShort, kind: 'lose' });
  assert.deepEqual(tapAnswer({ result: 'taken' }, t), { text: t.taken, kind: 'taken' });
  assert.deepEqual(tapAnswer({ result: 'miss' }, t), { text: t.miss, kind: 'miss', flash: true });
  assert.deepEqual(tapAnswer({ result: 'capped' }, t), { text: t.capped, kind: 'info', announce: true });
  assert.deepEqual(tapAnswer({ result: 'too_soon' }, t), { text: t.tooSoon, kind: 'info' });
  assert.equal(tapAnswer({ result: 'closed' }, t), null);
});

test('the plate goes above the tap, below it for a win, flipped at the edges, clamped', () => {
  const stage = { box: { width: 100, height: 20 }, width: 400, height: 700 };
  assert.deepEqual(labelPosition({ ...stage, point: { x: 200, y: 300 } }), { x: 150, y: 266 });
  assert.deepEqual(labelPosition({ ...stage, point: { x: 200, y: 300 }, below: true }), { x: 150, y: 314 });
  assert.deepEqual(labelPosition({ ...stage, point: { x: 200, y: 10 } }), { x: 150, y: 24 }, 'flipped below near the top');
  assert.deepEqual(labelPosition({ ...stage, point: { x: 200, y: 690 }, below: true }), { x: 150, y: 656 }, 'flipped above near the bottom');
  assert.deepEqual(labelPosition({ ...stage, point: { x: 10, y: 300 } }), { x: 4, y: 266 });
  assert.deepEqual(labelPosition({ ...stage, point: { x: 395, y: 300 } }), { x: 296, y: 266 });
  assert.deepEqual(labelPosition({ box: { width: 100, height: 20 }, width: 50, height: 10, point: { x: 25, y: 5 } }), { x: 4, y: 4 }, 'a stage smaller than the plate');
});

test('the results card: summary, own lines', () => {
  assert.equal(resultsSummary({ claimed: 12, packets: 27, awarded: 500 }, t), '12 / 27 packets claimed · 500 金币 awarded');
  assert.equal(resultsSummary({}, t), '0 packets claimed · 0 金币 awarded');
  assert.equal(resultsSummary({ claimed: 1, awarded: 8, stoppedAt: 12.5 }, t), `${t.stopped} 1 packets claimed · 8 金币 awarded`);
  assert.deepEqual(ownResults({ playing: true, rainCoins: 37, total: 120 }, t), { mine: t.wonThisRain(37), total: t.yourTotal(120) });
  assert.deepEqual(ownResults({ playing: true, rainCoins: 0, total: null }, t), { mine: t.noCoins, total: t.yourTotal(0) });
  assert.deepEqual(ownResults({ playing: false, rainCoins: 37, total: 120 }, t), { mine: '', total: '' });
});

test('the leaderboard rows: medals for the top three, the viewer marked', () => {
  const players = [
    { rank: 1, player: 'p-a', name: 'Ada', coins: 120, packets: 3 },
    { rank: 2, player: 'p-b', coins: 80 },
    { rank: 4, player: 'p-c', name: '', coins: 0 },
    {},
  ];
  assert.deepEqual(leaderboardRows(players, 'p-b'), [
    { player: 'p-a', rank: '1', medal: '1', name: 'Ada', coins: '120', me: false },
    { player: 'p-b', rank: '2', medal: '2', name: 'p-b', coins: '80', me: true },
    { player: 'p-c', rank: '4', medal: null, name: 'p-c', coins: '0', me: false },
    { player: '', rank: '', medal: null, name: '?', coins: '0', me: false },
  ]);
  assert.equal(missingFromLeaderboard(players, 'p-b', false), false);
  assert.equal(missingFromLeaderboard(players, 'p-z', false), true);
  assert.equal(missingFromLeaderboard(players, 'p-z', true), false, 'a spectator is not told');
  assert.equal(missingFromLeaderboard(players, undefined, false), false);
  assert.equal(leaderboardPath('camp aign', 10), 'api/rooms/camp%20aign/leaderboard?limit=10');
});

test('the shared link names the room, server and language, never a token', () => {
  const page = new URL('https://game.example/rain.html?room=a&token=secret&player=anon-x');
  assert.equal(roomLink(page, { room: 'a' }), 'https://game.example/rain.html?room=a');
  assert.equal(roomLink(page, { room: 'b', server: 'wss://ws.example/', lang: 'zh' }),
    'https://game.example/rain.html?room=b&server=wss%3A%2F%2Fws.example%2F&lang=zh');
});
