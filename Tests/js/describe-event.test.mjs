// describe-event.js: scene events in the scene's own words (protocol.md, "Scene words").
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { describeEvent, describeScene, fillTemplate, sceneSummary } from '../../public/lib/describe-event.js';

// The cubes' and the book's words as /api/scenes sends them (CubesScene.info, BookScene.info).
const CUBES = {
  events: [
    { event: 'pull', when: { phase: 'began' }, en: 'Pulling {by}…', zh: '正在下拉{by}…' },
    { event: 'pull', when: { phase: 'ended', refresh: true }, en: 'Pull released at {percent:percent} {by}: refreshing', zh: '在 {percent:percent} 处松手{by}:正在刷新' },
    { event: 'pull', when: { phase: 'ended' }, en: 'Pull released at {percent:percent} {by}', zh: '在 {percent:percent} 处松手{by}' },
    { event: 'pull', when: {}, en: 'Pulling…', zh: '正在下拉…' },
    { event: 'refreshed', when: {}, en: 'Refreshed', zh: '已刷新' },
  ],
};
const BOOK = {
  summary: { en: 'Tap a book on the shelf to open it.', zh: '点书架上的书打开它。' },
  events: [{ event: 'opened', when: {}, en: 'Reading 《{book}》', zh: '正在阅读《{book}》' },
    { event: 'open', when: {}, en: '《{book}》 opened {by}', zh: '《{book}》已打开{by}' }],
  terms: { walden: { en: 'Walden', zh: '瓦尔登湖' } },
};

test('placeholders take the data, a fraction as a whole percent, and who caused it', () => {
  assert.equal(fillTemplate('{name} won {coins} coins', { name: 'Ann', coins: 30 }), 'Ann won 30 coins');
  assert.equal(fillTemplate('at {p:percent}', { p: 0.555 }), 'at 56 %');
  assert.equal(fillTemplate('{x} and {x}', { x: false }), 'false and false');
  assert.equal(fillTemplate('{o}', { o: { a: [1] } }), '{"a":[1]}');
  assert.equal(fillTemplate('opened {by}', {}, { byText: 'by you' }), 'opened by you');
  // Nobody caused it: {by} goes with the space before it.
  assert.equal(fillTemplate('opened {by}: now', {}), 'opened: now');
  assert.equal(fillTemplate('no fields here', undefined), 'no fields here');
});

test('a template with a missing or null field, or an unknown format, does not apply', () => {
  assert.equal(fillTemplate('{name} won {coins} coins', { name: 'Ann' }), null);
  assert.equal(fillTemplate('{item} selected', { item: null }), null);
  assert.equal(fillTemplate('at {p:percent}', { p: 'half' }), null);
  assert.equal(fillTemplate('{p:money}', { p: 3 }), null);
  // A field of Object.prototype is not the event's.
  assert.equal(fillTemplate('{constructor}', {}), null);
});

test('values stay text: HTML in data or terms is not interpreted or escaped', () => {
  assert.equal(fillTemplate('{name} won', { name: '<img src=x onerror=alert(1)>&amp;' }), '<img src=x onerror=alert(1)>&amp; won');
  assert.equal(describeScene({ name: 'opened', data: { book: '<b>' } }, { ...BOOK, terms: { '<b>': { en: '<i>x</i>' } } }),
    'Reading 《<i>x</i>》');
});

test('the first template whose name and `when` match and whose fields are there', () => {
  const released = { name: 'pull', data: { phase: 'ended', percent: 0.56, refresh: false }, by: 'c2' };
  assert.equal(describeScene(released, CUBES, 'en', 'c2'), 'Pull released at 56 % by you');
  assert.equal(describeScene(released, CUBES, 'en', 'c9'), 'Pull released at 56 % by a player');
  assert.equal(describeScene({ ...released, data: { ...released.data, refresh: true } }, CUBES, 'en', 'c2'),
    'Pull released at 56 % by you: refreshing');
  assert.equal(describeScene({ ...released, data: { phase: 'ended' } }, CUBES, 'en'), 'Pulling…');
  assert.equal(describeScene({ name: 'pull', data: { phase: 'began' } }, CUBES, 'zh'), '正在下拉…');
  assert.equal(describeScene({ name: 'pull', data: { phase: 'began' }, by: 'c1' }, CUBES, 'zh', 'c1'), '正在下拉(你)…');
  assert.equal(describeScene({ name: 'refreshed' }, CUBES), 'Refreshed');
});

test('terms name values in the page language', () => {
  assert.equal(describeScene({ name: 'opened', data: { book: 'walden', key: 'k', finished: true } }, BOOK, 'en'), 'Reading 《Walden》');
  assert.equal(describeScene({ name: 'opened', data: { book: 'walden' } }, BOOK, 'zh'), '正在阅读《瓦尔登湖》');
  assert.equal(describeScene({ name: 'open', data: { book: 'emma' }, by: 'c3' }, BOOK, 'en', 'c1'), '《emma》 opened by a player');
  assert.equal(sceneSummary(BOOK, 'zh'), '点书架上的书打开它。');
  assert.equal(sceneSummary({}, 'en'), '');
});

test('without words for an event: its name and data, as the generic line', () => {
  assert.equal(describeScene({ name: 'replay', data: { round: 2 }, by: 'c4' }, {}), 'replay 2');
  assert.equal(describeScene({ name: 'open', data: {} }, BOOK), 'open');
  assert.equal(describeEvent({ name: 'select', data: { item: 'item-3' }, by: 'c7' }), 'select item-3 by c7');
});
