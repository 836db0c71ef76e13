-- The HTTP API: API keys (only their SHA-256 is kept), who owns each thread, which thread made
-- each extraction, and the chat turns that continue a conversation on its thread.
CREATE TABLE api_keys (
    id          bigserial PRIMARY KEY,
    user_id     text    NOT NULL CHECK (user_id ~ '^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$'),
    service     boolean NOT NULL DEFAULT false,  -- a trusted client that acts for the user it names
    key_sha256  text    NOT NULL UNIQUE,
    key_prefix  text    NOT NULL,                -- the first characters, to tell keys apart in lists
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);

CREATE TABLE chat_threads (
    thread_id   text PRIMARY KEY,
    user_id     text NOT NULL,
    profile     text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE thread_extractions (
    extraction_id text PRIMARY KEY,
    thread_id     text NOT NULL REFERENCES chat_threads (thread_id) ON DELETE CASCADE,
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- An answer Kea gave, keyed by the conversation a client will send back with its next message
-- (a hash of the user, the model and every message up to and including that answer). A turn
-- is taken once; identical conversations each take their own.
CREATE TABLE chat_turns (
    id           bigserial PRIMARY KEY,
    turn_key     text NOT NULL,
    thread_id    text NOT NULL REFERENCES chat_threads (thread_id) ON DELETE CASCADE,
    interrupt_id text,                  -- the question this answer asked, if it asked one
    created_at   timestamptz NOT NULL DEFAULT now(),
    taken_at     timestamptz
);
CREATE INDEX chat_turns_waiting ON chat_turns (turn_key, id) WHERE taken_at IS NULL;
