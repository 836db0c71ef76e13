-- The global per-model cap: one row per slot of a model. A model call keeps one row locked
-- (SELECT ... FOR UPDATE SKIP LOCKED, in an open transaction) for as long as it runs; the
-- lock ends with the transaction or with the connection, so a crashed process keeps no slot.
CREATE TABLE model_slots (
    model text    NOT NULL,
    slot  integer NOT NULL CHECK (slot >= 0),
    PRIMARY KEY (model, slot)
);
