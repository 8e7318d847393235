// The hub's tables: the lobby, a seat at a table, the teacher's watch. No third-party code.
// The page only shows what the class service sends over its websocket and sends back what the
// player chose: every rule, every refusal and every sentence is the server's
// (calijack/tables.py, calijack/text_tables.py). A dropped connection is tried again, waiting
// a little longer each time (1, 2, 4, 8, then 15 seconds).
(function () {
  "use strict";
  var CONFIG = JSON.parse(document.getElementById("cj-config").textContent);
  var T = CONFIG.texts;
  var app = document.getElementById("cj-app");
  var status = document.getElementById("cj-status");
  var alertBox = document.getElementById("cj-alert");
  var SUITS = { S: ["\u2660", "spades"], H: ["\u2665", "hearts"], D: ["\u2666", "diamonds"], C: ["\u2663", "clubs"] };
  var RANKS = { T: "10" };
  var socket = null, view = null, attempt = 0, refused = false, timer = null;

  function fmt(template, fields) {
    return template.replace(/\{([a-z_]+)\}/g, function (_, key) { return String(fields[key]); });
  }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key];
      else if (key === "onclick") node.addEventListener("click", attrs[key]);
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }
  function cardText(code) { return (RANKS[code[0]] || code[0]) + SUITS[code[1]][0]; }
  function cardLabel(code) { return (RANKS[code[0]] || code[0]) + " of " + SUITS[code[1]][1]; }
  function cardSpan(code) {
    var red = code[1] === "H" || code[1] === "D";
    return el("span", { "class": "cj-card" + (red ? " red" : ""), "data-card": code, role: "img",
                        "aria-label": cardLabel(code), text: cardText(code) });
  }
  function cards(codes) {
    return codes.length ? el("div", { "class": "cj-row" }, codes.map(cardSpan)) : null;
  }
  function say(text) { alertBox.textContent = text || ""; }

  function send(message) {
    say("");
    if (!socket || socket.readyState !== 1) return;
    socket.send(JSON.stringify(message));
  }
  function act(type, extra) {
    var message = { type: type, table: CONFIG.table, seq: view ? view.seq : null };
    Object.keys(extra || {}).forEach(function (k) { message[k] = extra[k]; });
    send(message);
  }

  // -- the table, as one seat sees it, or as the teacher watches it ---------------------------------
  function scoresLine(v) {
    var parts = v.names.map(function (name, seat) { return name + " " + v.scores[seat]; });
    return el("p", { "data-scores": v.scores.join(","), text: fmt(T.scores, { scores: parts.join(" \u00b7 "), target: v.target }) });
  }
  function scoreSheet(v) {
    var head = el("tr", {}, [T.sheet_point, T.sheet_who, T.sheet_why].map(function (t) {
      return el("th", { scope: "col", text: t });
    }));
    var rows = v.sheet.map(function (a) {
      return el("tr", { "data-point": a.point, "data-seat": a.seat === null ? "" : a.seat }, [
        el("th", { scope: "row", text: a.title }),
        el("td", { text: a.seat === null ? T.sheet_nobody : v.names[a.seat] }),
        el("td", { text: a.why })]);
    });
    return el("section", { id: "cj-sheet", "aria-labelledby": "cj-sheet-head" }, [
      el("h2", { id: "cj-sheet-head", text: T.sheet_head }),
      el("div", { "class": "wrap", role: "region", "aria-labelledby": "cj-sheet-head", tabindex: "0" },
         [el("table", {}, [el("thead", {}, [head]), el("tbody", {}, rows)])])]);
  }
  function renderTable(v) {
    var focused = document.activeElement && document.activeElement.getAttribute("data-card");
    var focusedAction = document.activeElement && document.activeElement.getAttribute("data-action");
    var children = [];
    if (v.status === "waiting") {
      var link = el("input", { id: "cj-link", readonly: "readonly", value: location.href });
      children.push(el("label", { "for": "cj-link", text: T.link_label }), link);
    } else {
      children.push(scoresLine(v));
      children.push(el("p", { text: fmt(T.trump, { suit: SUITS[v.trump][0] + " " + SUITS[v.trump][1] }) }));
      if (v.kind === "seat") {
        children.push(el("p", { text: v.stock_count ? fmt(T.stock, { count: v.stock_count, top: cardText(v.stock_top) })
                                                    : T.stock_empty }));
        var other = 1 - v.seat;
        children.push(el("p", { text: fmt(T.their_hand, { name: v.names[other], count: v.hand_sizes[other] }) }));
      }
      children.push(el("section", { "class": "cj-felt", "aria-labelledby": "cj-trick-head" }, [
        el("h2", { id: "cj-trick-head", text: T.trick_head }),
        v.trick.length ? cards(v.trick) : el("p", { text: T.trick_empty })]));
      if (v.kind === "seat") {
        var legal = {};
        v.legal.forEach(function (code) { legal[code] = true; });
        var hand = v.hand.map(function (code) {
          var red = code[1] === "H" || code[1] === "D";
          return el("button", { type: "button", "class": "cj-card" + (red ? " red" : ""), "data-card": code,
                                "aria-label": cardLabel(code), "aria-disabled": legal[code] ? "false" : "true",
                                text: cardText(code), onclick: function () { act("play", { card: code }); } });
        });
        children.push(el("section", { "aria-labelledby": "cj-hand-head" }, [
          el("h2", { id: "cj-hand-head", text: T.your_hand }), el("div", { "class": "cj-row", id: "cj-hand" }, hand)]));
        var buttons = [];
        if (v.status === "deal_over") {
          buttons.push(el("button", { type: "button", "data-action": "next", text: T.next_deal,
                                      onclick: function () { act("next"); } }));
        }
        if (v.can_take_over) {
          buttons.push(el("button", { type: "button", "data-action": "computer", text: T.take_over,
                                      onclick: function () { act("computer"); } }));
        }
        if (buttons.length) children.push(el("div", { "class": "cj-row" }, buttons));
        children.push(el("ul", { "class": "cj-log", "aria-label": T.log_label },
                         v.messages.map(function (m) { return el("li", { text: m }); })));
      } else {
        children.push(el("h2", { text: T.played_head }));
        children.push(el("ol", { "class": "cj-log" }, v.played.map(function (trick) {
          return el("li", { "data-cards": trick.cards.join(" "),
                            text: trick.cards.map(cardText).join(" ") + " \u2192 " + v.names[trick.winner] });
        })));
      }
    }
    if (v.sheet) children.push(scoreSheet(v));
    children.push(el("p", {}, [el("a", { href: CONFIG.prefix + "tables/", text: T.lobby_link })]));
    app.replaceChildren.apply(app, children);
    app.setAttribute("data-seq", v.seq);
    app.setAttribute("data-status", v.status);
    app.setAttribute("data-to-play", v.to_play === null || v.to_play === undefined ? "" : v.to_play);
    if (v.kind === "seat") app.setAttribute("data-seat", v.seat);
    status.textContent = v.prompt;
    var again = focused && app.querySelector("[data-card='" + focused + "']:not(span)");
    if (focused && !again) again = app.querySelector("#cj-hand button");
    if (!again && focusedAction) again = app.querySelector("[data-action='" + focusedAction + "']") ||
      app.querySelector("#cj-hand button");
    if (again) again.focus();
  }

  // -- the lobby ------------------------------------------------------------------------------------
  function tableItem(t) {
    var who = t.players.filter(function (p) { return p !== CONFIG.you; }).join(", ") || T.nobody_yet;
    var state = t.status === "waiting" ? T.status_waiting : t.status === "over" ? T.status_over
      : fmt(T.status_playing, { deal: t.deal, trick: t.trick, tricks: t.tricks });
    return el("li", {}, [el("a", { href: CONFIG.prefix + "tables/t/" + t.table,
                                   text: fmt(T.table_line, { who: who, status: state }) })]);
  }
  function list(items, none, id) {
    return items.length ? el("ul", { id: id }, items) : el("p", { id: id, text: none });
  }
  function renderLobby(v) {
    var online = v.online.map(function (name) {
      return el("li", {}, [el("button", { type: "button", "data-invite": name, text: fmt(T.open_with, { name: name }),
                                          onclick: function () { send({ type: "open", invite: name }); } })]);
    });
    app.replaceChildren(
      el("p", { text: T.lobby_intro }),
      el("button", { type: "button", id: "cj-open", text: T.open, onclick: function () { send({ type: "open" }); } }),
      el("h2", { text: T.online_head }), list(online, T.online_none, "cj-online"),
      el("h2", { text: T.yours_head }), list(v.tables.map(tableItem), T.yours_none, "cj-yours"),
      el("h2", { text: T.invites_head }), list(v.invites.map(tableItem), T.invites_none, "cj-invites"));
    status.textContent = "";
  }

  // -- the connection ---------------------------------------------------------------------------------
  function onMessage(event) {
    var message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    if (message.type === "opened") { location.assign(message.link); return; }
    if (message.type === "error") say(message.error);
    var v = message.view;
    if (!v) return;
    view = v;
    if (v.kind === "lobby") renderLobby(v); else renderTable(v);
  }
  function connect() {
    timer = null;
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + CONFIG.socket;
    socket = new WebSocket(url);
    socket.addEventListener("open", function () { attempt = 0; document.body.setAttribute("data-connection", "open"); });
    socket.addEventListener("message", onMessage);
    socket.addEventListener("close", function (event) {
      document.body.setAttribute("data-connection", "closed");
      if (event.code === 4003) { refused = true; if (event.reason) say(event.reason); status.textContent = ""; return; }
      if (refused) return;
      var seconds = Math.min(15, Math.pow(2, attempt));
      attempt += 1;
      status.textContent = fmt(T.reconnecting, { seconds: seconds });
      timer = setTimeout(connect, seconds * 1000);
    });
  }
  window.calijackTables = { send: send, view: function () { return view; },
                            drop: function () { if (socket) socket.close(); } };
  connect();
})();
