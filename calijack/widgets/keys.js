// calijack: the arrow keys of a row of buttons that is one tab stop (the hand's playable cards
// in table.js, the review's strip of plays in review.js). Prepended to both modules
// (calijack/widgets/table.py, review.py), so both rows answer the same keys the same way:
// Right or Down the next button, Left or Up the one before, round the ends; Home the first,
// End the last. Returns the index to focus, or null for any other key.
function cjArrowTarget(key, at, count) {
  const moves = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1,
    Home: 0, End: count - 1 };
  if (!(key in moves) || count < 1) return null;
  return (moves[key] + count) % count;
}
