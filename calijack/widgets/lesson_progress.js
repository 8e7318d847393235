// calijack: a lesson's progress keeper, an anywidget ES module (Voilà, JupyterLab, JupyterLite).
//
// The book's pages remember their quick checks and puzzles through the progress store's page
// script (calijack.progress.page_script()); a lesson has no such script tag, so this widget
// brings the same two files (progress.js, progress-watch.js, prepended by lesson_progress.py)
// and starts watching the page under the book page's name (trait `page`), so an answer in the
// lesson counts as the same check as in the book. On the class's hub (trait `class_url`) it
// keeps the store in step with the class service, as the sandbox's table does. It shows one
// line: where the progress is kept, or why it is not being kept.
export default {
  render({ model, el }) {
    const store = globalThis.calijackProgress;
    const note = document.createElement("p");
    note.className = "cj-progress-note cj-lesson-progress";
    note.setAttribute("role", "status");
    el.appendChild(note);
    if (!store || !store.watch) return undefined;
    const url = model.get("class_url");
    const show = () => {
      note.textContent = store.status().note || (url ? "" : store.say("note_local", {}));
      note.hidden = !note.textContent;
    };
    store.watch(document, model.get("page"));
    if (url && store.meLine) el.appendChild(store.meLine(url));  // on the class's hub: the learner's own page
    if (url && store.startSync) store.startSync(url).then(show, show);
    globalThis.addEventListener("calijack-progress", show);
    show();
    return () => globalThis.removeEventListener("calijack-progress", show);
  },
};
