"""Write the second evaluation corpus: a laboratory company's files and their ground truth.

    python -m corpora.second OUT [--seed N]

writes the documents into ``OUT/documents/`` (the folder to ingest) and the truth into
``OUT/truth.json``; paths in the truth are relative to ``OUT/documents/``. The truth has the
shape of the first corpus's truth (``corpora/first.md``), so ``evals/score.py`` scores it.

The knowledge base belongs to Caravel Biolabs B.V. (Utrecht): invoices of a French and a
Dutch supplier, its own purchase orders, 44 delivery notes, an archive of receipts, a lease
register, contracts whose first table is a key/value table, an employee list, timesheets,
lab results and certificates of analysis, SLAs, helpdesk exports, tender evaluations and a
catalogue. Every value in the truth is computed from the records the writers print, so the
truth and the documents cannot drift apart. The layout (folders, file names, companies,
header cells, case ids and messages) is fixed; the seed chooses items, quantities, prices,
dates, weights, hours and results. The same seed writes the same bytes: PDF creation dates,
Office core properties and zip timestamps are pinned.

The requests were written from the documents' layout alone, before any engine ran on them.
See ``corpora/second.md`` for the folders and every case.
"""

from __future__ import annotations

import datetime as dt
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

from corpora import writers as w

FIXED_INSTANT = dt.datetime(2024, 12, 31, 9, 0, 0, tzinfo=dt.UTC)
# PDFs print in Windows-1252 with the core Helvetica font, so "€" needs no font file
LOOK = w.Look(FIXED_INSTANT, docx_font="Arial", pdf_margin=16, pdf_bottom=18, pdf_encoding="cp1252")
DOCUMENTS = "documents"
PREFIX = "c2-"  # every case id of this corpus starts with it

CUSTOMER = ("Caravel Biolabs B.V.", "Catharijnesingel 58", "3511 GC Utrecht", "Nederland")
MONTHS = [
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
]  # fmt: skip

LAB_PLATE = "lab/Stability Study 2024.Q1 Plate 3.xlsx"
LAB_PLATE_LOOKALIKE = "lab/Stability Study 2024.Q1 Plate 2.xlsx"
HELPDESK_MAY = "support/helpdesk-export-2024-05.txt"
HELPDESK_JUNE = "support/helpdesk-export-2024-06.txt"
VISITS = "field-service/visit-reports-week-19.txt"
LEASES = "leases/lease-register.xlsx"
STAFF = "staff/employees.xlsx"
CATALOGUE = "catalogue/consumables-2024.xlsx"


# --------------------------------------------------------------------------------------------
# Notation


def _grouped(cents: int) -> tuple[str, str]:
    units, rest = divmod(cents, 100)
    return f"{units:,}", f"{rest:02d}"


def en(cents: int) -> str:
    """``123450`` -> ``1,234.50``."""
    whole, rest = _grouped(cents)
    return f"{whole}.{rest}"


def nl(cents: int) -> str:
    """Dutch invoices: ``€ 1.234,50``."""
    whole, rest = _grouped(cents)
    return f"€ {whole.replace(',', '.')},{rest}"


def fr(cents: int) -> str:
    """French invoices: ``1 234,50 €``."""
    whole, rest = _grouped(cents)
    return f"{whole.replace(',', ' ')},{rest} €"


def eur_en(cents: int) -> str:
    return f"EUR {en(cents)}"


def long_date(day: dt.date) -> str:
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def _price(rng: random.Random, low: int, high: int) -> int:
    return rng.randint(low, high) * 100 + rng.choice([0, 0, 50, 90, 25])


def _vat(net: int, rate: int = 21) -> int:
    return (net * rate + 50) // 100


# --------------------------------------------------------------------------------------------
# Catalogues of the suppliers: (description, unit, low, high, kind)


@dataclass(frozen=True)
class Company:
    key: str
    name: str
    address: tuple[str, ...]
    prefix: str
    items: tuple[tuple[str, str, int, int, str], ...]


VDL = Company(
    "vdl",
    "Van der Linde Labtechniek B.V.",
    ("Kanaaldijk 18", "5611 ZT Eindhoven", "Nederland"),
    "VDL-",
    (
        ("Nitrile gloves M (box of 100)", "box", 6, 14, "consumable"),
        ("Nitrile gloves L (box of 100)", "box", 6, 14, "consumable"),
        ("Centrifuge tubes 50 ml (pack of 500)", "pack", 60, 140, "consumable"),
        ("Centrifuge tubes 15 ml (pack of 500)", "pack", 50, 120, "consumable"),
        ("Pipette tips 200 µl racked (960)", "pack", 35, 80, "consumable"),
        ("Pipette tips 1000 µl racked (768)", "pack", 38, 85, "consumable"),
        ("Cryo vials 2 ml (pack of 100)", "pack", 28, 60, "consumable"),
        ("Serological pipettes 10 ml (200)", "case", 45, 95, "consumable"),
        ("Ethanol 96% denatured 5 L", "can", 30, 55, "consumable"),
        ("Parafilm M 100 mm x 38 m", "roll", 25, 45, "consumable"),
        ("Freezer box 81 places", "piece", 4, 9, "consumable"),
        ("Lab coat cotton size L", "piece", 22, 40, "consumable"),
        ("Safety goggles anti-fog", "piece", 9, 19, "consumable"),
        ("Pipette calibration service", "hour", 85, 120, "service"),
        ("On-site maintenance safety cabinet", "hour", 95, 140, "service"),
        ("Freight and packaging", "shipment", 35, 90, "service"),
    ),
)
ROUSSEL = Company(
    "roussel",
    "Roussel Verrerie SARL",
    ("14 rue de la Charité", "69002 Lyon", "France"),
    "RV-",
    (
        ("Bécher forme basse 250 ml", "pièce", 3, 9, "consumable"),
        ("Bécher forme haute 600 ml", "pièce", 5, 14, "consumable"),
        ("Fiole jaugée 100 ml classe A", "pièce", 12, 28, "consumable"),
        ("Fiole jaugée 1000 ml classe A", "pièce", 28, 60, "consumable"),
        ("Erlenmeyer col large 500 ml", "pièce", 6, 15, "consumable"),
        ("Éprouvette graduée 100 ml", "pièce", 9, 22, "consumable"),
        ("Burette 50 ml robinet PTFE", "pièce", 45, 95, "consumable"),
        ("Pipette jaugée 25 ml classe AS", "pièce", 8, 19, "consumable"),
        ("Boîte de Petri verre 90 mm", "pièce", 2, 6, "consumable"),
        ("Flacon de laboratoire 1000 ml bouchon bleu", "pièce", 7, 16, "consumable"),
        ("Entonnoir verre 100 mm", "pièce", 6, 14, "consumable"),
        ("Dessiccateur 250 mm avec robinet", "pièce", 120, 260, "consumable"),
        ("Tube à essai 16 x 160 mm (lot de 100)", "lot", 18, 40, "consumable"),
        ("Verre de montre 80 mm", "pièce", 1, 4, "consumable"),
        ("Frais de port et emballage", "forfait", 15, 60, "service"),
    ),
)
OBERHOLZ = Company(
    "oberholz",
    "Oberholz Kühltechnik GmbH",
    ("Industriestraße 7", "50829 Köln", "Deutschland"),
    "OK-",
    (
        ("Ultra-low freezer ULT-700 (-86 °C)", "piece", 8200, 12500, "equipment"),
        ("Laboratory refrigerator LR-400", "piece", 1900, 3200, "equipment"),
        ("Temperature logger TL-2 with probe", "piece", 85, 190, "equipment"),
        ("Door gasket ULT-700", "piece", 60, 140, "consumable"),
        ("Freezer rack stainless, 5 shelves", "piece", 140, 290, "equipment"),
        ("Service visit cooling technician", "hour", 120, 180, "service"),
    ),
)
PELLUCID = Company(
    "pellucid",
    "Pellucid Optics Ltd",
    ("22 Hills Road", "Cambridge CB2 1JP", "United Kingdom"),
    "PX-",
    (
        ("Inverted microscope PX-200", "piece", 9800, 16400, "equipment"),
        ("Objective 40x plan achromat", "piece", 480, 980, "equipment"),
        ("LED illumination module", "piece", 320, 640, "equipment"),
        ("Camera adapter C-mount 0.5x", "piece", 140, 290, "equipment"),
        ("Immersion oil 100 ml", "bottle", 12, 25, "consumable"),
        ("Lens cleaning tissue (pack of 500)", "pack", 6, 14, "consumable"),
    ),
)
SARRAZIN = Company(
    "sarrazin",
    "Sarrazin Chimie SA",
    ("8 boulevard des Dames", "13002 Marseille", "France"),
    "SC-",
    (
        ("Acetonitrile HPLC grade 2.5 L", "bottle", 45, 90, "consumable"),
        ("Methanol HPLC grade 2.5 L", "bottle", 30, 60, "consumable"),
        ("Formic acid 98% 500 ml", "bottle", 25, 50, "consumable"),
        ("Sodium chloride ACS 1 kg", "jar", 18, 36, "consumable"),
        ("Buffer solution pH 7.00 500 ml", "bottle", 14, 28, "consumable"),
        ("Hydrochloric acid 37% 1 L", "bottle", 19, 39, "consumable"),
    ),
)
COMPANIES = (VDL, ROUSSEL, OBERHOLZ, PELLUCID, SARRAZIN)


@dataclass(frozen=True)
class Product:
    code: str
    description: str
    unit: str
    low: int
    high: int
    kind: str


def _products(rng: random.Random, company: Company) -> list[Product]:
    codes = rng.sample(range(10000, 99999), len(company.items))
    return [
        Product(f"{company.prefix}{c}", d, u, lo, hi, k) for c, (d, u, lo, hi, k) in zip(codes, company.items)
    ]


def _quantity(rng: random.Random, p: Product) -> int:
    if p.kind == "equipment":
        return rng.randint(1, 3)
    if p.kind == "service":
        return rng.randint(1, 6)
    return rng.choice([2, 4, 5, 6, 10, 12, 20, 24, 25, 40, 60, 80, 100, 120])


# --------------------------------------------------------------------------------------------
# Records


@dataclass
class Line:
    no: int
    product: Product
    quantity: int
    unit_cents: int

    @property
    def net_cents(self) -> int:
        return self.quantity * self.unit_cents

    @property
    def gross_cents(self) -> int:
        return self.net_cents + _vat(self.net_cents)


@dataclass
class Invoice:
    company: Company
    path: str
    number: str
    date: dt.date
    lines: list[Line]

    @property
    def net_cents(self) -> int:
        return sum(line.net_cents for line in self.lines)

    @property
    def vat_cents(self) -> int:
        if self.company is ROUSSEL:
            return (self.net_cents * 20 + 50) // 100
        return sum(_vat(line.net_cents) for line in self.lines)

    @property
    def gross_cents(self) -> int:
        return self.net_cents + self.vat_cents


@dataclass
class Order:
    path: str
    number: str
    date: dt.date
    supplier: Company
    lines: list[Line]

    @property
    def net_cents(self) -> int:
        return sum(line.net_cents for line in self.lines)


@dataclass
class Delivery:
    path: str
    number: str
    date: dt.date
    shipper: Company
    carrier: str
    parcels: int
    weight: str  # "84.5 kg"
    lines: list[tuple[str, str, int, str]]  # code, description, quantity, unit


@dataclass
class Receipt:
    path: str
    merchant: str
    date: dt.date
    number: str
    paid_by: str
    total: str
    purpose: str


@dataclass
class Contract:
    path: str
    party: str
    number: str
    subject: str
    start: str
    end: str
    value_text: str
    value: int
    notice: str


@dataclass
class Sla:
    path: str
    provider: str
    service: str
    rows: list[tuple[str, str, str, str]]  # priority, impact, response, restoration


@dataclass
class Tender:
    path: str
    number: str
    subject: str
    rows: list[tuple[str, str, str, str, str, str]]  # rank, bidder, tech, price, total, bid


@dataclass
class Corpus:
    invoices: list[Invoice]
    orders: list[Order]
    deliveries: list[Delivery]
    receipts: list[Receipt]
    leases: list[list]
    contracts: list[Contract]
    employees: list[list]
    timesheets: dict[str, list[list[str]]]
    plates: dict[str, list[list]]
    coas: list[dict]
    slas: list[Sla]
    tickets: dict[str, list[dict[str, str]]]
    visits: list[dict[str, str]]
    tenders: list[Tender]
    catalogue: list[list]
    products: dict[str, list[Product]] = field(default_factory=dict)


# --------------------------------------------------------------------------------------------
# Building the records


def _lines(rng: random.Random, products: list[Product], count: int, prices: dict[str, int]) -> list[Line]:
    chosen = rng.sample(products, min(count, len(products)))
    return [
        Line(n, p, _quantity(rng, p), prices.setdefault(p.code, _price(rng, p.low, p.high)))
        for n, p in enumerate(chosen, start=1)
    ]


_VDL_PLAN = [(2024, 2, 6), (2024, 5, 5), (2024, 8, 7), (2024, 11, 4)]
_ROUSSEL_PLAN = [(2024, 1, 5), (2024, 4, 6), (2024, 7, 4), (2024, 10, 5)]


def _build_invoices(rng: random.Random, products: dict[str, list[Product]]) -> list[Invoice]:
    invoices = []
    prices: dict[str, int] = {}
    for n, (year, month, count) in enumerate(_VDL_PLAN):
        number = f"VDL-24-{1183 + 24 * n}"
        day = dt.date(year, month, rng.randint(2, 27))
        invoices.append(
            Invoice(
                VDL,
                f"invoices/van-der-linde/{number}.pdf",
                number,
                day,
                _lines(rng, products["vdl"], count, prices),
            )
        )
    for n, (year, month, count) in enumerate(_ROUSSEL_PLAN):
        number = f"FR-24-{117 + 31 * n:04d}"
        day = dt.date(year, month, rng.randint(2, 27))
        invoices.append(
            Invoice(
                ROUSSEL,
                f"invoices/roussel/facture-{number}.docx",
                number,
                day,
                _lines(rng, products["roussel"], count, prices),
            )
        )
    return invoices


# (year, month, supplier key, lines)
_ORDER_PLAN = [
    (2023, 3, "sarrazin", 5),
    (2023, 6, "vdl", 6),
    (2023, 9, "pellucid", 4),
    (2023, 11, "roussel", 7),
    (2024, 1, "oberholz", 4),
    (2024, 3, "vdl", 7),
    (2024, 5, "sarrazin", 5),
    (2024, 8, "pellucid", 3),
    (2024, 10, "roussel", 6),
]


_ORDER_NUMBERS = [45, 56, 71, 89, 104, 109, 120, 137, 156]


def _build_orders(rng: random.Random, products: dict[str, list[Product]]) -> list[Order]:
    by_key = {c.key: c for c in COMPANIES}
    orders = []
    prices: dict[str, int] = {}
    for (year, month, key, count), serial in zip(_ORDER_PLAN, _ORDER_NUMBERS):
        number = f"PO-{year % 100}-{serial:04d}"
        ext = "docx" if year == 2023 else "pdf"
        day = dt.date(year, month, rng.randint(2, 27))
        lines = _lines(rng, products[key], count, prices)
        orders.append(Order(f"orders/{year}/{number}.{ext}", number, day, by_key[key], lines))
    # quantities above 50 and exactly 50 ("more than 50" must exclude it)
    lines = [line for o in orders for line in o.lines if line.product.kind == "consumable"]
    if not any(line.quantity > 50 for line in lines):
        lines[0].quantity = 120
    if not any(line.quantity == 50 for line in lines):
        next(line for line in lines if line.quantity < 50).quantity = 50
    return orders


CARRIERS = ["DHL Freight", "PostNL Cargo", "DB Schenker", "Kuehne+Nagel", "GLS Nederland"]
DELIVERY_COUNT = 44
DELIVERY_FILE = "deliveries/DN-24-0419.txt"


def _delivery_path(i: int) -> str:
    number = f"DN-24-{401 + i:04d}"
    return f"deliveries/{number}.{'docx' if i % 4 == 3 else 'txt'}"


def _build_deliveries(rng: random.Random, products: dict[str, list[Product]]) -> list[Delivery]:
    days = sorted(dt.date(2024, 1, 2) + dt.timedelta(days=rng.randint(0, 178)) for _ in range(DELIVERY_COUNT))
    weights = [rng.randint(20, 1800) for _ in range(DELIVERY_COUNT)]  # tenths of a kg
    weights[7] = 1000  # exactly 100.0 kg: not "more than 100 kg"
    weights[11] = 1001
    deliveries = []
    for i in range(DELIVERY_COUNT):
        shipper = COMPANIES[rng.randrange(len(COMPANIES))]
        if i == 18:
            shipper = VDL  # the file asked for by name has a long table
        goods = [p for p in products[shipper.key] if p.kind != "service"]  # services are not shipped
        chosen = rng.sample(goods, min(len(goods), rng.randint(2, 5) + (3 if i == 18 else 0)))
        lines = [(p.code, p.description, _quantity(rng, p), p.unit) for p in chosen]
        w = weights[i]
        deliveries.append(
            Delivery(
                _delivery_path(i),
                f"DN-24-{401 + i:04d}",
                days[i],
                shipper,
                CARRIERS[rng.randrange(len(CARRIERS))],
                rng.randint(1, 12),
                f"{w // 10}.{w % 10} kg",
                lines,
            )
        )
    if not any(d.carrier == "PostNL Cargo" for d in deliveries):
        deliveries[0].carrier = "PostNL Cargo"
    return deliveries


_MERCHANTS = [
    ("Café Oranje", "Lunch with visiting auditors"),
    ("Hotel Dom Utrecht", "Accommodation, supplier audit"),
    ("NS International", "Train tickets Utrecht - Brussels"),
    ("Taxi Centrale Utrecht", "Taxi to the airport"),
    ("Boekhandel Broese", "Reference books for the QC lab"),
    ("Bistro De Werf", "Team dinner after the inspection"),
    ("Parkeergarage Hoog Catharijne", "Parking, customer visit"),
    ("Labshop Online", "Replacement thermometer"),
    ("Restaurant Goesting", "Dinner with a customer"),
    ("Schiphol Parking", "Airport parking"),
    ("Copy Corner", "Printing of poster"),
    ("Hema Utrecht Centrum", "Office supplies"),
]
PAYERS = ["Joost van Dam", "Ilse Vermeer", "Marc Leclercq"]


def _build_receipts(rng: random.Random) -> list[Receipt]:
    years = [2021, 2021, 2021, 2022, 2022, 2022, 2022, 2022, 2023, 2023, 2023, 2023]
    rng.shuffle(years)
    receipts = []
    for i, ((merchant, purpose), year) in enumerate(zip(_MERCHANTS, years), start=1):
        day = dt.date(year, rng.randint(1, 12), rng.randint(1, 28))
        cents = rng.randint(450, 32000)
        receipts.append(
            Receipt(
                f"receipts-archive/receipt-{i:03d}.md",
                merchant,
                day,
                f"{rng.randint(1000, 9999)}-{rng.randint(10, 99)}",
                PAYERS[rng.randrange(len(PAYERS))],
                eur_en(cents),
                purpose,
            )
        )
    if not any(r.paid_by == "Ilse Vermeer" for r in receipts):
        receipts[0].paid_by = "Ilse Vermeer"
    return receipts


_LANDLORDS = [
    "Domstad Vastgoed B.V.",
    "Leidsche Rijn Properties N.V.",
    "Science Park Utrecht B.V.",
    "Immobilière Saint-Gilles SA",
    "Rheinauhafen Gewerbe GmbH",
    "Havenkwartier Beheer B.V.",
]
_TENANTS = ["Caravel Biolabs B.V.", "Caravel Diagnostics GmbH", "Caravel Biolabs BV/SRL"]
_PROPERTIES = [
    "Catharijnesingel 58, Utrecht (offices)",
    "Heidelberglaan 12, Utrecht (laboratory)",
    "Uppsalalaan 3, Utrecht (cold store)",
    "Archimedeslaan 16, Utrecht (storage)",
    "Rue de la Loi 81, Brussels (office)",
    "Agrippinawerft 30, Köln (laboratory)",
    "Im Zollhafen 4, Köln (storage)",
    "Vaartsche Rijn 2, Utrecht (parking, 12 spaces)",
    "Kanaalweg 90, Utrecht (warehouse)",
    "Ladeuzeplein 9, Leuven (office)",
    "Europalaan 44, Utrecht (offices)",
    "Winthontlaan 200, Utrecht (archive)",
    "Mechelsesteenweg 12, Leuven (laboratory)",
    "Hohenzollernring 55, Köln (office)",
]


def _build_leases(rng: random.Random) -> list[list]:
    rows = []
    for i, prop in enumerate(_PROPERTIES, start=1):
        tenant = _TENANTS[0] if "Utrecht" in prop else (_TENANTS[1] if "Köln" in prop else _TENANTS[2])
        start = dt.date(rng.randint(2016, 2023), rng.randint(1, 12), 1)
        end = dt.date(start.year + rng.choice([3, 5, 5, 10]), start.month, 1) - dt.timedelta(days=1)
        rent = rng.randint(9, 180) * 10000 + rng.choice([0, 0, 5000])
        rows.append(
            [f"L-{i:02d}", _LANDLORDS[rng.randrange(len(_LANDLORDS))], tenant, prop, start, end, rent]
        )
    rows[5][6] = 500000  # exactly EUR 5,000.00: not "below EUR 5,000"
    if not any(r[6] < 500000 for r in rows):
        rows[0][6] = 245000
    return rows


def _build_contracts() -> list[Contract]:
    specs = [
        ("hollis-cryogenics-supply.docx", "Hollis Cryogenics Ltd", "C-2022-031",
         "Supply of liquid nitrogen and dewar rental", "1 April 2022", "31 March 2025",
         "EUR 186,000", 186_000, "3 months"),
        ("meyrin-facility-services.docx", "Meyrin Facility Services SA", "C-2023-004",
         "Cleaning and facility management of the Utrecht laboratories", "1 January 2023",
         "31 December 2026", "EUR 1,000,000", 1_000_000, "6 months"),
        ("quarry-lane-analytics.docx", "Quarry Lane Analytics Ltd", "C-2023-017",
         "Outsourced mass spectrometry analyses", "15 May 2023", "14 May 2026",
         "EUR 1,250,000", 1_250_000, "6 months"),
        ("brouwer-waste-disposal.docx", "Brouwer Afvalbeheer B.V.", "C-2024-002",
         "Collection and disposal of chemical and biological waste", "1 February 2024",
         "31 January 2027", "EUR 94,500", 94_500, "3 months"),
        ("tavira-lims-licence.docx", "Tavira Software Lda", "C-2024-011",
         "Laboratory information management system licence and support", "1 July 2024",
         "30 June 2027", "EUR 312,000", 312_000, "12 months"),
    ]  # fmt: skip
    return [Contract(f"contracts/{s[0]}", *s[1:]) for s in specs]


_FIRST = ["Joost", "Ilse", "Marc", "Sanne", "Pieter", "Femke", "Lucas", "Noor", "Thomas", "Eva", "Daan",
          "Lotte", "Ruben", "Amira", "Hugo", "Claire", "Jonas", "Mila", "Bram", "Sofie", "Kenji", "Ana",
          "Felix", "Marit", "Olivier", "Yara", "Stijn", "Leonie", "Hamza", "Inge"]  # fmt: skip
_LAST = ["van Dam", "Vermeer", "Leclercq", "de Boer", "Janssen", "Mulder", "Bakker", "Visser", "Smit",
         "Peeters", "Hoekstra", "Dubois", "Wagner", "El Idrissi", "Schouten", "Maes", "Kramer", "Tanaka",
         "Ferreira", "Brandt"]  # fmt: skip
_DEPARTMENTS = [
    ("Research", 11, ["Research scientist", "Senior research scientist", "Lab technician", "Group leader"]),
    ("Quality", 6, ["QC analyst", "QA officer", "Quality manager"]),
    ("Sales", 7, ["Account manager", "Sales engineer", "Key account manager", "Inside sales representative"]),
    ("Sales Operations", 2, ["Sales operations analyst", "Order desk coordinator"]),
    ("Finance", 4, ["Accountant", "Controller", "Accounts payable clerk"]),
    ("Operations", 6, ["Warehouse operator", "Facility coordinator", "Logistics planner"]),
    ("IT", 3, ["System administrator", "LIMS specialist"]),
]
_LOCATIONS = ["Utrecht", "Utrecht", "Utrecht", "Leuven", "Köln"]


def _build_employees(rng: random.Random) -> list[list]:
    names: list[str] = []
    while len(names) < sum(n for _, n, _ in _DEPARTMENTS):
        name = f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"
        if name not in names:
            names.append(name)
    slots = [(dep, roles) for dep, n, roles in _DEPARTMENTS for _ in range(n)]
    rng.shuffle(slots)
    rows = []
    for i, (name, (dep, roles)) in enumerate(zip(names, slots), start=1):
        start = dt.date(rng.randint(2012, 2024), rng.randint(1, 12), rng.choice([1, 1, 15]))
        rows.append(
            [
                f"E-{1000 + i}",
                name,
                dep,
                rng.choice(roles),
                start,
                rng.choice(_LOCATIONS),
                rng.choice([40, 40, 32, 36, 24]),
            ]
        )
    return rows


_PROJECTS = ["PRJ-201", "PRJ-207", "PRJ-215", "ADMIN"]
_ACTIVITIES = [
    "Assay development",
    "Sample preparation",
    "Data analysis",
    "Method validation",
    "Meetings",
    "Documentation",
]


def _build_timesheets(rng: random.Random, employees: list[list]) -> dict[str, list[list[str]]]:
    research = [r[1] for r in employees if r[2] == "Research"][:4]
    sheets: dict[str, list[list[str]]] = {}
    for week in range(14, 20):
        monday = dt.date.fromisocalendar(2024, week, 1)
        rows = []
        for name in rng.sample(research, 3):
            for d in range(5):
                tenths = rng.choice([40, 60, 75, 80, 80, 85, 90, 100, 70])
                rows.append(
                    [name, (monday + dt.timedelta(days=d)).isoformat(), rng.choice(_PROJECTS),
                     rng.choice(_ACTIVITIES), f"{tenths // 10},{tenths % 10}"]
                )  # fmt: skip
        sheets[f"timesheets/2024-W{week:02d}.csv"] = rows
    first = next(iter(sheets.values()))
    if not any(r[4] == "8,0" for rows in sheets.values() for r in rows):
        first[0][4] = "8,0"
    if not any(r[2] == "PRJ-207" for rows in sheets.values() for r in rows):
        first[1][2] = "PRJ-207"
    return sheets


_ANALYTES = [("Assay", "%", "HPLC-07", 97.0, 101.5), ("Impurity A", "%", "HPLC-07", 0.02, 0.40),
             ("Impurity B", "%", "HPLC-07", 0.01, 0.25), ("Water content", "%", "KF-02", 0.10, 1.20),
             ("pH", "pH", "PH-01", 6.20, 7.40)]  # fmt: skip


def _build_plates(rng: random.Random) -> dict[str, list[list]]:
    plates = {}
    for path, plate in ((LAB_PLATE_LOOKALIKE, 2), (LAB_PLATE, 3)):
        rows = []
        for s in range(1, 6):
            for analyte, unit, method, low, high in _ANALYTES[: rng.randint(3, 5)]:
                value = round(rng.uniform(low, high), 2)
                rows.append(
                    [f"S-P{plate}-{s:02d}", analyte, value, unit, method, rng.choice(["IV", "HJ", "ML"])]
                )
        plates[path] = rows
    return plates


_COA_SPECS = [
    ("Appearance", "clear, colourless liquid", None, "visual"),
    ("pH at 25 °C", "6.98 - 7.02", (6.98, 7.02), "pH"),
    ("Density at 20 °C", "1.002 - 1.008", (1.002, 1.008), "g/ml"),
    ("Conductivity", "5.0 - 6.0", (5.0, 6.0), "mS/cm"),
    ("Bacterial endotoxins", "max. 0.25", (0.01, 0.20), "EU/ml"),
]


def _build_coas(rng: random.Random) -> list[dict]:
    coas = []
    for lot in ("5531", "5587", "5602"):
        rows = []
        for parameter, spec, bounds, unit in _COA_SPECS:
            if bounds is None:
                result = "conforms"
            else:
                digits = 3 if bounds[1] < 2 and "Density" in parameter else 2
                result = f"{rng.uniform(*bounds):.{digits}f}"
            rows.append((parameter, spec, result, unit))
        day = dt.date(2024, rng.randint(1, 9), rng.randint(1, 28))
        coas.append({"path": f"lab/coa/coa-lot-{lot}.pdf", "lot": lot, "date": day, "rows": rows})
    return coas


def _build_slas() -> list[Sla]:
    return [
        Sla("slas/ferrand-instruments-sla.docx", "Ferrand Instruments GmbH", "Instrument support",
            [("1", "Instrument down, no workaround", "2 hours", "1 business day"),
             ("2", "Instrument degraded", "4 hours", "3 business days"),
             ("3", "Minor fault", "1 business day", "10 business days"),
             ("4", "Question or request", "3 business days", "as agreed")]),
        Sla("slas/hollis-cryogenics-sla.pdf", "Hollis Cryogenics Ltd", "Nitrogen supply",
            [("1", "Supply interrupted", "30 minutes", "6 hours"),
             ("2", "Supply at risk", "2 hours", "24 hours"),
             ("3", "Delivery issue", "1 business day", "5 business days"),
             ("4", "Administrative request", "2 business days", "10 business days")]),
        Sla("slas/tavira-lims-sla.md", "Tavira Software Lda", "LIMS hosting and support",
            [("1", "System unavailable", "15 minutes", "4 hours"),
             ("2", "Major function unavailable", "1 hour", "8 hours"),
             ("3", "Minor function impaired", "4 hours", "5 business days"),
             ("4", "Cosmetic issue or question", "1 business day", "next release")]),
    ]  # fmt: skip


_TICKET_SUBJECTS = [
    ("Label printer in QC lab prints blank labels", "hardware"),
    ("LIMS login fails after password change", "accounts"),
    ("Network share of the research group unreachable", "network"),
    ("Wi-Fi drops in the cold store", "network"),
    ("New laptop for starting lab technician", "onboarding"),
    ("Balance interface does not send weights to LIMS", "integration"),
    ("VPN connection from Leuven office very slow", "network"),
    ("Request: licence for statistics software", "licensing"),
    ("Monitor in meeting room 2 shows no picture", "hardware"),
    ("Freezer alarm e-mails not received", "email"),
]


def _build_tickets(rng: random.Random, employees: list[list]) -> dict[str, list[dict[str, str]]]:
    names = [r[1] for r in employees]
    tickets: dict[str, list[dict[str, str]]] = {}
    number = 5012
    for path, month, count in ((HELPDESK_MAY, 5, 4), (HELPDESK_JUNE, 6, 3)):
        records = []
        for subject, area in rng.sample(_TICKET_SUBJECTS, count):
            records.append(
                {
                    "Ticket": f"HD-{number}",
                    "Opened": dt.date(2024, month, rng.randint(1, 28)).isoformat(),
                    "Priority": rng.choice(["High", "Medium", "Medium", "Low"]),
                    "Requester": rng.choice(names),
                    "Subject": subject,
                    "area": area,
                }
            )
            number += rng.randint(1, 9)
        tickets[path] = records
    all_records = [t for records in tickets.values() for t in records]
    if not any(t["Priority"] == "High" for t in all_records):
        all_records[1]["Priority"] = "High"
    if not any(t["area"] == "network" for t in all_records):
        all_records[0]["Subject"], all_records[0]["area"] = _TICKET_SUBJECTS[2]
    return tickets


_SITES = ["Heidelberglaan 12, Utrecht", "Agrippinawerft 30, Köln", "Mechelsesteenweg 12, Leuven"]
_ENGINEERS = [
    "R. Hoekstra (Ferrand Instruments)",
    "K. Wagner (Oberholz Kühltechnik)",
    "T. Maes (Pellucid Optics)",
]
_OUTCOMES = [
    "Replaced the door gasket of freezer F-03; temperature stable at -80 °C after two hours.",
    "Calibrated the HPLC autosampler; results within tolerance.",
    "Aligned the microscope illumination; customer trained on the new camera adapter.",
]


def _build_visits(rng: random.Random) -> list[dict[str, str]]:
    monday = dt.date.fromisocalendar(2024, 19, 1)
    visits = []
    for i, (site, engineer, outcome) in enumerate(zip(_SITES, _ENGINEERS, _OUTCOMES)):
        halves = rng.randint(2, 14)
        visits.append(
            {
                "Visit": f"V-19-{i + 1:02d}",
                "Date": (monday + dt.timedelta(days=i + rng.randint(0, 1))).isoformat(),
                "Site": site,
                "Engineer": engineer,
                "Duration": f"{halves / 2:.1f} h",
                "Outcome": outcome,
            }
        )
    return visits


_TENDER_SPECS = [
    ("tenders/evaluation-T-2024-03-mass-spectrometer.docx", "T-2024-03", "Triple quadrupole mass spectrometer",
     ["Quarry Lane Instruments Ltd", "Ferrand Instruments GmbH", "Analytica Nord AB", "Sendai Scientific K.K."],
     (280_000, 520_000)),
    ("tenders/evaluation-T-2024-07-cold-storage.docx", "T-2024-07", "Cold storage room and freezers",
     ["Oberholz Kühltechnik GmbH", "Frigolab B.V.", "Polar Systems Ltd"], (90_000, 210_000)),
    ("tenders/evaluation-T-2024-09-cleaning.docx", "T-2024-09", "Laboratory cleaning services 2025-2027",
     ["Meyrin Facility Services SA", "Schoonmaakbedrijf Nijland B.V.", "CleanLab Services NV",
      "Hygiena Partners GmbH"], (120_000, 260_000)),
]  # fmt: skip


def _build_tenders(rng: random.Random) -> list[Tender]:
    tenders = []
    for path, number, subject, bidders, (low, high) in _TENDER_SPECS:
        scored = []
        for bidder in bidders:
            tech = rng.randint(520, 700) / 10  # out of 70
            price = rng.randint(150, 300) / 10  # out of 30
            bid = rng.randint(low // 500, high // 500) * 500
            scored.append((round(tech + price, 1), bidder, tech, price, bid))
        scored.sort(key=lambda s: -s[0])
        rows = [
            (str(rank), b, f"{t:.1f}", f"{p:.1f}", f"{total:.1f}", f"EUR {bid:,}")
            for rank, (total, b, t, p, bid) in enumerate(scored, start=1)
        ]
        tenders.append(Tender(path, number, subject, rows))
    return tenders


_CATALOGUE_GROUPS = {
    "Pipettes": (["Serological pipette", "Pasteur pipette", "Transfer pipette", "Filter tip"],
                 ["1 ml", "5 ml", "10 ml", "25 ml", "200 µl", "1000 µl"], ["case", "pack", "rack"], (18, 140)),
    "Gloves": (["Nitrile gloves", "Latex gloves", "Cryo gloves", "Cleanroom gloves"],
               ["S", "M", "L", "XL"], ["box", "pair", "case"], (6, 90)),
    "Tubes": (["Centrifuge tube", "Microcentrifuge tube", "Cryo tube", "PCR tube strip"],
              ["0.2 ml", "1.5 ml", "2 ml", "15 ml", "50 ml"], ["pack", "bag", "case"], (12, 160)),
    "Filters": (["Syringe filter PTFE", "Syringe filter nylon", "Membrane filter", "Bottle-top filter"],
                ["0.22 µm", "0.45 µm", "25 mm", "47 mm"], ["pack", "box", "piece"], (25, 310)),
    "Chemicals": (["Ethanol absolute", "Isopropanol", "Acetone", "Phosphate buffer"],
                  ["500 ml", "1 L", "2.5 L", "5 L"], ["bottle", "can", "canister"], (9, 120)),
    "Glassware": (["Beaker", "Volumetric flask", "Graduated cylinder", "Media bottle"],
                  ["50 ml", "100 ml", "250 ml", "500 ml", "1000 ml"], ["piece", "pack"], (3, 70)),
}  # fmt: skip


def _build_catalogue(rng: random.Random) -> list[list]:
    codes = sorted(rng.sample(range(10000, 99999), 96))
    rows, seen = [], set()
    groups = list(_CATALOGUE_GROUPS)
    for i, code in enumerate(codes):
        group = groups[i % len(groups)]
        names, sizes, units, (low, high) = _CATALOGUE_GROUPS[group]
        while True:
            desc = f"{rng.choice(names)} {rng.choice(sizes)}"
            if desc not in seen:
                seen.add(desc)
                break
        unit = rng.choice(units)
        pack = {"box": "100", "pair": "1", "case": "500", "pack": "50", "rack": "96", "bag": "1000",
                "piece": "1", "bottle": "1", "can": "1", "canister": "1"}[unit]  # fmt: skip
        rows.append([f"A-{code}", group, desc, pack, unit, rng.randint(low * 100, high * 100) / 100])
    rows.sort(key=lambda r: (groups.index(r[1]), r[0]))
    return rows


def build(seed: int = 7) -> Corpus:
    """Every record of the corpus, without writing anything."""
    rng = random.Random(seed)
    products = {c.key: _products(rng, c) for c in COMPANIES}
    employees = _build_employees(rng)
    return Corpus(
        invoices=_build_invoices(rng, products),
        orders=_build_orders(rng, products),
        deliveries=_build_deliveries(rng, products),
        receipts=_build_receipts(rng),
        leases=_build_leases(rng),
        contracts=_build_contracts(),
        employees=employees,
        timesheets=_build_timesheets(rng, employees),
        plates=_build_plates(rng),
        coas=_build_coas(rng),
        slas=_build_slas(),
        tickets=_build_tickets(rng, employees),
        visits=_build_visits(rng),
        tenders=_build_tenders(rng),
        catalogue=_build_catalogue(rng),
        products=products,
    )


# --------------------------------------------------------------------------------------------
# Writers (how a file is made lives in corpora/writers.py; what it says, here)


def _write_vdl_invoice(inv: Invoice, path: Path) -> None:
    """Dutch supplier, English labels, Dutch notation (€ 1.234,50); net and gross per line."""
    c = inv.company
    pdf = w.pdf_document(LOOK, f"Invoice {inv.number}", c.name)
    w.pdf_heading(pdf, c.name, 16, 9)
    w.pdf_lines(
        pdf, [", ".join(c.address), "KvK 58120473 | BTW NL852014776B01 | IBAN NL91 ABNA 0417 1643 00"], 9
    )
    pdf.ln(6)
    w.pdf_heading(pdf, "Invoice", 14, 9)
    w.pdf_lines(
        pdf,
        [
            f"Invoice number: {inv.number}",
            f"Invoice date: {inv.date.strftime('%d-%m-%Y')}",
            f"Customer: {CUSTOMER[0]}, {CUSTOMER[1]}, {CUSTOMER[2]}",
            "Customer number: 30-7741",
        ],
    )
    pdf.ln(4)
    rows = [["Item code", "Item", "Unit", "Qty", "Unit price", "Net amount", "VAT", "Gross amount"]]
    rows += [
        [l.product.code, l.product.description, l.product.unit, str(l.quantity), nl(l.unit_cents),
         nl(l.net_cents), "21%", nl(l.gross_cents)]
        for l in inv.lines
    ]  # fmt: skip
    w.pdf_ruled(
        pdf,
        (20, 50, 15, 9, 20, 22, 10, 23),
        ("LEFT", "LEFT", "LEFT", "RIGHT", "RIGHT", "RIGHT", "RIGHT", "RIGHT"),
        rows,
        7.5,
    )
    pdf.ln(4)
    w.pdf_lines(pdf, [f"Net total: {nl(inv.net_cents)}", f"VAT 21%: {nl(inv.vat_cents)}"])
    w.pdf_lines(pdf, [f"Gross total: {nl(inv.gross_cents)}"], style="B")
    pdf.ln(3)
    w.pdf_lines(pdf, ["Payment within 30 days of the invoice date, quoting the invoice number."], 9)
    pdf.output(str(path))


def _write_roussel_invoice(inv: Invoice, path: Path) -> None:
    """French invoice in Word; the letterhead is in the page header (1 234,50 €)."""
    c = inv.company
    doc = w.docx_document(LOOK, f"Facture {inv.number}", c.name)
    header = doc.sections[0].header
    header.is_linked_to_previous = False
    header.paragraphs[0].text = f"{c.name} — {', '.join(c.address)} — SIRET 812 455 963 00027"
    doc.add_heading("FACTURE", level=1)
    doc.add_paragraph(f"Facture n° : {inv.number}")
    doc.add_paragraph(f"Date : {inv.date.strftime('%d/%m/%Y')}")
    doc.add_paragraph(f"Client : {CUSTOMER[0]}, {CUSTOMER[1]}, {CUSTOMER[2]}, Pays-Bas")
    rows = [["Réf.", "Désignation", "Qté", "Prix unitaire HT", "Montant HT"]]
    rows += [
        [l.product.code, l.product.description, str(l.quantity), fr(l.unit_cents), fr(l.net_cents)]
        for l in inv.lines
    ]
    w.docx_table(doc, rows, right=frozenset({2, 3, 4}))
    doc.add_paragraph(f"Total HT : {fr(inv.net_cents)}")
    doc.add_paragraph(f"TVA 20 % : {fr(inv.vat_cents)}")
    doc.add_paragraph(f"Total TTC : {fr(inv.gross_cents)}")
    doc.add_paragraph(
        "Conditions de paiement : 30 jours fin de mois. Pénalités de retard : 3 fois le taux légal."
    )
    w.save_package(LOOK, doc, path)


def _order_rows(o: Order) -> list[list[str]]:
    rows = [["Line", "Article", "Description", "Qty", "Unit", "Unit price", "Total"]]
    rows += [
        [
            str(l.no),
            l.product.code,
            l.product.description,
            str(l.quantity),
            l.product.unit,
            en(l.unit_cents),
            en(l.net_cents),
        ]
        for l in o.lines
    ]
    return rows


def _order_head(o: Order) -> list[str]:
    return [
        f"Purchase order: {o.number}",
        f"Order date: {o.date.isoformat()}",
        f"Supplier: {o.supplier.name}",
        f"Supplier address: {', '.join(o.supplier.address)}",
        f"Deliver to: {CUSTOMER[0]}, Heidelberglaan 12, 3584 CS Utrecht",
    ]


def _write_order_docx(o: Order, path: Path) -> None:
    doc = w.docx_document(LOOK, f"Purchase order {o.number}", CUSTOMER[0])
    w.docx_bold(doc, f"{CUSTOMER[0]} · Purchasing")
    doc.add_heading("Purchase order", level=1)
    for line in _order_head(o):
        doc.add_paragraph(line)
    w.docx_table(doc, _order_rows(o), right=frozenset({3, 5, 6}))
    doc.add_paragraph(f"Net total: EUR {en(o.net_cents)}")
    doc.add_paragraph("Please quote the purchase order number on every delivery note and invoice.")
    w.save_package(LOOK, doc, path)


def _write_order_pdf(o: Order, path: Path) -> None:
    pdf = w.pdf_document(LOOK, f"Purchase order {o.number}", CUSTOMER[0])
    w.pdf_lines(pdf, [f"{CUSTOMER[0]} · Purchasing", ", ".join(CUSTOMER[1:])], 9, "B")
    pdf.ln(4)
    w.pdf_heading(pdf, "Purchase order", 14, 9)
    w.pdf_lines(pdf, _order_head(o))
    pdf.ln(4)
    w.pdf_ruled(
        pdf,
        (10, 22, 64, 12, 16, 26, 28),
        ("RIGHT", "LEFT", "LEFT", "RIGHT", "LEFT", "RIGHT", "RIGHT"),
        _order_rows(o),
    )
    pdf.ln(4)
    w.pdf_lines(pdf, [f"Net total: EUR {en(o.net_cents)}"], style="B")
    w.pdf_lines(pdf, ["Please quote the purchase order number on every delivery note and invoice."], 9)
    pdf.output(str(path))


def _delivery_head(d: Delivery) -> list[str]:
    return [
        f"Delivery note: {d.number}",
        f"Date: {d.date.isoformat()}",
        f"Shipper: {d.shipper.name}",
        f"Consignee: {CUSTOMER[0]}, Heidelberglaan 12, 3584 CS Utrecht",
        f"Carrier: {d.carrier}",
        f"Number of parcels: {d.parcels}",
        f"Gross weight: {d.weight}",
    ]


def _delivery_txt(d: Delivery) -> str:
    """A plain-text delivery note whose table is aligned with spaces only."""
    header = ("Item code", "Description", "Quantity", "Unit")
    rows = [(code, desc, str(q), unit) for code, desc, q, unit in d.lines]
    w0 = max(len(header[0]), *(len(r[0]) for r in rows)) + 3
    w1 = max(len(header[1]), *(len(r[1]) for r in rows)) + 3
    w2 = max(len(header[2]), *(len(r[2]) for r in rows))

    def line(r: tuple[str, ...]) -> str:
        return f"{r[0]:<{w0}}{r[1]:<{w1}}{r[2]:>{w2}}   {r[3]}".rstrip()

    out = [f"{d.shipper.name.upper()}", "DELIVERY NOTE", "", *_delivery_head(d), "", line(header)]
    out += [line(r) for r in rows]
    out += ["", "Received in good condition: ______________________", ""]
    return "\n".join(out)


def _write_delivery_docx(d: Delivery, path: Path) -> None:
    doc = w.docx_document(LOOK, f"Delivery note {d.number}", d.shipper.name)
    w.docx_bold(doc, d.shipper.name)
    doc.add_heading("Delivery note", level=1)
    for line in _delivery_head(d):
        doc.add_paragraph(line)
    rows = [["Item code", "Description", "Quantity", "Unit"]] + [
        [c, desc, str(q), u] for c, desc, q, u in d.lines
    ]
    w.docx_table(doc, rows, right=frozenset({2}))
    doc.add_paragraph("Received in good condition: signature and date.")
    w.save_package(LOOK, doc, path)


def _receipt_md(r: Receipt) -> str:
    return "\n".join(
        [
            f"# Receipt {r.number}",
            "",
            f"**Merchant:** {r.merchant}",
            f"**Date:** {long_date(r.date)}",
            f"**Receipt no.:** {r.number}",
            f"**Paid by:** {r.paid_by}",
            f"**Purpose:** {r.purpose}",
            f"**Total:** {r.total}",
            "",
            "Scanned and filed by the finance team. The original is kept in the binder.",
            "",
        ]
    )


def _write_contract(c: Contract, path: Path) -> None:
    """A contract in prose whose first table is a key/value table: no header row."""
    doc = w.docx_document(LOOK, f"Agreement {c.number}", CUSTOMER[0])
    doc.add_heading(c.subject, level=0)
    w.docx_table(
        doc,
        [
            ["Party", c.party],
            ["Contract number", c.number],
            ["Subject", c.subject],
            ["Start date", c.start],
            ["End date", c.end],
            ["Annual value", c.value_text],
            ["Notice period", c.notice],
        ],
        bold_first=False,
    )
    for text in (
        (
            f'This agreement is made between {CUSTOMER[0]}, {CUSTOMER[1]}, {CUSTOMER[2]} (the "Customer") and '
            f'the party named above (the "Contractor"). It governs the {c.subject.lower()} for the Customer\'s sites.'
        ),
        (
            "The Contractor performs the services with due care, in line with the applicable laws and the "
            "Customer's safety rules, and names a contact person for all operational questions."
        ),
        (
            "Fees are invoiced monthly in arrears and are payable within 30 days. Prices are fixed for the first "
            "contract year and may then be adjusted once a year by the Dutch consumer price index."
        ),
        (
            "Either party may end the agreement at the end date by giving written notice within the notice "
            "period stated above; otherwise it continues for one year at a time."
        ),
        "This agreement is governed by the laws of the Netherlands. Disputes go to the court of Midden-Nederland.",
    ):
        doc.add_paragraph(text)
    doc.add_paragraph("Signed for the Customer: ____________   Signed for the Contractor: ____________")
    w.save_package(LOOK, doc, path)


_AGREEMENTS = [
    (
        "agreements/framework-agreement-ferrand-instruments.pdf",
        "Framework Agreement for Analytical Instruments",
        [
            (
                f"This framework agreement is concluded between {CUSTOMER[0]}, Utrecht, and Ferrand Instruments GmbH, "
                "Darmstadt, for the purchase, installation and maintenance of chromatography instruments."
            ),
            (
                "Call-off orders placed under this agreement are subject to the prices in Annex 2, which remain "
                "fixed until the end of 2025."
            ),
            (
                "The agreement is concluded for an indefinite period. Either party may terminate it by giving "
                "three months' written notice to the end of a calendar quarter."
            ),
            "Ferrand Instruments GmbH keeps spare parts available for at least eight years after delivery.",
        ],
    ),
    (
        "agreements/cooperation-agreement-utrecht-research-foundation.md",
        "Research Cooperation Agreement",
        [
            (
                f"{CUSTOMER[0]} and Stichting Utrechts Onderzoeksfonds agree to cooperate on the development of "
                "rapid stability assays for biological reference materials."
            ),
            (
                "Each party bears its own costs. Results are owned jointly; each party may use them for "
                "non-commercial research without the consent of the other."
            ),
            (
                "The agreement runs until 31 December 2027. It may be terminated early by either party with "
                "nine months' notice in writing, stating the reasons."
            ),
            "Publications require the prior review of both parties; a review takes no longer than 30 days.",
        ],
    ),
]


def _write_agreement(path: Path, title: str, paragraphs: list[str]) -> None:
    if path.suffix == ".md":
        w.write_text(path, "\n\n".join([f"# {title}", *paragraphs]) + "\n")
        return
    pdf = w.pdf_document(LOOK, title, CUSTOMER[0])
    w.pdf_heading(pdf, title, 15, 9)
    pdf.ln(2)
    for text in paragraphs:
        w.pdf_paragraph(pdf, text)
    pdf.output(str(path))


_SLA_HEADER = ["Priority", "Impact", "Response time", "Restoration time"]
_SLA_INTRO = (
    "The provider answers every incident reported by {customer} within the response time of its "
    "priority and restores the service within the restoration time. Times run from the moment the "
    "incident is logged with the provider's service desk."
)


def _write_sla(sla: Sla, path: Path) -> None:
    title = f"Service Level Agreement - {sla.service}"
    intro = _SLA_INTRO.format(customer=CUSTOMER[0])
    rows = [_SLA_HEADER] + [list(r) for r in sla.rows]
    if path.suffix == ".md":
        lines = [f"# {title}", "", f"**Provider:** {sla.provider}", f"**Customer:** {CUSTOMER[0]}",
                 "**Valid from:** 1 July 2024", "", intro, ""]  # fmt: skip
        lines += w.md_table(rows)
        lines += ["", "Priority 1 and 2 are handled around the clock; priority 3 and 4 on business days.", ""]
        w.write_text(path, "\n".join(lines))
    elif path.suffix == ".docx":
        doc = w.docx_document(LOOK, title, sla.provider)
        doc.add_heading(title, level=0)
        doc.add_paragraph(f"Provider: {sla.provider}")
        doc.add_paragraph(f"Customer: {CUSTOMER[0]}")
        doc.add_paragraph(intro)
        w.docx_table(doc, rows)
        doc.add_paragraph("A missed restoration time earns a service credit of 3 % of the monthly fee.")
        w.save_package(LOOK, doc, path)
    else:
        pdf = w.pdf_document(LOOK, title, sla.provider)
        w.pdf_heading(pdf, title, 15, 9)
        w.pdf_lines(pdf, [f"Provider: {sla.provider}", f"Customer: {CUSTOMER[0]}"])
        pdf.ln(2)
        w.pdf_paragraph(pdf, intro)
        w.pdf_ruled(pdf, (18, 62, 34, 40), ("LEFT",) * 4, rows, 9)
        pdf.ln(3)
        w.pdf_paragraph(pdf, "Deliveries are scheduled on business days between 7:00 and 17:00.")
        pdf.output(str(path))


def _helpdesk_txt(month: str, records: list[dict[str, str]]) -> str:
    out = [f"Helpdesk export - {month}", f"Exported from the service desk of {CUSTOMER[0]}", ""]
    for t in records:
        out += [f"Ticket: {t['Ticket']}", f"Opened: {t['Opened']}", f"Priority: {t['Priority']}",
                f"Requester: {t['Requester']}", f"Subject: {t['Subject']}", "-----", ""]  # fmt: skip
    return "\n".join(out)


def _visits_txt(visits: list[dict[str, str]]) -> str:
    out = ["Field service visit reports, week 19 (2024)", ""]
    for v in visits:
        out += [f"{k}: {v[k]}" for k in ("Visit", "Date", "Site", "Engineer", "Duration", "Outcome")] + [""]
    return "\n".join(out)


def _write_tender(t: Tender, path: Path) -> None:
    doc = w.docx_document(LOOK, f"Tender evaluation {t.number}", "Purchasing")
    doc.add_heading(f"Tender evaluation {t.number}: {t.subject}", level=1)
    doc.add_paragraph(
        f"{len(t.rows)} bids were received and scored by the evaluation committee: technical quality "
        "counts for up to 70 points, price for up to 30 points. The bidder ranked first is recommended for award."
    )
    rows = [["Rank", "Bidder", "Technical score", "Price score", "Total score", "Bid amount"]]
    rows += [list(r) for r in t.rows]
    w.docx_table(doc, rows, right=frozenset({2, 3, 4, 5}))
    doc.add_paragraph("Committee: Purchasing, Quality, and the requesting department.")
    w.save_package(LOOK, doc, path)


def _write_coa(coa: dict, path: Path) -> None:
    pdf = w.pdf_document(LOOK, f"Certificate of Analysis lot {coa['lot']}", SARRAZIN.name)
    w.pdf_heading(pdf, SARRAZIN.name, 14, 9)
    w.pdf_lines(pdf, [", ".join(SARRAZIN.address)], 9)
    pdf.ln(5)
    w.pdf_heading(pdf, "Certificate of Analysis", 13, 9)
    w.pdf_lines(
        pdf,
        [
            "Product: Buffer solution pH 7.00 500 ml",
            f"Lot: {coa['lot']}",
            f"Date of analysis: {coa['date'].isoformat()}",
            f"Customer: {CUSTOMER[0]}",
        ],
    )
    pdf.ln(5)
    rows = [["Parameter", "Specification", "Result", "Unit"]] + [list(r) for r in coa["rows"]]
    w.pdf_unruled(pdf, (52, 58, 30, 28), ("L", "L", "R", "L"), rows)
    pdf.ln(4)
    w.pdf_paragraph(pdf, "The lot meets the specification. Released by quality control.")
    pdf.output(str(path))


_MENU = """# Canteen menu, week 19

| Day | Soup | Main |
|---|---|---|
| Monday | Tomato | Vegetable lasagne |
| Tuesday | Pea soup | Chicken satay with rice |
| Wednesday | Mushroom | Falafel wrap |
| Thursday | Lentil | Fish of the day |
| Friday | Minestrone | Pizza |

Please bring your own cup; the coffee machine on the second floor is out of order.
"""

_PARKING = """Parking rules, Heidelberglaan site

1. The garage opens at 6:30 and closes at 21:00.
2. Spaces 1 to 4 are reserved for visitors and deliveries.
3. Charging points may be used for up to four hours; move your car when it is charged.
4. Bicycles go in the shed next to the entrance, not in the corridor.

Questions: facility desk, extension 2210.
"""


# --------------------------------------------------------------------------------------------
# Truth


def _case(
    id_: str,
    message: str,
    tags: list[str],
    columns: list[str],
    rows: list[tuple[str, list[str]]],
    *,
    status: str = "done",
    calculations: bool = False,
    traps: tuple[str, ...] = (),
) -> dict:
    assert id_.startswith(PREFIX), id_
    return {
        "id": id_,
        "message": message,
        "tags": tags,
        "status": status,
        "columns": columns,
        "calculations": calculations,
        "traps": list(traps),
        "documents_with_rows": sorted({path for path, _ in rows}),
        "rows": [{"file": path, "values": dict(zip(columns, values))} for path, values in rows],
    }


def _amount(text: str) -> int:
    """Whole euros of ``EUR 1,000,000`` / ``4,250.00``."""
    return int(text.replace("EUR", "").strip().split(".")[0].replace(",", ""))


def _truth(c: Corpus) -> list[dict]:
    vdl = [i for i in c.invoices if i.company is VDL]
    roussel = [i for i in c.invoices if i.company is ROUSSEL]
    vdl_file = next(i for i in vdl if i.number == "VDL-24-1207")
    orders_2023 = [o for o in c.orders if o.path.startswith("orders/2023/")]
    orders_2024 = [o for o in c.orders if o.path.startswith("orders/2024/")]
    delivery_file = next(d for d in c.deliveries if d.path == DELIVERY_FILE)
    tickets = [(path, t) for path, records in c.tickets.items() for t in records]
    lease_rows = [(LEASES, r) for r in c.leases]
    staff = [(STAFF, r) for r in c.employees]
    entries = [(path, r) for path, rows in c.timesheets.items() for r in rows]

    def cell(value) -> str:  # how the sheets show a value (dates as yyyy-mm-dd)
        return value.isoformat() if isinstance(value, dt.date) else str(value)

    def hours(text: str) -> float:
        return float(text.replace(",", "."))

    explicit = ["explicit"]
    cases = [
        # invoices
        _case(
            "c2-vdl-gross",
            "Item, quantity and gross amount of every line on Van der Linde's invoices",
            explicit,
            ["Item", "Quantity", "Gross amount"],
            [
                (i.path, [l.product.description, str(l.quantity), nl(l.gross_cents)])
                for i in vdl
                for l in i.lines
            ],
            traps=("net-gross", "contained-header"),
        ),
        _case(
            "c2-vdl-totals",
            "Invoice number, net total and gross total of every invoice from Van der Linde Labtechniek B.V.",
            explicit,
            ["Invoice number", "Net total", "Gross total"],
            [(i.path, [i.number, nl(i.net_cents), nl(i.gross_cents)]) for i in vdl],
            traps=("net-gross",),
        ),
        _case(
            "c2-vdl-file-units",
            "Item code, item, unit and unit price from invoices/van-der-linde/VDL-24-1207.pdf",
            explicit,
            ["Item code", "Item", "Unit", "Unit price"],
            [
                (vdl_file.path, [l.product.code, l.product.description, l.product.unit, nl(l.unit_cents)])
                for l in vdl_file.lines
            ],
            traps=("contained-header",),
        ),
        _case(
            "c2-de-vdl-gross",
            "Alle Positionen der Rechnungen von Van der Linde mit Artikelnummer, Menge und Bruttobetrag",
            explicit,
            ["Artikelnummer", "Menge", "Bruttobetrag"],
            [(i.path, [l.product.code, str(l.quantity), nl(l.gross_cents)]) for i in vdl for l in i.lines],
            traps=("net-gross",),
        ),
        _case(
            "c2-fr-roussel-lines",
            "Pour chaque facture de Roussel Verrerie : désignation, quantité et prix unitaire",
            explicit,
            ["Désignation", "Quantité", "Prix unitaire"],
            [
                (i.path, [l.product.description, str(l.quantity), fr(l.unit_cents)])
                for i in roussel
                for l in i.lines
            ],
        ),
        _case(
            "c2-fr-roussel-totals",
            "Numéro de facture, date et total TTC de chaque facture de Roussel Verrerie SARL",
            explicit,
            ["Numéro de facture", "Date", "Total TTC"],
            [(i.path, [i.number, i.date.strftime("%d/%m/%Y"), fr(i.gross_cents)]) for i in roussel],
            traps=("net-gross",),
        ),
        # purchase orders
        _case(
            "c2-orders-2024",
            "Order number, order date and supplier of every purchase order in orders/2024/",
            explicit,
            ["Order number", "Order date", "Supplier"],
            [(o.path, [o.number, o.date.isoformat(), o.supplier.name]) for o in orders_2024],
            traps=("year-in-path",),
        ),
        _case(
            "c2-orders-2023-lines",
            "All lines of the 2023 purchase orders with description, quantity, unit price and total",
            explicit,
            ["Description", "Quantity", "Unit price", "Total"],
            [
                (o.path, [l.product.description, str(l.quantity), en(l.unit_cents), en(l.net_cents)])
                for o in orders_2023
                for l in o.lines
            ],
            traps=("year-in-path", "contained-header"),
        ),
        _case(
            "c2-orders-bulk",
            "Every purchase order line with a quantity of more than 50: order number, article and quantity",
            explicit,
            ["Order number", "Article", "Quantity"],
            [
                (o.path, [o.number, l.product.code, str(l.quantity)])
                for o in c.orders
                for l in o.lines
                if l.quantity > 50
            ],
        ),
        _case(
            "c2-orders-2025",
            "Order number and supplier of the 2025 purchase orders",
            explicit,
            ["Order number", "Supplier"],
            [],
            status="no_documents",
            traps=("year-in-path",),
        ),
        # delivery notes
        _case(
            "c2-deliveries-parcels",
            "For each delivery note in deliveries/: delivery note number, date, carrier and number of parcels",
            explicit,
            ["Delivery note number", "Date", "Carrier", "Number of parcels"],
            [(d.path, [d.number, d.date.isoformat(), d.carrier, str(d.parcels)]) for d in c.deliveries],
        ),
        _case(
            "c2-deliveries-heavy",
            "Delivery note, carrier and gross weight of every delivery note in the deliveries folder "
            "with a gross weight of more than 100 kg",
            explicit,
            ["Delivery note", "Carrier", "Gross weight"],
            [
                (d.path, [d.number, d.carrier, d.weight])
                for d in c.deliveries
                if float(d.weight.split()[0]) > 100
            ],
        ),
        _case(
            "c2-delivery-file",
            f"All lines of {DELIVERY_FILE} with item code, description and quantity",
            explicit,
            ["Item code", "Description", "Quantity"],
            [(DELIVERY_FILE, [code, desc, str(q)]) for code, desc, q, _u in delivery_file.lines],
            traps=("space-aligned-txt",),
        ),
        _case(
            "c2-de-lieferscheine",
            "Lieferscheinnummer, Datum und Bruttogewicht aller Lieferscheine in deliveries/ mit dem Spediteur PostNL Cargo",
            explicit,
            ["Lieferscheinnummer", "Datum", "Bruttogewicht"],
            [
                (d.path, [d.number, d.date.isoformat(), d.weight])
                for d in c.deliveries
                if d.carrier == "PostNL Cargo"
            ],
        ),
        _case(
            "c2-dhl-parcels",
            "The total number of parcels delivered by DHL Freight",
            explicit,
            ["Number of parcels"],
            [(d.path, [str(d.parcels)]) for d in c.deliveries if d.carrier == "DHL Freight"],
            calculations=True,
        ),
        # receipts
        _case(
            "c2-receipts-2022",
            "Merchant, date and total of the 2022 receipts",
            explicit,
            ["Merchant", "Date", "Total"],
            [(r.path, [r.merchant, long_date(r.date), r.total]) for r in c.receipts if r.date.year == 2022],
            traps=("year-by-date", "markdown-bold-keys"),
        ),
        _case(
            "c2-receipts-missing-folder",
            "Merchant and total of every receipt in the receipts/ folder",
            explicit,
            ["Merchant", "Total"],
            [],
            status="no_documents",
            traps=("missing-folder",),
        ),
        _case(
            "c2-receipts-payer",
            "Receipt no., merchant and total of the receipts in receipts-archive/ paid by Ilse Vermeer",
            explicit,
            ["Receipt no.", "Merchant", "Total"],
            [(r.path, [r.number, r.merchant, r.total]) for r in c.receipts if r.paid_by == "Ilse Vermeer"],
            traps=("markdown-bold-keys",),
        ),
        # leases
        _case(
            "c2-leases-all",
            "Landlord, tenant and monthly rent of every lease in leases/",
            explicit,
            ["Landlord", "Tenant", "Monthly rent"],
            [(p, [r[1], r[2], en(r[6])]) for p, r in lease_rows],
        ),
        _case(
            "c2-leases-below",
            "Which leases in the leases folder have a monthly rent below EUR 5,000? Tenant, property and monthly rent.",
            explicit,
            ["Tenant", "Property", "Monthly rent"],
            [(p, [r[2], r[3], en(r[6])]) for p, r in lease_rows if r[6] < 500000],
        ),
        # contracts
        _case(
            "c2-contracts-dates",
            "Party, start date and end date of every contract in contracts/",
            explicit,
            ["Party", "Start date", "End date"],
            [(k.path, [k.party, k.start, k.end]) for k in c.contracts],
            traps=("key-value-table",),
        ),
        _case(
            "c2-contracts-below",
            "Party and annual value of every contract in the contracts/ folder with an annual value below EUR 1,000,000",
            explicit,
            ["Party", "Annual value"],
            [(k.path, [k.party, k.value_text]) for k in c.contracts if k.value < 1_000_000],
            traps=("key-value-table",),
        ),
        _case(
            "c2-fr-contrats",
            "Pour chaque contrat du dossier contracts/ : partie, date de fin et délai de préavis",
            explicit,
            ["Partie", "Date de fin", "Délai de préavis"],
            [(k.path, [k.party, k.end, k.notice]) for k in c.contracts],
            traps=("key-value-table",),
        ),
        # staff and timesheets
        _case(
            "c2-staff-sales",
            "every employee in the Sales department: name, role and start date",
            explicit,
            ["Name", "Role", "Start date"],
            [(p, [r[1], r[3], cell(r[4])]) for p, r in staff if r[2] == "Sales"],
            traps=("department",),
        ),
        _case(
            "c2-de-staff-quality",
            "Name, Rolle und Eintrittsdatum aller Mitarbeitenden der Abteilung Quality",
            explicit,
            ["Name", "Rolle", "Eintrittsdatum"],
            [(p, [r[1], r[3], cell(r[4])]) for p, r in staff if r[2] == "Quality"],
            traps=("department",),
        ),
        _case(
            "c2-timesheets-long",
            "Timesheet entries in timesheets/ with more than 8 hours: employee, date, project code and hours",
            explicit,
            ["Employee", "Date", "Project code", "Hours"],
            [(p, [r[0], r[1], r[2], r[4]]) for p, r in entries if hours(r[4]) > 8],
        ),
        _case(
            "c2-timesheets-project",
            "Employee, date and hours of every timesheet entry for project code PRJ-207",
            explicit,
            ["Employee", "Date", "Hours"],
            [(p, [r[0], r[1], r[4]]) for p, r in entries if r[2] == "PRJ-207"],
        ),
        # lab
        _case(
            "c2-lab-plate",
            f"All rows of '{LAB_PLATE.rsplit('/', 1)[1]}' with sample ID, analyte and result",
            explicit,
            ["Sample ID", "Analyte", "Result"],
            [(LAB_PLATE, [r[0], r[1], f"{r[2]:.2f}"]) for r in c.plates[LAB_PLATE]],
            traps=("file-name-spaces-dots",),
        ),
        _case(
            "c2-coa",
            "Parameter, specification and result from every certificate of analysis in lab/coa/",
            explicit,
            ["Parameter", "Specification", "Result"],
            [(coa["path"], [p, s, r]) for coa in c.coas for p, s, r, _u in coa["rows"]],
            traps=("unruled-pdf",),
        ),
        # SLAs, helpdesk, visits
        _case(
            "c2-sla-p1",
            "From the SLAs in slas/: provider, response time and restoration time for priority 1",
            explicit,
            ["Provider", "Response time", "Restoration time"],
            [(s.path, [s.provider, row[2], row[3]]) for s in c.slas for row in s.rows if row[0] == "1"],
            traps=("markdown-bold-keys",),
        ),
        _case(
            "c2-helpdesk-file",
            f"Ticket, priority and subject of every ticket in {HELPDESK_MAY}",
            explicit,
            ["Ticket", "Priority", "Subject"],
            [(HELPDESK_MAY, [t["Ticket"], t["Priority"], t["Subject"]]) for t in c.tickets[HELPDESK_MAY]],
            traps=("key-value-records",),
        ),
        _case(
            "c2-helpdesk-high",
            "Ticket, requester and subject of every ticket with priority High in support/",
            explicit,
            ["Ticket", "Requester", "Subject"],
            [(p, [t["Ticket"], t["Requester"], t["Subject"]]) for p, t in tickets if t["Priority"] == "High"],
            traps=("key-value-records",),
        ),
        _case(
            "c2-visits",
            f"Site, engineer and duration of each visit in {VISITS}",
            explicit,
            ["Site", "Engineer", "Duration"],
            [(VISITS, [v["Site"], v["Engineer"], v["Duration"]]) for v in c.visits],
            traps=("key-value-records",),
        ),
        # tenders and catalogue
        _case(
            "c2-tenders-rank1",
            "Bidder, total score and bid amount with rank 1 in the tender evaluations in tenders/",
            explicit,
            ["Bidder", "Total score", "Bid amount"],
            [(t.path, [r[1], r[4], r[5]]) for t in c.tenders for r in t.rows if r[0] == "1"],
        ),
        _case(
            "c2-catalogue-filters",
            "Article no., description and unit price of every catalogue item of product group Filters",
            explicit,
            ["Article no.", "Description", "Unit price"],
            [(CATALOGUE, [r[0], r[2], f"{r[5]:,.2f}"]) for r in c.catalogue if r[1] == "Filters"],
        ),
        _case(
            "c2-catalogue-units",
            f"Description, pack size, unit and unit price from {CATALOGUE} where product group is Gloves",
            explicit,
            ["Description", "Pack size", "Unit", "Unit price"],
            [(CATALOGUE, [r[2], r[3], r[4], f"{r[5]:,.2f}"]) for r in c.catalogue if r[1] == "Gloves"],
            traps=("contained-header",),
        ),
        # semantic: need judgement
        _case(
            "c2-agreements-notice",
            "Which agreements in agreements/ can be terminated with less than six months' notice? "
            "Counterparty and notice period.",
            ["semantic"],
            ["Counterparty", "Notice period"],
            [(_AGREEMENTS[0][0], ["Ferrand Instruments GmbH", "three months"])],
        ),
        _case(
            "c2-vdl-services",
            "Every service (not goods) on Van der Linde's invoices with item and net amount",
            ["semantic"],
            ["Item", "Net amount"],
            [
                (i.path, [l.product.description, nl(l.net_cents)])
                for i in vdl
                for l in i.lines
                if l.product.kind == "service"
            ],
            traps=("net-gross",),
        ),
        _case(
            "c2-helpdesk-network",
            "Tickets about network problems in support/: ticket and subject",
            ["semantic"],
            ["Ticket", "Subject"],
            [(p, [t["Ticket"], t["Subject"]]) for p, t in tickets if t["area"] == "network"],
        ),
    ]
    return cases


# Every trap the corpus sets, and what goes wrong when a reader falls into it.
TRAPS = {
    "net-gross": "a table with Net amount and Gross amount columns (and Net total / Gross total lines)",
    "key-value-table": "a DOCX contract whose first table is Party | ..., End date | ...: no header row",
    "department": "an employee list with a Department column (Sales beside Sales Operations)",
    "space-aligned-txt": "a .txt delivery note whose table is aligned with spaces only",
    "key-value-records": "a .txt file holding several Key: value records, one row each",
    "contained-header": "a header containing another asked name: Unit price / Unit, Item code / Item, Total",
    "markdown-bold-keys": "Markdown documents with **Key:** value lines",
    "unruled-pdf": "a PDF table without ruling lines",
    "year-in-path": "folders orders/2023/ and orders/2024/ carry the year",
    "year-by-date": "receipts-archive/ paths carry no year: the year is the document's date",
    "file-name-spaces-dots": "a file named with spaces and dots, beside a lookalike name",
    "missing-folder": "a folder the request names does not exist (receipts/ beside receipts-archive/)",
}


# --------------------------------------------------------------------------------------------
# Entry points


def cases(seed: int = 7) -> list[dict]:
    """The cases of ``truth.json`` for ``seed``, computed without writing any file."""
    return _truth(build(seed))


def generate(out: Path, seed: int = 7) -> dict:
    """Write the documents into ``out/documents/`` and the truth into ``out/truth.json``."""
    out = Path(out)
    folder = w.Folder(out / DOCUMENTS)
    target, text = folder.path, folder.text
    c = build(seed)

    for inv in c.invoices:
        (_write_vdl_invoice if inv.company is VDL else _write_roussel_invoice)(inv, target(inv.path))
    for o in c.orders:
        (_write_order_docx if o.path.endswith(".docx") else _write_order_pdf)(o, target(o.path))
    for d in c.deliveries:
        if d.path.endswith(".txt"):
            text(d.path, _delivery_txt(d))
        else:
            _write_delivery_docx(d, target(d.path))
    for r in c.receipts:
        text(r.path, _receipt_md(r))

    wb = w.workbook(LOOK, "Lease register", "Caravel Biolabs")
    rows = [[*r[:6], r[6] / 100] for r in c.leases]
    w.sheet(wb, "Leases", ["Lease ID", "Landlord", "Tenant", "Property", "Start date", "End date", "Monthly rent"],
           rows, {4: "yyyy-mm-dd", 5: "yyyy-mm-dd", 6: "#,##0.00"}, [9, 30, 26, 44, 12, 12, 14])  # fmt: skip
    w.save_package(LOOK, wb, target(LEASES))

    for k in c.contracts:
        _write_contract(k, target(k.path))
    for path, title, paragraphs in _AGREEMENTS:
        _write_agreement(target(path), title, paragraphs)

    wb = w.workbook(LOOK, "Employees", "Caravel Biolabs")
    w.sheet(wb, "Employees", ["Employee no.", "Name", "Department", "Role", "Start date", "Location", "Weekly hours"],
           c.employees, {4: "yyyy-mm-dd"}, [12, 24, 18, 28, 12, 10, 12])  # fmt: skip
    w.save_package(LOOK, wb, target(STAFF))

    for path, rows in c.timesheets.items():
        lines = ["Employee;Date;Project code;Activity;Hours"] + [";".join(r) for r in rows]
        text(path, "\n".join(lines) + "\n")

    for path, rows in c.plates.items():
        wb = w.workbook(LOOK, Path(path).stem, "Caravel Biolabs")
        w.sheet(wb, "Results", ["Sample ID", "Analyte", "Result", "Unit", "Method", "Analyst"], rows,
               {2: "0.00"}, [12, 16, 10, 8, 10, 8])  # fmt: skip
        w.save_package(LOOK, wb, target(path))
    for coa in c.coas:
        _write_coa(coa, target(coa["path"]))

    for sla in c.slas:
        _write_sla(sla, target(sla.path))
    text(HELPDESK_MAY, _helpdesk_txt("May 2024", c.tickets[HELPDESK_MAY]))
    text(HELPDESK_JUNE, _helpdesk_txt("June 2024", c.tickets[HELPDESK_JUNE]))
    text(VISITS, _visits_txt(c.visits))
    for t in c.tenders:
        _write_tender(t, target(t.path))

    wb = w.workbook(LOOK, "Consumables catalogue 2024", "Caravel Biolabs")
    w.sheet(wb, "Catalogue", ["Article no.", "Product group", "Description", "Pack size", "Unit", "Unit price"],
           c.catalogue, {5: "#,##0.00"}, [12, 14, 34, 10, 10, 12])  # fmt: skip
    w.save_package(LOOK, wb, target(CATALOGUE))

    text("misc/canteen-menu-week-19.md", _MENU)
    text("misc/parking-rules.txt", _PARKING)

    truth = {"seed": seed, "documents": sorted(folder.written), "unreadable": [], "cases": _truth(c)}
    w.write_truth(out / "truth.json", truth)
    return truth


def main(argv: list[str] | None = None) -> int:
    return w.command_line("python -m corpora.second", "Write Kea's second evaluation corpus into OUT/documents/ and its truth into OUT/truth.json.", generate, DOCUMENTS, argv)


if __name__ == "__main__":
    sys.exit(main())
