"""The kinds of column and the names users and documents give them, in the languages Kea reads.

One line a group: the group, then the names of its kind of column ("|" between them); a group
may go on over several lines, and a name may belong to more than one group (품목 is both the
item and its description). Every group holds its own name too.
"""

from __future__ import annotations

from tools.engines.glossary import GLOSSARY

_SYNONYM_TABLE = """
    description: description | beschreibung | bezeichnung | artikelbezeichnung | item
    description: item description | leistung | 품목 | 품명 | 내용
    quantity: quantity | qty | menge | anzahl | stückzahl | count | 수량 | pieces | stück
    unit price: unit price | einzelpreis | price per unit | unit cost | price | preis | stückpreis
    unit price: e preis | 단가 | preis einheit | preis je einheit | preis pro einheit
    unit price: list price | listenpreis | prix catalogue | prix de liste
    amount: amount | total | line total | gesamtpreis | gesamt | betrag | total price
    amount: summe | 금액 | gesamtbetrag | total amount
    amount: entgelt | line amount | montant de la ligne | importe de línea | regelbedrag
    position: pos | position | no | nr | item no | line | 번호
    item code: item code | art nr | artikelnummer | artikel nr | sku | code | product code
    item code: article number | part number | part no | article | artikel | item number | art no
    product group: product group | group | category | warengruppe | produktgruppe | product category
    liability cap: liability cap | cap on liability | maximum liability | haftungshöchstbetrag
    liability cap: haftungsgrenze | limitation of liability | liability limit | limit of liability
    liability cap: haftungsbegrenzung | cap
    supplier: supplier | vendor | lieferant | contractor | seller | auftragnehmer | provider | 공급자
    customer: customer | client | kunde | auftraggeber | buyer | bill to | 고객
    priority: priority | priorität | prio | 우선순위
    response time: response time | reaktionszeit | 응답 시간
    resolution time: resolution time | lösungszeit | behebungszeit | 해결 시간
    subject: subject | betreff | topic | 제목
    summary: summary | short description | kurzbeschreibung | résumé | resumen | samenvatting | 요약
    ticket: ticket | ticket id | ticket no | ticket number | ticketnummer
    date: date | datum | invoice date | rechnungsdatum | 날짜 | 일자
    invoice number: invoice number | invoice no | rechnungsnummer | rechnung nr | invoice | rechnung
    effective date: effective date | start date | inkrafttreten | vertragsbeginn
    governing law: governing law | applicable law | anwendbares recht | gerichtsstand
    description: désignation | libellé | omschrijving | product | produkt | produit
    role: role | rolle | funktion | fonction | position title
    start date: start date | eintrittsdatum | startdatum | date d entrée | date de début | beginn | vertragsbeginn
    department: department | abteilung | afdeling
    carrier: carrier | spediteur | transporteur | vervoerder | frachtführer
    gross weight: gross weight | bruttogewicht | poids brut | brutogewicht
    delivery note number: delivery note number | lieferscheinnummer | numéro de bon de livraison | pakbonnummer
    quantity: quantité | qté | qte | aantal
    unit price: prix unitaire | p u | pu | prix unit | stuksprijs
    amount: montant | bedrag
    invoice number: numéro de facture | facture n | n de facture | no de facture | facture no | factuurnummer
    party: party | partie | vertragspartner | counterparty | cocontractant | partner | contract partner
    end date: end date | date de fin | enddatum | vertragsende | expiry date | date d expiration | ende | einde
    contract number: contract number | contract no | contract id | vertragsnummer | vertrags nr | n de contrat | contractnummer
    notice period: notice period | délai de préavis | préavis | kündigungsfrist | opzegtermijn
    gross amount: gross amount | gross | brutto | bruttobetrag | gross total | total ttc | montant ttc
    gross amount: rechnungsbetrag | endbetrag | zahlbetrag | amount due | total due | invoice total
    net amount: net amount | net | netto | nettobetrag | net total | total ht | montant ht
    net amount: net value | nettowert | wartość netto | kwota netto | valeur nette
    gross amount: gross value | bruttowert | wartość brutto | kwota brutto
    order number: order number | order no | bestellnummer | auftragsnummer | numéro de commande | ordernummer
    order number: nr zamówienia | numer zamówienia | bestelnummer
    quantity: ilość | liczba
    date: data | data wystawienia
    customer: klient | odbiorca | nabywca
    supplier: dostawca | sprzedawca
    description: nazwa | nazwa towaru | towar | opis
    item code: kod | indeks | kod towaru
    unit price: cena | cena jednostkowa | cena netto
    invoice number: número de factura | factura n | factura no | no factura | no de factura
    city: city | town | ciudad | municipio | localidad | stadt | ort | ville | commune | miasto | miejscowość | gemeente | plaats
    province: province | provincia | provinz | bundesland | województwo | provincie
    status: status | estado | statut | stan
    date: fecha | fecha de factura | fecha factura
    description: descripción | concepto | artículo
    quantity: cantidad | cant | uds | unidades
    unit price: precio unitario | precio unit | precio | precio neto
    amount: importe | importe total | total línea
    gross amount: total factura | importe total factura
    net amount: base imponible
    supplier: proveedor
    customer: cliente
    item code: referencia | ref | código | cód
    end date: fecha de fin | fecha fin | fecha de finalización
    start date: fecha de inicio | fecha inicio
    party: contraparte
    contract number: número de contrato | n contrato | nº contrato
"""


def _parse_synonyms(table: str) -> dict[str, tuple[str, ...]]:
    groups: dict[str, tuple[str, ...]] = {}
    for line in table.strip().splitlines():
        group, _, names = line.partition(":")
        groups[group.strip()] = groups.get(group.strip(), ()) + tuple(n.strip() for n in names.split("|"))
    return groups


SYNONYMS = _parse_synonyms(_SYNONYM_TABLE + GLOSSARY)
