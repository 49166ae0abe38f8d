/**
 * index.html: the scenes from /api/scenes with what to do in each (their `summary`, in the page's
 * language), each opened in its own `page` when it names one (the rain's rain.html), else in
 * scene.html; and the live rooms from /api/rooms.
 */
import { documentLanguage, markChinese, pageLanguage } from './lib/words.js';

const ROOM_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
const ROOMS_INTERVAL_MS = 2000;

const roomInput = document.getElementById('room');
const roleSelect = document.getElementById('role');
const scenesList = document.getElementById('scenes');
const scenesNote = document.getElementById('scenes-note');
const roomsBody = document.getElementById('rooms');
const roomsNote = document.getElementById('rooms-note');
const lang = pageLanguage(location.search);
document.documentElement.lang = documentLanguage(lang);
/** The page of each scene that names one (its /api/scenes `page`), by scene id. */
const scenePages = new Map();
const PAGE_PATTERN = /^[A-Za-z0-9_-]+\.html$/;

/**
 * The page that shows a scene in a room with a role: the scene's own page (which knows its scene:
 * only the room and role go along), else scene.html.
 */
function sceneUrl(scene, room, role) {
  const page = scenePages.get(scene);
  const params = page ? new URLSearchParams({ room }) : new URLSearchParams({ scene, room });
  if (role !== 'player') params.set('role', role);
  return `${page ?? 'scene.html'}?${params}`;
}

/** Creates an element with a class and text. */
function element(tag, text = '', className = '') {
  const node = document.createElement(tag);
  node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** Points every scene card at the chosen room and role. */
function updateLinks() {
  const room = ROOM_PATTERN.test(roomInput.value) ? roomInput.value : 'lobby';
  for (const link of scenesList.querySelectorAll('a[data-scene]')) {
    link.href = sceneUrl(link.dataset.scene, room, roleSelect.value);
  }
}

/** Fills the scene cards from /api/scenes. */
async function loadScenes() {
  try {
    const response = await fetch('api/scenes');
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const { scenes } = await response.json();
    for (const scene of scenes) {
      if (typeof scene.page === 'string' && PAGE_PATTERN.test(scene.page)) scenePages.set(scene.id, scene.page);
    }
    scenesList.replaceChildren(...scenes.map((scene) => {
      const link = element('a', '', 'card');
      link.dataset.scene = scene.id;
      link.append(
        element('h3', scene.title || scene.id),
        element('p', `${scene.id} · ${scene.size.width} × ${scene.size.height} pt`),
        element('p', scene.interactions?.length ? `input: ${scene.interactions.join(', ')}` : 'watch only'),
      );
      const summary = scene.summary?.[lang] ?? scene.summary?.en;
      if (summary) {
        const what = element('p', '', 'summary');
        markChinese(what, summary);
        link.append(what);
      }
      const item = element('li');
      item.append(link);
      return item;
    }));
    scenesNote.textContent = scenes.length ? '' : 'The server has no scenes.';
    updateLinks();
  } catch (error) {
    scenesNote.textContent = `Could not load the scenes (${error.message}).`;
    scenesNote.classList.add('bad');
  }
}

/** Refreshes the live rooms table from /api/rooms. */
async function loadRooms() {
  try {
    const response = await fetch('api/rooms');
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const { rooms } = await response.json();
    roomsBody.replaceChildren(...rooms.map((room) => {
      const row = element('tr');
      const links = element('td');
      const play = element('a', 'join');
      play.href = sceneUrl(room.scene, room.room, 'player');
      const watch = element('a', 'watch');
      watch.href = sceneUrl(room.scene, room.room, 'spectator');
      links.append(play, ' · ', watch);
      row.append(
        element('td', room.scene), element('td', room.room),
        element('td', String(room.clients?.player ?? 0)), element('td', String(room.clients?.spectator ?? 0)),
        element('td', String(room.fps)), element('td', `${Math.round(room.uptime)} s`), links,
      );
      return row;
    }));
    roomsNote.textContent = rooms.length ? '' : 'No room is running; opening a scene starts one.';
    roomsNote.classList.remove('bad');
  } catch (error) {
    roomsNote.textContent = `Could not load the rooms (${error.message}).`;
    roomsNote.classList.add('bad');
  }
}

/** Polls the rooms while the page is visible. */
function pollRooms() {
  if (!document.hidden) loadRooms();
}

roomInput.addEventListener('input', updateLinks);
roleSelect.addEventListener('change', updateLinks);
document.getElementById('join').addEventListener('submit', (event) => event.preventDefault());
document.addEventListener('visibilitychange', pollRooms);
setInterval(pollRooms, ROOMS_INTERVAL_MS);
loadScenes().then(loadRooms);
