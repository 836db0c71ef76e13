-- Ranking by meaning: which model embedded each collection, and which version of each document
-- its vectors were made from. The vectors themselves live in Milvus, one Milvus collection per
-- knowledge collection and model (milvus_collection); a model change embeds into a new one and
-- switches this record when every document is in it, so queries never mix two models' vectors.
CREATE TABLE collection_vectors (
    collection_id     bigint PRIMARY KEY REFERENCES collections (id) ON DELETE CASCADE,
    provider          text    NOT NULL CHECK (provider IN ('local', 'endpoint')),
    model             text    NOT NULL,
    endpoint          text    NOT NULL DEFAULT '',  -- an OpenAI-compatible base URL; never a key
    dimension         integer NOT NULL CHECK (dimension > 0),
    milvus_collection text    NOT NULL,
    embedded_at       timestamptz NOT NULL DEFAULT now()
);

-- One row per document whose chunks are in milvus_collection, made from the content sha256.
CREATE TABLE document_vectors (
    document_id       bigint  PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
    milvus_collection text    NOT NULL,
    sha256            text    NOT NULL,
    chunks            integer NOT NULL CHECK (chunks >= 0),
    embedded_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX document_vectors_collection ON document_vectors (milvus_collection);
