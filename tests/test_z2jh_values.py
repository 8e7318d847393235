"""``deploy/z2jh/values.yaml`` passes the Zero to JupyterHub chart's schema, as Helm checks it, and
says what ``make hub``'s configuration says.

Helm validates the chart's default values merged with the user's (maps merge key by key, the
user's value wins, a null removes the key; anything else is replaced), not the user's file alone:
``deploy/z2jh/chart/`` holds a copy of the chart's schema and defaults (its README says which
commit). The check uses ``jsonschema`` (pinned in requirements.txt) with the draft the schema is written in (7).
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from types import SimpleNamespace

import jsonschema
import pytest
import yaml
from traitlets.config import Config

from calijack.serve import SANDBOX
from test_hub_settings import hub_config  # noqa: F401  (a fixture, shared)

REPO = Path(__file__).resolve().parents[1]
VALUES = REPO / "deploy" / "z2jh" / "values.yaml"
DOCKERFILE = REPO / "deploy" / "z2jh" / "Dockerfile"
CHART = REPO / "deploy" / "z2jh" / "chart"  # the chart's schema and defaults, copied (its README)


def helm_merge(defaults, values):
    """``values`` over ``defaults`` as Helm coalesces them."""
    if not (isinstance(defaults, dict) and isinstance(values, dict)):
        return copy.deepcopy(values)
    merged = copy.deepcopy(defaults)
    for key, value in values.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = helm_merge(merged.get(key), value)
    return merged


@pytest.fixture(scope="module")
def chart():
    """(schema, default values) of the chart."""
    load = lambda name: yaml.safe_load((CHART / name).read_text(encoding="utf-8"))  # noqa: E731
    return load("values.schema.yaml"), load("values.yaml")


def errors(chart, values) -> list[str]:
    """The schema's complaints about ``values`` merged over the chart's defaults."""
    schema, defaults = chart
    validator = jsonschema.Draft7Validator(schema)
    return sorted(f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
                  for e in validator.iter_errors(helm_merge(defaults, values)))


def ours() -> dict:
    return yaml.safe_load(VALUES.read_text(encoding="utf-8"))


def test_the_values_pass_the_charts_schema(chart):
    assert errors(chart, ours()) == []


@pytest.mark.parametrize("path, wrong, where, complaint", [
    (("singleuser", "defaultUrll"), "/voila/render/x.ipynb", "singleuser", "'defaultUrll' was unexpected"),
    (("cull", "timeout"), "soon", "cull.timeout", "'soon' is not of type"),
    (("singleuser", "image", "name"), 42, "singleuser.image.name", "42 is not of type 'string'"),
    (("singleuser", "memory", "limitt"), "1G", "singleuser.memory", "'limitt' was unexpected"),
])
def test_a_wrong_copy_fails_the_schema(chart, path, wrong, where, complaint):
    values = ours()
    node = values
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = wrong
    found = errors(chart, values)
    assert any(e.startswith(where + ": ") and complaint in e for e in found), found


def test_helm_merge_keeps_defaults_and_drops_nulls():
    merged = helm_merge({"a": {"b": 1, "c": [1, 2]}, "d": 1}, {"a": {"c": [3]}, "d": None})
    assert merged == {"a": {"b": 1, "c": [3]}}


def test_the_values_say_what_make_hub_says(chart, hub_config):
    merged = helm_merge(chart[1], ours())
    config, settings = hub_config
    singleuser = merged["singleuser"]
    assert singleuser["defaultUrl"] == config.Spawner.default_url == f"/voila/render/{SANDBOX}"
    hub = merged["hub"]["config"]
    assert hub["JupyterHub"]["authenticator_class"] == "firstuseauthenticator"
    assert hub["JupyterHub"]["admin_access"] is False
    for name in ("create_users",):
        assert hub["FirstUseAuthenticator"][name] == config.FirstUseAuthenticator[name]
    for name in ("allow_all", "allow_existing_users", "username_pattern"):
        assert hub["Authenticator"][name] == config.Authenticator[name], name
    assert hub["Authenticator"]["admin_users"] == [] == list(config.Authenticator.admin_users)
    teacher = next(r for r in config.JupyterHub.load_roles if r["name"] == "teacher")
    assert merged["hub"]["loadRoles"]["teacher"]["scopes"] == teacher["scopes"]
    user = next(r for r in config.JupyterHub.load_roles if r["name"] == "user")
    assert merged["hub"]["loadRoles"]["user"]["scopes"] == user["scopes"]
    assert hub["JupyterHub"]["custom_scopes"] == config.JupyterHub.custom_scopes
    service = next(s for s in config.JupyterHub.services if s["name"] == "calijack-class")
    ours_ = merged["hub"]["services"]["calijack-class"]
    for name in ("display", "oauth_no_confirm", "oauth_client_allowed_scopes"):
        assert ours_[name] == service[name], name
    assert ours_["command"][:3] == ["python3", "-m", "calijack.classsvc"] == ["python3", *service["command"][1:3]]
    port = int(ours_["url"].rsplit(":", 1)[1])
    assert {"name": "calijack-class", "port": port, "targetPort": port} in merged["hub"]["service"]["extraPorts"]
    assert singleuser["extraEnv"]["CALIJACK_CLASS_URL"] == config.Spawner.environment["CALIJACK_CLASS_URL"]
    assert merged["cull"]["enabled"] is True and merged["cull"]["timeout"] == settings.cull_timeout
    assert singleuser["memory"]["limit"] and singleuser["cpu"]["limit"]
    assert singleuser["storage"]["type"] == "none"


def test_the_teachers_role_alone_opens_jupyterlab_on_either_hub(chart, hub_config, tmp_path):
    """``make hub``'s pre-spawn hook and the values' one: the teacher's own server opens on
    JupyterLab (and keeps the teacher's adapted lessons); a learner's does not."""
    config, _ = hub_config
    snippet = helm_merge(chart[1], ours())["hub"]["extraConfig"]["calijack-teacher-opens-jupyterlab"]
    z2jh = Config()
    exec(snippet, {"c": z2jh})  # as the chart's hub runs its extraConfig
    for where, hook in (("make hub", config.Spawner.pre_spawn_hook), ("z2jh", z2jh.KubeSpawner.pre_spawn_hook)):
        for role, lab in (("teacher", True), ("user", False)):
            home = tmp_path / where / role
            spawner = SimpleNamespace(user=SimpleNamespace(roles=[SimpleNamespace(name=role)]), home_dir=str(home),
                                      default_url=config.Spawner.default_url, environment={"KEPT": "1"})
            hook(spawner)
            assert (spawner.default_url == "/lab") is lab, (where, role)
            assert spawner.environment == {"KEPT": "1", **({"CALIJACK_SERVER_LAB": "1"} if lab else {})}
            if where == "make hub":  # the lessons are copied; the teacher's adapted copy is kept
                (home / SANDBOX).write_text("adapted")
                hook(spawner)
                assert ((home / SANDBOX).read_text() == "adapted") is lab, role


def test_the_image_recipe_matches_the_values():
    """The Dockerfile copies what exists, and starts what the values name, where they name it."""
    recipe = DOCKERFILE.read_text(encoding="utf-8")
    for source in re.findall(r"^COPY (\S+(?: \S+)*?) \S+$", recipe, re.M):
        for path in source.split():
            assert (REPO / path).exists(), f"the Dockerfile copies {path}, which does not exist"
    start = ours()["singleuser"]["cmd"][-1]
    assert start.startswith("/srv/calijack/") and (REPO / start.removeprefix("/srv/calijack/")).is_file()
    assert f'CMD ["python", "{start}"]' in recipe
    workdir = re.findall(r"^WORKDIR (\S+)$", recipe, re.M)[-1]
    assert (REPO / workdir.removeprefix("/srv/calijack/") / SANDBOX).is_file()


def test_the_hub_image_recipe_copies_what_exists_and_holds_the_class_service():
    """deploy/z2jh/Dockerfile.hub: the chart's hub image with calijack, for the class service the values run."""
    recipe = (REPO / "deploy" / "z2jh" / "Dockerfile.hub").read_text(encoding="utf-8")
    for source in re.findall(r"^COPY (\S+(?: \S+)*?) \S+$", recipe, re.M):
        for path in source.split():
            assert (REPO / path).exists(), f"Dockerfile.hub copies {path}, which does not exist"
    assert "FROM quay.io/jupyterhub/k8s-hub:${HUB_TAG}" in recipe and "import calijack.classsvc.app" in recipe
    assert ours()["hub"]["image"]["name"].endswith("/calijack-hub")
    command = ours()["hub"]["services"]["calijack-class"]["command"]
    assert command[1:3] == ["-m", "calijack.classsvc"] and (REPO / "calijack" / "classsvc" / "__main__.py").is_file()
