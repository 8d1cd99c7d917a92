"""The tests' throwaway PostgreSQL server (tests/postgres_server.py): reachable by its socket
and, when asked, by TCP; databases apart from each other; nothing left once it stops."""

from __future__ import annotations

import os

import psycopg

from tests.postgres_server import database_name, running_postgres


def test_a_throwaway_server_serves_separate_databases_and_leaves_nothing() -> None:
    with running_postgres(tcp=True) as server:
        one, two = server.create_database(), server.create_database()
        assert one != two
        server.drop_database(server.create_database("gone"))
        with psycopg.connect(one, autocommit=True) as db:
            db.execute("CREATE TABLE t (x int)")
        with psycopg.connect(server.tcp_url(database_name(two))) as db:
            found = db.execute("SELECT count(*) FROM pg_tables WHERE tablename = 't'")
            assert found.fetchone() == (0,)
        with psycopg.connect(server.url()) as db:
            settings = dict(db.execute("SELECT name, setting FROM pg_settings").fetchall())
            names = {r[0] for r in db.execute("SELECT datname FROM pg_database")}
        assert {database_name(one), database_name(two)} <= names and "gone" not in names
        assert settings["fsync"] == "off"
        pid = int((server.data / "postmaster.pid").read_text().split()[0])
        root = server.root
    assert not root.exists()
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        pass
    else:
        raise AssertionError(f"the server (pid {pid}) is still running")
