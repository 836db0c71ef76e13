"""The S3 object store against a real S3 server (weed mini): upload, presigned links, expiry."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from tools.storage.links import LinkRefused, LinkSigner, is_expired
from tools.storage.objects import FileObjectStore, ObjectNotFound
from tools.storage.rows import table_key
from tools.storage.s3 import LIFECYCLE_RULE_ID, S3ObjectStore, make_client

CSV = "\ufeffFile,Amount\r\ninvoices/a.pdf,1.00\r\n".encode()


def test_the_bucket_is_created_with_a_seven_day_rule_on_tables(s3_store) -> None:  # type: ignore[no-untyped-def]
    rules = s3_store.client.get_bucket_lifecycle_configuration(Bucket="kea-test-files")["Rules"]
    (rule,) = [r for r in rules if r["ID"] == LIFECYCLE_RULE_ID]
    assert rule["Expiration"] == {"Days": 7} and rule["Filter"]["Prefix"] == "team-a/record-extraction/"


def test_objects_round_trip_and_list_under_their_prefix(s3_store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    source = tmp_path / "table.csv"
    source.write_bytes(CSV)
    s3_store.put_file(table_key("e1"), source, "text/csv; charset=utf-8")
    s3_store.put_bytes("record-extraction/e1/rows/1.jsonl", b'{"file": "a"}\n{"x": 1}\n', "application/x-ndjson")
    with s3_store.open("record-extraction/e1/rows/1.jsonl") as handle:
        assert handle.readline() == b'{"file": "a"}\n' and list(handle) == [b'{"x": 1}\n']
    assert sorted(s3_store.keys("record-extraction/e1")) == ["record-extraction/e1/rows/1.jsonl", "record-extraction/e1/table.csv"]
    assert s3_store.url(table_key("e1")) == "s3://kea-test-files/team-a/record-extraction/e1/table.csv"
    assert abs(s3_store.stored_at(table_key("e1")) - datetime.now(UTC)) < timedelta(minutes=1)
    s3_store.delete("record-extraction/e1/rows/1.jsonl")
    assert not s3_store.exists("record-extraction/e1/rows/1.jsonl")
    with pytest.raises(ObjectNotFound):
        s3_store.open("record-extraction/e1/none.csv")


@pytest.mark.parametrize("on", ["s3", "folder"])
def test_rows_stored_by_an_earlier_attempt_are_found_in_one_look(on, s3_store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from core.reading import Record
    from tools.storage.rows import RowStore

    rows = RowStore(s3_store if on == "s3" else FileObjectStore(tmp_path / "files"))
    rows.write("e1", 3, "a.txt", [Record(values={"Code": "A"})])
    rows.write("e1", 12, "b.txt", [])
    rows.write_failure("e1", 5, "c.txt", "unreadable")
    rows.write("e2", 7, "d.txt", [Record(values={"Code": "D"})])  # another extraction's
    found = rows.stored_rows("e1", [3, 5, 7, 12, 30])
    assert {i: [r.values for r in records] for i, records in found.items()} == {3: [{"Code": "A"}], 12: []}


def test_a_presigned_link_downloads_and_a_tampered_or_expired_one_is_refused(s3_store, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    s3_store.put_bytes(table_key("e2"), CSV, "text/csv; charset=utf-8")
    link = s3_store.presigned_url(table_key("e2"), 24 * 3600)
    assert "X-Amz-Expires=86400" in link
    response = httpx.get(link)
    assert response.status_code == 200 and response.content == CSV

    assert httpx.get(link.replace("X-Amz-Signature=", "X-Amz-Signature=0")).status_code == 403
    assert httpx.get(link.replace("table.csv", "summary.json")).status_code == 403

    import botocore.auth

    two_days_ago = datetime.now(UTC).replace(tzinfo=None) - timedelta(days=2)  # a link made two days ago
    monkeypatch.setattr(botocore.auth, "get_current_datetime", lambda: two_days_ago)
    old = s3_store.presigned_url(table_key("e2"), 24 * 3600)
    assert httpx.get(old).status_code == 403


def test_a_server_that_refuses_lifecycle_rules_is_tolerated_and_logged(s3_server, monkeypatch, caplog) -> None:  # type: ignore[no-untyped-def]
    from botocore.exceptions import ClientError

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", s3_server.access_key)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", s3_server.secret_key)
    client = make_client(s3_server.endpoint)

    def refuse(**kwargs):  # type: ignore[no-untyped-def]
        raise ClientError({"Error": {"Code": "NotImplemented", "Message": "no lifecycle"}}, "PutBucketLifecycleConfiguration")

    monkeypatch.setattr(client, "put_bucket_lifecycle_configuration", refuse)
    store = S3ObjectStore(client, "kea-no-lifecycle")
    store.put_bytes("record-extraction/e3/table.csv", CSV, "text/csv")
    assert store.exists("record-extraction/e3/table.csv")
    assert "refused the 7-day lifecycle rule" in caplog.text


def test_files_expire_after_seven_days_on_either_store(s3_store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = FileObjectStore(tmp_path / "files")
    for store in (folder, s3_store):
        store.put_bytes(table_key("e4"), CSV, "text/csv")
        stored = store.stored_at(table_key("e4"))
        assert not is_expired(stored, stored + timedelta(days=6, hours=23))
        assert is_expired(stored, stored + timedelta(days=7, minutes=1))


def test_links_signed_by_kea_are_refused_when_tampered_or_expired(tmp_path: Path) -> None:
    signer = LinkSigner.from_home(tmp_path)
    assert (tmp_path / "link-secret").stat().st_mode & 0o777 == 0o600
    now = datetime(2026, 12, 1, 12, tzinfo=UTC)
    query = signer.sign("e1/table.csv", now)
    signer.verify("e1/table.csv", query["expires"], query["sig"], now + timedelta(hours=23))
    with pytest.raises(LinkRefused, match="changed"):
        signer.verify("e2/table.csv", query["expires"], query["sig"], now)
    with pytest.raises(LinkRefused, match="changed"):
        signer.verify("e1/table.csv", str(int(query["expires"]) + 3600), query["sig"], now)
    with pytest.raises(LinkRefused, match="expired"):
        signer.verify("e1/table.csv", query["expires"], query["sig"], now + timedelta(hours=25))
    assert LinkSigner.from_home(tmp_path).sign("e1/table.csv", now) == query  # one secret per installation


async def _slas_on(svc, s3_store, thread: str) -> dict:  # type: ignore[no-untyped-def,type-arg]
    """The SLA request over the corpus on a graph given services whose files are in the bucket: its final values."""
    from checkpoints.saver import postgres_checkpointer
    from graph.extraction import build_extraction_graph
    from core.profile import Profile
    from tools.services import Services
    from tools.storage.rows import RowStore

    on_s3 = Services(svc.database_url, svc.kb, s3_store, RowStore(s3_store))
    async with postgres_checkpointer() as saver:
        graph = build_extraction_graph(saver, services=on_s3)
        return await graph.ainvoke(
            {"message": "Priority, response time and resolution time from the SLAs", "confirm": "auto"},
            {"configurable": {"thread_id": thread}},
            context=Profile(collections=["corpus"]),
        )


async def test_a_graph_given_services_stores_its_table_in_their_bucket(corpus, svc, s3_store) -> None:  # type: ignore[no-untyped-def]
    values = await _slas_on(svc, s3_store, "s3-services")
    answer = values["answer"]
    assert answer["status"] == "done" and answer["csv"].startswith("s3://kea-test-files/team-a/record-extraction/")
    with s3_store.open(table_key(values["extraction_id"])) as handle:
        assert handle.read().startswith(b"\xef\xbb\xbfFile,Priority")
    assert not svc.objects.exists(table_key(values["extraction_id"]))  # nothing went to the process's own store


async def test_a_run_on_s3_asks_for_no_failure_a_document_never_had(corpus, svc, s3_store) -> None:  # type: ignore[no-untyped-def]
    """Per document, a run on S3 writes its rows once and reads them once; it deletes and looks
    for no failure file of a document that never failed (looked for once, in a listing)."""
    from collections import Counter

    requests: Counter[tuple[str, str]] = Counter()

    def seen(params: dict, model, **_) -> None:  # type: ignore[no-untyped-def,type-arg]
        key = params.get("Key", "")
        kind = "rows" if "/rows/" in key else "failed" if "/failed/" in key else "other"
        requests[(model.name, kind)] += 1

    s3_store.client.meta.events.register("before-parameter-build.s3.*", seen)
    values = await _slas_on(svc, s3_store, "s3-requests")
    documents = values["answer"]["summary"]["extracted"]
    assert documents == 3 and values["answer"]["summary"]["failed"] == []
    assert requests[("PutObject", "rows")] == documents and requests[("GetObject", "rows")] == documents
    assert not {op for op, kind in requests if kind == "failed"}  # no GET, HEAD or DELETE of a failure
