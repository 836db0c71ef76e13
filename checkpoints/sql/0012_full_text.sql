-- Full-text search in each document's own language, for ranking: a request's words and the names
-- its columns have in the scope's headers are matched stemmed the way the document's language
-- stems them ("Reaktionszeiten" finds "Reaktionszeit"), and that ranking is fused with the vector
-- ranking by reciprocal rank. The language is one of the server's own text search configurations
-- (german, french, ...), told from the text: the one whose stop words ("der", "und"; "le", "et")
-- the text uses most; 'simple' (no stemming) when fewer than three are used, as in a table of
-- numbers, where one stray word would decide.

-- The language of a text sample: the catalogue's configuration that drops the most of its
-- distinct words as stop words, at least three (ties go to the name first in order). Each word
-- is looked at once, so thirty configurations read a few hundred words each.
CREATE FUNCTION kea_text_language(sample text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    WITH words AS (
        SELECT string_agg(lexeme, ' ') AS text FROM unnest(to_tsvector('simple', sample))
    ), counted AS (
        SELECT (SELECT text FROM words) AS text,
               (SELECT coalesce(sum(cardinality(positions)), 0) FROM unnest(to_tsvector('simple', (SELECT text FROM words)))) AS n
    ), dropped AS (
        SELECT c.cfgname::text AS name,
               w.n - (SELECT coalesce(sum(cardinality(positions)), 0) FROM unnest(to_tsvector(c.oid::regconfig, w.text))) AS n
        FROM pg_ts_config c JOIN pg_namespace s ON s.oid = c.cfgnamespace, counted w
        WHERE s.nspname = 'pg_catalog' AND c.cfgname <> 'simple'
    )
    SELECT coalesce((SELECT name FROM dropped WHERE n >= 3 ORDER BY n DESC, name LIMIT 1), 'simple')
$$;

-- A page's terms in a language; the first page carries the document's label (its path's words
-- and its title) too, weighted A.
CREATE FUNCTION kea_page_terms(language text, label text, page_no integer, body text) RETURNS tsvector
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN page_no = 1 THEN setweight(to_tsvector(language::regconfig, label), 'A') ELSE ''::tsvector END
           || to_tsvector(language::regconfig, body)
$$;

-- A document's label as the terms see it: its path with separators as spaces, then its title.
CREATE FUNCTION kea_document_label(path text, title text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT translate(path, '/_-.', '    ') || ' ' || title
$$;

ALTER TABLE documents ADD COLUMN language text NOT NULL DEFAULT 'simple';
ALTER TABLE document_pages ADD COLUMN terms tsvector;

-- the documents stored before: their language from their first 2,000 characters, then their terms
UPDATE documents d SET language = kea_text_language(
    (SELECT left(string_agg(p.text, E'\n' ORDER BY p.page_no), 2000) FROM document_pages p WHERE p.document_id = d.id));
UPDATE document_pages p SET terms = kea_page_terms(d.language, kea_document_label(d.path, d.title), p.page_no, p.text)
    FROM documents d WHERE d.id = p.document_id;

CREATE INDEX document_pages_terms ON document_pages USING gin (terms);
