-- What a parser could read only in part (one sentence per problem, e.g. formula cells without
-- a saved value), and a document's vocabulary: the names it uses (table header cells and
-- "Key:" labels), bounded so a scope's vocabulary stays one cheap query.
ALTER TABLE documents
    ADD COLUMN notes jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(notes) = 'array'),
    ADD COLUMN vocabulary jsonb NOT NULL DEFAULT '[]'
        CHECK (jsonb_typeof(vocabulary) = 'array' AND jsonb_array_length(vocabulary) <= 200);

-- Documents stored before this migration are not parsed again while unchanged: give them the
-- header cells of their stored tables now (the same rules as tools/knowledge/vocabulary.py;
-- their "Key:" labels come with the next change of the file).
UPDATE documents d SET vocabulary = v.terms
FROM (
    SELECT document_id, jsonb_agg(term ORDER BY first_seen) AS terms
    FROM (
        SELECT document_id, term, first_seen,
               row_number() OVER (PARTITION BY document_id ORDER BY first_seen) AS n
        FROM (
            SELECT DISTINCT ON (t.document_id, lower(h.term))
                   t.document_id, h.term, ARRAY[t.ordinal::bigint, h.position] AS first_seen
            FROM document_tables t,
                 jsonb_array_elements_text(t.header) WITH ORDINALITY AS h(term, position)
            WHERE h.term !~ '^[0-9[:space:].,:;%+/()''-]*$' AND length(h.term) <= 100
            ORDER BY t.document_id, lower(h.term), t.ordinal, h.position
        ) firsts
    ) numbered
    WHERE n <= 200
    GROUP BY document_id
) v
WHERE v.document_id = d.id;
