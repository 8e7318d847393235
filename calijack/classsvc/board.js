// The class service's review page: review.js (the sandbox's review board, the same file, served
// after keys.js) driven by a small stand-in for anywidget's model (get, set, on, off,
// save_changes), fed from the JSON the page embeds (#cj-review-data). Nothing is sent back.
{
  const data = JSON.parse(document.getElementById("cj-review-data").textContent);
  const listeners = new Map();
  const model = {
    get: (name) => data[name],
    set: (name, value) => {
      if (data[name] === value) return;
      data[name] = value;
      for (const listener of listeners.get(`change:${name}`) || []) listener();
    },
    on: (event, listener) => { listeners.set(event, [...(listeners.get(event) || []), listener]); },
    off: (event, listener) => { listeners.set(event, (listeners.get(event) || []).filter((l) => l !== listener)); },
    save_changes: () => {},
  };
  render({ model, el: document.getElementById("cj-review") });
}
