// calijack: the "Your progress" page (book/progress.md), drawn in the browser with no Python.
//
// Reads the progress store (window.calijackProgress, calijack/widgets/progress.js, loaded on
// every page before this script) and the list of what the book holds (the quick checks of
// each chapter, every puzzle: _static/calijack-progress-book.json, written by the build), and
// draws: quick checks per chapter, puzzle stars, the mistakes to practise (queued, due today),
// results per opponent, the past deals (each
// with Download record and Review), the unfinished game, and Download my progress / Load
// progress / Reset (a section, or all), each change after a confirmation. Every sentence is
// the store's (calijack/text_progress.py). Drawn again whenever the document changes (here or
// in another tab). Nothing is sent anywhere.
(function () {
  "use strict";
  var script = document.currentScript;
  var store = window.calijackProgress;
  var app = document.getElementById("cj-progress");
  if (!script || !store || !app) return;
  var say = store.say;
  var ROOT = script.getAttribute("data-cj-root") || "./";
  var manifest = { chapters: [], puzzles: [], puzzles_page: "", sandbox: "" };
  var SECTION_HEADS = { checks: "head_checks", puzzles: "head_puzzles", opponents: "head_opponents",
    deals: "head_deals", game: "head_game", drills: "head_drills", people: "head_people" };

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key];
      else if (key === "className") node.className = attrs[key];
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) { if (child) node.append(child); });
    return node;
  }

  function button(label, cls, onClick) {
    var b = el("button", { type: "button", className: "cj-action " + (cls || ""), text: label });
    b.addEventListener("click", onClick);
    return b;
  }

  // A file the browser saves: made when asked for, so it holds what is kept at that moment.
  function download(name, text) {
    var url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    var link = el("a", { href: url, download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
  }

  function today() { return new Date().toISOString().slice(0, 10); }

  function when(iso) {
    var date = new Date(iso);
    if (isNaN(date.getTime())) return iso;
    return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  }

  // -- the confirmation: a modal dialog, Cancel first --------------------------------------------
  var dialog = el("dialog", { className: "cj-confirm", "aria-labelledby": "cj-confirm-text" });
  var question = el("p", { id: "cj-confirm-text" });
  var yes = el("button", { type: "button", className: "cj-action cj-danger cj-confirm-yes" });
  var no = el("button", { type: "button", className: "cj-action cj-confirm-no", text: say("confirm_no", {}) });
  dialog.append(question, el("div", { className: "cj-confirm-buttons" }, [no, yes]));
  var onYes = null;
  var returnTo = null;
  no.addEventListener("click", function () { dialog.close(); });
  yes.addEventListener("click", function () { var act = onYes; dialog.close(); if (act) act(); });
  dialog.addEventListener("close", function () {
    onYes = null;
    if (returnTo && returnTo.isConnected) returnTo.focus();
  });

  function confirm(text, yesLabel, action) {
    question.textContent = text;
    yes.textContent = yesLabel;
    onYes = action;
    returnTo = document.activeElement;
    dialog.showModal();
    no.focus();
  }

  // -- what the page says after an action --------------------------------------------------------
  var told = el("p", { className: "cj-progress-told", role: "status", "aria-live": "polite" });
  function tell(text) {
    told.textContent = "";
    setTimeout(function () { told.textContent = text; }, 30);
  }

  // -- the sections ---------------------------------------------------------------------------------
  function section(name, body) {
    var id = "cj-progress-" + name;
    var head = say(SECTION_HEADS[name], {});
    var reset = button(say("reset_section", { section: head }), "cj-reset-" + name, function () {
      confirm(say("confirm_section", { section: head }), say("confirm_yes_reset", {}), function () {
        if (store.reset(name)) tell(say("done_section", { section: head }));
        else tell(say("not_kept", { note: store.status().note }));
      });
    });
    return el("section", { className: "cj-progress-section", "data-section": name, "aria-labelledby": id },
      [el("h2", { id: id, text: head })].concat(body, [el("div", { className: "cj-progress-actions" }, [reset])]));
  }

  function checksPart(doc) {
    var answered = {};
    Object.keys(doc.checks).forEach(function (id) {
      var page = id.split("#")[0];
      var entry = answered[page] = answered[page] || { answered: 0, first: 0 };
      entry.answered += 1;
      if (doc.checks[id].first) entry.first += 1;
    });
    var rows = manifest.chapters.map(function (chapter) {
      var got = answered[chapter.page] || { answered: 0, first: 0 };
      return el("li", { "data-page": chapter.page }, [
        el("a", { href: ROOT + chapter.url, text: chapter.title }), ": ",
        el("span", { className: "cj-progress-count", text: say("checks_row",
          { answered: Math.min(got.answered, chapter.checks), total: chapter.checks, first: got.first }) })]);
    });
    var none = Object.keys(doc.checks).length ? null : el("p", { text: say("checks_none", {}) });
    return section("checks", [none, el("ul", { className: "cj-progress-list" }, rows)]);
  }

  function stars(n) {
    return el("span", { className: "cj-stars", "data-stars": String(n) }, [
      el("span", { "aria-hidden": "true", text: "\u2605\u2605\u2605".slice(0, n) + "\u2606\u2606\u2606".slice(0, 3 - n) }),
      el("span", { className: "cj-sr-only", text: store.starsWords(n) })]);
  }

  function puzzlesPart(doc) {
    var solved = 0, total = 0;
    var groups = {};
    manifest.puzzles.forEach(function (p) {
      var best = (doc.puzzles[String(p.number)] || {}).best || 0;
      solved += best > 0 ? 1 : 0;
      total += best;
      (groups[p.stage] = groups[p.stage] || []).push(el("li", { "data-puzzle": String(p.number) }, [
        el("a", { href: ROOT + manifest.puzzles_page, text: say("puzzle_label", { number: p.number }) }), " ",
        stars(best)]));
    });
    var parts = [el("p", { className: "cj-progress-count", text: say("puzzles_summary",
      { solved: solved, total: manifest.puzzles.length, stars: total, most: 3 * manifest.puzzles.length }) })];
    Object.keys(store.config.stages).forEach(function (stage) {
      if (!groups[stage]) return;
      parts.push(el("h3", { text: store.config.stages[stage] }));
      parts.push(el("ul", { className: "cj-progress-stars" }, groups[stage]));
    });
    return section("puzzles", parts);
  }

  function opponentsPart(doc) {
    var names = Object.keys(doc.opponents);
    if (!names.length) return section("opponents", [el("p", { text: say("opponents_none", {}) })]);
    var cols = ["col_opponent", "col_deals", "col_for", "col_against", "col_won", "col_lost"];
    var head = el("tr", {}, cols.map(function (c) { return el("th", { scope: "col", text: say(c, {}) }); }));
    var rows = names.map(function (name) {
      var t = doc.opponents[name];
      return el("tr", { "data-opponent": name }, [el("th", { scope: "row", text: store.opponentLabel(name) })].concat(
        [t.deals, t["for"], t.against, t.won, t.lost].map(function (v) { return el("td", { text: String(v) }); })));
    });
    var table = el("table", { className: "cj-progress-table" }, [el("thead", {}, [head]), el("tbody", {}, rows)]);
    return section("opponents", [el("div", { className: "cj-progress-scroll", tabindex: "0",
      role: "region", "aria-label": say("head_opponents", {}) }, [table])]);
  }

  // The deals against classmates at a table of the hub (calijack/tables.py), apart from the computer's.
  function peoplePart(doc) {
    var totals = (doc.people && doc.people.totals) || {};
    var names = Object.keys(totals);
    if (!names.length) return section("people", [el("p", { text: say("people_none", {}) })]);
    var cols = ["col_classmate", "col_deals", "col_for", "col_against", "col_won", "col_lost"];
    var head = el("tr", {}, cols.map(function (c) { return el("th", { scope: "col", text: say(c, {}) }); }));
    var rows = names.map(function (name) {
      var t = totals[name];
      return el("tr", { "data-classmate": name }, [el("th", { scope: "row", text: name })].concat(
        [t.deals, t["for"], t.against, t.won, t.lost].map(function (v) { return el("td", { text: String(v) }); })));
    });
    var table = el("table", { className: "cj-progress-table" }, [el("thead", {}, [head]), el("tbody", {}, rows)]);
    return section("people", [el("div", { className: "cj-progress-scroll", tabindex: "0",
      role: "region", "aria-label": say("head_people", {}) }, [table])]);
  }

  function dealsPart(doc) {
    if (!doc.deals.length) return section("deals", [el("p", { text: say("deals_none", {}) })]);
    var items = doc.deals.slice().reverse().map(function (deal) {
      var mine = deal.points[deal.seat];
      var theirs = deal.points.filter(function (_, k) { return k !== deal.seat; }).join(" and ");
      var line = say("deal_line", { when: when(deal.when), opponent: store.opponentLabel(deal.opponent), you: mine, them: theirs });
      if (deal.match) line += " " + say(deal.match === "won" ? "deal_match_won" : "deal_match_lost", {});
      var name = "calijack-deal-" + deal.when.slice(0, 10) + "-" + deal.id.replace(/[^0-9a-z]+/g, "-") + ".json";
      return el("li", { className: "cj-progress-deal", "data-deal": deal.id }, [
        el("p", { text: line }),
        el("div", { className: "cj-progress-actions" }, [
          button(say("download_record", {}), "cj-download-record", function () {
            download(name, JSON.stringify(deal.record, null, 1) + "\n");
          }),
          el("a", { className: "cj-action cj-review-link",
            href: ROOT + manifest.sandbox + "?review=" + encodeURIComponent(deal.id), text: say("review", {}) })])]);
    });
    return section("deals", [el("p", { text: say("deals_kept", { kept: store.config.keptDeals }) }),
      el("ol", { className: "cj-progress-deals" }, items)]);
  }

  function gamePart(doc) {
    var game = doc.game;
    if (!game) return section("game", [el("p", { text: say("game_none", {}) })]);
    var deals = game.record.deals ? game.record.deals.length : 1;
    var where = say(deals > 1 ? "offer_where_match" : "offer_where", { trick: game.trick, tricks: game.tricks, deal: game.deal });
    return section("game", [el("p", { text: say("game_line", { opponent: store.opponentLabel(game.opponent), where: where, when: when(game.saved) }) }),
      el("p", {}, [el("a", { href: ROOT + manifest.sandbox, text: say("game_continue", {}) })])]);
  }

  // The practice queue: how many mistakes wait, how many are due today, and where to practise them.
  function drillsPart(doc) {
    var due = store.dueDrills().length;
    var line = el("p", { className: "cj-progress-count", text: say("drills_kept", { queued: doc.drills.length, due: due }) });
    var link = manifest.puzzles_page ? el("p", {}, [el("a", { href: ROOT + manifest.puzzles_page,
      text: say("due_today", { due: due }) })]) : null;
    return section("drills", [line, link]);
  }

  function filePart() {
    var input = el("input", { type: "file", accept: ".json,application/json", className: "cj-sr-only cj-load-input" });
    input.addEventListener("change", function () {
      var file = input.files && input.files[0];
      input.value = "";
      if (!file) return;
      var refuse = function (reason) { tell(say("load_refused", { name: file.name, reason: reason })); };
      if (file.size > 4 * store.config.maxChars) {
        refuse(say("reason_too_big", { size: file.size.toLocaleString("en-US"),
          limit: store.config.maxChars.toLocaleString("en-US") }));
        return;
      }
      file.text().then(function (text) {
        var got = store.parse(text);
        if (!got.doc) { refuse(got.reason); return; }
        confirm(say("confirm_load", { name: file.name }), say("confirm_yes_load", {}), function () {
          if (store.replace(got.doc)) tell(say("done_load", { name: file.name }));
          else tell(say("not_kept", { note: store.status().note }));
        });
      }, function () { refuse(say("reason_not_json", {})); });
    });
    var load = el("label", { className: "cj-action cj-load-progress" }, [say("load_progress", {}), input]);
    var all = button(say("reset_all", {}), "cj-reset-all cj-danger", function () {
      confirm(say(store.syncing && store.syncing() ? "confirm_all_class" : "confirm_all", {}), say("confirm_yes_reset", {}), function () {
        if (store.resetAll()) tell(say("done_all", {}));
        else tell(say("not_kept", { note: store.status().note }));
      });
    });
    var get = button(say("download_progress", {}), "cj-download-progress", function () {
      download("calijack-progress-" + today() + ".json", store.exportText() + "\n");
    });
    return el("section", { className: "cj-progress-section", "aria-labelledby": "cj-progress-file" }, [
      el("h2", { id: "cj-progress-file", text: say("head_file", {}) }),
      el("div", { className: "cj-progress-actions" }, [get, load, all])]);
  }

  function unreadablePart(state) {
    var raw = store.rawText() || "";
    return el("div", { className: "cj-progress-unreadable", role: "alert" }, [
      el("p", { text: say("page_unreadable", { reason: state.reason }) }),
      el("div", { className: "cj-progress-actions" }, [
        button(say("download_as_is", {}), "cj-download-raw", function () {
          download("calijack-progress-unreadable-" + today() + ".json", raw);
        }),
        button(say("reset_unreadable", {}), "cj-reset-all cj-danger", function () {
          confirm(say(store.syncing && store.syncing() ? "confirm_all_class" : "confirm_all", {}), say("confirm_yes_reset", {}), function () {
            if (store.resetAll()) tell(say("done_all", {}));
          });
        })])]);
  }

  function draw() {
    var state = store.status();
    var doc = store.read();
    var focused = document.activeElement && app.contains(document.activeElement) ? document.activeElement : null;
    var focusKey = focused && (focused.className || "");
    var parts = [];
    if (state.status === "unreadable") {
      parts.push(unreadablePart(state));
    } else {
      if (state.note) parts.push(el("p", { className: "cj-progress-note", role: "status", text: state.note }));
      parts.push(checksPart(doc), puzzlesPart(doc), drillsPart(doc), opponentsPart(doc), peoplePart(doc), dealsPart(doc), gamePart(doc));
    }
    parts.push(filePart(), told, dialog);
    app.replaceChildren.apply(app, parts);
    app.setAttribute("data-state", state.status);
    // Redrawn under the keyboard: the focus goes back to the control it was on.
    if (focusKey && !dialog.open) {
      var again = app.querySelector("." + focusKey.trim().split(/\s+/).join("."));
      if (again) again.focus();
    }
  }

  // Drawn again once per frame at most, after the change that asked for it.
  var queued = false;
  window.addEventListener("calijack-progress", function () {
    if (queued) return;
    queued = true;
    requestAnimationFrame(function () { queued = false; if (!dialog.open) draw(); });
  });
  dialog.addEventListener("close", function () { setTimeout(draw, 0); });
  var url = script.getAttribute("data-cj-manifest");
  fetch(url).then(function (r) { return r.ok ? r.json() : null; }).catch(function () { return null; })
    .then(function (got) {
      if (got && Array.isArray(got.chapters) && Array.isArray(got.puzzles)) manifest = got;
      draw();
      app.setAttribute("data-ready", "1");
    });
})();
