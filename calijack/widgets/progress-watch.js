// calijack: a page's quick checks and puzzles, remembered in the progress store.
//
// Runs after the store's script (progress.js, window.calijackProgress), with it in the book's
// _static/calijack-progress.js (calijack.progress.page_script(), book/_ext/calijack_progress.py).
// Every quick check and puzzle is a row of answer buttons over precomputed feedback frames
// (calijack/widgets/quiz.py); a click is read from the page itself, so this works in the static
// book (no Python) and in the live lesson's frame alike. A lesson page asked to review a past
// deal (?review=ID, from the progress page) or to practise the queued mistakes (?drills=due, from
// the Practice chapter's Due today) starts "Play live" by itself.
(function (root) {
  "use strict";
  var api = root.calijackProgress;
  if (!api || api.watch) return;
  var say = api.say;
  var starsWords = api.starsWords;
  var QUESTION = ".cj-quiz-question";

  function puzzleNumber(question) {
    var found = /(?:^|\s)cj-puzzle-n-(\d+)(?:\s|$)/.exec(question.className);
    return found ? Number(found[1]) : null;
  }

  // A quick check's name: its page's, then its number there. A box of checks shown on another
  // page (a lesson showing its chapter's) names its own page in a class (calijack/widgets/quiz.py,
  // OWNER_CLASS): numbered within the box, kept under that page's name wherever answered.
  function checkId(doc, page, question) {
    var box = question.closest(".cj-quiz");
    var owner = box && /(?:^|\s)cj-checks-of-(\S+)/.exec(box.className);
    var within = owner ? box : doc;
    if (owner) page = owner[1].replace(/--/g, "/");
    var all = Array.prototype.filter.call(within.querySelectorAll(QUESTION), function (q) { return puzzleNumber(q) === null; });
    var n = all.indexOf(question) + 1;
    return n > 0 && page ? page + "#" + n : null;
  }

  function mark(question, text) {
    var line = question.querySelector(":scope > .cj-progress-mark");
    if (!text) { if (line) line.remove(); return; }
    if (!line) {
      line = question.ownerDocument.createElement("p");
      line.className = "cj-progress-mark";
      question.appendChild(line);
    }
    if (line.textContent !== text) line.textContent = text;
  }

  function showMarks(doc, page) {
    var kept = api.read();
    doc.querySelectorAll(QUESTION).forEach(function (question) {
      var number = puzzleNumber(question);
      if (number !== null) {
        var p = kept.puzzles[String(number)];
        mark(question, p && p.best ? say("puzzle_best", { stars: starsWords(p.best) }) : "");
        return;
      }
      var id = checkId(doc, page, question);
      var c = id && kept.checks[id];
      mark(question, c ? say(c.first ? "check_first" : "check_later", {}) : "");
    });
    var note = api.status().note;
    doc.querySelectorAll(".cj-quiz").forEach(function (quiz) {
      var line = quiz.querySelector(":scope > .cj-progress-note");
      if (!note) { if (line) line.remove(); return; }
      if (!line) {
        line = doc.createElement("p");
        line.className = "cj-progress-note";
        line.setAttribute("role", "status");
        quiz.insertBefore(line, quiz.firstChild);
      }
      line.textContent = note;
    });
  }

  // The answer's feedback (right or not) once its frame is drawn: a Stack draws only the frame
  // chosen, a moment after the click.
  // ``known``: the verdict already read (an answer given before this script started).
  function whenShown(question, index, then, known) {
    if (typeof known === "boolean") { then(known); return; }
    var selector = '.cj-frame[data-frame="' + index + '"] .cj-quiz-feedback';
    var found = function () {
      var feedback = question.querySelector(selector);
      if (feedback) then(feedback.getAttribute("data-right") === "true");
      return !!feedback;
    };
    if (found()) return;
    var watcher = new root.MutationObserver(function () { if (found()) stop(); });
    var timer = setTimeout(function () { stop(); }, 10000);
    var stop = function () { watcher.disconnect(); clearTimeout(timer); };
    watcher.observe(question, { childList: true, subtree: true });
  }

  // Watch the quick checks and puzzles of `doc` (a page, or the live frame's document).
  function watch(doc, page) {
    if (doc.cjProgressWatched) return;
    doc.cjProgressWatched = true;
    var solved = {}; // puzzles solved in this visit: picks after the answer count no more
    var onClick = function (event) {
      var target = event.target;
      var button = target && target.closest && target.closest("button");
      var question = button && button.closest(QUESTION);
      if (!question || button.closest(".cj-demo-placeholder")) return;
      var number = puzzleNumber(question);
      if (button.closest(".cj-puzzle-hint")) {
        if (number !== null && !solved[number]) api.puzzleHint(number);
      } else if (button.closest(".cj-quiz-control")) {
        var buttons = Array.prototype.slice.call(button.closest(".cj-quiz-control").querySelectorAll("button"));
        var index = buttons.indexOf(button);
        var id = number === null ? checkId(doc, page, question) : null;
        whenShown(question, index, function (right) {
          if (number !== null) {
            if (solved[number]) return;
            if (right) solved[number] = true;
            api.puzzlePick(number, right);
          } else if (id) {
            api.answerCheck(id, right);
          }
          showMarks(doc, page);
        }, event.right);
        return;
      } else {
        return;
      }
      showMarks(doc, page);
    };
    doc.addEventListener("click", onClick);
    var queued = false;
    // The written-out answer opened before the question is answered: a quick check is then not
    // right at the first try, and a puzzle solved after it earns 1 star. ("toggle" does not
    // bubble: it is caught on its way down.)
    var onToggle = function (event) {
      var box = event.target;
      var question = box && box.open && box.matches && box.matches(".cj-quiz-answer") && box.closest(QUESTION);
      if (!question) return;
      var number = puzzleNumber(question);
      if (number !== null) {
        if (!solved[number]) api.puzzleReveal(number);
      } else {
        var id = checkId(doc, page, question);
        if (id && !api.read().checks[id]) api.answerCheck(id, false);
      }
      showMarks(doc, page);
    };
    doc.addEventListener("toggle", onToggle, true);
    // The clicks and opened answers of the book's page that came before this script
    // (book/_idle/calijack-idle.js keeps them until then), taken in order.
    var early = doc === root.document && root.calijackEarly;
    if (early) {
      root.calijackEarly = null;
      early.forEach(function (event) { (event.type === "click" ? onClick : onToggle)(event); });
    }
    var refresh = function () { // once per frame at most, after the change that asked for it
      if (queued) return;
      queued = true;
      (doc.defaultView || root).requestAnimationFrame(function () { queued = false; showMarks(doc, page); });
    };
    doc.addEventListener("cj-widgets-rendered", refresh);
    root.addEventListener("calijack-progress", refresh);
    new root.MutationObserver(function (changes) {
      // A quiz drawn after the page (the widget code comes late, or Python draws it).
      for (var k = 0; k < changes.length; k++) {
        for (var j = 0; j < changes[k].addedNodes.length; j++) {
          var node = changes[k].addedNodes[j];
          if (node.querySelector && (node.matches(".cj-quiz, " + QUESTION) || node.querySelector(".cj-quiz"))) {
            refresh();
            return;
          }
        }
      }
    }).observe(doc.body, { childList: true, subtree: true });
    refresh();
  }
  api.watch = watch;

  // The Practice chapter's "Due today: N" (a .cj-due box, data-sandbox: the sandbox lesson's
  // address): the queued mistakes due today, counted here from the store (the static book has
  // no Python), with a link that opens the sandbox to practise them live (?drills=due).
  function showDue(doc) {
    doc.querySelectorAll(".cj-due").forEach(function (box) {
      var queued = api.read().drills;
      var due = api.dueDrills().length;
      var text = due ? say("due_some", {}) : say("due_none", {});
      if (!due && queued.length) {
        var next = queued.map(function (d) { return d.due; }).sort()[0];
        text = say("drills_none_due", {}) + " " + say("due_later", { when: next });
      }
      if (box.getAttribute("data-due") === String(due) && box.getAttribute("data-text") === text) return;
      var count = doc.createElement("p");
      count.className = "cj-due-count";
      var strong = doc.createElement("strong");
      strong.textContent = say("due_today", { due: due });
      count.appendChild(strong);
      var words = doc.createElement("p");
      words.textContent = text;
      var parts = [count, words];
      if (due) {
        var link = doc.createElement("a");
        link.className = "cj-action cj-due-practise";
        link.href = (box.getAttribute("data-sandbox") || "") + "?drills=due";
        link.textContent = say("due_practise", {});
        parts.push(link);
      }
      box.replaceChildren.apply(box, parts);
      box.setAttribute("data-due", String(due));
      box.setAttribute("data-text", text);
    });
  }
  api.showDue = showDue;

  // On a page of the book (the script tag's data-cj-page names it): its quizzes, the live
  // frame's once "Play live" opens it, and a deal to review (?review=ID) starts "Play live".
  function watchPage(script) {
    var page = script.getAttribute("data-cj-page") || "";
    // The live frame ("Play live") is of this site: its puzzles are watched like the page's.
    var watchFrame = function (frame) {
      if (frame.cjProgressFrame) return;
      frame.cjProgressFrame = true;
      var look = function () {
        try {
          var inner = frame.contentDocument;
          // The live lesson's page (lite/play/index.html) says so with its <main id="cj-play">.
          if (inner && inner.body && inner.getElementById("cj-play")) watch(inner, "");
        } catch (e) { /* not of this site */ }
      };
      frame.addEventListener("load", look);
      look(); // already loaded before this script started
    };
    var start = function () {
      watch(document, page);
      // A live frame already there (this script may start after "Play live" was pressed).
      document.querySelectorAll("iframe.cj-live-frame").forEach(watchFrame);
      showDue(document);
      root.addEventListener("calijack-progress", function () { showDue(document); });
      var lesson = document.querySelector("script[data-lesson]");
      if (lesson) {
        new root.MutationObserver(function () {
          document.querySelectorAll("iframe.cj-live-frame").forEach(watchFrame);
        }).observe(document.body, { childList: true, subtree: true });
      }
      if (lesson && (api.reviewRequest() || api.drillsRequest())) {
        var waited = 0;
        var press = function () {
          var button = document.querySelector(".cj-live-button");
          if (button && !button.disabled) {
            var status = document.querySelector(".cj-live-status");
            if (status) status.textContent = say(api.reviewRequest() ? "review_starting" : "drills_starting", {});
            button.click();
          } else if ((waited += 100) < 10000) {
            setTimeout(press, 100);
          }
        };
        press();
      }
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }
  var me = root.document && root.document.currentScript;
  if (me && me.hasAttribute("data-cj-page")) watchPage(me);
})(typeof globalThis !== "undefined" ? globalThis : window);
