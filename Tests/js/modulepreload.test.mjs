// What the pages announce in their heads (issue 36): each page's <link rel="modulepreload"> list
// is its whole static import graph (scripts/module-graph.mjs prints it), each preloads the faces
// of fonts/layercast-sans.css at the URLs the style sheet uses, and every `?v=` in public/ is the
// version the server gives the file it names (FNV-1a 64 of its bytes), so such a URL may be
// cached for a year.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { moduleGraph, preloads } from '../../scripts/module-graph.mjs';

const PUBLIC = resolve(dirname(fileURLToPath(import.meta.url)), '../../public');
const PAGES = readdirSync(PUBLIC).filter((name) => name.endsWith('.html'));

/** FNV-1a 64 of `bytes` as 16 hex digits (Sources/LayercastServer/FNV1a.swift). */
function fnv1a64(bytes) {
  let hash = 0xcbf29ce484222325n;
  for (const byte of bytes) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(16).padStart(16, '0');
}

/** Every file under `directory`, recursively. */
function files(directory) {
  return readdirSync(directory, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? files(join(directory, entry.name)) : [join(directory, entry.name)]));
}

test('every page is listed', () => {
  assert.deepEqual(PAGES.sort(), ['embed-demo.html', 'embed.html', 'index.html', 'rain.html', 'scene.html']);
});

for (const page of PAGES) {
  test(`${page} preloads exactly the modules it imports`, () => {
    const html = readFileSync(join(PUBLIC, page), 'utf8');
    const listed = preloads(html);
    assert.equal(new Set(listed).size, listed.length, 'a module is listed twice');
    assert.deepEqual([...listed].sort(), moduleGraph(join(PUBLIC, page)).sort(),
      `run: node scripts/module-graph.mjs public/${page}`);
  });

  test(`${page} preloads the shipped faces at the style sheet's URLs`, () => {
    const html = readFileSync(join(PUBLIC, page), 'utf8');
    const css = readFileSync(join(PUBLIC, 'fonts/layercast-sans.css'), 'utf8');
    const faces = [...css.matchAll(/url\("([^"]+)"\)/g)].map((match) => `fonts/${match[1]}`);
    const preloaded = [...html.matchAll(/<link rel="preload" href="([^"]+)" as="font" type="font\/woff2" crossorigin>/g)]
      .map((match) => match[1]);
    assert.deepEqual(preloaded.sort(), faces.sort());
  });
}

test('every ?v= in public/ is the version of the file it names', () => {
  let seen = 0;
  for (const file of files(PUBLIC).filter((name) => /\.(html|css|js)$/.test(name))) {
    for (const [, path, version] of readFileSync(file, 'utf8').matchAll(/([\w./-]+)\?v=(\w+)/g)) {
      assert.equal(version, fnv1a64(readFileSync(resolve(dirname(file), path))), `${file}: ${path}`);
      seen += 1;
    }
  }
  assert.ok(seen >= 2 + 2 * PAGES.length, `only ${seen} versioned URLs`);
});
