-- Runs in flight: one row per thread, written by whoever runs it (kea serve or the CLI).
-- While a process runs a thread it holds a session-level advisory lock on the thread (see
-- checkpoints/runs.py): a row still 'running' whose lock nobody holds is a run whose process
-- died, which `kea resume` (or `kea serve` on start, for the server's own runs) continues from
-- its checkpoint. A cancel sets cancel_requested_at; the running process polls for it and notes
-- when it saw it (cancel_seen_at).
CREATE TABLE runs (
    thread_id           text PRIMARY KEY,
    user_id             text NOT NULL,
    profile             text NOT NULL,             -- the profile's name (serve) or --profile as given (CLI)
    narrowing           jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(narrowing) = 'object'),
    origin              text NOT NULL CHECK (origin IN ('cli', 'server')),
    state               text NOT NULL CHECK (state IN ('running', 'finished', 'stopped', 'cancelled')),
    cancel_requested_at timestamptz,
    cancel_seen_at      timestamptz,
    started_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX runs_running ON runs (origin) WHERE state = 'running';
