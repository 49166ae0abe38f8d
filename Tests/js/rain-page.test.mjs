// public/rain.js: what the rain page decides from its URL and from each message, without a
// browser (the page itself is tested in Tests/integration/test_browser_rain.py).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  awardSeen, connectionText, errorResponse, errorText, identityLine, initialState, pageOptions, rainChanged, sceneSize,
  shouldCheckRefusal, stateLine, statusChanged, totalText, veilText, welcomed,
} from '../../public/rain.js';
import { words } from '../../public/lib/words.js';

const t = words('en');

test('the URL gives the room, role, token, server and language, with defaults', () => {
  assert.deepEqual(pageOptions('?room=a&role=spectator&token=tk&server=wss%3A%2F%2Fws.example%2F&lang=zh'), {
    room: 'a', role: 'spectator', token: 'tk', server: 'wss://ws.example/', spectator: true, lang: 'zh', langParam: 'zh',
  });
  assert.deepEqual(pageOptions('?lang=en'), {
    room: 'lobby', role: 'player', token: '', server: '', spectator: false, lang: 'en', langParam: 'en',
  });
  assert.equal(pageOptions('?room=&role=&lang=zh-TW').room, 'lobby');
  assert.equal(pageOptions('?room=&role=&lang=zh-TW').role, 'player');
  assert.equal(pageOptions('?room=&role=&lang=zh-TW').lang, 'zh');
});

test('a page starts knowing nothing, with its role', () => {
  const state = initialState('spectator');
  assert.deepEqual(state, {
    role: 'spectator', player: null, total: null, phase: null, rain: null, lastTap: null, leaderboard: null, results: null,
    connected: false, joins: 0, errors: [], countdown: null, bumps: 0, announcements: [], attempt: 0,
  });
  assert.notEqual(initialState('player').errors, initialState('player').errors, 'each page its own lists');
});

test('a welcome names the player and their total, and says which made-up id to keep', () => {
  const state = initialState('player');
  assert.equal(welcomed(state, { player: { id: 'p-1', name: 'Ann', total: 40 } }), undefined);
  assert.deepEqual([state.joins, state.player, state.total], [1, { id: 'p-1', name: 'Ann' }, 40]);
  assert.equal(welcomed(state, { player: { id: 'p-2', name: 'Guest', secret: 'anon-x' } }), 'anon-x');
  assert.deepEqual([state.joins, state.player, state.total], [2, { id: 'p-2', name: 'Guest' }, 0]);
  // A spectator's welcome has no player.
  assert.equal(welcomed(state, {}), undefined);
  assert.deepEqual([state.joins, state.player, state.total], [3, null, null]);
  assert.deepEqual(sceneSize({ size: { width: 390, height: 844 } }), { width: 390, height: 844 });
  assert.deepEqual(sceneSize({}), { width: 414, height: 736 });
});

test('errors: a refused kept id rejoins as a guest, the page\'s own are ignored, the rest are told in words', () => {
  assert.equal(errorResponse('bad_player', { player: 'anon-x', token: '' }), 'rejoin');
  assert.equal(errorResponse('bad_player', { player: '', token: 'tk' }), 'tell');
  assert.equal(errorResponse('bad_player', { player: 'anon-x', token: 'tk' }), 'tell');
  for (const code of ['unknown_type', 'bad_field', 'bad_json']) assert.equal(errorResponse(code, { player: 'anon-x', token: '' }), 'ignore');
  assert.equal(errorResponse('rate_limited', { player: 'anon-x', token: '' }), 'tell');
  assert.equal(errorText('server_full', t), t.errors.server_full);
  assert.equal(errorText('no_such_code', t), t.errorFallback);
});

test('the connection line and the veil say why the page is not connected', () => {
  const state = initialState('player');
  statusChanged(state, { connected: false, attempt: 2 });
  assert.deepEqual([state.connected, state.attempt], [false, 2]);
  assert.equal(connectionText({ connected: false, attempt: 2 }, state, t), t.connecting, 'never joined: connecting');
  state.joins = 1;
  assert.equal(connectionText({ connected: false, attempt: 2 }, state, t), 'Reconnecting… (attempt 2)');
  statusChanged(state, { connected: false });
  assert.equal(state.attempt, 2, 'a status without an attempt keeps the last');
  assert.equal(connectionText({ connected: false, stopped: 'closed' }, state, t), t.disconnected);
  assert.equal(connectionText({ connected: false, stopped: 'origin' }, state, t), errorText('origin', t));
  statusChanged(state, { connected: true, attempt: 5 });
  assert.deepEqual([state.connected, state.attempt], [true, 0]);
  assert.equal(connectionText({ connected: true }, state, t), null);

  assert.equal(veilText({ attempt: 3 }, t), 'Reconnecting… (attempt 3)');
  assert.equal(veilText({}, t), 'Reconnecting…');
  assert.equal(veilText({ stopped: 'closed' }, t), t.disconnected);
  assert.equal(veilText({ stopped: 'server_full' }, t), t.errors.server_full);
});

test('a refusal is checked once, after three attempts without any join', () => {
  assert.equal(shouldCheckRefusal({ everJoined: false, refusalChecked: false, attempt: 2 }), false);
  assert.equal(shouldCheckRefusal({ everJoined: false, refusalChecked: false, attempt: 3 }), true);
  assert.equal(shouldCheckRefusal({ everJoined: true, refusalChecked: false, attempt: 9 }), false);
  assert.equal(shouldCheckRefusal({ everJoined: false, refusalChecked: true, attempt: 9 }), false);
});

test('rain events move the phase, keep the same rain\'s fields and reset the coins for a new rain', () => {
  const countdown = { phase: 'countdown', rain: 4, startsAt: 10, endsAt: 30 };
  const first = rainChanged({ phase: 'idle', rain: { rain: 3, nextAt: 9 }, rainCoins: 25 }, countdown);
  assert.deepEqual(first, {
    phase: 'countdown', rain: countdown, rainCoins: 0, starts: false, ends: false, hidesResults: true,
  });
  const raining = rainChanged({ phase: 'countdown', rain: first.rain, rainCoins: 0 }, { phase: 'raining', rain: 4 });
  assert.deepEqual(raining, {
    phase: 'raining', rain: { phase: 'raining', rain: 4, startsAt: 10, endsAt: 30 }, rainCoins: 0, starts: true, ends: false, hidesResults: false,
  });
  // The same rain again while raining: no new start, the coins won so far kept.
  assert.deepEqual(rainChanged({ phase: 'raining', rain: raining.rain, rainCoins: 12 }, { phase: 'raining', rain: 4 }).rainCoins, 12);
  assert.equal(rainChanged({ phase: 'raining', rain: raining.rain, rainCoins: 12 }, { phase: 'raining', rain: 4 }).starts, false);
  // Joined mid-rain (no countdown heard): another rain's raining resets the coins.
  assert.equal(rainChanged({ phase: 'raining', rain: raining.rain, rainCoins: 12 }, { phase: 'raining', rain: 5 }).rainCoins, 0);
  const results = rainChanged({ phase: 'raining', rain: raining.rain, rainCoins: 12 }, { phase: 'results', rain: 4, claimed: 3, awarded: 40 });
  assert.deepEqual(results, {
    phase: 'results', rain: { phase: 'results', rain: 4, startsAt: 10, endsAt: 30, claimed: 3, awarded: 40 },
    rainCoins: 12, starts: false, ends: true, hidesResults: false,
  });
  const idle = rainChanged({ phase: 'results', rain: results.rain, rainCoins: 12 }, { phase: 'idle', rain: 4, nextAt: 99 });
  assert.deepEqual([idle.rainCoins, idle.hidesResults, idle.ends, idle.rain.claimed, idle.rain.nextAt], [12, true, false, 3, 99]);
});

test('an award is the player\'s own (total, coins of this rain, bump, words) or another\'s feed line', () => {
  const me = { player: { id: 'p-1', name: 'Ann' }, total: 100, rainCoins: 5 };
  assert.deepEqual(awardSeen(me, { player: 'p-1', coins: 10, total: 110 }, t), {
    mine: true, total: 110, rainCoins: 15, bump: true, say: t.youWon(10, 110),
  });
  assert.deepEqual(awardSeen(me, { player: 'p-1', coins: 0, total: 100 }, t), {
    mine: true, total: 100, rainCoins: 5, bump: false, say: null,
  });
  // No total in the event: the last one stays, and the pill does not bump.
  assert.deepEqual(awardSeen(me, { player: 'p-1', coins: 7 }, t), { mine: true, total: 100, rainCoins: 12, bump: false, say: t.youWon(7, 100) });
  assert.deepEqual(awardSeen(me, { player: 'p-2', name: 'Bo', coins: 8, total: 50 }, t), { mine: false, feed: t.someoneWon('Bo', 8) });
  assert.deepEqual(awardSeen(me, { player: 'p-2', coins: 8 }, t), { mine: false, feed: t.someoneWon('Someone', 8) });
  assert.deepEqual(awardSeen(me, { player: 'p-2', name: 'Bo', coins: 0 }, t), { mine: false, feed: null });
  // A spectator has no award of its own.
  assert.equal(awardSeen({ player: null, total: null, rainCoins: 0 }, { player: 'p-1', coins: 3 }, t).mine, false);
});

test('the HUD names the player or says it is watching, and shows the total', () => {
  const state = initialState('player');
  assert.deepEqual(identityLine(state, false, t), { watching: true, name: t.watching });
  state.player = { id: 'p-1', name: '' };
  assert.deepEqual(identityLine(state, false, t), { watching: false, name: 'p-1' });
  state.player.name = 'Ann';
  assert.deepEqual(identityLine(state, false, t), { watching: false, name: 'Ann' });
  assert.deepEqual(identityLine(state, true, t), { watching: true, name: t.watching });
  assert.equal(totalText(null), '–');
  assert.equal(totalText(0), '0');
  assert.equal(totalText(120), '120');
});

test('the state line counts down, marks estimates and keys on what it shows', () => {
  const state = { ...initialState('player'), phase: 'countdown', rain: { rain: 3, startsAt: 20, endsAt: 40 }, connected: true };
  const line = stateLine(state, { time: 17.2, estimated: false }, false, t);
  assert.deepEqual(line, {
    clock: { kind: 'countdown', seconds: 3, estimated: false }, text: t.countdown(3), estimated: false, key: `${t.countdown(3)}|false`,
  });
  const estimate = stateLine(state, { time: 17.2, estimated: true }, false, t);
  assert.equal(estimate.estimated, true);
  assert.notEqual(estimate.key, line.key);
  assert.equal(stateLine(state, { time: 17.9, estimated: false }, false, t).key, line.key, 'the same second, the same line');
  const watching = stateLine(state, { time: 17.2, estimated: false }, true, t);
  assert.equal(watching.text, `${t.countdown(3)} · ${t.watching}`);
  assert.deepEqual(stateLine(initialState('player'), null, false, t), { clock: null, text: t.connecting, estimated: false, key: `${t.connecting}|false` });
});
