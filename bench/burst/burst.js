/**
 * bench/client.py's burst page (served beside a copy of public/ as bench-burst/burst.html): the
 * page client, mounted as scene.html mounts it, fed by a stand-in socket that replays
 * frames.jsonl (`LayercastFrameBench burst-frames`: a 400-particle heart burst every 3 s, as a
 * room encodes it) at each frame's own time, after a welcome like a room's. What is measured is
 * the page; the stand-in tells the bench's probe what it receives and sends, as the probe's
 * WebSocket wrapper would.
 */
import { mount } from '../layercast.js';

const HEART = 'data:image/svg+xml,' + encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' width='40' height='36' viewBox='0 0 40 36'>"
  + "<path d='M20 35 C8 25 0 18 0 10 A10 10 0 0 1 20 6 A10 10 0 0 1 40 10 C40 18 32 25 20 35 Z' fill='#ff3b6b'/></svg>");

const WELCOME = {
  type: 'welcome', protocol: 2, room: 'burst', scene: 'burst', title: 'burst', role: 'player', client: 'bench',
  size: { width: 414, height: 736 }, fps: 30, interactions: ['tap'], time: 0,
  assets: { heart: { url: HEART, width: 40, height: 36 } },
  features: ['paths', 'shape', 'gradient', 'group', 'replicator', 'additive', 'imagetint', 'sparse', 'births'],
};

const frames = (await (await fetch('frames.jsonl')).text()).split('\n').filter(Boolean);
/** Each frame's media time (seconds), from its head: `{"type":"frame","n":…,"t":…`. */
const times = frames.map((frame) => Number(/"t":([^,}]+)/.exec(frame)[1]));

/** A WebSocket stand-in: the welcome at once, then each recorded frame at its media time. */
class ReplaySocket {
  static CONNECTING = 0;
  static OPEN = 1;

  constructor() {
    this.readyState = ReplaySocket.OPEN;
    setTimeout(() => {
      this.receive(JSON.stringify(WELCOME));
      const start = performance.now();
      let next = 0;
      const tick = () => {
        const now = (performance.now() - start) / 1000;
        while (next < frames.length && times[next] <= now) {
          this.receive(frames[next]);
          next += 1;
        }
        if (next < frames.length && this.readyState === ReplaySocket.OPEN) setTimeout(tick, 1000 / 60);
      };
      tick();
    });
  }

  receive(data) {
    window.__probe?.received?.(data);
    this.onmessage?.({ data });
  }

  send(data) {
    window.__probe?.sent?.(data);
  }

  close() {
    this.readyState = 3;
  }
}
window.WebSocket = ReplaySocket;

window.layercastView = mount(document.getElementById('stage'), { scene: 'burst', room: 'burst' });
