/**
 * Scene events in words. `describeEvent` is the generic line (name, data and who); `describeScene`
 * puts an event in the scene's own words: the `events` templates and `terms` that `welcome` and
 * /api/scenes carry (protocol.md, "Scene words"), in the page's language. Both return plain text,
 * for `textContent`: never HTML.
 */
import { words } from './words.js';

/**
 * A one-line text for a scene `event` message: its name, its data, and who caused it, e.g.
 * "select item-3 by c7". Data with one field shows the value alone, otherwise `key=value`
 * pairs; `null` shows as "none"; objects as JSON.
 */
export function describeEvent({ name, data, by }) {
  const show = (value) => (value === null ? 'none' : typeof value === 'object' ? JSON.stringify(value) : String(value));
  const parts = [name];
  if (data !== undefined && data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const entries = Object.entries(data);
    if (entries.length === 1) parts.push(show(entries[0][1]));
    else parts.push(...entries.map(([key, value]) => `${key}=${show(value)}`));
  } else if (data !== undefined) {
    parts.push(show(data));
  }
  if (by) parts.push(`by ${by}`);
  return parts.join(' ');
}

const PLACEHOLDER = /( ?)\{([A-Za-z0-9_]+)(?::([A-Za-z]+))?\}/g;

/** Whether two JSON values are equal (a template's `when` against the event's data). */
function same(a, b) {
  return a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));
}

/** A data value as text in `lang`, or null when it is missing: a term's words, a percent, JSON for objects. */
function show(value, format, terms, lang) {
  if (value === undefined || value === null) return null;
  if (format === 'percent') return typeof value === 'number' && Number.isFinite(value) ? `${Math.round(value * 100)} %` : null;
  if (format !== undefined) return null;
  if (typeof value === 'string') return terms?.[value]?.[lang] ?? terms?.[value]?.en ?? value;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * `template` with its placeholders filled from `data`: `{field}`, `{field:percent}` and `{by}`
 * (`byText`, or nothing together with the space before it when empty). Null when a field is
 * missing or null, or a format is unknown: the template does not apply.
 */
export function fillTemplate(template, data, { terms = {}, lang = 'en', byText = '' } = {}) {
  const fields = data && typeof data === 'object' && !Array.isArray(data) ? data : {};
  let missing = false;
  const text = String(template).replace(PLACEHOLDER, (match, space, name, format) => {
    if (name === 'by' && format === undefined) return byText ? `${space}${byText}` : '';
    const value = show(Object.hasOwn(fields, name) ? fields[name] : undefined, format, terms, lang);
    if (value === null) missing = true;
    return `${space}${value ?? ''}`;
  });
  return missing ? null : text;
}

/**
 * An event in the words of `scene` (a `welcome` or an /api/scenes entry: `events`, `terms`) in
 * `lang` (`en` or `zh`): the first template for the event's name whose `when` the data matches
 * and whose fields it has; `self` is this viewer's client id, so its own actions read "by you".
 * Without such a template, the generic line of `describeEvent`.
 */
export function describeScene(event, scene = {}, lang = 'en', self = null) {
  const { name, data, by } = event;
  const t = words(lang);
  const byText = by ? (by === self ? t.byYou : t.byPlayer) : '';
  const fields = data && typeof data === 'object' && !Array.isArray(data) ? data : {};
  for (const entry of Array.isArray(scene?.events) ? scene.events : []) {
    if (entry?.event !== name) continue;
    if (!Object.entries(entry.when ?? {}).every(([key, value]) => Object.hasOwn(fields, key) && same(fields[key], value))) continue;
    const template = entry[lang] ?? entry.en;
    if (typeof template !== 'string') continue;
    const text = fillTemplate(template, data, { terms: scene.terms, lang, byText });
    if (text !== null) return text;
  }
  return describeEvent({ name, data });
}

/** The scene's summary (what to do) in `lang`, or '' when it gives none. */
export function sceneSummary(scene, lang = 'en') {
  return scene?.summary?.[lang] ?? scene?.summary?.en ?? '';
}
