"""The coach's sentences: reviews of plays, puzzles, and the search playing for the match.

Part of the narrator (:mod:`calijack.text`, whose seat names and point titles it uses): every
sentence a learner reads about the value of a card is worded here, and only here. The facts
come from :mod:`calijack.review` (a :class:`~calijack.review.Rating`: each legal card's value
and what it leads to); this module compares them and says what the best card does and what
the card played cost. Cards are named as the table names them ("A♠"), the player is "you".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import Card
from .text import POINT_TITLES, counted, listing, plural
from .text_hints import card_words

if TYPE_CHECKING:
    from .review import Outcome, Rating

__all__ = ["amount", "signed", "review_comment", "too_close", "review_summary", "review_lines", "reviewing", "review_ready",
           "value_line", "why_match", "drill_prompt", "drill_right", "drill_wrong", "drill_answer", "drills_done",
           "drill_settled", "drill_not_yet", "drills_none",
           "puzzle_prompt", "puzzle_title", "puzzle_feedback", "puzzle_hint", "STAGES", "STAGE_TITLES"]

STAGES = {
    "opening": "Early in the deal the winner of each trick draws the exposed card. Is it worth "
               "spending a good card on?",
    "middle": "The stock is going down: capture what counts, and keep what will count later.",
    "last_draws": "A few cards are left in the stock, and the last draws decide what each hand "
                  "will hold for the final tricks.",
    "endgame": "The stock is gone, so you can work out your opponent's hand, and every value "
               "is exact.",
}
"""The practice stages, in order, each with the one sentence that introduces it."""

STAGE_TITLES = {"opening": "The exposed card", "middle": "Points on the table",
                "last_draws": "The last draws", "endgame": "Every card known"}
"""Each practice stage's short title (its button)."""


def amount(value: float) -> str:
    """A number of match points for a sentence: ``"1 match point"``, ``"0.45 match points"``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    return f"{text} {plural(float(text), 'match point')}"


def signed(value: float, exact: bool) -> str:
    """A value as a table shows it: ``"+1"``, ``"−2"``, ``"+0.35"``, ``"0"`` (a true minus sign)."""
    text = str(abs(int(value))) if exact else f"{abs(value):.2f}"
    if (int(value) if exact else round(value, 2)) == 0:
        return "0" if exact else "0.00"
    return ("+" if value > 0 else "\u2212") + text


def _they(players: int) -> str:
    return "your opponent" if players == 2 else "another player"


def _exposed(top: Card, trump) -> str:
    """The exposed card in a sentence: "the exposed trump two", "the exposed 10♠"."""
    return f"the exposed trump {top.rank.word}" if top.suit == trump else f"the exposed {top}"


def _trick_phrase(card: Card, other_card: Card, rating: "Rating", trump) -> str:
    """What ``card`` does to the trick that ``other_card`` does not (or ""); when the trick goes
    the same way, that it keeps ``other_card`` (a trump or a counting card) for later."""
    mine, other = rating.outcomes[card], rating.outcomes[other_card]
    gap = mine.wins_trick - other.wins_trick
    if gap >= 0.5:
        verb = "keeps the lead" if rating.lead else "wins the trick"
        if rating.top is not None:
            return f"{verb} and draws {_exposed(rating.top, trump)}"
        return verb if rating.lead else f"{verb} and takes the lead"
    if gap <= -0.5:
        if rating.top is not None:
            return f"lets this trick go, and {_exposed(rating.top, trump)} with it"
        return "lets this trick go"
    if other_card.suit == trump or other_card.value:
        return f"keeps {card_words(other_card, trump)} for later"
    return ""


def _points_phrase(mine: "Outcome", other: "Outcome", other_card: Card, rating: "Rating", players: int) -> str:
    """Which points fall differently after the card than after ``other_card`` (or "")."""
    they = _they(players)
    if rating.exact:
        gained = [n for n, (got, _) in mine.points.items() if got > other.points[n][0]]
        denied = [n for n, (_, lost) in mine.points.items() if other.points[n][1] > lost]
        both = [n for n in gained if n in denied]
        parts = []
        if both:
            titles = [POINT_TITLES[n] for n in both]
            parts.append(f"{listing(titles)} {plural(len(titles), 'goes', 'go')} to you, not to {they}")
        only = [POINT_TITLES[n] for n in gained if n not in both]
        if only:
            parts.append(f"you score {listing(only)}")
        kept = [POINT_TITLES[n] for n in denied if n not in both]
        if kept:
            parts.append(f"{they} does not score {listing(kept)}")
        return "with best play " + " and ".join(parts) if parts else ""
    rows = []
    for name, (got, lost) in mine.points.items():
        got_o, lost_o = other.points[name]
        rows.append(((got - got_o) + (lost_o - lost), name, got, got_o, lost, lost_o))
    swing, name, got, got_o, lost, lost_o = max(rows)
    if swing < 0.2:
        return ""
    title = POINT_TITLES[name]
    if got - got_o >= lost_o - lost:
        return f"you then score {title} in {got:.0%} of the guesses, against {got_o:.0%} after {other_card}"
    return f"{they} then scores {title} in {lost:.0%} of the guesses, against {lost_o:.0%} after {other_card}"


def review_comment(played: Card, rating: "Rating", trump, players: int = 2) -> str:
    """One sentence on a play: what the best card does and what ``played`` cost."""
    shown = rating.shown
    best = rating.best
    if len(shown) == 1:
        return f"{played} was the only legal card."
    if len(best) == len(shown):
        how = "with best play" if rating.exact else f"over {rating.samples} guesses"
        return f"Every legal card is worth the same here {how} ({signed(shown[played], rating.exact)})."
    loss = rating.loss(played)
    if played in best:
        runner = max((c for c in shown if c not in best), key=lambda c: (shown[c], -c.index))
        trick = _trick_phrase(played, runner, rating, trump)
        points = _points_phrase(rating.outcomes[played], rating.outcomes[runner], runner, rating, players)
        if trick:
            return f"{played} is the best card: it {trick}" + (f", and {points}." if points else ".")
        if points:
            return f"{played} is the best card: {points}."
        return f"{played} is the best card, {amount(shown[played] - shown[runner])} better than {runner}."
    top = best[0]
    if rating.too_close(played):  # the rule is the review's
        return too_close(played, top, loss, rating.samples)
    if loss < 0.5:
        return f"{played} is close to the best: {top} is worth {amount(loss)} more on average."
    trick = _trick_phrase(top, played, rating, trump)
    points = _points_phrase(rating.outcomes[top], rating.outcomes[played], played, rating, players)
    cost = f"{played} costs {amount(loss)}"
    if trick:
        return f"{top} {trick}" + (f", and {points}" if points else "") + f"; {cost}."
    if points:
        return f"{top} is better: {points}; {cost}."
    return f"{top} is better; {cost}."


def too_close(played: Card, top: Card, loss: float, guesses: int) -> str:
    """A play whose gap to the best is near half a point, and not clearly on either side of it."""
    return (f"Too close to call: {top} looks {amount(loss)} better than {played}, near the half point "
            f"that makes a mistake, and over {guesses} guesses the gap could fall either side of it, "
            "so this is not counted as a mistake.")


def review_summary(mistakes: int, lost: float, plays: int) -> str:
    """The review's headline: how many of ``plays`` were mistakes and what they cost in all."""
    if not plays:
        return "You played no card in this deal."
    if not mistakes:
        return f"No mistakes: none of your {counted(plays, 'play')} clearly cost half a match point or more."
    marked = counted(mistakes, "play is marked as a mistake", "plays are marked as mistakes")
    return f"{marked}, costing {amount(round(lost, 2))} in all."


def reviewing() -> str:
    """Said while the computer reviews the learner's plays."""
    return "Reviewing your plays: the computer works out what every card you could play was worth…"


def review_ready(summary: str) -> str:
    """Said once the review is ready, after its headline."""
    return f"{summary} Step through your plays in the review under the table."


def value_line(card: Card, value: float, best: Card, best_value: float, exact: bool) -> str:
    """Your card's value beside the best card's: ``"You played 7♣: −1. Best: A♠, +1."``"""
    mine = f"You played {card}: {signed(value, exact)}."
    if card == best:
        return mine + " That is the best card."
    return f"{mine} Best: {best}, {signed(best_value, exact)}."


# -- the search near the target ----------------------------------------------------------------

def why_match(card: Card, guesses: int, chance: float) -> str:
    """The search's reason when it plays for the match (``guesses`` 0: every card known)."""
    if guesses == 0:
        if chance >= 0.9995:  # sure (the deal's own objective adds a hair either way)
            return f"Every card is known now: with best play {card} wins the match"
        return (f"Every card is known now, and points count in order near the target: {card} gives "
                f"the best chance of winning the match ({chance:.0%})")
    return (f"Near the target points count in order (High, Low, Jack, Game): over {guesses} guesses "
            f"{card} gives the best chance of winning the match ({chance:.0%})")


# -- puzzles -------------------------------------------------------------------------------------

def puzzle_prompt(lead: bool, led: Card | None, top: Card | None, trump, exact: bool,
                  their_cards: list[Card]) -> str:
    """What the learner is asked: the trick, the exposed card, and (at the end) the other hand."""
    parts = [f"Trumps are {trump.plural}."]
    parts.append("You lead." if lead else f"Your opponent leads {led}.")
    if top is not None:
        parts.append(f"The exposed card is {card_words(top, trump)}.")
    if exact:
        parts.append("The stock is gone, so you know your opponent holds "
                     + " ".join(str(c) for c in their_cards) + ".")
    parts.append("Which card do you play?")
    return " ".join(parts)


def puzzle_title(stage: str, best: Card, rating: "Rating", trump) -> str:
    """A short sentence naming the idea of a puzzle, without giving the answer away."""
    top = rating.top
    if stage == "opening" and top is not None:
        return f"Fight for {card_words(top, trump)}, or let it go?"
    if stage == "endgame":
        return "Count the cards: every one is known."
    if top is not None and (top.suit == trump or top.value >= 4):
        return f"What is {card_words(top, trump)} worth to you?"
    return "Find the card that counts."


PUZZLE_HINTS = {
    "fight": "the best card wins this trick.",
    "let_go": "the best card lets this trick go.",
    "count": "whichever card you play, the trick goes the same way: think about which card you keep.",
}


def puzzle_hint(theme: str) -> str:
    """A puzzle's hint, from what it turns on (:func:`calijack.puzzles.theme`), without naming the card."""
    return "Hint: " + PUZZLE_HINTS[theme]


def puzzle_feedback(picked: Card, best: Card, rating: "Rating", trump, players: int = 2) -> tuple[bool, str]:
    """Whether ``picked`` is the answer, and the sentence the learner reads after picking it."""
    return picked == best, review_comment(picked, rating, trump, players)


# -- calijack review: the terminal's account -------------------------------------------------

def review_lines(reviews, heading: str | None = None) -> list[str]:
    """``calijack review`` for a person: each play, every legal card's value, mistakes marked."""
    lines = [heading] if heading else []
    for r in reviews:
        rating = r.rating
        how = "exact" if rating.exact else f"estimated over {rating.samples} guesses"
        spread = rating.spread
        values = ", ".join(f"{c} {signed(v, rating.exact)}" + ("*" if c in rating.best else "")
                           + (f" (±{spread[c]:.2f})" if spread[c] else "")
                           for c, v in rating.shown.items())
        mark = (f"  MISTAKE: costs {amount(r.loss)}" if r.mistake
                else "  too close to call" if r.too_close else "")
        lines.append(f"Trick {r.trick:>2}, seat {r.seat} played {r.card} ({how}): {values}{mark}")
        lines.append(f"    {r.comment}")
    seats = sorted({r.seat for r in reviews})
    for seat in seats:
        mine = [r for r in reviews if r.seat == seat]
        wrong = [r for r in mine if r.mistake]
        lines.append(f"Seat {seat}: {counted(len(mine), 'play')}, {len(wrong)} marked as "
                     f"{plural(len(wrong), 'a mistake', 'mistakes')} "
                     f"(costing {amount(round(sum(r.loss for r in wrong), 2))}).")
    lines.append("Values are match points this deal (yours minus the other side's) with best play; "
                 "* marks the best cards; ± is the uncertainty of a card's gap to the best one.")
    return lines


def drill_lines(drills, seat: int, heading: str | None = None) -> list[str]:
    """``calijack drill`` for a person: each mistake, the card played and the right answers."""
    lines = [heading] if heading else []
    for d in drills:
        lines.append(f"Play {d.play + 1} (trick {d.position.trick_number}): seat {seat} played {d.played} "
                     f"({signed(d.values[d.played], d.exact)}); the best is {d.best} "
                     f"({signed(d.values[d.best], d.exact)}); accepted: {', '.join(map(str, d.accept))}.")
        lines.append(f"    {d.comment}")
    if not drills:
        lines.append(f"Seat {seat} made no mistake in this deal: nothing to try again.")
    return lines


def compare_line(comparison) -> str:
    """``calijack compare`` for a person: one seat's points beside the computer's."""
    return (f"Seat {comparison.seat} scored {comparison.you}. The computer, with the same cards against "
            f"the same opponent, scored {comparison.computer}.")


# -- trying one's mistakes again (calijack.retry) ---------------------------------------------------

def drill_prompt(number: int, total: int, trick: int) -> str:
    """A mistake set up again at the table, the learner to play."""
    return (f"Mistake {number} of {total}, trick {trick}: the table is as it was when you played. "
            "Which card do you play this time?")


def drill_right(card: Card, value: float, best: Card, best_value: float, exact: bool) -> str:
    """An accepted answer: the best card, or one within half a point of it."""
    if card == best:
        return f"Right: {card} is the best card ({signed(value, exact)})."
    return (f"Right: {card} ({signed(value, exact)}) is within half a match point of the best card, "
            f"{best} ({signed(best_value, exact)}).")


def drill_wrong(card: Card, value: float, best_value: float, exact: bool) -> str:
    """A wrong first pick: its value beside the best card's, without naming the best card."""
    return (f"Not this one: {card} is worth {signed(value, exact)}, and the best card "
            f"{signed(best_value, exact)}. One more try.")


def drill_answer(card: Card, value: float, best: Card, best_value: float, exact: bool, comment: str = "") -> str:
    """A second wrong pick: its value, then the answer and the coach's sentence on the pick."""
    text = f"Not this one either: {card} is worth {signed(value, exact)}. The answer: {best} ({signed(best_value, exact)})."
    return f"{text} {comment}" if comment else text


def drills_done(right: int, total: int, missed: int) -> str:
    """After the last mistake: how many were right at the first try, and what comes back later."""
    text = f"That was the last one: {right} of {counted(total, 'mistake')} right at the first try."
    if missed:
        which = "The one" if missed == 1 else f"The {missed}"
        text += (f" {which} you missed will come back in your practice, due tomorrow "
                 "(the Practice chapter counts what is due).")
    return text


def drill_settled() -> str:
    """A card picked once a mistake is settled (right, or its answer shown)."""
    return "This one is settled: go on to the next mistake, or back to your deal."


def drill_hint(accepted: int, legal: int, best_value: float, exact: bool) -> str:
    """A queued mistake's hint: how many cards are right, and what the best is worth (not which)."""
    right = "only one of them is" if accepted == 1 else f"{accepted} of them are"
    return (f"Hint: you may play {counted(legal, 'card')} here, and {right} right; the best is worth "
            f"{signed(best_value, exact)}. A hint costs a star.")


def drill_stars(stars: int, days: int) -> str:
    """A queued mistake settled: its stars (as the puzzles count them) and when it comes back."""
    when = "tomorrow" if days == 1 else f"in {days} days"
    if stars <= 0:
        return f"It comes back {when}."
    got = "1 star of 3" if stars == 1 else f"{stars} stars of 3"
    return f"{got}: it comes back {when}."


def same_cards(you: int, computer: int) -> str:
    """The learner's points beside the strongest computer player's, with the same cards."""
    return (f"You scored {you}. The computer, with your cards against the same opponent, scored {computer}. "
            "Move the Replay slider to step through the computer's deal.")


def same_cards_working(done: int, total: int) -> str:
    """Said while the computer plays the learner's cards."""
    return f"The computer is playing your cards against the same opponent: card {done} of about {total}…"


def drill_not_yet() -> str:
    """Next mistake pressed before this one is settled."""
    return "Answer this one first (or go back to your deal)."


def drills_none() -> str:
    """Asked to try the mistakes of a deal that has none."""
    return "Your review marks no mistake in this deal, so there is nothing to try again."
