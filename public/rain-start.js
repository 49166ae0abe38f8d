/** rain.html's entry: starts the rain page (rain.js) in this document. */
import { createRainPage } from './rain.js';

createRainPage(document);
