"""Column names read across languages: a request in Spanish names the "Porcentaje ponderado" of
a table headed "Weighted Percent"; an English one the "Date of birth" of a Portuguese
"DATA DE NASCIMENTO". Each word of German, French, Spanish, Dutch, Portuguese and Italian that
heads columns of statistical and business tables is read as the English words it may mean, the
small words between them are left out, and a German compound is read as its two parts
("Servicegebiet": service area). Two names are alike when their words are, in any order
("Tamaño de muestra", "Sample size").

Written from the languages for the words that head the columns of statistical and business
tables in general: counts, shares, rates, money, time, people and places. A word naming one
field's things (a pollutant, a licence, a vote) is left out: a column named so is read as
written, or not at all. A word that means another thing in English ("data", "note", "art") is
read both ways; a foreign word that is an English word of another meaning ("Rente", "Soll",
"Valuta") is left out. A column read through it is never more than ``unsure``: the caller says so.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from difflib import SequenceMatcher
from functools import lru_cache

# english: the words that may mean it, in any of the six languages ("|" between them)
_LEXICON = """
    population: bevölkerung | population | población | bevolking | população | popolazione
    inhabitants: einwohner | einwohnerzahl | habitants | habitantes | inwoners | abitanti
    persons: personen | person | personnes | personas | pessoas | persone
    people: leute | gens | gente | mensen
    men: männer | hommes | hombres | varones | mannen | homens | uomini
    male: männlich | männchen | masculin | mâle | mâles | masculino | macho | machos | mannelijk | maschio | maschi | maschile
    women: frauen | femmes | mujeres | vrouwen | mulheres | donne
    female: weiblich | weibchen | féminin | femelle | femelles | femenino | hembra | hembras | vrouwelijk | feminino | fêmea | femmina | femmine | femminile
    sex: geschlecht | sexe | sexo | geslacht | sesso
    age: alter | âge | edad | leeftijd | idade | età
    group: gruppe | groupe | grupo | groep | gruppo
    year: jahr | jahre | année | années | año | años | jaar | jaren | ano | anos | anno | anni
    years: jahre | années | años | jaren | anos | anni
    month: monat | monate | mois | mes | meses | maand | maanden | mês | mese | mesi
    week: woche | wochen | semaine | semana | week | weken | settimana
    day: tag | tage | jour | jours | día | días | dag | dagen | dia | dias | giorno | giorni
    quarter: quartal | trimestre | kwartaal
    hour: stunde | stunden | heure | heures | hora | horas | uur | uren | ora
    hours: stunden | heures | horas | uren | ore
    time: zeit | temps | tiempo | tiempos | tijd | tempo | tempi
    period: zeitraum | periode | période | período | periodo
    date: datum | date | fecha | data
    birth: geburt | naissance | nacimiento | geboorte | nascimento | nascita
    death: tod | décès | muerte | defunción | overlijden | óbito | morte | decesso
    deaths: todesfälle | sterbefälle | décès | morts | muertes | defunciones | fallecimientos | sterfgevallen | overlijdens | óbitos | mortes | morti | decessi
    births: geburten | naissances | nacimientos | geboorten | nascimentos | nascite
    rate: rate | satz | taux | tasa | tasas | taxa | tasso | cijfer
    number: anzahl | zahl | nummer | nombre | número | numero | aantal | nr | núm | nº
    no: nummer | nr | numéro | número | numero | núm | nº
    name: name | namen | nom | nombre | naam | nome
    surname: nachname | familienname | apellido | apellidos | achternaam | sobrenome | cognome
    percent: prozent | pourcentage | porcentaje | percentage | porcentagem | percentuale | por ciento | pour cent | per cento
    percentage: prozentsatz | pourcentage | porcentaje | percentage | porcentagem | percentuale
    share: anteil | part | parte | cuota | aandeel | participação | quota
    proportion: anteil | proportion | proporción | verhouding | proporção | proporzione
    ratio: verhältnis | rapport | razón | relación | verhouding | razão | rapporto
    market: markt | marché | mercado | mercato
    weighted: gewichtet | gewichtete | gewichteter | pondéré | pondérée | ponderado | ponderada | gewogen | ponderato | ponderata
    weight: gewicht | gewichte | poids | peso | pesos
    size: größe | taille | tamaño | grootte | omvang | tamanho | dimensione
    sample: stichprobe | échantillon | muestra | steekproef | amostra | campione
    average: durchschnitt | durchschnittlich | durchschnittliche | mittlere | moyenne | moyen | promedio | media | medio | gemiddeld | gemiddelde | média | médio
    mean: mittelwert | mittlere | moyenne | media | gemiddelde | média
    median: median | médiane | mediana | mediaan
    total: gesamt | insgesamt | summe | total | totaal | totale | totales | totais
    sum: summe | somme | suma | som | soma | somma
    amount: betrag | montant | importe | monto | bedrag | montante | importo
    value: wert | werte | valeur | valeurs | valor | valores | waarde | valore
    price: preis | preise | prix | precio | prijs | preço | prezzo
    cost: kosten | coût | costo | coste | custo
    costs: kosten | coûts | costos | costes | custos | costi
    income: einkommen | revenu | revenus | ingreso | ingresos | renta | inkomen | rendimento | renda | reddito
    sales: umsatz | ventes | ventas | omzet | verkoop | vendas | vendite
    turnover: umsatz | chiffre d affaires | facturación | omzet | faturamento | fatturato
    revenue: erlöse | umsatzerlöse | recettes | ingresos | opbrengst | receita | ricavi
    profit: gewinn | bénéfice | beneficio | ganancia | winst | lucro | utile
    loss: verlust | perte | pérdida | verlies | perda | perdita
    tax: steuer | steuern | impôt | taxe | impuesto | belasting | imposto | imposta
    vat: mwst | ust | umsatzsteuer | mehrwertsteuer | tva | iva | btw
    net: netto | net | neto | líquido
    gross: brutto | brut | bruto | lordo
    interest: zins | zinsen | intérêt | intérêts | interés | intereses | juros | interesse | interessi
    reduction: reduktion | senkung | minderung | réduction | reducción | vermindering | verlaging | redução | riduzione
    increase: anstieg | zunahme | erhöhung | augmentation | hausse | aumento | incremento | toename | stijging | verhoging
    change: change | veränderung | änderung | variation | évolution | variación | cambio | verandering | wijziging | variação | mudança | variazione
    growth: wachstum | croissance | crecimiento | groei | crescimento | crescita
    estimate: schätzung | schätzungen | estimation | estimations | estimación | estimaciones | schatting | schattingen | estimativa | stima | stime
    estimates: schätzungen | estimations | estimaciones | schattingen | estimativas | stime
    projection: projektion | projection | proyección | projectie | projeção | proiezione
    forecast: prognose | prognosen | prévision | prévisions | previsión | pronóstico | voorspelling | raming | previsão | previsione
    target: ziel | zielwert | objectif | cible | objetivo | meta | doel | streefwaarde | obiettivo
    actual: actual | ist | istwert | réel | réalisé | efectivo | werkelijk | realizado | effettivo
    current: aktuell | aktuelle | derzeitig | gegenwärtig | actuel | actuelle | actual | actuales | huidig | huidige | atual | attuale
    previous: vorjahr | vorherig | précédent | anterior | vorig | vorige | precedente
    country: land | länder | pays | país | países | landen | paese | paesi
    countries: länder | pays | países | landen | paesi
    region: region | régions | région | región | regiones | regio | regio's | região | regione
    state: staat | état | estado | estados | stato | stati
    status: status | statut | estado | stato
    province: provinz | province | provincia | provincie | província
    city: stadt | ville | ciudad | stad | cidade | città
    municipality: gemeinde | commune | municipio | gemeente | município | comune
    area: gebiet | fläche | zone | superficie | área | zona | gebied | oppervlakte
    service: dienst | dienstleistung | service | servicio | servicios | serviço | servizio
    category: kategorie | catégorie | categoría | categorie | categoria
    type: typ | art | tipo | soort
    class: klasse | classe | clase
    classification: klassifikation | klassifizierung | classement | clasificación | classificatie | classificação | classifica
    rank: rang | platz | rango | puesto | plaats | posição | posizione
    grade: note | noten | nota | notas | calificación | cijfer | voto
    score: punkte | punktzahl | score | puntuación | puntaje | pontuação | punteggio
    final: final | endgültig | finale | definitivo | eind
    result: ergebnis | ergebnisse | résultat | résultats | resultado | resultados | resultaat | resultaten | risultato | risultati
    response: antwort | reaktion | réponse | respuesta | antwoord | reactie | resposta | risposta
    responses: antworten | réponses | respuestas | antwoorden | respostas | risposte
    resolution: lösung | behebung | résolution | resolución | oplossing | resolução | risoluzione
    priority: priorität | priorité | prioridad | prioriteit | prioridade | priorità
    payroll: lohnabrechnung | gehaltsabrechnung | paie | nómina | salarisadministratie | folha de pagamento
    salary: gehalt | lohn | salaire | salario | sueldo | salaris | loon | salário | stipendio
    employees: mitarbeiter | angestellte | beschäftigte | arbeitnehmer | salariés | employés | empleados | trabajadores | werknemers | medewerkers | funcionários | empregados | dipendenti
    workers: arbeiter | arbeitnehmer | travailleurs | trabajadores | werknemers | arbeiders | trabalhadores | lavoratori
    unit: einheit | unité | unidad | eenheid | unidade | unità
    quantity: menge | quantité | cantidad | hoeveelheid | quantidade | quantità
    relative: relativ | relative | relatives | relativer | relatif | relativo | relativa | relatief
    absolute: absolut | absolute | absolu | absoluto | absoluut | assoluto
    production: produktion | herstellung | erzeugung | production | producción | productie | produção | produzione
    capacity: kapazität | capacité | capacidad | capaciteit | capacidade | capacità
    consumption: verbrauch | konsum | consommation | consumo | verbruik
    exports: ausfuhr | ausfuhren | exporte | exportations | exportaciones | uitvoer | exportações | esportazioni
    imports: einfuhr | einfuhren | importations | importaciones | invoer | importações | importazioni
    product: produkt | produit | producto | product | produto | prodotto
    monthly: monatlich | monatliche | mensuel | mensuelle | mensual | maandelijks | mensal | mensile
    annual: jährlich | jährliche | annuel | annuelle | anual | jaarlijks | annuale
    project: projekt | projet | proyecto | projeto | progetto
    expenditure: ausgaben | dépenses | gastos | gasto | uitgaven | despesas | spese
    per: pro | je | par | por | per
    surplus: überschuss | excédent | excedente | superávit | overschot | eccedenza
    deficit: defizit | déficit | tekort | disavanzo
    limit: grenze | limite | límite | limiet | grens
    duration: laufzeit | dauer | durée | duración | plazo | looptijd | duur | duração | prazo | durata
    start: beginn | anfang | début | inicio | begin | início | inizio
    end: ende | fin | einde | fim
    deviation: abweichung | écart | desviación | afwijking | desvio | scostamento
    other: andere | anderen | anderer | sonstige | autre | autres | otro | otros | otra | otras | overige | outro | outros | altro | altri
    own: eigene | eigenen | eigener | propre | propres | propio | propia | eigen | próprio | proprio
    our: unsere | unser | nos | notre | nuestro | nuestros | nuestra | onze | nosso | nostro | nostri
    new: neu | neue | nouveau | nouvelle | nuevo | nueva | nieuw | nieuwe | novo | nuovo
    old: alt | alte | ancien | ancienne | viejo | antiguo | oud | oude | velho | vecchio
    high: hoch | hohe | haut | élevé | alto | alta | hoog | hoge | elevato
    low: niedrig | niedrige | bas | basse | faible | bajo | baja | laag | lage | baixo | basso
    minimum: mindest | minimum | mínimo | minimo
    maximum: höchst | maximal | maximum | máximo | massimo
    description: beschreibung | bezeichnung | description | descripción | omschrijving | beschrijving | descrição | descrizione
    article: artikel | article | artículo | artigo | articolo
    position: posten | position | posición | positie | posição | posizione
    code: code | kode | código | codice
    reference: referenz | référence | referencia | referentie | referência | riferimento
    order: bestellung | auftrag | commande | pedido | orden | bestelling | encomenda | ordine
    invoice: rechnung | facture | factura | factuur | fatura | fattura
    contract: vertrag | contrat | contrato | contract | overeenkomst | contratto
    payment: zahlung | paiement | pago | betaling | pagamento
    account: konto | compte | cuenta | rekening | conta | conto
    balance: saldo | solde
    company: unternehmen | firma | gesellschaft | entreprise | société | empresa | compañía | bedrijf | onderneming | azienda | impresa | società
    brand: marke | marque | marca | merk
    goods: waren | güter | marchandises | biens | mercancías | bienes | goederen | mercadorias | merci
    sector: sektor | secteur | sector | bedrijfstak | setor | settore
    household: haushalt | haushalte | ménage | ménages | foyer | hogar | hogares | huishouden | huishoudens | domicílio | famiglia
    budget: haushalt | budget | presupuesto | begroting | orçamento | bilancio
    trade: handel | commerce | comercio | comércio | commercio
    phone: telefon | téléphone | teléfono | telefoon | telefone | telefono
    address: adresse | dirección | domicilio | adres | endereço | indirizzo
    location: standort | ort | lieu | emplacement | lugar | ubicación | locatie | plaats | localização | luogo
    origin: herkunft | ursprung | origine | origen | herkomst | oorsprong | origem
    world: welt | monde | mundo | wereld | mondo
    foreign: ausländisch | ausland | étranger | extranjero | exterior | buitenland | buitenlands | estrangeiro | estero
    domestic: inländisch | inland | intérieur | nacional | binnenland | binnenlands | interno
    internal: intern | interne | interno | interna
    external: extern | externe | externo | externa | esterno
    level: niveau | stufe | nivel | nível | livello
    characteristic: merkmal | eigenschaft | caractéristique | característica | kenmerk | caratteristica
    summary: zusammenfassung | résumé | synthèse | resumen | samenvatting | resumo | sintesi
    index: index | indice | índice
    section: abschnitt | rubrik | rubrique | section | sección | apartado | rubriek | sectie | secção | seção | sezione
    table: tabelle | tableau | tabla | tabel | tabela | tabella
    row: zeile | ligne | fila | rij | linha | riga
    line: zeile | ligne | línea | regel | linha | riga
    column: spalte | colonne | columna | kolom | coluna | colonna
    subtotal: zwischensumme | sous total | subtotal | subtotaal
    fee: gebühr | gebühren | frais | tarifa | taxa | tariffa | commissione
    charge: gebühr | entgelt | frais | kosten | encargo | addebito
    district: bezirk | kreis | distrito | distretto
    industry: industrie | industria | indústria
    part: part
    note: note
    data: data
    land: land
    ore: ore
    zone: zone
    tag: tag
    par: par
    art: art"""

# The small words of the six languages that join a name's words ("Grupo de edad", "Date de
# naissance"): left out when two names are compared, as English "of" and "the" are.
_JOINING = frozenset("""
    der die das den dem des ein eine einer eines einem und oder von vom zu zum zur im in am an auf für mit bei nach aus
    le la les l d de du des un une et ou à au aux en pour sur avec dans
    el los las lo del una unos unas y o a al para con sobre que e
    het een en of van voor met op aan bij uit naar te
    os as um uma do da dos das em nos nas com
    il gli i di della dei degli delle nel nella su dal alla
    the of and for an by to at on with
""".split())

_LINKS = ("", "s", "n", "en", "es", "e", "er")  # what a German or Dutch compound puts between its parts
_ENDINGS = ("", "s", "es", "en", "n", "er", "x", "nen")  # plurals and inflections folded on lookup ("revenue" is no "revenu")
COMPOUND, PART = 8, 4  # letters a word needs to be read as a compound, and each of its parts ("database" is none)
MAX_READINGS = 8  # the readings of one name tried at most (words read more than one way multiply)


def _plain(text: str) -> str:
    """Lower case, no accents, punctuation as spaces: the form words are looked up in."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[^\w\s]|_", " ", bare).split())


def _build() -> dict[str, tuple[str, ...]]:
    found: dict[str, list[str]] = {}
    for line in _LEXICON.strip().splitlines():
        english, _, words = line.partition(":")
        for word in words.split("|"):
            if key := _plain(word):
                found.setdefault(key, [])
                if english.strip() not in found[key]:
                    found[key].append(english.strip())
    return {key: tuple(value) for key, value in found.items()}


_WORDS = _build()
_LONGEST = max(len(key.split()) for key in _WORDS)
_JOINING_PLAIN = frozenset(_plain(w) for w in _JOINING)


def _lookup(word: str) -> tuple[str, ...] | None:
    """The English words a word may mean, its plural or inflected ending folded; None when the
    lexicon does not hold it."""
    if word in _WORDS:
        return _WORDS[word]
    if len(word) < 4 or word.isdigit():
        return None
    for ending in _ENDINGS[1:]:
        if word.endswith(ending) and len(word) - len(ending) >= 4 and word[: -len(ending)] in _WORDS:
            return _WORDS[word[: -len(ending)]]
    return None


def _compound(word: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """A German or Dutch compound read as its two parts, the longest last part first:
    "servicegebiet" is service and area, "unterzeichnungsdatum" signing and date."""
    if len(word) < COMPOUND or not word.isalpha():
        return None
    for cut in range(PART, len(word) - PART + 1):
        head, tail = word[:cut], word[cut:]
        last = _lookup(tail)
        if last is None:
            continue
        for link in _LINKS:
            if head.endswith(link) and len(head) - len(link) >= PART and (first := _lookup(head[: len(head) - len(link)] if link else head)):
                return first, last
    return None


def readings(name: str) -> tuple[frozenset[str], ...]:
    """The English readings of a name, each the set of its content words (joining words left out,
    plurals folded); the name's own words when nothing in it is another language's. "Tamaño de
    muestra": {size, sample}; "Nombre": {number}, {name}."""
    return tuple(dict.fromkeys(frozenset(form.split()) for form in english(name)))


@lru_cache(maxsize=16384)  # asked for every requested name and header cell a table is compared on
def english(name: str) -> tuple[str, ...]:
    """The English readings of a name as phrases, its words in their order: "Tamaño de muestra"
    is "size sample"; "Nombre" is "number" and "name"."""
    words = _plain(name).split()
    options: list[tuple[str, ...]] = []
    k = 0
    while k < len(words):
        for span in range(min(_LONGEST, len(words) - k), 0, -1):
            phrase = " ".join(words[k : k + span])
            meaning = _WORDS.get(phrase) if span > 1 else _lookup(phrase)
            if meaning is None and span == 1:
                parts = _compound(phrase)
                meaning = tuple(f"{a} {b}" for a in parts[0] for b in parts[1])[:MAX_READINGS] if parts else None
            if meaning is not None:
                options.append(meaning)
                k += span
                break
        else:
            if words[k] not in _JOINING_PLAIN:
                options.append((words[k],))
            k += 1
    found: list[str] = []
    for combination in itertools.islice(itertools.product(*options), MAX_READINGS):
        content = " ".join(_folded(w) for phrase in combination for w in phrase.split() if w not in _JOINING_PLAIN)
        if content and content not in found:
            found.append(content)
    return tuple(found)


def _folded(word: str) -> str:
    """An English word with a simple plural dropped ("estimates", "countries")."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us")) else word


def foreign(name: str) -> bool:
    """Whether a name holds a word read in another language than it is written ("Porcentaje",
    "Servicegebiet"): only then is it compared in translation."""
    own = frozenset(_folded(w) for w in _plain(name).split() if w not in _JOINING_PLAIN)
    return any(reading != own for reading in readings(name))


def same_name(a: str, b: str) -> bool:
    """Whether two names, both of another language, read alike word for word once read in English
    ("Durchschnitt der anderen Schätzungen", "Durchschnitt anderer Schätzungen"): no looser
    likeness, and never an English name and a foreign one ("type" is no German "Art")."""
    return foreign(a) and foreign(b) and bool(set(readings(a)) & set(readings(b)))


def across(requested: str, header: list[str]) -> bool:
    """Whether a requested name or a header cell holds a word read in another language: only
    then are they compared in translation."""
    return foreign(requested) or any(foreign(cell) for cell in header)


def translated_cells(requested: str, header: list[str]) -> list[int]:
    """The header cells a requested name means once both are read in English: the cells whose
    words are the name's, in any order ("Weighted Percent" for "Porcentaje ponderado"), else the
    one cell holding all of them, two at least ("Service area (km²)" for "Servicegebiet"), else
    the one cell of one word shortening the name's one word ("CLASS" for "Clasificación"). Empty
    when neither holds a word the lexicon reads in another language."""
    if not across(requested, header):
        return []
    wanted = readings(requested)
    cells = [readings(cell) if cell.strip() else () for cell in header]
    same = [i for i, options in enumerate(cells) if any(w == c for w in wanted for c in options)]
    if len(same) > 1:
        # a word read two ways ("Nombre": number or name) over "NÚMERO" and "NOME": the cell
        # spelled most like the request, when one is
        likeness = sorted(((SequenceMatcher(None, _plain(requested), _plain(header[i])).ratio(), i) for i in same), reverse=True)
        same = [likeness[0][1]] if likeness[0][0] > likeness[1][0] else []
    if same:
        return same
    holding = [i for i, options in enumerate(cells) if any(len(w) >= 2 and w <= c for w in wanted for c in options)]
    if len(holding) == 1:
        return holding
    # "CLASS" heading the "Clasificación": one word shortening the one word the name reads as
    shortened = [i for i, options in enumerate(cells) if any(
        len(w) == len(c) == 1 and len(cut := next(iter(c))) >= 3 and next(iter(w)).startswith(cut) and next(iter(w)) != cut
        for w in wanted for c in options)]
    return shortened if len(shortened) == 1 else []
