-- kea_number(value text [, notation text]): the number a cell's text shows, or NULL when it
-- shows none (empty, 'n/a'). Installed in each workspace schema; the rules are those of
-- tools/workspace/notation.py.
--   notation 'european' ('de'): '.' groups thousands, ',' is the decimal mark: 1.234,50 = 1234.50
--   notation 'english'  ('en'): ',' groups thousands, '.' is the decimal mark: 1,234.50 = 1234.50
--   no notation: read from the value where it reads one way only; a value that reads two ways
--   (1.234, 1,234) raises an error that names the notations, never a guess.
-- A value that does not fit the notation given (1.5 as European) is NULL. Around the number a
-- currency sign or code, a percent sign or a unit after a space are left out; spaces and an
-- apostrophe inside it group thousands; (12) and -12 are negative.
CREATE FUNCTION kea_number(value text, notation text DEFAULT NULL) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog
AS $fn$
DECLARE
    v text := value;
    negative boolean := false;
    mode text := lower(btrim(coalesce(notation, '')));
    mark text;
    grp text;
    dec text;
    parts text[];
    whole text;
    frac text;
BEGIN
    IF v IS NULL THEN
        RETURN NULL;
    END IF;
    v := regexp_replace(v, '^[ \t\r\n\u00a0\u202f\u2009]*(?:[€$£¥₩₹₽¢][ \t\r\n\u00a0\u202f\u2009]*|[A-Z]{3}[ \t\r\n\u00a0\u202f\u2009]+)', '');
    v := regexp_replace(v, '(?:[ \t\r\n\u00a0\u202f\u2009]*[€$£¥₩₹₽¢%‰원]|[ \t\r\n\u00a0\u202f\u2009]+[A-Za-z]{1,5}\.?)[ \t\r\n\u00a0\u202f\u2009]*$', '');
    v := regexp_replace(v, '[ \t\r\n\u00a0\u202f\u2009'']', '', 'g');
    IF v ~ '^\(.*\)$' THEN
        v := substr(v, 2, length(v) - 2);
        negative := true;
    END IF;
    IF left(v, 1) IN ('+', '-') THEN
        negative := negative <> (left(v, 1) = '-');
        v := substr(v, 2);
    END IF;
    IF v !~ '^([0-9][0-9.,]*|[.,][0-9]+)$' THEN
        RETURN NULL;
    END IF;
    IF mode IN ('european', 'eu', 'de') THEN
        grp := '.'; dec := ',';
    ELSIF mode IN ('english', 'en', 'us') THEN
        grp := ','; dec := '.';
    ELSIF mode IN ('', 'auto') THEN
        IF strpos(v, '.') > 0 AND strpos(v, ',') > 0 THEN
            -- both marks: the last one is the decimal mark
            IF strpos(reverse(v), ',') < strpos(reverse(v), '.') THEN
                grp := '.'; dec := ',';
            ELSE
                grp := ','; dec := '.';
            END IF;
        ELSIF strpos(v, '.') = 0 AND strpos(v, ',') = 0 THEN
            grp := ','; dec := '.';
        ELSE
            mark := CASE WHEN strpos(v, '.') > 0 THEN '.' ELSE ',' END;
            IF length(v) - length(replace(v, mark, '')) > 1 THEN
                grp := mark; dec := CASE mark WHEN '.' THEN ',' ELSE '.' END;
            ELSIF v ~ ('^[1-9][0-9]{0,2}\' || mark || '[0-9]{3}$') THEN
                RAISE EXCEPTION 'kea_number(%) reads two ways: 1.234 is 1234 in European notation and 1.234 in English notation',
                    quote_literal(value)
                    USING ERRCODE = '22023',
                          HINT = 'Give the notation: kea_number(value, ''european'') or kea_number(value, ''english''); '
                                 'the tables list shows the notation each column was loaded with.';
            ELSE
                dec := mark; grp := CASE mark WHEN '.' THEN ',' ELSE '.' END;
            END IF;
        END IF;
    ELSE
        RAISE EXCEPTION 'kea_number: unknown notation %; use ''european'' or ''english''', quote_literal(notation)
            USING ERRCODE = '22023';
    END IF;
    parts := string_to_array(v, dec);
    IF array_length(parts, 1) > 2 THEN
        RETURN NULL;
    END IF;
    whole := parts[1];
    frac := parts[2];
    IF frac IS NOT NULL AND frac !~ '^[0-9]+$' THEN
        RETURN NULL;
    END IF;
    IF whole = '' THEN
        IF frac IS NULL THEN
            RETURN NULL;
        END IF;
        whole := '0';
    ELSIF whole ~ '^[0-9]+$' THEN
        NULL;
    ELSIF whole ~ ('^[0-9]{1,3}(\' || grp || '[0-9]{3})+$') THEN
        whole := replace(whole, grp, '');
    ELSE
        RETURN NULL;
    END IF;
    RETURN ((CASE WHEN negative THEN '-' ELSE '' END) || whole || coalesce('.' || frac, ''))::numeric;
END
$fn$;
