-- A table's title: the rows a document prints above its header (a sheet's title and subtitle),
-- kept as the table's context. And which version of the parsers read a document: one read by
-- an older version is read again at its next ingest, even when the file is unchanged.
ALTER TABLE document_tables
    ADD COLUMN title jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(title) = 'array');
ALTER TABLE documents
    ADD COLUMN parser integer NOT NULL DEFAULT 0;
