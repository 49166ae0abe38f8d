// A fake server for births.html: a welcome with `births`, then one full frame at t = 0 holding a
// black backdrop and an emitter with one record (a white 10-point dot born at (10, 50), moving
// 100 pt/s right, living 0.6 s), then silence. window.outcome gets the times (ms after that frame)
// at which the view drew, the dot's x (scene points, from the canvas) at 150 and 400 ms, and
// `done` at 2.4 s.
const DOT = 'data:image/svg+xml,' + encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='10' height='10' fill='white'/></svg>");
const outcome = { draws: [], xs: [], done: false };
window.outcome = outcome;
let sentAt = null;

class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;

  constructor() {
    this.readyState = FakeSocket.OPEN;
    // The dot's image loads before the frame, so the first draws show it.
    const image = new Image();
    image.onload = () => {
      this.receive({ type: 'welcome', protocol: 2, room: 'lobby', scene: 'check', title: 'check', role: 'spectator',
                     client: 'c1', size: { width: 100, height: 100 }, fps: 30, interactions: [], time: 0,
                     assets: { dot: { url: DOT, width: 10, height: 10 } },
                     features: ['paths', 'shape', 'gradient', 'group', 'replicator', 'additive', 'imagetint', 'sparse', 'births'] });
      setTimeout(() => {
        sentAt = performance.now();
        this.receive({ type: 'frame', n: 1, t: 0, full: true, items: [
          { id: 1, s: [100, 100], bg: '#000000' },
          { id: 2, name: 'burst', s: [100, 100], pk: [[1, 'dot']], pb: [[1, 1, 0, 0.6, 10, 50, 100, 0, 1, 0]] },
        ] });
        setTimeout(() => outcome.xs.push(dotX()), 150);
        setTimeout(() => outcome.xs.push(dotX()), 400);
        setTimeout(() => { outcome.done = true; }, 2400);
      }, 100);
    };
    image.src = DOT;
  }

  receive(message) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }

  send() {}

  close() {}
}
window.WebSocket = FakeSocket;

/** The mean x (scene points) of the bright pixels on the canvas's row through y = 50, or null. */
function dotX() {
  const canvas = document.querySelector('canvas.layercast-canvas');
  const scale = canvas.width / 100;
  const copy = new OffscreenCanvas(canvas.width, canvas.height).getContext('2d');
  copy.drawImage(canvas, 0, 0); // a canvas handed to the render worker is read as an image
  const row = copy.getImageData(0, Math.round(50 * scale), canvas.width, 1).data;
  let sum = 0, count = 0;
  for (let x = 0; x < canvas.width; x += 1) if (row[4 * x] > 128) { sum += x; count += 1; }
  return count ? sum / count / scale : null;
}

const { mount } = await import('/public/layercast.js');
const view = mount(document.getElementById('stage'), { scene: 'check', role: 'spectator', veil: false });
view.on('draw', ({ at }) => {
  if (sentAt !== null) outcome.draws.push(at - sentAt);
});
