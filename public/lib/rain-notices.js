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
 * Nothing here lays the page out in the middle of a task: words and classes change at once, and
 * what needs a layout (the plate's size, an animation started again) waits for the next animation
 * frame, which reads every size it needs in the one layout that frame does anyway, then places
 * the plate and puts the animations' classes back (`replay`).
 */
export function createNotices({ stage, toast, tapLabel, announcer, feed }, { announcements }) {
  let toastTimer = 0;
  let labelTimer = 0;
  let feedTimer = 0;
  /** Where the player last pressed on the stage (stage CSS pixels), for the tap answer. */
  let lastPress = null;
  /** The plate to place in the next animation frame: `{point, below}`, or null. */
  let placing = null;
  /** Element → the class whose animation plays again in the next animation frame. */
  const replays = new Map();
  let frame = 0;
  const win = stage.ownerDocument.defaultView;

  stage.addEventListener('pointerdown', (event) => {
    // The browser has just laid the page out to find the pointer's target: reading it is free.
    const rect = stage.getBoundingClientRect();
    lastPress = { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }, { capture: true });

  /** Reads every size in one layout, places the plate, and starts the waiting animations. */
  function settle() {
    frame = 0;
    const width = stage.clientWidth, height = stage.clientHeight;
    if (placing) {
      const box = tapLabel.getBoundingClientRect();
      const point = placing.point ?? { x: width / 2, y: height / 2 };
      const { x, y } = labelPosition({ point, box, width, height, below: placing.below });
      tapLabel.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
      placing = null;
    }
    for (const [element, className] of replays) element.classList.add(className);
    replays.clear();
  }

  /**
   * Plays the CSS animation that `className` gives `element` again: the class comes off now and
   * back on in the next animation frame, after that frame's layout has seen it off.
   */
  function replay(element, className) {
    element.classList.remove(className);
    replays.set(element, className);
    if (!frame) frame = win.requestAnimationFrame(settle);
  }

  /** Takes `className` off `element` and forgets its pending replay. */
  function still(element, className) {
    replays.delete(element);
    element.classList.remove(className);
  }

  return {
    /** A toast of `kind` (a class of `.rain-toast`). */
    toast(text, kind) {
      clearTimeout(toastTimer);
      markChinese(toast, text);
      toast.className = `rain-toast ${kind}`;
      toast.hidden = false;
      replay(toast, 'show');
      toastTimer = setTimeout(() => {
        toast.hidden = true;
        still(toast, 'show');
      }, TOAST_MS);
    },

    /**
     * The answer to the player's tap on a plate at the tap point, kept inside the stage: below
     * the point for a claimed packet (`win`, `lose`), whose own label the scene floats upwards.
     * The words are there at once; the plate is placed in the next animation frame.
     */
    tapLabel(text, kind) {
      clearTimeout(labelTimer);
      markChinese(tapLabel, text);
      tapLabel.className = `tap-label ${kind}`;
      tapLabel.hidden = false;
      placing = { point: lastPress, below: kind === 'win' || kind === 'lose' };
      replay(tapLabel, 'show');
      labelTimer = setTimeout(() => {
        tapLabel.hidden = true;
        still(tapLabel, 'show');
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
