"""The names business documents call themselves, kind by kind, in English, German, French, Dutch,
Spanish and Polish, singular and plural, lower case: "Contratos/" and "Contracts/" side by side in
one folder hold documents of one kind, and a "Factura" calls itself an invoice.

Written from the languages, kind by kind, for the documents a company's knowledge base keeps;
not from any document Kea was tried on. A name that mostly means something else in ordinary
text ("order" as a sequence, "statement" as a sentence) stands only in a compound that says the
kind ("purchase order"). Read one word at a time, so every name is one word or a compound
written as one; a kind of several words is found by its last word only where that word says it
alone ("price list": "list" does not).
"""

from __future__ import annotations

from tools.engines.columns import normalise

_KINDS = """
    invoice: invoice invoices rechnung rechnungen facture factures factuur facturen factura facturas faktura faktury
    credit note: gutschrift gutschriften avoir avoirs creditnota creditnotas abono abonos
    price list: pricelist pricelists preisliste preislisten tarif tarifs prijslijst prijslijsten tarifa tarifas cennik cenniki
    contract: contract contracts vertrag verträge vertraege contrat contrats contracten contrato contratos umowa umowy
    agreement: agreement agreements vereinbarung vereinbarungen accord accords overeenkomst overeenkomsten acuerdo acuerdos convenio convenios porozumienie
    purchase order: bestellung bestellungen commande commandes bestelling bestellingen pedido pedidos zamówienie zamówienia
    delivery note: lieferschein lieferscheine pakbon pakbonnen albarán albaranes albaran
    report: report reports bericht berichte rapport rapports verslag verslagen informe informes raport raporty
    timesheet: timesheet timesheets stundenzettel zeiterfassung urenstaat urenstaten
    receipt: receipt receipts quittung quittungen reçu reçus kassabon recibo recibos paragon paragony
    quote: quote quotes quotation quotations angebot angebote devis offerte offertes presupuesto presupuestos
    register: register registers verzeichnis register registre registres registro registros rejestr rejestry
"""


def _parse(table: str) -> dict[str, str]:
    kinds: dict[str, str] = {}
    for line in table.strip().splitlines():
        kind, _, names = line.partition(":")
        for name in names.split():
            kinds[normalise(name)] = kind.strip()
    return kinds


KINDS = _parse(_KINDS)


def kind_of(word: str) -> str | None:
    """The kind of document a word names in one of the languages ("Contratos": contract), or None."""
    return KINDS.get(normalise(word))


def same_kind(a: str, b: str) -> bool:
    """Whether two words name one kind of document, in one language or two ("facturas", "invoice")."""
    kind = kind_of(a)
    return kind is not None and kind == kind_of(b)
