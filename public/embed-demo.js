/**
 * embed-demo.html: frames embed.html (scene, room and role from this page's query, default
 * radar / lobby / player) with this page as `parentOrigin`, and logs the messages it posts.
 */
import { describeEvent } from './lib/describe-event.js';

const params = new URLSearchParams(location.search);
const frame = document.getElementById('frame');
const log = document.getElementById('log');

const embed = new URL('embed.html', location.href);
embed.searchParams.set('scene', params.get('scene') || 'radar');
embed.searchParams.set('room', params.get('room') || 'lobby');
embed.searchParams.set('role', params.get('role') || 'player');
embed.searchParams.set('parentOrigin', location.origin);
frame.src = embed.href;

window.addEventListener('message', (message) => {
  if (message.source !== frame.contentWindow || message.origin !== embed.origin) return;
  const data = message.data;
  if (data?.source !== 'layercast') return;
  const line = document.createElement('li');
  const time = new Date().toLocaleTimeString();
  line.textContent = data.type === 'event'
    ? `${time}  event: ${describeEvent(data.event)}`
    : `${time}  ${data.type}: ${JSON.stringify({ scene: data.scene, room: data.room })}`;
  log.append(line);
  log.scrollTop = log.scrollHeight;
});
