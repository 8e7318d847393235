"""The class service's web side: tornado handlers behind JupyterHub's own authentication.

Identity comes from the hub only: a page is reached through the hub's OAuth (``HubOAuth``: the
hub's login, then a cookie of this service's own), an API call with that cookie and the
page's XSRF token, or with a hub token (``Authorization: token …``). Nothing a page sends
names the learner. Everyone the hub lets in (``access:services!service=calijack-class``) has
their own document; the teacher's pages need the service's own scope, :data:`TEACHER_SCOPE`,
which the hub's configuration grants to the teacher's role only.

Routes, under the service's prefix (``/services/calijack-class/``):

- ``api/progress``: GET, PUT (merged with the stored one; the merge comes back), DELETE the
  caller's own document (a reset: :meth:`~calijack.classsvc.store.Store.reset`);
- ``me``: the caller's own page: what the class keeps for them (their row of the teacher's
  table) and their Reset (``me/reset``, POST: the server's copy, then this browser's);
- ``sync``: a small page the lesson pages load in a hidden frame (it gives them the XSRF token);
- ``tables/…``: classmates playing each other, the game on the server
  (:mod:`calijack.classsvc.tables`: a lobby, a table page, websockets);
- the teacher's: the class table (the prefix itself, ``?sort=…&order=…``; the tables in play
  below it, each with a Watch link), ``class.csv``,
  ``learner/NAME`` (their last deals; ``learner/NAME/deal/N.json`` a deal's record,
  ``learner/NAME/deal/N`` its review on the sandbox's review board: :mod:`.review`),
  ``learner/NAME/delete`` (POST: remove their document).
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
import secrets
from pathlib import Path

from jupyterhub.services.auth import HubOAuth, HubOAuthCallbackHandler, HubOAuthenticated
from tornado import web

from ..progress import KEY, MAX_CHARS, ProgressError
from ..progress.reader import read
from ..text_class import say
from ..text_tables import say as say_tables
from .review import Reviews
from .store import BeforeReset, stamp
from .summary import CSV_HEADER, row
from .tables import routes as table_routes, settings as table_settings, tables_section

NAME = "calijack-class"
"""The service's name on the hub (its URL is ``/services/calijack-class/``)."""
TEACHER_SCOPE = f"custom:{NAME}:teacher"
"""The scope of the teacher's pages: granted to the teacher's role only."""
_LEARNER = re.compile(r"[a-z0-9][a-z0-9._-]{0,39}")
_SORTS = ("learner", "checks", "stars", "deals", "people", "queue", "active")


class Base(HubOAuthenticated, web.RequestHandler):
    """What every handler shares: the store, one-sentence refusals, the teacher check."""

    @property
    def store(self):
        return self.settings["calijack_store"]

    @property
    def hub_auth(self):
        """The hub's authentication: the application's own if it was given one, else the
        service's (from the hub's ``JUPYTERHUB_*`` variables)."""
        given = self.settings.get("calijack_hub_auth")
        return given if given is not None else HubOAuth.instance()

    def write_error(self, status_code, **kwargs):
        reason = getattr(kwargs.get("exc_info", (None, None))[1], "log_message", None)
        if status_code in (401, 403) and not reason:
            reason = say("not_signed_in") if not self.current_user else say("not_teacher")
        reason = reason or self._reason
        if self.request.path.startswith(self.settings["calijack_prefix"] + "api/"):
            self.set_header("Content-Type", "application/json")
            self.finish(json.dumps({"error": reason}))
        else:
            self.set_header("Content-Type", "text/html; charset=utf-8")
            more = ""
            if reason == say("not_teacher"):  # a learner who came to the service: the lobby, and their own page
                prefix = self.settings["calijack_prefix"]
                more = (f"<p><a href='{html.escape(prefix)}tables/'>{html.escape(say_tables('lobby_title'))}</a></p>"
                        f"<p><a href='{html.escape(prefix)}me'>{html.escape(say('me_link'))}</a></p>")
            self.finish(_page(str(status_code), f"<p role='alert'>{html.escape(reason)}</p>{more}"))

    def learner(self) -> str:
        """The caller's hub name (the hub's word, never the page's)."""
        user = self.current_user
        if not user or user.get("kind") != "user":
            raise web.HTTPError(403, say("not_yours"))
        return user["name"]

    def teacher(self) -> None:
        if TEACHER_SCOPE not in set((self.current_user or {}).get("scopes", ())):
            raise web.HTTPError(403, say("not_teacher"))


class ProgressHandler(Base):
    """The caller's own document."""

    @web.authenticated
    def get(self):
        kept = self.store.get(self.learner())
        self.write({"document": kept[0] if kept else None})

    @web.authenticated
    def put(self):
        learner = self.learner()
        body = self.request.body
        if len(body) > MAX_CHARS:
            raise web.HTTPError(400, say("too_big", limit=f"{MAX_CHARS:,}"))
        if not body.strip():
            raise web.HTTPError(400, say("no_body"))
        try:
            merged = self.store.put(learner, body)
        except ProgressError as error:
            raise web.HTTPError(400, say("bad_document", reason=str(error))) from None
        except BeforeReset as reset:
            raise web.HTTPError(409, say("before_reset", when=_when(reset.when))) from None
        self.write({"document": merged})

    @web.authenticated
    def delete(self):
        self.store.reset(self.learner())
        self.set_status(204)


class MyPage(Base):
    """The learner's own page: their row (the teacher's words) and their Reset."""

    @web.authenticated
    def get(self):
        learner = self.learner()
        kept = self.store.get(learner)
        self.write(_my_page(self.settings["calijack_prefix"], learner, kept, self.xsrf_token.decode()))


class MyReset(Base):
    """The learner's Reset: the server's copy goes (the time remembered), then the page that
    answers removes this browser's copy (the lessons' ``localStorage`` key, same origin)."""

    @web.authenticated
    def post(self):
        learner = self.learner()
        if self.get_body_argument("confirm", "") != "yes":
            raise web.HTTPError(400, say("reset_unconfirmed"))
        self.store.reset(learner)
        self.write(_reset_page(self.settings["calijack_prefix"]))


class SyncFrame(Base):
    """The hidden frame of the lesson pages: the hub's sign-in happens here, and the page reads
    the XSRF token its calls carry from this frame's body."""

    @web.authenticated
    def get(self):
        self.learner()
        self.write(_page("sync", "", body_data={"xsrf": self.xsrf_token.decode()}))


class ClassPage(Base):
    @web.authenticated
    def get(self):
        self.teacher()
        sort = self.get_argument("sort", "learner")
        sort = sort if sort in _SORTS else "learner"
        order = "desc" if self.get_argument("order", "") == "desc" else "asc"
        rows = [row(name, doc, when) for name, doc, when in self.store.all()]
        keys = {"learner": lambda r: r.learner, "checks": lambda r: (r.answered, r.first),
                "stars": lambda r: r.stars, "deals": lambda r: r.deals, "people": lambda r: r.people[0],
                "queue": lambda r: (r.due, r.queued), "active": lambda r: r.active}
        rows.sort(key=keys[sort], reverse=order == "desc")
        page = _class_page(self.settings["calijack_prefix"], self.settings["calijack_hub"], rows, sort, order)
        section = tables_section(self.settings["calijack_room"], self.settings["calijack_prefix"])
        self.write(page.replace("</main>", section + "</main>", 1))


class CsvHandler(Base):
    @web.authenticated
    def get(self):
        self.teacher()
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(CSV_HEADER)
        for name, doc, when in self.store.all():
            writer.writerow(row(name, doc, when).csv())
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", 'attachment; filename="class.csv"')
        self.write(out.getvalue())


def _named(handler: Base, name: str) -> tuple[dict, object]:
    handler.teacher()
    if not _LEARNER.fullmatch(name):
        raise web.HTTPError(404, say("bad_name"))
    kept = handler.store.get(name)
    if kept is None:
        raise web.HTTPError(404, say("no_learner", name=name))
    return kept


class LearnerPage(Base):
    @web.authenticated
    def get(self, name):
        doc, when = _named(self, name)
        self.write(_learner_page(self.settings["calijack_prefix"], name, doc, self.xsrf_token.decode()))


def _deal(handler: Base, name: str, number: str) -> dict:
    """The learner's kept deal ``number`` (1 is the newest, as their page lists them)."""
    doc, _ = _named(handler, name)
    deals = doc["deals"][::-1]
    index = int(number) - 1
    if not 0 <= index < len(deals):
        raise web.HTTPError(404, say("no_deal", name=name, number=int(number)))
    return deals[index]


class DealRecord(Base):
    @web.authenticated
    def get(self, name, number):
        entry = _deal(self, name, number)
        self.set_header("Content-Type", "application/json")
        self.set_header("Content-Disposition", f'attachment; filename="{name}-deal-{number}.json"')
        self.write(json.dumps(entry["record"], indent=1))


class DealReview(Base):
    """One kept deal on the review board, worked out in the review process (never on this loop)."""

    @web.authenticated
    async def get(self, name, number):
        entry = _deal(self, name, number)
        reviews: Reviews = self.settings["calijack_reviews"]
        try:
            board = await reviews.get(name, entry)
        except Exception as error:  # noqa: BLE001 (one sentence, never a traceback)
            reason = str(error).rstrip(".") or type(error).__name__
            raise web.HTTPError(500, say("review_failed", reason=reason)) from None
        self.write(_review_page(self.settings["calijack_prefix"], name, int(number), entry, board, reviews.worlds))



class DeleteLearner(Base):
    @web.authenticated
    def post(self, name):
        _named(self, name)
        self.store.delete(name)
        self.write(_page(say("deleted", name=name), f"<p role='status'>{html.escape(say('deleted', name=name))}</p>"
                         f"<p><a href='{self.settings['calijack_prefix']}'>{html.escape(say('learner_back'))}</a></p>"))


def make_app(store, prefix: str, hub_url: str = "/hub/", hub_auth=None, room=None,
             reviews: Reviews | None = None) -> web.Application:
    """The service's application at ``prefix`` (ends with "/"), keeping documents in ``store``;
    ``hub_auth`` a :class:`HubOAuth` (by default the one the hub's variables describe); ``room``
    the classmates' tables (:class:`calijack.tables.Room`; a new one by default); ``reviews``
    the deals' reviews (:class:`~calijack.classsvc.review.Reviews`; the coach's default)."""
    p = re.escape(prefix)
    name = r"([^/]{1,80})"
    return web.Application([
        (p, ClassPage),
        (p + r"api/progress", ProgressHandler),
        (p + r"sync", SyncFrame),
        (p + r"me", MyPage),
        (p + r"me/reset", MyReset),
        (p + r"class\.csv", CsvHandler),
        (p + rf"learner/{name}", LearnerPage),
        (p + rf"learner/{name}/deal/([0-9]{{1,3}})\.json", DealRecord),
        (p + rf"learner/{name}/deal/([0-9]{{1,3}})", DealReview),
        (p + rf"learner/{name}/delete", DeleteLearner),
        (p + r"oauth_callback", HubOAuthCallbackHandler),
        *table_routes(p),
    ], **table_settings(room, TEACHER_SCOPE, _page), calijack_store=store, calijack_prefix=prefix, calijack_hub=hub_url, calijack_hub_auth=hub_auth,
        calijack_reviews=reviews if reviews is not None else Reviews(),
        cookie_secret=secrets.token_bytes(32))  # a restart signs in again, through the hub


# -- the pages ------------------------------------------------------------------------------------

# The pages' one stylesheet, a file of its own (the package keeps no stylesheet in a Python string).
_STYLE = (Path(__file__).with_name("pages.css")).read_text(encoding="utf-8")
_PACKAGE = Path(__file__).resolve().parent.parent
# The review board: the sandbox's stylesheet and script, read from their one copy (no widgets imported).
_BOARD_STYLESHEET = (_PACKAGE / "static" / "calijack.css").read_text(encoding="utf-8")
_BOARD_JS = "\n".join((path).read_text(encoding="utf-8") for path in (
    _PACKAGE / "widgets" / "keys.js", _PACKAGE / "widgets" / "review.js", Path(__file__).with_name("board.js")))


def _page(title: str, body: str, body_data: dict | None = None, head: str = "") -> str:
    data = "".join(f' data-{k}="{html.escape(v)}"' for k, v in (body_data or {}).items())
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{html.escape(title)}</title><style>{_STYLE}</style>{head}</head>"
            f"<body{data}><main>{body}</main></body></html>")


def _when(moment) -> str:
    """A time on a page: ``2026-12-01 10:00`` (UTC)."""
    return moment.strftime("%Y-%m-%d %H:%M")


def _script_json(value) -> str:
    """``value`` as JSON that a ``<script type="application/json">`` holds safely."""
    return json.dumps(value, separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e")


def _list(items: list[str]) -> str:
    if not items:
        return html.escape(say("nothing"))
    return "<ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in items) + "</ul>"


def _cells(r) -> list[tuple[str, str, str]]:
    """A learner's row, cell by cell after their name, in the teacher's table's words:
    ``(heading key, attributes, HTML)``; the learner's own page shows the same."""
    e = html.escape
    chapters = [say("chapter_cell", chapter=c, answered=a, first=f) for c, (a, f) in r.chapters.items()]
    levels = [say("deals_cell", level=lvl, deals=n, mean=f"{mean:.2f}") for lvl, (n, mean) in r.levels.items()]
    return [
        ("col_checks", f" data-answered='{r.answered}' data-first='{r.first}'",
         f"{e(say('checks_cell', answered=r.answered, first=r.first))}{_list(chapters) if chapters else ''}"),
        ("col_stars", f" data-stars='{r.stars}'", f"{r.stars}"),
        ("col_deals", f" data-deals='{r.deals}'", _list(levels)),
        ("col_people", f" data-people='{r.people[0]}'",
         e(say("people_cell", deals=r.people[0], mean=f"{r.people[1]:.2f}"))),
        ("col_queue", f" data-queued='{r.queued}' data-due='{r.due}'", e(say("queue_cell", queued=r.queued, due=r.due))),
        ("col_active", "", e(_when(r.active))),
    ]


def _class_page(prefix: str, hub: str, rows, sort: str, order: str) -> str:
    e = html.escape
    heads = [("learner", "col_learner"), ("checks", "col_checks"), ("stars", "col_stars"),
             ("deals", "col_deals"), ("people", "col_people"), ("queue", "col_queue"), ("active", "col_active")]
    ths = []
    for key, text in heads:
        now = key == sort
        flip = "desc" if now and order == "asc" else "asc"
        aria = f" aria-sort='{'ascending' if order == 'asc' else 'descending'}'" if now else ""
        ths.append(f"<th scope='col'{aria}><a href='{e(prefix)}?sort={key}&amp;order={flip}'>{e(say(text))}</a></th>")
    body = []
    for r in rows:
        cells = "".join(f"<td{attrs}>{content}</td>" for _, attrs, content in _cells(r))
        body.append(f"<tr><th scope='row'><a href='{e(prefix)}learner/{e(r.learner)}'>{e(r.learner)}</a></th>"
                    f"{cells}</tr>")
    table = (f"<div class='wrap' role='region' aria-labelledby='cj-caption' tabindex='0'><table>"
             f"<caption id='cj-caption'>{e(say('intro'))}</caption><thead><tr>{''.join(ths)}</tr></thead>"
             f"<tbody>{''.join(body)}</tbody></table></div>") if rows else f"<p>{e(say('none_yet'))}</p>"
    nav = (f"<nav aria-label='{e(say('title'))}'><a href='{e(hub)}admin'>{e(say('admin_link'))}</a>"
           f"<a href='{e(prefix)}class.csv' download>{e(say('csv_link'))}</a></nav>")
    return _page(say("title"), f"<h1>{e(say('title'))}</h1>{nav}{table}")


def _deal_line(deal: dict, labels: dict) -> str:
    you = deal["points"][deal["seat"]]
    return say("learner_deal", when=deal["when"].replace("T", " ")[:16], level=labels.get(deal["opponent"], deal["opponent"]),
               you=you, them=sum(deal["points"]) - you)


def _learner_page(prefix: str, name: str, doc: dict, xsrf: str) -> str:
    e = html.escape
    from ..progress import opponent_labels

    labels = opponent_labels()
    items = []
    for number, deal in enumerate(doc["deals"][::-1][:20], start=1):
        line = _deal_line(deal, labels)
        items.append(f"<li>{e(line)} <a href='{e(prefix)}learner/{e(name)}/deal/{number}'>"
                     f"{e(say('learner_review'))}</a> <a href='{e(prefix)}learner/{e(name)}/deal/{number}.json' "
                     f"download>{e(say('learner_record'))}</a></li>")
    deals = f"<ol>{''.join(items)}</ol>" if items else f"<p>{e(say('learner_none'))}</p>"
    form = (f"<form method='post' action='{e(prefix)}learner/{e(name)}/delete' "
            f"onsubmit=\"return confirm(this.dataset.confirm)\" data-confirm='{e(say('delete_confirm', name=name))}'>"
            f"<input type='hidden' name='_xsrf' value='{e(xsrf)}'>"
            f"<button type='submit'>{e(say('delete', name=name))}</button></form>")
    return _page(say("learner_title", name=name),
                 f"<nav><a href='{e(prefix)}'>{e(say('learner_back'))}</a></nav>"
                 f"<h1>{e(say('learner_title', name=name))}</h1><h2>{e(say('learner_deals'))}</h2>{deals}{form}")


def _review_page(prefix: str, name: str, number: int, entry: dict, board: dict, worlds: int) -> str:
    """One deal on the review board: the board's script (in the page: a script the page fetched
    would be refused the hub's sign-in, which only a page load carries) steps through ``board``."""
    e = html.escape
    from ..progress import opponent_labels

    line = _deal_line(entry, opponent_labels())
    body = (f"<nav><a href='{e(prefix)}learner/{e(name)}'>{e(say('review_back', name=name))}</a></nav>"
            f"<h1>{e(say('review_title', name=name))}</h1><p>{e(line)}</p>"
            f"<p>{e(say('review_intro', name=name, samples=worlds))}</p>"
            f"<div id='cj-review' class='cj-root' data-deal='{number}'></div>"
            f"<noscript><p>{e(say('review_noscript'))}</p></noscript>"
            f"<script type='application/json' id='cj-review-data'>{_script_json(board)}</script>"
            f"<script type='module'>{_BOARD_JS}</script>")
    return _page(say("review_title", name=name), body, head=f"<style>{_BOARD_STYLESHEET}</style>")


def _my_page(prefix: str, learner: str, kept, xsrf: str) -> str:
    """The learner's own page: their row, in the teacher's words, and their Reset."""
    e = html.escape
    if kept is None:
        held = f"<p>{e(say('me_none'))}</p>"
    else:
        doc, when = kept
        cells = _cells(row(learner, doc, when))
        items = "".join(f"<dt>{e(say(key))}</dt><dd{attrs}>{content}</dd>" for key, attrs, content in cells)
        held = (f"<p>{e(say('me_intro', name=learner))}</p><dl class='mine'>{items}</dl>"
                f"<p>{e(say('me_deals', deals=len(doc['deals']) + len(doc['people']['deals'])))}</p>")
    form = (f"<section aria-labelledby='cj-reset'><h2 id='cj-reset'>{e(say('me_reset_title'))}</h2>"
            f"<p>{e(say('me_reset_what'))}</p><p>{e(say('me_reset_devices'))}</p>"
            f"<form method='post' action='{e(prefix)}me/reset'>"
            f"<input type='hidden' name='_xsrf' value='{e(xsrf)}'>"
            f"<p><label><input type='checkbox' name='confirm' value='yes' required> {e(say('me_reset_confirm'))}</label></p>"
            f"<button type='submit'>{e(say('me_reset_button'))}</button></form></section>")
    return _page(say("me_title"), f"<h1>{e(say('me_title'))}</h1>{held}{form}")


def _reset_page(prefix: str) -> str:
    """After a Reset: the server's copy is gone; the page's script removes this browser's."""
    e = html.escape
    script = ("<script>(function(){var out=document.getElementById('cj-local');"
              "try{localStorage.removeItem(out.dataset.key);out.textContent=out.dataset.done;}"
              "catch(err){out.textContent=out.dataset.failed;}})();</script>")
    body = (f"<h1>{e(say('me_title'))}</h1><p role='status'>{e(say('me_reset_done'))}</p>"
            f"<p id='cj-local' role='status' data-key='{e(KEY)}' data-done='{e(say('me_local_done'))}' "
            f"data-failed='{e(say('me_local_failed'))}'></p>{script}"
            f"<p><a href='{e(prefix)}me'>{e(say('me_back'))}</a></p>")
    return _page(say("me_reset_done"), body)
