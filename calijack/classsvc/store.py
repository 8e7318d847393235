"""Where the class service keeps each learner's progress document: a database, through SQLAlchemy.

One row a learner: their hub name, their document (JSON text, as the book's reader reads it)
and when it last changed. SQLite in the hub's state folder by default; any SQLAlchemy URL
(PostgreSQL on Kubernetes) by configuration. A write merges with what is kept
(:func:`calijack.progress.merge`) inside one transaction that holds the learner's row, so two
writes at the same moment are both kept and nothing is half-written.

A learner's **reset** (:meth:`Store.reset`) removes their document and remembers when: a copy
another device still holds would otherwise come back with its next sync. A later write that
carries anything dated before the reset (a finished deal's ``when``, the unfinished game's
``saved``) is refused whole (:class:`BeforeReset`), so that device has to be reset too. The
undated parts of a document (quick checks, puzzle stars, the practice queue) cannot be told
apart from new ones: a copy holding only those is merged as any other write is.
"""

from __future__ import annotations

import datetime as dt
import json

from sqlalchemy import DateTime, String, Text, create_engine, event, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from ..progress import VERSION, merge, read


class Base(DeclarativeBase):
    pass


def _stored(text: str) -> dict:
    """A copy the store wrote: as it is when of this version, read (and brought up to date) if not."""
    doc = json.loads(text)
    return doc if isinstance(doc, dict) and doc.get("version") == VERSION else read(doc)


class BeforeReset(Exception):
    """A write carrying progress from before the learner's reset (``when``: the reset, UTC)."""

    def __init__(self, when: dt.datetime) -> None:
        super().__init__(when)
        self.when = when


class Kept(Base):
    """One learner's progress document."""

    __tablename__ = "calijack_progress"
    learner: Mapped[str] = mapped_column(String(64), primary_key=True)
    document: Mapped[str] = mapped_column(Text)
    updated: Mapped[dt.datetime] = mapped_column(DateTime)


class Reset(Base):
    """When a learner last reset their progress (their document is gone; older copies are refused)."""

    __tablename__ = "calijack_resets"
    learner: Mapped[str] = mapped_column(String(64), primary_key=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime)


def stamp(when: dt.datetime) -> str:
    """``when`` (UTC, naive) as the document writes its times: ``2026-12-01T10:00:00Z``."""
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def dated(doc: dict) -> list[str]:
    """Every time a (read) document carries: its finished deals' ``when`` (against the computer
    and against classmates) and the unfinished game's ``saved``."""
    times = [d["when"] for d in doc["deals"]] + [d["when"] for d in doc["people"]["deals"]]
    return times + ([doc["game"]["saved"]] if doc["game"] else [])


def _now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None, microsecond=0)


class Store:
    """The learners' documents in the database at ``url`` (created if it has no table yet)."""

    def __init__(self, url: str) -> None:
        self.engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            # One writer at a time, from the start of the transaction: a read-merge-write is whole.
            @event.listens_for(self.engine, "connect")
            def _no_autobegin(connection, _record):
                connection.isolation_level = None

            @event.listens_for(self.engine, "begin")
            def _begin_immediate(connection):
                connection.exec_driver_sql("BEGIN IMMEDIATE")

        Base.metadata.create_all(self.engine)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    def get(self, learner: str) -> tuple[dict, dt.datetime] | None:
        """The learner's document and when it changed, or None."""
        with self.sessions() as session:
            row = session.get(Kept, learner)
            return None if row is None else (json.loads(row.document), row.updated)

    def put(self, learner: str, document) -> dict:
        """Merge ``document`` (checked by the reader first: :class:`~calijack.progress.ProgressError`
        if it cannot be read, and nothing changes) into the learner's; returns the merge.
        :class:`BeforeReset` (nothing changes) if it carries a time before the learner's reset."""
        incoming = read(document)
        with self.sessions() as session, session.begin():
            reset = session.get(Reset, learner)
            if reset is not None and any(t < stamp(reset.at) for t in dated(incoming)):
                raise BeforeReset(reset.at)
            row = session.execute(select(Kept).where(Kept.learner == learner).with_for_update()).scalar_one_or_none()
            # The stored copy is what an earlier merge returned: read once already, unless an
            # older version of the service wrote it (then it is read, and brought up to date).
            merged = incoming if row is None else merge(_stored(row.document), incoming, already_read=True)
            text = json.dumps(merged, separators=(",", ":"))
            if row is None:
                session.add(Kept(learner=learner, document=text, updated=_now()))
            elif text != row.document:
                row.document, row.updated = text, _now()
        return merged

    def delete(self, learner: str) -> bool:
        """Remove the learner's document; False if there was none."""
        with self.sessions() as session, session.begin():
            row = session.get(Kept, learner)
            if row is None:
                return False
            session.delete(row)
            return True

    def reset(self, learner: str) -> dt.datetime:
        """The learner's own reset: their document goes, and the time is remembered (returned)."""
        at = _now()
        with self.sessions() as session, session.begin():
            row = session.get(Kept, learner)
            if row is not None:
                session.delete(row)
            kept = session.get(Reset, learner)
            if kept is None:
                session.add(Reset(learner=learner, at=at))
            else:
                kept.at = at
        return at

    def reset_at(self, learner: str) -> dt.datetime | None:
        """When the learner last reset their progress, or None."""
        with self.sessions() as session:
            row = session.get(Reset, learner)
            return None if row is None else row.at

    def all(self) -> list[tuple[str, dict, dt.datetime]]:
        """Every learner's (name, document, when it changed), by name."""
        with self.sessions() as session:
            rows = session.execute(select(Kept).order_by(Kept.learner)).scalars()
            return [(r.learner, json.loads(r.document), r.updated) for r in rows]

    def close(self) -> None:
        self.engine.dispose()
