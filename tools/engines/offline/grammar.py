"""The function words the offline reader recognises: how requests are built, not what they name.

Nothing here is a column name or a kind of document: those come from the message's structure
and from the scope (its folders, table headers and ``Key:`` labels). These are the words that
hold a request together — quantifiers, prepositions, comparison phrases, calculation words — in
English, German, French, Spanish and Polish, and the few Korean particles a folder request uses.
"""

from __future__ import annotations

import re

from tools.parsing.text import TABLE_WORDS


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# "total" and "sum" in the languages Kea reads: English and French, German, Dutch, Spanish, Polish
# ... of all the items, no subtotal: a request leaving out "die Gesamtzeile" leaves out a line "Total"
PLAIN_TOTAL_WORDS = r"total|summen?|gesamt|somme|totaal|suma|razem|ogółem"
TOTAL_WORDS = rf"sub-?total|zwischensummen?|subtotaal|gesamt\w*|{PLAIN_TOTAL_WORDS}"
# the label of a total line: "Total", "Totals", "Subtotal, mandatory programs", "Grand total", "H1 total"
TOTAL_LINE = re.compile(rf"(?:[^\W_]+\s+)?(?:{TOTAL_WORDS})s?\b", re.IGNORECASE)
# the words saying a row has none of a thing: "no discount", "without a discount", "ohne Rabatt"
NONE_WORDS = words("no without kein keine keinen ohne sans aucun aucune sin ningún ninguna bez")
# "every", "all", "each": they open the phrase that says which rows or documents are meant.
QUANTIFIERS = words(
    "every all each any everyone everybody anyone anybody alle aller allen jede jeder jedes jeden chaque tous toutes tout todos todas cada"
    " wszystkie wszystkich każdy każda każde każdego każdej 모든 각"
)
DETERMINERS = words(
    "the a an its their his her our my these those this that only just also die der das den dem des ein eine einer einen einem eines nur"
    " le la les l' un une seulement"
    " el los las unos unas sus nuestro nuestra nuestros nuestras solo"
)
# Prepositions after which a list of columns is over and the rows or documents are named.
ENDS_LIST = words(
    "of from in on for among within across inside into at by aus von im in der des de du d' dans sur pour par del en para desde"
    " z ze w na dla od chez bei zu zum zur"
)
# "of" and "de" may also join a column name: "number of containers", "date de fin".
JOINS_NAME = words("of de d'")
MONTH_PREPOSITIONS = words("in during for im vom von für en de del durante pour para w za")  # "in August", "vom April 2025", "en juillet", "für März"
OWNER_PREPOSITIONS = words("from by von aus de du des del od chez bei")  # "invoices from Acme", "Rechnungen von Acme", "aus Martina Brandts …"
CONDITION_KEYWORDS = words("where whose if wo wenn dont où having donde cuyo cuya cuyos cuyas gdzie których którego której jeśli")
HAS_WORDS = words("have has had haben hat hatte hatten ont avaient avait tiene tienen tenía tenían ma mają miał miała miały mieli")
LIST_KEYWORDS = words("with mit avec con including includes showing giving give listing")
RELATIVE = words("that which who die welche qui które który która którzy")
WHO = words("who wer qui quién quien kto")  # "… and who checked": the person a column names
WHAT_THING = words("what")  # "…, employee, what it was and amount": what each row is, its description
THING_PRONOUNS = words("it they each one")  # whose being "what … was" asks
ABOUT_WORDS = words("about regarding concerning über sur")
# Verbs that ask for the values and the pronouns after them: "show", "give me", "zeige mir"
# words that open a question of its own: after a comma they end a list ("with Brightwave, how fast …");
# who/wer/qui/quién/kto stay out, they name a person's column ("…, and who checked")
QUESTION_WORDS = words(
    "how what which when where why wie welche welcher wann wo warum comment quel quelle quels quelles quand où"
    " pourquoi cómo qué cuál cuáles cuándo dónde jak który która które kiedy gdzie dlaczego"
)
# words that order a list's items: "with Montant HT first, then Désignation and Nombre"
ORDER_FIRST = words("then next afterwards dann puis ensuite luego después potem daarna")
ORDER_LAST = words("first last zuerst d'abord primero najpierw eerst")
ASKING = words(
    "show list give get find extract display return provide tell fetch pull collect put zeige zeig liste gib nenne donne donner montre montrer lister lista muestra"
    " dame dime indica indícame sacar saca sácame extraer extrae pokaż podaj wymień wypisz daj znajdź zestaw"
    " sortir sors sortez extraire indiquer indiquez auflisten aufzählen nennen heraussuchen"
)
PRONOUNS = words("me us them mir uns moi nous nos mi nam")
# the asker's own need, said inside a sentence after what it is read from: "de la lista de
# contaminantes y sus umbrales necesito todas las sustancias cuyo …", "aus dem Bericht brauche ich …"
NEEDS = words("necesito necesitaría quiero querría brauche bräuchte benötige")
# "Bitte jeweils Name, …", "respectively": said of each row, opening a list of columns
EACH_WORDS = words("jeweils respectively respectivement respectivamente")
COURTESY = words("please bitte thanks merci proszę gracias too auch aussi también"
                 " pourriez-vous pouvez-vous peux-tu könnten kannst podrías puedes podés podría")  # "… and net value please", "Show the supplier too"
COURTESY_PAIRS = frozenset({("por", "favor"), ("per", "favore")})  # "…, por favor"
# words that turn the kind after them down: "every payment that was not for meals"
# words that add rows to what was asked ("Include the pooled row"): a kind after them picks none
INCLUSIONS = words("include includes including also plus inklusive einschließlich samt inclure inclus incluant incluir incluye incluyendo włącznie")
# phrases that leave rows out of the table: "Leave out the SUBTOTAL and BRAZIL lines", "excluding
# the overall total", "(not the ministry totals)", "ohne die Summenzeilen"
NO_WORDS = words("no kein keine keinen aucun aucune ningún ninguna żadnych")  # "No subtotal or notes."
EXCLUDING: list[tuple[str, ...]] = sorted(
    (tuple(p.split()) for p in (
        "leave out|leaving out|exclude|excluding|omit|omitting|skip|skipping|ignore|ignoring|drop|without|except"
        "|except for|apart from|not including|not counting|do not include|don't include|but not|not"
        "|ohne|außer|ausgenommen|sauf|hors|sans|excepto|salvo|sin|menos|zonder|behalve|oprócz|bez|z wyjątkiem"
    ).split("|")),
    key=len, reverse=True,
)
# taxes an amount is given with or without: "excluding VAT" names an amount, no rows left out
TAX_WORDS = words("vat tax taxes mwst ust umsatzsteuer btw iva tva moms gst")
NEGATIONS = words("not no without except excluding other nicht kein keine keinen ohne außer pas sans sauf sin excepto non nie bez oprócz")
# "What hourly rates did we agree …", "What response time does the SLA give …": the auxiliary
# after the values asked for ends their list; the subject and its verb follow it
AUXILIARIES = words("do does did have has had will would can could should shall must")
# "how fast do they have to respond": the asker's words between the question and its verbs
HOW_SOON = words("fast quickly soon long")
BEFORE_VERB = words("they we you he she it i to need needs take takes")
EACH = words("each every")
# a question that asks for values: "What hourly rates …", "What are the monthly charges …"
ASKS_VALUES = words("what qué")
BE_WORDS = words("is are was were")
COST_VERBS = words("cost costs costing kostet kosten coûte coûtent worth")  # "items that cost more than 20 euros"
# The column of a sum of money compared with no column named ("orders in May above 5 000 PLN"):
# the one requested column of value, as for "worth" and "cost"
MONEY_COLUMN = "Value"
# Nouns of what a thing is worth: "Annual Value (PLN)", "Wartość netto", "Montant"; the one requested
# column holding one is what "worth more than …" or "cost more than …" compares
MONEY_NOUNS = words("value values worth price prices cost costs amount amounts wert preis betrag kosten valeur prix montant coût "
                    "waarde prijs bedrag wartość kwota cena koszt")
# nouns that say "the values of" after the columns they follow: "its 2013 and 2017 values", "the
# Others figures"
VALUE_NOUNS = words("figures values numbers amounts counts data zahlen werte beträge chiffres valeurs montants cifras valores"
                    " importes liczby wartości kwoty dane")
# nouns of one value a row holds or lacks under a column: "which states have an entry under Loans
# from SBI", "lines with no value in Discount"
ENTRY_NOUNS = words("entry entries value values figure figures amount amounts eintrag einträge wert werte angabe "
                    "betrag entrée valeur valeurs chiffre montant valor valores cifra importe wpis wartość kwota")
DEMONSTRATIVES = words("that this jene diese dieser diesen ce cette ese esa este esta ten ta")
UNDER = words("under in for unter bei sous dans pour en bajo para pod w")
# the symbols of units written out, as a header's brackets give them: "50 miles" over "Distance (mi)"
UNIT_SYMBOLS = {
    "mile": "mi", "miles": "mi", "kilogram": "kg", "kilograms": "kg", "kilo": "kg", "kilos": "kg", "gram": "g",
    "grams": "g", "tonne": "t", "tonnes": "t", "ton": "t", "tons": "t", "kilometre": "km", "kilometres": "km",
    "kilometer": "km", "kilometers": "km", "metre": "m", "metres": "m", "meter": "m", "meters": "m", "hour": "h",
    "hours": "h", "minute": "min", "minutes": "min", "litre": "l", "litres": "l", "liter": "l", "liters": "l",
    "percent": "%", "per cent": "%",
}
PERSONS = words("we i you they he she wir ich sie nous je vous ils on")  # "where we ordered …": who did it


# French auxiliaries joined to their person: "avons-nous achetées"
FUSED_AUXILIARIES = words("avons avez ont a avions aviez avaient")


def asker_verb(tokens: list[str], k: int) -> int | None:
    """Where the verb of an auxiliary and its person opening at ``tokens[k]`` stands: "did we
    buy from …", "have you received", "avons-nous achetées chez …" (the auxiliary and its person
    one word); None when none opens there, or when a comparison follows the verb ("did we
    receive before 2024": the verb says which date is compared). The three say what someone
    did; who, and from whom, is read elsewhere."""
    low = tokens[k].casefold()
    aux, dash, person = low.partition("-")
    if dash:
        verb = k + 1 if aux in FUSED_AUXILIARIES and person in PERSONS else None
    else:
        verb = k + 2 if low in AUXILIARIES and k + 1 < len(tokens) and tokens[k + 1].casefold() in PERSONS else None
    if verb is None or verb >= len(tokens) or not tokens[verb].isalpha():
        return None
    function_words = (DETERMINERS, QUANTIFIERS, ENDS_LIST, CONJUNCTIONS)
    if any(tokens[verb].casefold() in group for group in function_words):
        return None
    after = tokens[verb + 1].casefold() if verb + 1 < len(tokens) else ""
    return None if after in OPERATOR_FIRST_WORDS else verb
# Verbs of a thing's end or start: "contracts that expire in 2024", "run out before April 2026",
# "Verträge, die 2025 enden": a time after them compares the column of end or start dates
_ENDING = "expire expires expired expiring end ends ended ending lapse lapses lapsed terminate terminates terminated " \
    "completed finished enden endet endeten ablaufen abgeschlossen expirent expire expiré terminé terminés terminée " \
    "terminaron terminó terminada terminadas finalizaron finalizó finalizada finalizadas"
_STARTING = "start starts started starting begin begins began commence commences commenced beginnen beginnt begann commencent"
PERIOD_VERBS: list[tuple[list[str], str]] = sorted(
    [
        *(([w], "End date") for w in _ENDING.split()),
        *((phrase.split(), "End date") for phrase in ("run out", "runs out", "ran out", "läuft aus", "laufen aus", "prend fin", "prennent fin")),
        *(([w], "Start date") for w in _STARTING.split()),
    ],
    key=lambda pair: -len(pair[0]),
)
# A sign that names a comparison with zero: "refunds (negative amounts)", "a non-zero Family
# Welfare amount", "positive growth"
SIGNS = {
    **dict.fromkeys(("negative", "negativ", "negativen", "negativer", "négatif", "négative", "négatifs", "négatives",
                     "negativo", "negativa", "negativos", "negativas"), "lt"),
    **dict.fromkeys(("positive", "positiv", "positiven", "positiver", "positif", "positifs", "positives",
                     "positivo", "positiva", "positivos", "positivas"), "gt"),
    **dict.fromkeys(("non-zero", "nonzero", "non-null", "non-nul", "non-nulle"), "not"),
}
# "500 or more", "10 or less", "20 und mehr", "5 ou moins": the comparison after its value
POSTFIX_OPERATORS = {
    **dict.fromkeys(("more", "above", "higher", "over", "greater", "mehr", "plus", "davantage", "más", "meer"), "ge"),
    **dict.fromkeys(("less", "fewer", "below", "lower", "under", "weniger", "moins", "menos", "minder"), "le"),
}
US = words("us uns nous")  # the asker's side: "what Acme billed us", "was Acme uns berechnet hat"
# Words that make the values wanted those of the thing just named: "each state with its growth rate".
POSSESSIVES = words("its their his her seinem seiner seinen ihrem ihrer ihren son sa ses leur leurs")
CONJUNCTIONS = words("and & und et sowie plus y e i oraz 및")
# A word whose spelling says which function word it is: "I" is the English pronoun, never the
# Polish "i" (and)
SPELLED: dict[str, frozenset[str]] = {"I": PERSONS}
# the formats a request names its documents by ("the Word document", "the Excel file", "the
# PDF"): the documents of that format, as a glob of their names
FILE_KINDS = {"word": "**/*.doc*", "excel": "**/*.xls*", "pdf": "**/*.pdf", "powerpoint": "**/*.ppt*", "csv": "**/*.csv"}
FILE_NOUNS = words(
    "document documents file files workbook workbooks spreadsheet spreadsheets sheet export datei dateien dokument"
    " dokumente arbeitsmappe fichier fichiers classeur archivo archivos documento documentos libro hoja plik pliki arkusz"
)
TABLE_NOUNS = words(TABLE_WORDS)  # "in the Assam schooling status table"
# the legal forms a company's name ends with ("Lindqvist Retail AB", "Bei Spiel GmbH")
LEGAL_FORMS = words("ag ab as asa aps a/s gmbh mbh kg ohg ug se sa sas sarl spa srl sl bv nv ltd llc llp inc corp co plc lp oy kk")
# what a spreadsheet calls itself by its format: "the cities workbook" is met by any workbook
SHEET_NOUNS = words("workbook workbooks spreadsheet spreadsheets sheet sheets arbeitsmappe tabellenblatt classeur hoja libro arkusz")
SHEET_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods", ".csv", ".tsv")
COLUMN_LABELS = words("columns column fields field spalten spalte colonnes colonne columnas columna kolommen kolom kolumny kolumna pola")
ROW_LABELS = words("rows zeilen lignes wiersze")
# "les colonnes suivantes :", "die folgenden Spalten:": words that say the list comes next
FOLLOWING = words("following folgenden folgende nachstehenden suivantes suivants siguientes volgende")
FOLDER_WORDS = words("folder folders directory ordner dossier répertoire carpeta 폴더 폴더의 폴더에서")
YEAR_WORDS = words("year jahr année año rok roku")
SPAN_WORDS = words("to through thru until till bis à au a tot hasta do")  # "2005 through 2009", "de 2005 a 2009"
# Nouns that mean "a row" in general; any other noun before "on Acme's invoices" selects rows.
ROW_NOUNS = words(
    "line lines row rows position positions item items entry entries record records article articles "
    "zeile zeilen position positionen eintrag einträge ligne lignes poste postes línea líneas fila filas partida partidas"
    " pozycja pozycje pozycji wiersz wiersze linia linie regels rijen 항목 품목"
)
OPENERS = re.compile(
    r"^(?:(?:hi|hello|hey|hallo|guten tag|moin|servus|bonjour|salut|hola|buenos días|buenas tardes|buenas|hoi|goedemorgen|goedemiddag|dzień dobry|cześć|please|kindly|bitte|could you|can you|would you|i need|i want|i'd like"
    r"|i would like|give me|show me|get me|find me|make me|send me|list|show|give|get|find|extract|export|turn|convert"
    r"|pull out|pull|collect|return|fetch|display|create|make|build|prepare|zeige mir|zeig mir|gib mir|zeige|zeig|liste|gib|donne-moi|montre-moi|donne|montre"
    r"|j'ai besoin des|j'ai besoin du|j'ai besoin de|il me faut|je voudrais|j'aimerais|ich brauche|ich hätte gerne|ich möchte"
    r"|quisiera|me gustaría|necesito|quiero|dame|dime|muéstrame|muestra|lista|listar|indica|indícame|indíqueme|por favor"
    r"|quick one|quick question|one more|short question|eine kurze frage|kurze frage|petite question|una pregunta rápida"
    r"|kannst du mir|kannst du|könntest du mir|könntest du|können sie mir|können sie|könnten sie mir|könnten sie"
    # "If so, …" after a question; thanks closing the message
    r"|if so|if any|falls ja|wenn ja|si oui|si c'est le cas|si es así|en ese caso"
    r"|many thanks|thanks a lot|thank you|thanks|merci beaucoup|merci|vielen dank|danke schön|danke|muchas gracias|gracias"
    # the asker's purpose, a sentence of its own: "I'm preparing a short note on defence spending."
    r"|(?:i'm|i am|we're|we are) (?:preparing|writing|working on|putting together|drafting) [^.!?]*[.!]"
    r"|potrzebuję|chcę|pokaż mi|podaj mi|pokaż|podaj|wymień|wypisz|zestaw"
    r"|(?:a |an )?(?:table|csv|list|overview|spreadsheet) (?:of|with)|all the"
    # "For each of them I need …": the rows a sentence before picked, then what is asked of them
    r"|(?:for|of) (?:each|every one|each one|all) of (?:them|these|those)|für jeden davon|für jede davon"
    r"|for (?:each|every) (?:item|line|row|position|entry|record|article|one)"
    r"|pour chacun d'eux|pour chacune d'elles|para cada uno de ellos|para cada una de ellas|dla każdego z nich)(?:[\s,!:]+|$))+",
    re.IGNORECASE,
)

# Comparison phrases by operator, longest first within each; "is" alone is equality.
OPERATORS: list[tuple[str, str]] = [
    ("between", "is between|are between|between|zwischen|entre|między|pomiędzy"),
    ("not", "is not equal to|is not|isn't|are not|aren't|is other than|other than|different from|ist nicht|n'est pas|!=|≠|<>"),
    ("ge", "is at least|are at least|at least|no less than|not less than|mindestens|au moins|al menos|como mínimo|co najmniej|przynajmniej|>=|≥"),
    ("le", "is at most|are at most|at most|no more than|not more than|up to|höchstens|au plus|como máximo|hasta|co najwyżej|<=|≤"),
    (
        "lt",
        "is below|are below|is under|are under|is less than|are less than|is lower than|is smaller than"
        "|below|under|less than|lower than|smaller than|beneath|before|earlier than|ist kleiner als|kleiner als"
        "|weniger als|unter|vor|est inférieur à|inférieur à|inférieure à|moins de|avant|menos de|menor que|inferior a|antes de"
        "|poniżej|mniej niż|mniejszy niż|mniejsza niż|przed|<",
    ),
    (
        "gt",
        "is above|are above|is over|are over|is more than|are more than|is greater than|is higher than"
        "|above|over|more than|greater than|higher than|larger than|bigger than|exceeds|exceeding|exceed|after|later than"
        "|ist größer als|größer als|mehr als|übersteigt|übersteigen|über|nach|est supérieur à|supérieur à|supérieure à|plus de"
        "|dépasse|dépassent|excède|excèdent|après|supera|superan|przekracza|przekraczają|más de|mayor que|superior a|después de"
        "|powyżej|ponad|więcej niż|większy niż|większa niż|>",
    ),
    (
        "starts",
        "starting with|starts with|start with|beginning with|begins with|begin with|that start with"
        "|beginnend mit|beginnt mit|commençant par|commence par|qui commence par|empezando por|empieza por|que empieza por"
        "|empezando con|empieza con|zaczynający się od|zaczyna się od",
    ),
    ("contains", "contains|contain|includes|mentions|mention|mentioning|containing|enthält|contient|zawiera"),
    ("equals", "is equal to|equals|is|are|ist|sind|est|sont|jest|są|==|="),
]
def _with_past(phrase: str) -> list[str]:
    """A comparison in the present and the past: "is above" and "was above", "are" and "were"."""
    first, _, rest = phrase.partition(" ")
    past = {"is": "was", "are": "were"}.get(first)
    return [phrase, f"{past} {rest}"] if past and rest else [phrase]


OPERATOR_PHRASES: list[tuple[str, list[str]]] = sorted(
    (
        (op, form.split())
        for op, alternatives in OPERATORS
        for phrase in alternatives.split("|")
        for form in _with_past(phrase)
    ),
    key=lambda pair: -len(pair[1]),
)
OPERATOR_FIRST_WORDS = frozenset(p[0] for _, p in OPERATOR_PHRASES)
# Comparatives of a measure: "shipments heavier than 100 kg", "calls longer than 10 min". The
# value's unit says which column they compare (``Amounts.take_unit_comparisons``); without a unit
# that names one they compare nothing a reader can check ("contracts longer than 24 months").
_MEASURE_COMPARATIVES = {
    "lt": "lighter than|shorter than|colder than|cooler than|cheaper than|leichter als|kürzer als|kälter als"
          "|billiger als|günstiger als|moins cher que|moins chers que|moins chère que|moins chères que|plus court que"
          "|plus courts que|plus courte que|plus courtes que|lichter dan|korter dan|kouder dan|goedkoper dan"
          "|lżejsze niż|krótsze niż|tańsze niż",
    "gt": "heavier than|longer than|warmer than|hotter than|more expensive than|schwerer als|länger als|wärmer als"
          "|teurer als|plus lourd que|plus lourds que|plus lourde que|plus lourdes que|plus long que|plus longs que"
          "|plus longue que|plus longues que|plus chaud que|plus chauds que|plus chaude que|plus chaudes que"
          "|plus cher que|plus chers que|plus chère que|plus chères que|zwaarder dan|langer dan|warmer dan"
          "|duurder dan|cięższe niż|dłuższe niż|cieplejsze niż|droższe niż",
}
MEASURE_COMPARATIVES: list[tuple[str, list[str]]] = sorted(
    ((op, form.split()) for op, forms in _MEASURE_COMPARATIVES.items() for form in forms.split("|")),
    key=lambda pair: -len(pair[1]),
)
OP_WORDS = {"equals": "is", "not": "is not", "contains": "contains", "starts": "starts with", "lt": "below", "le": "at most", "gt": "above", "ge": "at least"}

# Calculation words; a calculation is only read where the request asks for one ("the total of",
# "sum of the", "how many"), never from a column named "total" in a list.
CALCULATIONS = {
    "sum": "total sum summe gesamtsumme somme",
    "average": "average mean avg durchschnitt mittelwert moyenne",
    "median": "median",
    "maximum": "maximum max highest largest biggest höchste größte maximale plus élevé",
    "minimum": "minimum min lowest smallest niedrigste kleinste minimale",
    "count": "count anzahl nombre",
}
CALCULATION_WORDS = {word: kind for kind, names in CALCULATIONS.items() for word in names.split()}
# "E-PRTR pollutants and their thresholds – give me the whole heavy metals table: …": the asker's
# words after a dash ask, as they do opening a sentence
ASKED_AFTER_DASH = re.compile(
    r"\s+[–—-]\s+(?=(?:give me|show me|get me|find me|send me|please|could you|can you|would you|i need|i want|i'd like"
    r"|bitte|zeig mir|zeige mir|gib mir|kannst du|ich brauche|donne-moi|montre-moi|je voudrais|il me faut|dame|muéstrame"
    r"|necesito|quiero|indícame)\b)",
    re.IGNORECASE,
)
ASKS = re.compile(
    r"^(?:what is|what's|what are|what was|wie hoch ist|wie hoch sind|was ist|"
    r"quel est|quelle est|calculate|compute|berechne)\s+",
    re.IGNORECASE,
)
HOW_MANY = re.compile(r"^(?:how many|how much|wie viele|wieviele|combien)\b", re.IGNORECASE)
GROUP_WORDS = words("by per je par por")
FOR_EACH = words("for für pour para dla")  # "for each priority", "für jede Region", "pour chaque poste"
WITH_WORDS = words("with mit avec con z")  # "… with egg shell inhibitor": what a thing is with
# words that set one item of a list beside the next ("the target alongside the actual"; "next to"
# is read as two words, ``Scan.beside``)
BESIDE = words("alongside beside neben")
TIME_UNITS = words("day week month year hour tag woche monat jahr stunde jour semaine mois an année heure día semana mes año hora")
PER = words("per je pro par por")  # "revenue per region": the figures are given for each region
DASHES = frozenset("-–—")  # a dash standing alone between words: "… 10 pieces - item number, …"

EXTENSIONS = "pdf|docx?|xlsx?|xlsm|csv|tsv|txt|md|markdown|pptx?|hwpx?|odt|ods|odp|rtf|html?|eml|msg|json|xml"
FILE_NAME = re.compile(rf".+\.(?:{EXTENSIONS})$", re.IGNORECASE)
YEAR = re.compile(r"(?:19|20)\d\d")
VERSUS = words("vs versus against gegenüber contre frente")  # "2016 vs 1990": one period set against another


def is_code_prefix(word: str) -> bool:
    """The letters a registration starts with, written apart: "GD" of "GD 4K221", "WX" of "WX 12345"."""
    return 1 <= len(word) <= 3 and word.isalpha() and word.isupper()


def is_spaced_code(word: str) -> bool:
    """The figures of a registration after its letters: "4K221" (figures and capitals, a figure
    first), "12345" (four figures or more, no year)."""
    letters = [ch for ch in word if ch.isalpha()]
    if not word.isalnum() or not word[0].isdigit() or YEAR.fullmatch(word):
        return False
    return len(word) >= 4 and all(ch.isupper() for ch in letters)


# words naming a kind of document a number or code identifies: "invoice RE1001", "Rechnung 471102"
DOCUMENT_NOUNS = words(
    "invoice invoices bill receipt order orders quote quotation offer contract contracts statement report ticket"
    " rechnung rechnungen bestellung auftrag angebot vertrag gutschrift lieferschein quittung"
    " facture factures commande devis contrat avoir bon factura facturas pedido presupuesto contrato albarán"
    " faktura faktury zamówienie umowa oferta paragon rekening offerte bestelling"
)
# the number of one document, written as one word: "factuurnummer 992288600", "Rechnungsnummer 471102"
DOCUMENT_NUMBER_NOUNS = words(
    "rechnungsnummer rechnungsnr bestellnummer auftragsnummer lieferscheinnummer factuurnummer factuurnr"
    " bestelnummer ordernummer offertenummer"
)


NUMBER_SIGNS = frozenset({"no", "no.", "nr", "nr.", "#", "n°", "nº", "núm", "núm.", "number", "nummer", "numéro", "número"})


def row_compound(word: str) -> bool:
    """Whether a word joins a noun to a noun of rows ("Rechnungspositionen", "Auftragszeilen"):
    the rows asked for, as German writes them, no owner's name and no kind of document."""
    return row_compound_head(word) is not None


def row_compound_head(word: str) -> str | None:
    """The noun a compound joins to a noun of rows ("Gesamt" of "Gesamtzeile", "Summen" of
    "Summenzeilen", "Totaal" of "Totaalregels"); None when the word is no such compound."""
    low = word.casefold()
    noun = max((n for n in ROW_NOUNS if len(n) >= 5 and low.endswith(n) and len(low) > len(n) + 3), key=len, default=None)
    return word[: len(word) - len(noun)].rstrip("-") if noun else None


def noun_before_number(words: list[str]) -> str:
    """The word naming what a number numbers, from the words before it: past a number sign
    ("Rechnung Nr. 471102", "invoice no. 4711")."""
    noun = words[-2] if len(words) >= 2 and words[-1].casefold() in NUMBER_SIGNS else words[-1] if words else ""
    return noun.rpartition("-")[2]  # "QualityHosting-Rechnung Nr. 30064443": the compound's noun


def identifies_document(noun: str, word: str) -> bool:
    """Whether ``word`` after ``noun`` is the number of one document: a code with a dash or slash
    ("HM-24-0311"), or after a word naming a kind of document ("invoice RE1001", "Rechnung
    471102", "facture F20180027") capitals and figures or a number of five figures or more that
    is no year."""
    if is_code(word):
        return True
    letters = [ch for ch in word if ch.isalpha()]
    return (noun.casefold() in DOCUMENT_NOUNS | DOCUMENT_NUMBER_NOUNS and word.isalnum() and len(word) >= 5 and any(ch.isdigit() for ch in word)
            and all(ch.isupper() for ch in letters) and not YEAR.fullmatch(word))


def is_code(word: str) -> bool:
    """A code of capitals and figures with a dash or slash that names one document or item
    ("HM-24-0311", "PO-2024/61"); a path ("leases/2021") or a quarter ("Q2") is none."""
    letters = [ch for ch in word if ch.isalpha()]
    return (
        len(word) >= 5 and any(ch.isdigit() for ch in word) and bool(letters) and all(ch.isupper() for ch in letters)
        and any(ch in "-/" for ch in word)
    )
