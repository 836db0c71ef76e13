-- The knowledge base: collections, who may read them, documents with their pages and tables.
CREATE TABLE collections (
    id          bigserial PRIMARY KEY,
    name        text NOT NULL UNIQUE CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$'),
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- user_id '*' grants every user.
CREATE TABLE collection_readers (
    collection_id bigint NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    user_id       text   NOT NULL,
    PRIMARY KEY (collection_id, user_id)
);

CREATE TABLE documents (
    id            bigserial PRIMARY KEY,
    collection_id bigint NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    path          text   NOT NULL,
    title         text   NOT NULL DEFAULT '',
    media_type    text   NOT NULL,
    size          bigint NOT NULL,
    sha256        text   NOT NULL,
    page_count    integer NOT NULL,
    ingested_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (collection_id, path),
    -- paths stay inside their collection: relative, '/'-separated, no '..' segment
    CHECK (path <> '' AND left(path, 1) <> '/' AND path !~ '(^|/)\.\.(/|$)' AND position(E'\\' in path) = 0)
);
CREATE INDEX documents_path_pattern ON documents (collection_id, path text_pattern_ops);

CREATE TABLE document_pages (
    document_id bigint  NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    page_no     integer NOT NULL,
    text        text    NOT NULL,
    PRIMARY KEY (document_id, page_no)
);

CREATE TABLE document_tables (
    document_id bigint  NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    ordinal     integer NOT NULL,
    page_no     integer NOT NULL,
    header      jsonb   NOT NULL,
    rows        jsonb   NOT NULL,
    PRIMARY KEY (document_id, ordinal)
);
