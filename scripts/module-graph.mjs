#!/usr/bin/env node
// The static import graph of a page of public/, for its <link rel="modulepreload"> list
// (Tests/js/modulepreload.test.mjs checks every page against it).
// Usage: node scripts/module-graph.mjs public/scene.html   → prints the page's link lines.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const IMPORT = /^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;

/** The relative specifiers a module imports statically (import … from, export … from, import '…'). */
export function imports(source) {
  return [...source.matchAll(IMPORT)].map((match) => match[1] ?? match[2]).filter((spec) => spec.startsWith('.'));
}

/** The entry modules of an HTML page: its <script type="module" src="…">, relative to its directory. */
export function entries(html) {
  return [...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]);
}

/** The hrefs of an HTML page's <link rel="modulepreload">. */
export function preloads(html) {
  return [...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)].map((match) => match[1]);
}

/**
 * Every module `page` (a path under `root`) loads besides its entries, transitively, as paths
 * relative to the page's directory, in depth-first order of first import.
 */
export function moduleGraph(page) {
  const base = dirname(resolve(page));
  const html = readFileSync(page, 'utf8');
  const starts = entries(html).map((src) => resolve(base, src));
  const seen = new Set(starts);
  const order = [];
  const visit = (file) => {
    for (const spec of imports(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), spec);
      if (seen.has(target)) continue;
      seen.add(target);
      order.push(target);
      visit(target);
    }
  };
  starts.forEach(visit);
  return order.map((file) => relative(base, file).split('\\').join('/'));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const page of process.argv.slice(2)) {
    for (const href of moduleGraph(page)) console.log(`  <link rel="modulepreload" href="${href}">`);
  }
}
