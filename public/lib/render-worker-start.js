/**
 * Starts the render worker while the page's other modules are still loading
 * (`WorkerRenderer.startEarly`), so that the worker's own start, its thread and a round trip for
 * its script, overlaps them; the view takes it when it mounts. A page loads this as
 * `<script type="module" async src="lib/render-worker-start.js">` beside its own module; without
 * it the view starts its worker when it mounts. `?renderer=main` starts none (`WorkerRenderer.wanted`).
 */
import { WorkerRenderer } from './worker-renderer.js';

WorkerRenderer.startEarly();
