-- Several `kea serve` replicas on one database.
--
-- A run's lease stays the session-level advisory lock of checkpoints/runs.py; these columns say
-- who holds it. A takeover (a live replica continuing a run whose process died) writes itself
-- here under the lock, so a process that lost its lease can tell it was taken over.
ALTER TABLE runs
    ADD COLUMN holder    text,                        -- the lease's holder: host, process id and a nonce per lease
    ADD COLUMN leased_at timestamptz,                 -- when the holder took the lease
    ADD COLUMN takeovers integer NOT NULL DEFAULT 0;  -- how often a live replica continued the run after its holder died
