-- Which columns a merged cell spans, per line of a table (its header first): the parser leaves
-- them empty so that every cell stands under its own header, and the SQL workspace judges the
-- table as the document holds it (a merged cell once in its row, the trace of a form).
ALTER TABLE document_tables
    ADD COLUMN spanned jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(spanned) = 'array');
