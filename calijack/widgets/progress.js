// calijack's progress store: the learner's progress, kept in this browser and nowhere else.
//
// One localStorage key holds one versioned JSON document. What the document holds, its
// schema, its limits, how a newer version reads an older one, and every sentence the learner
// reads about it come from Python (calijack/progress/, calijack/text_progress.py):
// calijack.progress.script() puts them in place of the CONFIG mark below. The same file runs
// in the static book (a page script, book/_ext/calijack_progress.py), in the live book's
// Pyodide frame and in Voilà (prepended to the card table's anywidget module), so all three
// read and write the document the same way. It is a plain script (no import/export), so it
// can be either; loaded twice on one page, the first copy stays.
//
// What is in the browser's storage is untrusted: every read is checked against the schema
// (check() is the twin of calijack/schemalite.py; the tests hold them to the same verdicts),
// a document that cannot be read is never written over (only Reset replaces it), and storage
// that is blocked or full only costs a one-line note: the page goes on working, keeping the
// progress of this visit in memory. Nothing here logs to the console or throws to its caller.
//
// API (window.calijackProgress): status(), read(), answerCheck(id, right), puzzleHint(n),
// puzzleReveal(n), puzzlePick(n, right), saveGame(game), finishDeal(entry, game), today(), queueDrill(entry),
// dueDrills(), drillAnswer(id, step), reset(section), resetAll(),
// exportText(), rawText(), parse(text), replace(doc), say(key, fields), starsWords(n),
// reviewRequest(), drillsRequest(), check(value, schema), startSync(url), syncNow(), syncing(). A change fires the window event "calijack-progress"
// (also when another tab of the same site changed the document). The book's pages add the
// watch of their quick checks and puzzles (progress-watch.js, after this script).
(function (root, CONFIG) {
  "use strict";
  if (!CONFIG || root.calijackProgress) return;
  var T = CONFIG.texts;
  var SECTIONS = Object.keys(CONFIG.sections);
  var has = function (obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); };

  function say(key, fields) {
    return T[key].replace(/\{([a-z_]+)\}/g, function (_, name) { return String(fields[name]); });
  }

  function starsWords(stars) {
    return stars <= 0 ? say("stars_0") : stars === 1 ? say("stars_1") : say("stars_n", { stars: stars });
  }

  // -- the schema checker (calijack/schemalite.py's twin) ----------------------------------------
  var NAMES = { object: "an object", array: "a list", string: "a string", integer: "a whole number",
    "boolean": "true or false", "null": "null", number: "a number" };
  var patterns = {};

  function typeOf(v) {
    if (v === null) return "null";
    if (Array.isArray(v)) return "array";
    if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
    return typeof v;
  }
  function chars(s) { return Array.from(s).length; }
  function short(v) {
    var text = typeof v === "string" ? '"' + v + '"' : JSON.stringify(v);
    var all = Array.from(text);
    return all.length <= 40 ? text : all.slice(0, 39).join("") + "\u2026";
  }
  function join(where, key) { return where ? where + " \u2192 " + key : String(key); }
  function SchemaError(where, what) { this.where = where; this.what = what; }
  function depth(error) { return error.where ? error.where.split(" \u2192 ").length : 0; }

  function check(value, schema, where) {
    where = where || "";
    var kind = typeOf(value);
    if (has(schema, "type")) {
      var allowed = typeof schema.type === "string" ? [schema.type] : schema.type;
      if (allowed.indexOf(kind) < 0) {
        throw new SchemaError(where, "must be " + allowed.map(function (t) { return NAMES[t]; }).join(" or "));
      }
    }
    if (has(schema, "enum") && !schema["enum"].some(function (o) { return typeOf(o) === kind && o === value; })) {
      throw new SchemaError(where, "must be one of " + schema["enum"].map(short).join(", "));
    }
    if (has(schema, "anyOf")) {
      var errors = [];
      var passed = schema.anyOf.some(function (option) {
        try { check(value, option, where); return true; } catch (e) { if (!(e instanceof SchemaError)) throw e; errors.push(e); return false; }
      });
      if (!passed) {
        // The option that got furthest into the value says most about what is wrong.
        throw errors.reduce(function (best, e) { return depth(e) > depth(best) ? e : best; });
      }
    }
    if (kind === "object") {
      var keys = Object.keys(value);
      if (has(schema, "maxProperties") && keys.length > schema.maxProperties) {
        throw new SchemaError(where, "may hold at most " + schema.maxProperties + " entries");
      }
      (schema.required || []).forEach(function (key) {
        if (!has(value, key)) throw new SchemaError(where, "has no " + short(key));
      });
      var props = schema.properties || {};
      var extra = has(schema, "additionalProperties") ? schema.additionalProperties : true;
      keys.forEach(function (key) {
        if (schema.propertyNames) check(key, schema.propertyNames, join(where, short(key)));
        if (has(props, key)) check(value[key], props[key], join(where, key));
        else if (extra === false) throw new SchemaError(where, "has an unknown entry " + short(key));
        else if (extra !== true) check(value[key], extra, join(where, key));
      });
    } else if (kind === "array") {
      if (has(schema, "maxItems") && value.length > schema.maxItems) {
        throw new SchemaError(where, "may hold at most " + schema.maxItems + " items");
      }
      if (has(schema, "minItems") && value.length < schema.minItems) {
        throw new SchemaError(where, "must hold at least " + schema.minItems + " items");
      }
      if (schema.items) value.forEach(function (item, k) { check(item, schema.items, join(where, k)); });
    } else if (kind === "string") {
      var n = chars(value);
      if (has(schema, "maxLength") && n > schema.maxLength) {
        throw new SchemaError(where, "may be at most " + schema.maxLength + " characters long");
      }
      if (has(schema, "minLength") && n < schema.minLength) {
        throw new SchemaError(where, "must be at least " + schema.minLength + " characters long");
      }
      if (has(schema, "pattern")) {
        var re = patterns[schema.pattern] || (patterns[schema.pattern] = new RegExp(schema.pattern));
        if (!re.test(value)) throw new SchemaError(where, short(value) + " is not of the expected form");
      }
    } else if (kind === "integer") {
      if (has(schema, "minimum") && value < schema.minimum) throw new SchemaError(where, "must be at least " + schema.minimum);
      if (has(schema, "maximum") && value > schema.maximum) throw new SchemaError(where, "must be at most " + schema.maximum);
    }
  }

  // -- reading a document (calijack.progress.read's twin) -----------------------------------------
  function Unreadable(kind, reason) { this.kind = kind; this.reason = reason; }
  function copy(value) { return JSON.parse(JSON.stringify(value)); }

  function empty() {
    var doc = { format: CONFIG.format, version: CONFIG.version };
    SECTIONS.forEach(function (name) { doc[name] = copy(CONFIG.sections[name].empty); });
    return doc;
  }

  // The document in `text`, checked and brought up to this version; throws Unreadable.
  function parse(text) {
    if (typeof text !== "string") throw new Unreadable("foreign", say("reason_foreign"));
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (!text.trim()) throw new Unreadable("empty", say("reason_empty"));
    if (text.length > CONFIG.maxChars) {
      throw new Unreadable("too_big", say("reason_too_big", { size: text.length.toLocaleString("en-US"),
        limit: CONFIG.maxChars.toLocaleString("en-US") }));
    }
    var data;
    try { data = JSON.parse(text); } catch (e) { throw new Unreadable("not_json", say("reason_not_json")); }
    if (typeOf(data) !== "object" || data.format !== CONFIG.format) throw new Unreadable("foreign", say("reason_foreign"));
    var version = data.version;
    if (typeOf(version) !== "integer" || version < 1) throw new Unreadable("foreign", say("reason_foreign"));
    if (version > CONFIG.version) {
      throw new Unreadable("too_new", say("reason_too_new", { version: version, known: CONFIG.version }));
    }
    try {
      check(data, CONFIG.schemas[String(version)]);
    } catch (e) {
      if (!(e instanceof SchemaError)) throw e;
      throw new Unreadable("schema", e.where ? say("reason_schema", { where: e.where, what: e.what })
        : say("reason_schema_top", { what: e.what }));
    }
    // A newer version only adds sections: an older document gets each of them, empty.
    data.version = CONFIG.version;
    SECTIONS.forEach(function (name) {
      if (CONFIG.sections[name].since > version) data[name] = copy(CONFIG.sections[name].empty);
    });
    return data;
  }

  // -- the store ----------------------------------------------------------------------------------
  var memory = null; // this visit's document when storage cannot keep it
  // The text last read or written, known to be a good document of this version, and that
  // document, owned by the store: a change starts from it without reading the text again.
  var known = { text: null, doc: null };
  var state = { status: "ok", reason: "" };

  // The browser's storage, or null when it refuses this site any (a page may have put a
  // stand-in in its place that keeps nothing: book/_ext/templates/layout.html).
  function storage() {
    try {
      var store = root.localStorage;
      return store && !store.calijackMemoryOnly ? store : null;
    } catch (e) {
      return null;
    }
  }

  function setStatus(status, reason) {
    state = { status: status, reason: reason || "" };
  }

  // {doc, text}: the document as kept (or this visit's copy); status says whether it is kept.
  // `owned`: the caller changes the store's own copy (update), else it gets a copy of its own.
  function load(owned) {
    var store = storage();
    var text = null;
    if (store) {
      try { text = store.getItem(CONFIG.key); } catch (e) { store = null; }
    }
    if (!store) {
      setStatus("blocked");
      return { doc: memory || empty(), text: null };
    }
    if (text === null) {
      if (state.status === "unreadable" || state.status === "blocked") setStatus("ok");
      return { doc: memory && state.status === "full" ? memory : empty(), text: null };
    }
    if (text === known.text) { // checked already
      if (state.status !== "full") setStatus("ok");
      return { doc: owned ? known.doc : JSON.parse(text), text: text };
    }
    try {
      var doc = parse(text);
      // An older version's text is read (brought up to this version) each time, until written.
      known = JSON.parse(text).version === CONFIG.version ? { text: text, doc: doc } : { text: null, doc: null };
      if (state.status !== "full") setStatus("ok");
      return { doc: owned ? doc : copy(doc), text: text };
    } catch (e) {
      if (!(e instanceof Unreadable)) throw e;
      setStatus("unreadable", e.reason);
      return { doc: memory || empty(), text: text, unreadable: true };
    }
  }

  function notify() {
    try { root.dispatchEvent(new CustomEvent("calijack-progress", { detail: status() })); } catch (e) { /* no window */ }
  }

  function size(text) { return text.length; }

  // Change the document with `change(doc)` and keep it. Only `section` is checked again (the rest
  // was checked when read); the oldest kept deals go first if the document would pass its cap.
  // Returns true when the change is kept in storage.
  function update(section, change) {
    var got = load(true);
    known = { text: null, doc: null }; // changed below: read again unless written
    if (got.unreadable) {
      // Never written over: the learner chooses on the progress page. This visit still counts.
      memory = got.doc;
      change(memory);
      notify();
      return false;
    }
    var doc = got.doc;
    change(doc);
    try {
      check(doc[section], CONFIG.schemas[String(CONFIG.version)].properties[section], section);
    } catch (e) {
      if (!(e instanceof SchemaError)) throw e;
      notify();
      return false; // not a document this version writes: nothing is kept
    }
    var text = JSON.stringify(doc);
    while (size(text) > CONFIG.maxChars && doc.deals.length) {
      doc.deals.shift();
      text = JSON.stringify(doc);
    }
    var store = storage();
    if (!store || size(text) > CONFIG.maxChars) {
      memory = doc;
      if (store) setStatus("full");
      notify();
      return false;
    }
    try {
      store.setItem(CONFIG.key, text);
    } catch (e) {
      memory = doc;
      setStatus(e && e.name === "SecurityError" ? "blocked" : "full");
      notify();
      return false;
    }
    memory = null;
    known = { text: text, doc: doc };
    setStatus("ok");
    notify();
    schedulePush();
    return true;
  }

  function status() {
    var note = state.status === "ok" ? (link.paused ? say(link.refused ? "note_sync_reset" : "note_sync_paused") : "")
      : say("note_" + state.status);
    return { status: state.status, reason: state.reason, note: note, syncing: !!link.url, paused: link.paused };
  }

  // -- syncing with the class service (on the class's JupyterHub only) ----------------------------
  // The page is told the service's path on this site (startSync(url), from the lesson's table,
  // which Python gives it when the hub set CALIJACK_CLASS_URL). A hidden frame opens the service's
  // "sync" page: the hub signs the learner in to the service there (its OAuth, the hub's cookie),
  // and that page's body holds the XSRF token every call carries. Who the learner is, the service
  // learns from the hub, never from here. Each call sends the whole document; the service merges
  // it with its copy (calijack.progress.merge) and answers the merge, which this browser keeps
  // unless the learner changed something meanwhile (then the next call carries that too). At
  // most one call each CONFIG.syncSeconds; a failed call pauses syncing (one line says so) until
  // the next save. Nothing here blocks the page: progress is kept in this browser first.
  // refused: the service's last answer was 409 (this browser's copy is older than the learner's
  // reset on another device), said in the note until a call succeeds.
  var link = { url: null, xsrf: null, timer: null, busy: false, paused: false, refused: false, last: 0, ready: null,
    again: false };

  function call(method, body, keepalive) {
    var headers = { "X-XSRFToken": link.xsrf };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    return root.fetch(link.url + "api/progress", { method: method, headers: headers, body: body,
      credentials: "same-origin", cache: "no-store", keepalive: !!keepalive }).then(function (answer) {
      if (!answer.ok) throw new Error(String(answer.status));
      return answer.status === 204 ? null : answer.json();
    });
  }

  function pause(paused) {
    if (link.paused !== paused) { link.paused = paused; notify(); }
  }

  function push() {
    link.timer = null;
    if (!link.xsrf) return Promise.resolve();
    if (link.busy) { link.again = true; return Promise.resolve(); }
    var got = load();
    if (got.unreadable) return Promise.resolve(); // never sent, never written over
    var sent = JSON.stringify(got.doc);
    link.busy = true;
    link.last = Date.now();
    return call("PUT", sent).then(function (answer) {
      link.busy = false;
      link.refused = false;
      pause(false);
      var now = load();
      if (answer && answer.document && JSON.stringify(now.doc) === sent) {
        var merged = JSON.stringify(answer.document);
        if (merged !== sent) {
          var checked = api.parse(merged);
          if (checked.doc) api.replace(checked.doc);
        }
      } else {
        link.again = true;
      }
      if (link.again) { link.again = false; schedulePush(); }
    }, function (error) {
      // Signed out of the service (it restarted, or the hub's sign-in ended) or out of reach:
      // the next save opens the sync page again before it sends. Refused as older than a reset
      // (409): the note says so, and what to do.
      link.busy = false;
      link.xsrf = null;
      var refused = !!error && error.message === "409";
      if (refused !== link.refused) { link.refused = refused; if (link.paused) notify(); }
      pause(true);
    });
  }

  function schedulePush() {
    if (!link.url || link.timer) return;
    var wait = Math.max(0, link.last + CONFIG.syncSeconds * 1000 - Date.now());
    link.timer = setTimeout(function () {
      if (link.xsrf) push();
      else connect();
    }, wait);
  }

  // Open the service's sync page in a hidden frame; resolves when the first sync is over.
  function connect() {
    link.timer = null;
    return new Promise(function (done) {
      var doc = root.document;
      var old = doc.getElementById("cj-class-sync");
      if (old) old.remove();
      var frame = doc.createElement("iframe");
      frame.id = "cj-class-sync";
      frame.hidden = true;
      frame.tabIndex = -1;
      frame.setAttribute("aria-hidden", "true");
      frame.title = "";
      frame.addEventListener("load", function () {
        var token = null;
        try { token = frame.contentDocument.body.dataset.xsrf || null; } catch (e) { token = null; }
        link.xsrf = token;
        if (!token) { pause(true); done(); return; }
        push().then(done, done);
      });
      frame.src = link.url + "sync";
      doc.body.appendChild(frame);
    });
  }

  // Send now (not waiting for the next save's turn); resolves to true once the service holds
  // what this browser holds, false if it could not be sent.
  function syncNow() {
    if (!link.url) return Promise.resolve(false);
    if (link.timer) { clearTimeout(link.timer); link.timer = null; }
    var wait = link.busy ? new Promise(function (next) {
      var poll = setInterval(function () { if (!link.busy) { clearInterval(poll); next(); } }, 100);
    }) : Promise.resolve();
    return wait.then(function () { return link.xsrf ? push() : connect(); })
      .then(function () { return !link.paused && !!link.xsrf; });
  }

  function startSync(url) {
    if (link.ready) return link.ready;
    // Only a path of this site: "/services/NAME/".
    if (typeof url !== "string" || !/^\/[A-Za-z0-9._~\/-]*\/$/.test(url) || url.indexOf("//") >= 0 || !root.fetch) {
      return Promise.resolve();
    }
    link.url = url;
    link.ready = connect();
    // Leaving the page with a call still waiting for its turn: it goes now (the browser finishes
    // it after the page is gone; the body is far under keepalive's limit only for small
    // documents, so a large one waits for the next visit).
    root.addEventListener && root.addEventListener("pagehide", function () {
      if (!link.timer || !link.xsrf) return;
      clearTimeout(link.timer);
      link.timer = null;
      var got = load();
      if (!got.unreadable) call("PUT", JSON.stringify(got.doc), true).catch(function () { /* next visit */ });
    });
    return link.ready;
  }

  // The clock. window.calijackClock is a TEST HOOK, not a setting: a test may set it to a
  // function giving the time in milliseconds (to see tomorrow's due drills today); the learner's
  // pages never set it.
  function clock() {
    var hook = root.calijackClock;
    var ms = typeof hook === "function" ? Number(hook()) : NaN;
    return isFinite(ms) ? new Date(ms) : new Date();
  }
  // A parameter of the top page of this site's address, or null.
  function request(name) {
    try {
      var top = root;
      while (top.parent && top.parent !== top) top = top.parent;
      return new URLSearchParams(top.location.search).get(name);
    } catch (e) {
      return null; // a page of another site around this one
    }
  }

  function now() { return clock().toISOString().replace(/\.\d+Z$/, "Z"); }
  // A local date (the learner's today), `days` after today, as "YYYY-MM-DD".
  function day(days) {
    var d = clock();
    d.setDate(d.getDate() + (days || 0));
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate());
  }

  var api = {
    config: CONFIG,
    say: say,
    starsWords: starsWords,
    opponentLabel: function (name) { return has(CONFIG.opponents || {}, name) ? CONFIG.opponents[name] : name; },
    check: function (value, schema) {
      try { check(value, schema); return null; } catch (e) {
        if (e instanceof SchemaError) return { where: e.where, what: e.what };
        throw e;
      }
    },
    empty: empty,
    parse: function (text) {
      try { return { doc: parse(text) }; } catch (e) {
        if (e instanceof Unreadable) return { kind: e.kind, reason: e.reason };
        throw e;
      }
    },
    status: function () { load(); return status(); },
    read: function () { return load().doc; },
    rawText: function () { return load().text; },
    exportText: function () { return JSON.stringify(load().doc, null, 1); },
    answerCheck: function (id, right) {
      return update("checks", function (doc) {
        var entry = doc.checks[id];
        if (!entry) doc.checks[id] = { first: !!right, solved: !!right };
        else if (right) entry.solved = true;
      });
    },
    puzzleHint: function (number) {
      return update("puzzles", function (doc) {
        var key = String(number);
        doc.puzzles[key] = doc.puzzles[key] || { best: 0, tries: 0, hint: false };
        doc.puzzles[key].hint = true;
      });
    },
    // The written-out answer of puzzle `number` was opened: solved after that earns 1 star.
    puzzleReveal: function (number) {
      return update("puzzles", function (doc) {
        var key = String(number);
        var entry = doc.puzzles[key] = doc.puzzles[key] || { best: 0, tries: 0, hint: false };
        entry.tries = Math.max(entry.tries, 2);
      });
    },
    // A pick in puzzle `number`: the stars it earns (0 while not solved). 3 stars for the first
    // try with no hint, 2 for a second try or a hint, 1 for solved later; the best is kept.
    puzzlePick: function (number, right) {
      var stars = 0;
      update("puzzles", function (doc) {
        var key = String(number);
        var entry = doc.puzzles[key] = doc.puzzles[key] || { best: 0, tries: 0, hint: false };
        if (!right) {
          entry.tries = Math.min(entry.tries + 1, 1000);
          return;
        }
        var tryNumber = entry.tries + 1;
        stars = tryNumber === 1 && !entry.hint ? 3 : tryNumber <= 2 ? 2 : 1;
        entry.best = Math.max(entry.best, stars);
        entry.tries = 0;
        entry.hint = false;
      });
      return stars;
    },
    saveGame: function (game) {
      return update("game", function (doc) {
        doc.game = game ? Object.assign({}, game, { saved: now() }) : null;
      });
    },
    // A finished deal: kept as a record (the same deal again replaces its entry: undo after the
    // end, then play it out differently), counted in its opponent's totals, and the game after it.
    finishDeal: function (entry, game) {
      var kept = update("deals", function (doc) {
        var add = function (e, sign) {
          var totals = doc.opponents[e.opponent] = doc.opponents[e.opponent] ||
            { deals: 0, "for": 0, against: 0, won: 0, lost: 0 };
          var mine = e.points[e.seat] || 0;
          var theirs = e.points.reduce(function (sum, p) { return sum + p; }, 0) - mine;
          totals.deals += sign;
          totals["for"] += sign * mine;
          totals.against += sign * theirs;
          if (e.match === "won") totals.won += sign;
          if (e.match === "lost") totals.lost += sign;
        };
        var before = doc.deals.filter(function (d) { return d.id === entry.id; })[0];
        if (before) {
          add(before, -1);
          doc.deals = doc.deals.filter(function (d) { return d !== before; });
        }
        var fresh = Object.assign({}, entry, { when: now() });
        add(fresh, 1);
        doc.deals.push(fresh);
        while (doc.deals.length > CONFIG.keptDeals) doc.deals.shift();
        doc.game = game ? Object.assign({}, game, { saved: now() }) : null;
      });
      return kept;
    },
    // The practice queue (calijack.progress.DRILL_DAYS): a mistake missed again is due tomorrow,
    // at the first step (the same mistake again replaces its entry, moved to the end); past the
    // cap, the front entry (longest not missed) goes.
    today: function () { return day(0); },
    queueDrill: function (entry) {
      return update("drills", function (doc) {
        doc.drills = doc.drills.filter(function (d) { return d.id !== entry.id; });
        doc.drills.push(Object.assign({}, entry, { step: 0, due: day(CONFIG.drillDays[0]) }));
        while (doc.drills.length > CONFIG.keptDrills) doc.drills.shift();
      });
    },
    // The queued mistakes due today (or before), in queue order.
    dueDrills: function () {
      var today = day(0);
      return load().doc.drills.filter(function (d) { return d.due <= today; });
    },
    // A queued mistake answered: it goes to `step` (Python's calijack.retry.next_step says which)
    // and is due again that step's days from today.
    drillAnswer: function (id, step) {
      step = Math.max(0, Math.min(CONFIG.drillDays.length - 1, Math.floor(Number(step)) || 0));
      return update("drills", function (doc) {
        doc.drills.forEach(function (d) {
          if (d.id !== id) return;
          d.step = step;
          d.due = day(CONFIG.drillDays[step]);
        });
      });
    },
    reset: function (section) {
      return update(section, function (doc) { doc[section] = copy(CONFIG.sections[section].empty); });
    },
    // Everything cleared: also what could not be read (the one way to write over it).
    resetAll: function () {
      memory = null;
      known = { text: null, doc: null };
      var store = storage();
      try { if (store) store.removeItem(CONFIG.key); } catch (e) { /* blocked: nothing was kept */ }
      setStatus(store ? "ok" : "blocked");
      notify();
      if (link.url && link.xsrf) call("DELETE").then(function () { pause(false); }, function () { pause(true); });
      return !!store;
    },
    // On the class's hub: keep this browser's progress in step with the class service at `url`.
    startSync: startSync,
    syncNow: syncNow,
    // On the class's hub: the line with the link to the learner's own page of the class service
    // (their row and their Reset), under a lesson's note or the table. `url` is the service's
    // path given to startSync.
    meLine: function (url) {
      var line = root.document.createElement("p");
      var a = root.document.createElement("a");
      line.className = "cj-class-me-line";
      a.className = "cj-class-me";
      a.href = url + "me";
      a.textContent = say("class_me");
      line.appendChild(a);
      return line;
    },
    syncing: function () { return !!link.url; },
    // Replace the whole document with `doc` (a checked one: parse()'s), as Load progress does.
    replace: function (doc) {
      memory = null;
      var store = storage();
      var text = JSON.stringify(doc);
      try {
        if (!store) throw new Error("blocked");
        store.setItem(CONFIG.key, text);
      } catch (e) {
        memory = doc;
        setStatus(store ? "full" : "blocked");
        notify();
        return false;
      }
      known = { text: text, doc: copy(doc) };
      setStatus("ok");
      notify();
      return true;
    },
    // The deal the page was asked to review (?review=ID on the top page of this site), or null.
    reviewRequest: function () { return request("review"); },
    // True when the page was asked to practise the queued mistakes due today (?drills=due).
    drillsRequest: function () { return request("drills") === "due"; },
  };
  root.calijackProgress = api;
  root.addEventListener && root.addEventListener("storage", function (event) {
    if (event.key === null || event.key === CONFIG.key) notify();
  });

})(typeof globalThis !== "undefined" ? globalThis : window, /*CONFIG*/ null);
