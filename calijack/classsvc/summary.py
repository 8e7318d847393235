"""One learner's row of the teacher's table, from their progress document: what the page, the CSV
and the tests read, computed in one place."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ..progress import opponent_labels


@dataclass(frozen=True)
class Row:
    learner: str
    chapters: dict[str, tuple[int, int]]  # chapter -> (answered, right at the first try)
    answered: int
    first: int
    stars: int
    solved: int
    levels: dict[str, tuple[int, float]]  # level's label -> (deals finished, mean points a deal)
    deals: int
    queued: int
    due: int
    active: dt.datetime
    people: tuple[int, float] = (0, 0.0)  # deals against classmates, mean points a deal (apart from levels)

    def csv(self) -> list:
        """The row as the CSV holds it (the header is :data:`CSV_HEADER`)."""
        return [self.learner, self.answered, self.first, self.stars, self.solved, self.deals,
                "; ".join(f"{lvl}: {n} deals, {mean:.2f} a deal" for lvl, (n, mean) in self.levels.items()),
                "; ".join(f"{ch}: {a} answered, {f} first try" for ch, (a, f) in self.chapters.items()),
                self.queued, self.due, self.active.strftime("%Y-%m-%dT%H:%M:%SZ"),
                f"{self.people[0]} deals, {self.people[1]:.2f} a deal"]


CSV_HEADER = ["learner", "checks answered", "checks right at the first try", "puzzle stars", "puzzles solved",
              "deals finished", "deals per level (mean points a deal)", "checks per chapter",
              "mistakes queued", "mistakes due today", "last active (UTC)",
              "deals against classmates (mean points a deal)"]


def chapter_of(check_id: str) -> str:
    """``"book/03_legal_play#2"`` -> ``"03_legal_play"``: the page a quick check is on."""
    return check_id.split("#", 1)[0].rsplit("/", 1)[-1]


def row(learner: str, doc: dict, active: dt.datetime, today: str | None = None) -> Row:
    """``learner``'s row from their (read) document; ``today`` a ``YYYY-MM-DD`` date (UTC's by default)."""
    today = today or dt.datetime.now(dt.timezone.utc).date().isoformat()
    chapters: dict[str, list[int]] = {}
    for key, entry in sorted(doc["checks"].items()):
        counts = chapters.setdefault(chapter_of(key), [0, 0])
        counts[0] += 1
        counts[1] += int(entry["first"])
    labels = opponent_labels()
    levels: dict[str, list[int]] = {}
    for name, totals in sorted(doc["opponents"].items()):
        level = levels.setdefault(labels.get(name, name), [0, 0])
        level[0] += totals["deals"]
        level[1] += totals["for"]
    against = doc["people"]["totals"].values()
    people_deals = sum(t["deals"] for t in against)
    people = (people_deals, sum(t["for"] for t in against) / people_deals if people_deals else 0.0)
    return Row(learner=learner, people=people, chapters={c: (a, f) for c, (a, f) in chapters.items()},
               answered=len(doc["checks"]), first=sum(e["first"] for e in doc["checks"].values()),
               stars=sum(p["best"] for p in doc["puzzles"].values()),
               solved=sum(p["best"] > 0 for p in doc["puzzles"].values()),
               levels={lvl: (n, pts / n if n else 0.0) for lvl, (n, pts) in levels.items() if n},
               deals=sum(n for n, _ in levels.values()),
               queued=len(doc["drills"]), due=sum(d["due"] <= today for d in doc["drills"]), active=active)
