"""``make hub``'s launcher and configuration (``deploy/jupyterhub``) refuse what they must, in one
line, before anything listens; the browser tests (``tests/browser/test_hub.py``) run the hub.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from traitlets.config.loader import PyFileConfigLoader

from calijack.serve import stop_process_group

REPO = Path(__file__).resolve().parents[1]
DEPLOY = REPO / "deploy" / "jupyterhub"
sys.path.insert(0, str(DEPLOY))

import hub  # noqa: E402  (deploy/jupyterhub/hub.py)


def run_hub(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``hub.py ARGS``, expected to refuse (or forget) at once: a hub it starts instead is stopped,
    its proxy and culler with it, and the test fails."""
    process = subprocess.Popen([sys.executable, str(DEPLOY / "hub.py"), *args], cwd=cwd, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        out, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        stop_process_group(process)
        pytest.fail(f"hub.py {' '.join(args)} started a hub instead of refusing", pytrace=False)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def load_hub_config(env: dict[str, str]):
    """``jupyterhub_config.py`` as JupyterHub loads it, with ``env`` in the environment: its config."""
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        return PyFileConfigLoader("jupyterhub_config.py", path=str(DEPLOY)).load_config()
    finally:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture(scope="session")
def hub_config(tmp_path_factory):
    """(config, settings) of the hub for a class of two, as ``hub.py`` hands it over."""
    folder = tmp_path_factory.mktemp("hub-config")
    (folder / "class.txt").write_text("Ann\nbo\n")
    settings = hub.Settings(learners=folder / "class.txt", state=folder / "state", api_port=1, proxy_api_port=2)
    return load_hub_config(settings.to_env()), settings


@pytest.fixture
def learners(tmp_path) -> Path:
    path = tmp_path / "learners.txt"
    path.write_text("# period 3\nAnn  \n\nbo # the new one\nann\n")
    return path


def test_the_list_of_learners(learners):
    assert hub.read_learners(learners) == ["ann", "bo"]


@pytest.mark.parametrize("text, complaint", [
    ("ann\nal ice\n", "line 2: 'al ice' is not a name"),
    ("../etc\n", "line 1: '../etc' is not a name"),
    ("# nobody yet\n\n", "names no learner"),
    ("ann\nteacher\n", "'teacher' is the teacher's name"),
])
def test_a_bad_list_is_refused_in_one_line(tmp_path, text, complaint):
    (tmp_path / "learners.txt").write_text(text)
    done = run_hub("--learners", "learners.txt", "--state", "state", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("make hub: ") and complaint in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert not (tmp_path / "state").exists()


@pytest.mark.parametrize("args, complaint", [
    (["--listen", "0.0.0.0"], "add --host-name, --ssl-cert, --ssl-key"),
    (["--host-name", "lessons.example"], "add --ssl-cert, --ssl-key"),
    (["--host-name", "lessons.example", "--ssl-cert", "c.pem", "--ssl-key", "k.pem"], "c.pem: no such file"),
    (["--learners", "missing.txt"], "no list of learners at"),
    (["--teacher", "Miss Honey"], "--teacher 'miss honey': a name is"),
])
def test_the_network_needs_a_name_and_https(learners, args, complaint):
    done = run_hub("--learners", str(learners), "--state", "state", *args, cwd=learners.parent)
    assert done.returncode == 2, done.stdout
    assert done.stderr.startswith("make hub: ") and complaint in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr


def test_a_port_in_use_is_refused(learners):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        done = run_hub("--learners", str(learners), "--state", "state", "--port", str(port), cwd=learners.parent)
    assert done.returncode == 2 and f"port {port} is in use" in done.stderr


def test_the_configuration_refuses_what_the_launcher_refuses(learners):
    settings = hub.Settings(learners=learners, listen="0.0.0.0", host_name="lessons.example")
    with pytest.raises(SystemExit, match="over HTTPS"):
        load_hub_config(settings.to_env())


def test_the_configuration_lets_in_the_list_and_nobody_else(hub_config):
    config, settings = hub_config
    assert config.Authenticator.allowed_users == {"ann", "bo", "teacher"}
    assert config.Authenticator.allow_all is False and config.Authenticator.allow_existing_users is False
    assert config.Authenticator.admin_users == set()
    assert config.FirstUseAuthenticator.create_users is False
    roles = {role["name"]: role for role in config.JupyterHub.load_roles}
    assert roles["teacher"]["users"] == ["teacher"]
    assert not {"access:servers", "tokens", "admin:users", "shares"} & set(roles["teacher"]["scopes"])
    assert config.JupyterHub.bind_url == "http://127.0.0.1:8800/"
    assert config.JupyterHub.hub_bind_url.startswith("http://127.0.0.1:")
    assert str(settings.state) in config.JupyterHub.db_url


@pytest.mark.parametrize("on", [True, False])
def test_the_class_service_is_there_unless_left_out(tmp_path, on):
    """``hub.py --no-class-service`` (bench/hub.py's comparison): no service, no scope of its own, no
    sync URL for the lesson pages; by default all three."""
    (tmp_path / "class.txt").write_text("ann\n")
    settings = hub.Settings(learners=tmp_path / "class.txt", state=tmp_path / "state", api_port=1, proxy_api_port=2,
                            class_service=int(on))
    assert hub.Settings.from_env(settings.to_env()).class_service == int(on)
    config = load_hub_config(settings.to_env())
    services = [service["name"] for service in config.JupyterHub.services]
    assert services == (["idle-culler", "calijack-class"] if on else ["idle-culler"])
    assert ("CALIJACK_CLASS_URL" in config.Spawner.environment) is on
    scopes = [scope for role in config.JupyterHub.load_roles for scope in role["scopes"]]
    assert any("calijack-class" in scope for scope in scopes) is on
    assert bool(config.JupyterHub.custom_scopes) is on


def test_hub_py_hands_over_no_class_service():
    assert hub.parse_args(["--no-class-service"]).no_class_service is True
    assert hub.parse_args([]).no_class_service is False


def test_forget_a_password(tmp_path):
    import dbm

    with dbm.open(str(tmp_path / hub.PASSWORDS), "c") as passwords:
        passwords[b"ann"] = b"hash"
    done = run_hub("--state", str(tmp_path), "forget", "Ann", cwd=tmp_path)
    assert "ann's password is forgotten" in done.stdout
    with dbm.open(str(tmp_path / hub.PASSWORDS), "r") as passwords:
        assert b"ann" not in passwords
    assert "has no password yet" in run_hub("--state", str(tmp_path), "forget", "ann", cwd=tmp_path).stdout


def self_signed(folder: Path, name: str) -> tuple[Path, Path]:
    """A certificate for ``name`` and its key, made here (cryptography, pinned with the hub)."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def test_on_the_network_the_hub_speaks_https_only(learners):
    """Given a name, a certificate and a key, the hub listens where told, over HTTPS alone (here on
    127.0.0.2, another loopback address, so nothing leaves the machine)."""
    import http.client
    import ssl

    cert, key = self_signed(learners.parent, "lessons.test")
    with socket.socket() as sock:
        sock.bind(("127.0.0.2", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, str(DEPLOY / "hub.py"), "--learners", str(learners), "--state", "state",
         "--listen", "127.0.0.2", "--port", str(port), "--host-name", "lessons.test",
         "--ssl-cert", str(cert), "--ssl-key", str(key)],
        cwd=learners.parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL, start_new_session=True)
    trust = ssl.create_default_context(cafile=str(cert))

    def get(secure: bool) -> int:
        if secure:
            connection = http.client.HTTPSConnection("127.0.0.2", port, timeout=5, context=trust)
            connection.sock = trust.wrap_socket(socket.create_connection(("127.0.0.2", port), 5),
                                                server_hostname="lessons.test")
        else:
            connection = http.client.HTTPConnection("127.0.0.2", port, timeout=5)
        try:
            connection.request("GET", "/hub/api/", headers={"Host": f"lessons.test:{port}"})
            return connection.getresponse().status
        finally:
            connection.close()

    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if get(secure=True) == 200:
                    break
            except OSError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, "the hub did not answer over HTTPS"
            time.sleep(0.5)
        with pytest.raises((OSError, http.client.HTTPException)):
            get(secure=False)  # plain HTTP gets no answer from an HTTPS port
    finally:
        stop_process_group(process)
