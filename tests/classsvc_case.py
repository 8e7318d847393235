"""The class service under ``tornado.testing``, the hub stood in at its one boundary: the
answer to "whose token is this?" (``HubOAuth.get_user``) comes from a table of the test's own.
Shared by ``test_classsvc.py`` and ``test_classsvc_tables.py``."""

from __future__ import annotations

import copy
import tempfile

from jupyterhub.services.auth import HubOAuth
from tornado.testing import AsyncHTTPTestCase

from calijack.classsvc.app import NAME, make_app
from calijack.classsvc.store import Store

PREFIX = f"/services/{NAME}/"
ACCESS = f"access:services!service={NAME}"


def fake_hub(users: dict) -> HubOAuth:
    """HubOAuth, but the hub's model of a token's owner is ``users[token]`` (``None``: unknown)."""

    class FakeHub(HubOAuth):
        def get_user(self, handler, *, sync=True):
            header = handler.request.headers.get("Authorization", "")
            return copy.deepcopy(users.get(header.removeprefix("token ")))

    return FakeHub(api_token="not-used", api_url="http://127.0.0.1:9/hub/api", access_scopes={ACCESS},
                   base_url=PREFIX, oauth_client_id=f"service-{NAME}", hub_prefix="/hub/",
                   oauth_redirect_uri=f"http://127.0.0.1{PREFIX}oauth_callback")


class ServiceCase(AsyncHTTPTestCase):
    """The service on a database of its own (SQLite in a temporary folder); ``USERS`` are the
    tokens the stand-in hub knows; ``app_options()`` adds to ``make_app``'s arguments."""

    USERS: dict = {}

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.store = Store(f"sqlite:///{self.folder.name}/class.sqlite")
        super().setUp()

    def tearDown(self):
        super().tearDown()
        self.store.close()
        self.folder.cleanup()

    def app_options(self) -> dict:
        return {}

    def get_app(self):
        return make_app(self.store, PREFIX, hub_auth=fake_hub(self.USERS), **self.app_options())
