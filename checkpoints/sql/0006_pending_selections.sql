-- A selection of more than 100 documents waiting for a "yes" after its sample was shown: one row
-- per conversation (thread), profile and asking user. It holds the document ids, the confirmed
-- reading and the sample's extraction (whose stored rows are reused) — never rows. A yes takes
-- it in one statement (UPDATE ... WHERE state = 'pending' RETURNING), so two confirmations
-- never extract it twice; a new request on the thread deletes it.
CREATE TABLE pending_selections (
    thread_id            text     NOT NULL,
    profile              text     NOT NULL,
    user_id              text     NOT NULL,
    state                text     NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'taken')),
    reading              jsonb    NOT NULL CHECK (jsonb_typeof(reading) = 'object'),
    document_ids         bigint[] NOT NULL,
    sample_ids           bigint[] NOT NULL,
    sample_files         text[]   NOT NULL,
    sample_extraction_id text     NOT NULL,
    sample_tally         jsonb    NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(sample_tally) = 'object'),
    qualify_files        boolean  NOT NULL DEFAULT false,
    notes                jsonb    NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(notes) = 'array'),
    created_at           timestamptz NOT NULL DEFAULT now(),
    taken_at             timestamptz,
    PRIMARY KEY (thread_id, profile, user_id)
);
