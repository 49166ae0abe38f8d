/** A minimal named-event emitter. */
export class Emitter {
  constructor() {
    /** @type {Map<string, Set<Function>>} */
    this.listeners = new Map();
  }

  /**
   * Calls `fn(detail)` for every later `emit(name, detail)`.
   * @returns {() => void} a function that removes this listener.
   */
  on(name, fn) {
    if (!this.listeners.has(name)) this.listeners.set(name, new Set());
    const set = this.listeners.get(name);
    set.add(fn);
    return () => set.delete(fn);
  }

  /** Calls the listeners of `name`; a listener that throws is reported and does not stop the others. */
  emit(name, detail) {
    const set = this.listeners.get(name);
    if (!set?.size) return;
    for (const fn of [...set]) {
      try {
        fn(detail);
      } catch (error) {
        setTimeout(() => {
          throw error; // reported as uncaught, without stopping the emitter
        });
      }
    }
  }

  /** Removes every listener. */
  clear() {
    this.listeners.clear();
  }
}
