-- Secrets every process on the database must share: the key of the download links Kea signs
-- itself (the file:// store), so a link one `kea serve` replica made opens on every other. The
-- first server to start stores its own; the others use it.
CREATE TABLE shared_secrets (
    name       text PRIMARY KEY,
    secret     text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
