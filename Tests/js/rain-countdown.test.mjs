// public/lib/rain-countdown.js and rain-phase.js: the rain page's countdowns, its state line
// and the phase guessed from a frame.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { rainCountdown, rainLeftFraction, stateText } from '../../public/lib/rain-countdown.js';
import { guessedPhase } from '../../public/lib/rain-phase.js';
import { words } from '../../public/lib/words.js';

const t = words('en');
const now = (time, estimated = false) => ({ time, estimated });

test('each phase counts to its moment, in whole seconds rounded up, never below 0', () => {
  const rain = { rain: 3, startsAt: 20, endsAt: 40, nextAt: 55 };
  assert.deepEqual(rainCountdown('countdown', rain, now(17.2)), { kind: 'countdown', seconds: 3, estimated: false });
  assert.deepEqual(rainCountdown('raining', rain, now(30, true)), { kind: 'raining', seconds: 10, estimated: true });
  assert.deepEqual(rainCountdown('raining', rain, now(41)), { kind: 'raining', seconds: 0, estimated: false });
  for (const phase of ['idle', 'results', null]) {
    assert.deepEqual(rainCountdown(phase, rain, now(50.01)), { kind: 'next', seconds: 5, estimated: false }, String(phase));
  }
});

test('no countdown without a time or the moment it counts to', () => {
  assert.equal(rainCountdown('countdown', { startsAt: 20 }, null), null);
  assert.equal(rainCountdown('countdown', { endsAt: 20 }, now(1)), null);
  assert.equal(rainCountdown('raining', null, now(1)), null);
  assert.equal(rainCountdown('idle', { startsAt: 5 }, now(1)), null);
  assert.equal(rainCountdown('unknown', { nextAt: 5 }, now(1)), null);
});

test('the state line says the phase and its countdown', () => {
  const line = (clock, phase, connected = true, spectator = false) => stateText(clock, { phase, connected, spectator }, t);
  assert.equal(line({ kind: 'countdown', seconds: 3 }, 'countdown'), 'Rain starts in 3');
  assert.equal(line({ kind: 'countdown', seconds: 0 }, 'countdown'), 'Get ready');
  assert.equal(line({ kind: 'raining', seconds: 7 }, 'raining'), 'Tap the red packets! 7 s left');
  assert.equal(line({ kind: 'next', seconds: 12 }, 'idle'), 'Next rain in 12 s');
  assert.equal(line(null, 'results'), 'Results');
  assert.equal(line(null, 'raining'), 'Tap the red packets!');
  assert.equal(line(null, 'countdown'), 'Get ready');
  assert.equal(line(null, 'idle'), 'Next rain soon');
  assert.equal(line(null, 'idle', false), 'Next rain: unknown while offline');
  assert.equal(line(null, null), '');
  assert.equal(line(null, null, false), 'Connecting…');
  assert.equal(line(null, 'idle', true, true), 'Next rain soon · watching');
  assert.equal(line(null, null, true, true), '', 'nothing to say stays empty for a spectator');
  assert.equal(stateText({ kind: 'countdown', seconds: 2 }, { phase: 'countdown', connected: true }, words('zh')), words('zh').countdown(2));
});

test('the part of the rain left', () => {
  const rain = { startsAt: 10, endsAt: 30 };
  assert.equal(rainLeftFraction(rain, 10), 1);
  assert.equal(rainLeftFraction(rain, 25), 0.25);
  assert.equal(rainLeftFraction(rain, 5), 1);
  assert.equal(rainLeftFraction(rain, 31), 0);
  assert.equal(rainLeftFraction(rain, undefined), null);
  assert.equal(rainLeftFraction({ startsAt: 10 }, 12), null);
  assert.equal(rainLeftFraction({ startsAt: 10, endsAt: 10 }, 10), null);
  assert.equal(rainLeftFraction(null, 10), null);
});

test('the phase guessed from what is drawn', () => {
  assert.equal(guessedPhase([{ id: 1, name: 'countdown', text: { runs: [] } }, { id: 2, name: 'packet-1', img: 'rp_normal' }]), 'countdown');
  assert.equal(guessedPhase([{ id: 1, name: 'countdown' }, { id: 2, name: 'packet-1', img: 'rp_normal' }]), 'raining');
  assert.equal(guessedPhase([{ id: 2, name: 'label-1', img: 'rp_normal' }, { id: 3, img: 'rp_normal' }]), 'idle');
  assert.equal(guessedPhase([]), 'idle');
});
