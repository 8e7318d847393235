// calijack: the book's service worker, generated with Workbox (workbox-build's generateSW).
//
//   node build_sw.mjs CONFIG.json
//
// book/_ext/calijack_offline.py writes CONFIG.json and runs this script from the folder where
// `npm ci` installed this folder's package-lock.json (so that `workbox-build` resolves). It
// prints one JSON line: the number of files precached, their bytes, and Workbox's warnings.
//
// CONFIG: {site, live_cache, extra_script}
//   site         the built book's folder; sw.js is written there
//   live_cache   the Cache Storage name of this build's live runtime (lite/)
//   extra_script the script sw.js imports after Workbox's own (calijack-sw-extra.js)
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateSW } from "workbox-build";

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));

// Workbox's list of the book's files, as its install fetches them: written into the extra
// script (its marker __BOOK_FILES__), which fetches them several at a time (sw-extra.js).
let bookFiles = null;
const { count, size, warnings } = await generateSW({
  globDirectory: config.site,
  // The book: every page, its scripts, styles, fonts, pictures and widget states.
  globPatterns: ["**/*.{html,js,css,json,svg,png,ico,woff2,webmanifest}"],
  // Not the live site (kept once the reader plays live: see runtimeCaching), not the sources
  // and inventories a reader never opens, not precompressed twins, not the worker itself.
  globIgnores: ["lite/**", "_sources/**", "**/*.br", "**/*.gz", "**/*.map", "sw.js",
                config.extra_script, "workbox-*.js", "_static/locales/**"],
  manifestTransforms: [(entries) => {
    bookFiles = entries.map((entry) => [entry.url, entry.revision || null]);
    return { manifest: entries, warnings: [] };
  }],
  swDest: join(config.site, "sw.js"),
  // The widget states of the largest chapters weigh up to ~2 MB (they compress tenfold).
  maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
  // Pages name their styles and scripts with ?digest=… or ?v=…; the file is the same.
  ignoreURLParametersMatching: [/.*/],
  // Webpack's and JupyterLite's hashed names (…/1551f4f60c37af51121f.woff2) never change.
  dontCacheBustURLsMatching: /[.-][0-9a-f]{16,}\./,
  directoryIndex: "index.html",
  cleanupOutdatedCaches: true,
  // A new build waits until the reader says "Reload" (calijack-offline.js): no page ever
  // mixes two builds. The first one takes the open page at once, so a first "Play live"
  // is already kept for offline.
  skipWaiting: false,
  clientsClaim: true,
  inlineWorkboxRuntime: true,
  sourcemap: false,
  mode: "production",
  importScripts: [config.extra_script],
  runtimeCaching: [{
    // The live runtime (the live page, the kernel's worker, Pyodide, the wheels): each file as it is
    // first fetched, into this build's own cache; the query (the lesson's code, ?_=…) does
    // not change a file within one build.
    urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.includes("/lite/"),
    handler: "CacheFirst",
    options: {
      cacheName: config.live_cache,
      matchOptions: { ignoreSearch: true },
      cacheableResponse: { statuses: [200] },
    },
  }],
});
const extraPath = join(config.site, config.extra_script);
const extra = readFileSync(extraPath, "utf8");
if (!extra.includes("__BOOK_FILES__") || !bookFiles) {
  throw new Error(`${config.extra_script} has no __BOOK_FILES__, or Workbox listed no file`);
}
writeFileSync(extraPath, extra.replace("__BOOK_FILES__", JSON.stringify(bookFiles)));
console.log(JSON.stringify({ count, size, warnings }));
