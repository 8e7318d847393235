// calijack: what the book's service worker adds to Workbox's (sw.js imports this file; book/_ext/
// calijack_offline.py fills in the two names).
// - When a new build's worker takes over, the live runtime an older build kept (Workbox's
//   runtime cache "calijack-live-…") and the started Python an older build kept
//   (lite/kernel/python.mjs: "calijack-python-…") are deleted with the older build's pages
//   (Workbox deletes those itself): no reader runs two builds at once.
// - After a "Play live", the page asks to keep a few more files of the live app (its fonts:
//   another lesson may need them where this one did not). Only this site's lite/ files are
//   taken, each once.
const KEEP = ["__LIVE_CACHE__", "__PYTHON_CACHE__"];
const OURS = /^calijack-(live|python)-/;

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((name) => OURS.test(name) && !KEEP.includes(name))
    .map((name) => caches.delete(name)))));
});

self.addEventListener("message", (event) => {
  const data = event.data;
  if (!data || data.type !== "CALIJACK_KEEP_LIVE" || !Array.isArray(data.urls)) return;
  const urls = data.urls.map((url) => {
    try {
      return new URL(String(url), self.location.href);
    } catch (error) {
      return null;
    }
  }).filter((url) => url && url.origin === self.location.origin && url.pathname.includes("/lite/"));
  event.waitUntil(caches.open(KEEP[0]).then(async (cache) => {
    for (const url of urls) {
      if (!(await cache.match(url.href, { ignoreSearch: true }))) await cache.add(url.href);
    }
  }).catch((error) => console.warn("calijack: could not keep the live app for offline use: " + error)));
});
