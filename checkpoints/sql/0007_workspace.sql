-- The SQL workspace of each conversation (tools/workspace/): one schema and one login role per
-- thread, what was loaded into it from where (so an expired workspace is rebuilt from the
-- originals), and the audit of every query run in it.
CREATE TABLE workspaces (
    thread_id     text PRIMARY KEY,
    user_id       text NOT NULL,
    schema_name   text NOT NULL UNIQUE,
    role_name     text NOT NULL UNIQUE,
    role_password text,                    -- set while the schema and role exist; never shown
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_used_at  timestamptz NOT NULL DEFAULT now()
);

-- A table loaded into a workspace: its source coordinates (never its rows), its columns with
-- the header text they came from and the number notation each column shows.
CREATE TABLE workspace_tables (
    thread_id  text   NOT NULL REFERENCES workspaces (thread_id) ON DELETE CASCADE,
    name       text   NOT NULL,
    source     jsonb  NOT NULL,
    columns    jsonb  NOT NULL CHECK (jsonb_typeof(columns) = 'array'),
    row_count  bigint NOT NULL,
    loaded_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (thread_id, name)
);

-- Every query: who ran it, on which thread, how long it took, what came of it. When a thread
-- is forgotten its queries' text, errors and results go; who, when, duration and outcome stay.
CREATE TABLE workspace_queries (
    id          bigserial PRIMARY KEY,
    thread_id   text NOT NULL,
    user_id     text NOT NULL,
    query       text,
    started_at  timestamptz NOT NULL DEFAULT now(),
    duration_ms integer,
    row_count   integer,
    outcome     text NOT NULL DEFAULT 'running'
                CHECK (outcome IN ('running', 'ok', 'truncated', 'refused', 'failed', 'timeout')),
    error       text,
    csv_key     text,
    forgotten   boolean NOT NULL DEFAULT false
);
CREATE INDEX workspace_queries_thread ON workspace_queries (thread_id, id);

-- A workspace role reaches only its own schema: nothing of Kea's is open to PUBLIC (every role).
-- Kea's own user owns these objects (or is a superuser) and keeps its rights.
REVOKE ALL ON SCHEMA public FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC;
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;
DO $$
BEGIN
    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
END
$$;

-- Large objects can be written even in a READ ONLY transaction: no role but Kea's own may
-- create, write or remove one (Kea uses none; lo_import and lo_export are superuser-only already).
REVOKE EXECUTE ON FUNCTION
    pg_catalog.lo_creat(integer), pg_catalog.lo_create(oid), pg_catalog.lo_from_bytea(oid, bytea),
    pg_catalog.lo_open(oid, integer), pg_catalog.lowrite(integer, bytea), pg_catalog.lo_put(oid, bigint, bytea),
    pg_catalog.lo_truncate(integer, integer), pg_catalog.lo_truncate64(integer, bigint), pg_catalog.lo_unlink(oid)
FROM PUBLIC;
