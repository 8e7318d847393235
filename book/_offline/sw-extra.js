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

// Storing the book: Workbox's install fetches the book's files one after another, each a
// round trip of its own (on a phone, most of the time). Here they come LANES at a time, the
// pages the reader has open first, and Workbox's own fetch of each is handed the response
// already on its way. BOOK_FILES is Workbox's list (build_sw.mjs writes it in):
// [url, revision or null], as Workbox fetches them (a file with a revision bypasses the
// browser's cache).
//
// While "Play live" starts, the book's store waits: the page says CALIJACK_LIVE_STARTING when
// the reader presses it and CALIJACK_LIVE_DONE once the first card can be played (or the
// start failed); the files already on their way finish, the next wait. So the live start has
// the link to itself. A page that went away meanwhile holds it HOLD_MAX_MS at most.
const BOOK_FILES = __BOOK_FILES__;
const LANES = 4;
const HOLD_MAX_MS = 120000;
const networkFetch = self.fetch.bind(self);
const bookFiles = new Map(BOOK_FILES.map(([url, revision]) => [new URL(url, self.location.href).href, revision]));
const onTheirWay = new Map(); // url -> the response's promise, until Workbox asks for it
let held = null; // {promise, open, timer} while a live start holds the store

function hold() {
  if (held) return;
  let open;
  const promise = new Promise((resolve) => { open = resolve; });
  held = { promise, open, timer: setTimeout(release, HOLD_MAX_MS) };
}

function release() {
  if (!held) return;
  const { open, timer } = held;
  held = null;
  clearTimeout(timer);
  open();
}

async function whenFree() {
  while (held) await held.promise;
}

function fetchBookFile(url) {
  const revision = bookFiles.get(url);
  // Read whole at once: a response Workbox takes later must not hold a connection meanwhile.
  const promise = whenFree().then(() => networkFetch(new Request(url, {
    cache: revision ? "reload" : "default", credentials: "same-origin" }))).then((response) => (
    response.ok ? response.blob().then((body) => new Response(body, {
      status: response.status, statusText: response.statusText, headers: response.headers })) : response));
  onTheirWay.set(url, promise);
  promise.catch(() => {}); // Workbox's own fetch of it reports the failure
  return promise;
}

// Workbox's fetches (and any other of this worker): a file of the book is taken from the
// lanes, or fetched once the link is free.
self.fetch = function (input, init) {
  const url = typeof input === "string" ? new URL(input, self.location.href).href : input.url;
  if (!bookFiles.has(url)) return networkFetch(input, init);
  const started = onTheirWay.get(url);
  if (started) {
    onTheirWay.set(url, null); // taken: a later fetch of it (a new install) goes to the network
    return started;
  }
  if (started === null) return whenFree().then(() => networkFetch(input, init));
  onTheirWay.set(url, null);
  return whenFree().then(() => networkFetch(input, init));
};

self.addEventListener("install", (event) => {
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
    const pages = new Set(open.map((client) => client.url.split("#")[0].split("?")[0]));
    const queue = [...bookFiles.keys()].sort((a, b) => pages.has(b) - pages.has(a));
    const lane = async () => {
      for (let url = queue.shift(); url; url = queue.shift()) {
        if (onTheirWay.has(url)) continue; // Workbox asked for it first
        try {
          await fetchBookFile(url);
        } catch (error) {
          return; // Workbox's own fetch of it fails the install
        }
      }
    };
    // Not waited for: Workbox's install waits for each file it takes from the lanes.
    for (let i = 0; i < LANES; i++) lane();
  }));
});

self.addEventListener("message", (event) => {
  const type = event.data && event.data.type;
  if (type === "CALIJACK_LIVE_STARTING") hold();
  else if (type === "CALIJACK_LIVE_DONE") release();
});
