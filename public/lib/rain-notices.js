import { labelPosition } from './label-position.js';
import { markChinese } from './words.js';

const TOAST_MS = 2600;
const LABEL_MS = 1100;
const FEED_MS = 2000;

/**
 * The rain page's passing notices: a toast, the answer plate at the player's tap point (placed
 * by lib/label-position.js), the feed line of other players' wins, a flash of the stage's edge,
 * and the polite live region for screen readers, each taking itself away after a while.
 *
 * `elements`: `{stage, toast, tapLabel, announcer, feed}`. `announcements` collects every text
 * announced (the page's `rainState.announcements`). Where the player last pressed on the stage
 * is caught before the view's own handler (so create this before mounting the view).
 *
 * Nothing here changes the page in the middle of a task (a socket message, a timer), which would
 * have the browser lay it out there and then, or at the next tap: what the notices show waits for
 * the next animation frame, which changes it all and reads the sizes it needs in the one layout
 * that frame does anyway, then places the plate and starts the animations again (`replay`).
 */
export function createNotices({ stage, toast, tapLabel, announcer, feed }, { announcements }) {
  let toastTimer = 0;
  let labelTimer = 0;
  let feedTimer = 0;
  /** Where the player last pressed on the stage (stage CSS pixels), for the tap answer. */
  let lastPress = null;
  /** What the next animation frame shows: the plate `{text, kind, point}` and the toast `{text, kind}`, or null. */
  let plate = null;
  let toastNext = null;
  /** Element → the class whose animation the next animation frame plays again. */
  const replays = new Map();
  let frame = 0;
  const win = stage.ownerDocument.defaultView;

  stage.addEventListener('pointerdown', (event) => {
    // The browser has just laid the page out to find the pointer's target: reading it is free.
    const rect = stage.getBoundingClientRect();
    lastPress = { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }, { capture: true });

  /** Shows what waits for this animation frame, with one read of the page's layout. */
  function settle() {
    frame = 0;
    for (const [element, className] of replays) element.classList.remove(className);
    if (toastNext) {
      markChinese(toast, toastNext.text);
      toast.className = `rain-toast ${toastNext.kind}`;
      toast.hidden = false;
    }
    if (plate) {
      markChinese(tapLabel, plate.text);
      tapLabel.className = `tap-label ${plate.kind}`;
      tapLabel.hidden = false;
    }
    // This frame's layout, done now: it also sees every replayed class off, so putting it back restarts its animation.
    const width = stage.clientWidth, height = stage.clientHeight;
    if (plate) {
      const box = tapLabel.getBoundingClientRect();
      const point = plate.point ?? { x: width / 2, y: height / 2 };
      const { x, y } = labelPosition({ point, box, width, height, below: plate.kind === 'win' || plate.kind === 'lose' });
      tapLabel.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
    }
    for (const [element, className] of replays) element.classList.add(className);
    replays.clear();
    plate = toastNext = null;
  }

  /** Plays the CSS animation that `className` gives `element` again, in the next animation frame. */
  function replay(element, className) {
    replays.set(element, className);
    if (!frame) frame = win.requestAnimationFrame(settle);
  }

  /** Hides `element` and forgets what the next animation frame would have shown on it. */
  function hide(element) {
    replays.delete(element);
    element.hidden = true;
    element.classList.remove('show');
  }

  return {
    /** A toast of `kind` (a class of `.rain-toast`), shown in the next animation frame. */
    toast(text, kind) {
      clearTimeout(toastTimer);
      toastNext = { text, kind };
      replay(toast, 'show');
      toastTimer = setTimeout(() => {
        toastNext = null;
        hide(toast);
      }, TOAST_MS);
    },

    /**
     * The answer to the player's tap on a plate at the tap point, kept inside the stage: below
     * the point for a claimed packet (`win`, `lose`), whose own label the scene floats upwards.
     * Shown in the next animation frame.
     */
    tapLabel(text, kind) {
      clearTimeout(labelTimer);
      plate = { text, kind, point: lastPress };
      replay(tapLabel, 'show');
      labelTimer = setTimeout(() => {
        plate = null;
        hide(tapLabel);
      }, LABEL_MS);
    },

    /** Says `text` to screen readers (the polite live region). */
    announce(text) {
      announcements.push(text);
      announcer.textContent = '';
      // a new text node in a later task is announced even when it repeats the last one
      setTimeout(() => markChinese(announcer, text), 50);
    },

    /** A subtle flash of the stage's edge for a tap that hit nothing. */
    flash() {
      replay(stage, 'missed');
    },

    /** Plays the CSS animation that `className` gives `element` again, in the next animation frame. */
    replay,

    /** A line in the HUD's feed (another player's win). */
    feed(text) {
      clearTimeout(feedTimer);
      markChinese(feed, text);
      feed.classList.add('show');
      feedTimer = setTimeout(() => feed.classList.remove('show'), FEED_MS);
    },

    /** Stops the notices' timers and the waiting animation frame. */
    destroy() {
      win.cancelAnimationFrame(frame);
      clearTimeout(toastTimer);
      clearTimeout(labelTimer);
      clearTimeout(feedTimer);
    },
  };
}
