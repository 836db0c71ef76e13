"""Write the evaluation corpus: a small, realistic knowledge base and its ground truth.

    python -m corpora.first OUT [--seed N]

writes the documents into ``OUT/documents/`` (the folder to ingest) and the truth into
``OUT/truth.json``; paths in the truth are relative to ``OUT/documents/``.

Every value in ``truth.json`` is computed from the same records the writers put into the
files, so the truth and the documents cannot drift apart. The layout (folders, file names,
suppliers, header cells, case ids and messages) is fixed; the seed only chooses the items,
quantities, prices, tickets and price-list rows. Generation is deterministic: the same seed
writes the same bytes (PDF creation dates, Office core properties and zip timestamps are
pinned), so re-generating over an existing folder leaves every file unchanged.

See ``corpora/first.md`` for what the corpus holds and what each case asks.
"""

from __future__ import annotations

import datetime as dt
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

from corpora import writers as w

# One instant for every embedded date: PDF creation dates, Office core properties, zip entries.
FIXED_INSTANT = dt.datetime(2025, 6, 30, 12, 0, 0, tzinfo=dt.UTC)
LOOK = w.Look(FIXED_INSTANT, docx_font="Calibri", pdf_margin=15, pdf_bottom=20)

DOCUMENTS = "documents"  # the folder under OUT that holds the knowledge base
UNREADABLE = "notes/scan-broken.pdf"
SCANNED = "notes/scanned-receipt.pdf"  # an image of a receipt and no text layer: it needs OCR
_SCANNED_LINES = [  # what the picture in SCANNED shows
    "Nordwerk GmbH  Quittung",
    "Pos  Artikel            Menge  Preis",
    "1    Patchkabel Cat6   10     8,00",
]
QUOTE = "quotes/견적서-2025.hwpx"

CUSTOMER = ("Marlow Systems GmbH", "Friedrichstraße 120", "10117 Berlin", "Deutschland")

MONTHS_EN = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


# --------------------------------------------------------------------------------------------
# Records


@dataclass(frozen=True)
class Supplier:
    key: str
    name: str
    address: tuple[str, ...]
    notation: str  # "de" (1.249,00) or "en" (1,249.00)
    currency: str
    header: tuple[str, ...]


NORDWERK = Supplier(
    "nordwerk",
    "Nordwerk GmbH",
    ("Am Sandtorkai 41", "20457 Hamburg", "Deutschland"),
    "de",
    "EUR",
    ("Pos.", "Art.-Nr.", "Beschreibung", "Menge", "Einzelpreis", "Gesamtpreis"),
)
BRIGHTLINE = Supplier(
    "brightline",
    "Brightline Ltd",
    ("Unit 4, Jutland Street", "Manchester M1 2BE", "United Kingdom"),
    "en",
    "GBP",
    ("Item", "Description", "Qty", "Unit price", "Amount"),
)
KAPPA = Supplier(
    "kappa",
    "Kappa Systems AB",
    ("Sveavägen 44", "111 34 Stockholm", "Sweden"),
    "en",
    "EUR",
    ("No.", "Description", "Quantity", "Unit Price", "Line Total"),
)
TESSEL = Supplier(
    "tessel",
    "Tessel Trading",
    ("Weena 505", "3013 AL Rotterdam", "Netherlands"),
    "en",
    "EUR",
    ("Item", "Description", "Qty", "Unit price", "Amount"),
)


@dataclass(frozen=True)
class Product:
    code: str
    description: str
    kind: str  # "hardware" or "service"
    low: int  # unit price range, whole currency units
    high: int
    bulk: bool = False  # sold in bulk (cables, small accessories)


@dataclass
class Item:
    position: int
    code: str
    description: str
    kind: str
    quantity: int
    unit_cents: int

    @property
    def total_cents(self) -> int:
        return self.quantity * self.unit_cents


@dataclass
class Invoice:
    supplier: Supplier
    path: str
    number: str
    date: dt.date
    items: list[Item]

    def money(self, cents: int) -> str:
        return money(cents, self.supplier.notation)

    def cells(self, item: Item) -> list[str]:
        """The table row of one item, exactly as the document prints it."""
        q, u, t = str(item.quantity), self.money(item.unit_cents), self.money(item.total_cents)
        if self.supplier is NORDWERK:
            return [str(item.position), item.code, item.description, q, u, t]
        return [str(item.position), item.description, q, u, t]

    @property
    def net_cents(self) -> int:
        return sum(i.total_cents for i in self.items)


@dataclass
class Contract:
    path: str
    title: str
    supplier: str
    effective: str
    cap_key: str | None  # None: the cap is stated only in prose
    cap_text: str
    cap_amount: int
    paragraphs: list[str] = field(default_factory=list)
    key_terms: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Sla:
    path: str
    provider: str
    title: str
    rows: list[tuple[str, str, str]]
    intro: str


# --------------------------------------------------------------------------------------------
# Notation


def money(cents: int, notation: str) -> str:
    """``124950`` -> ``1,249.50`` (en) or ``1.249,50`` (de)."""
    units, rest = divmod(cents, 100)
    text = f"{units:,}.{rest:02d}"
    if notation == "de":
        text = text.replace(",", "\0").replace(".", ",").replace("\0", ".")
    return text


def date_text(day: dt.date, notation: str) -> str:
    if notation == "de":
        return day.strftime("%d.%m.%Y")
    return f"{day.day} {MONTHS_EN[day.month - 1]} {day.year}"


def _price(rng: random.Random, low: int, high: int) -> int:
    """A plausible unit price in cents: whole units, or ending in .50 / .90."""
    units = rng.randint(low, high)
    return units * 100 + rng.choice([0, 0, 0, 50, 90])


# --------------------------------------------------------------------------------------------
# Catalogues

_NORDWERK_PRODUCTS = [
    ("Rack-Server NW-R220 (2 HE)", "hardware", 3200, 6800, False),
    ("Rack-Server NW-R240 (2 HE)", "hardware", 4800, 8900, False),
    ("Tower-Server NW-T110", "hardware", 1900, 3400, False),
    ("Switch 24 Port Gigabit NW-S24", "hardware", 380, 890, False),
    ("Switch 48 Port Gigabit NW-S48", "hardware", 790, 1650, False),
    ("Switch 8 Port PoE NW-S8P", "hardware", 160, 340, False),
    ("Firewall NW-FW200", "hardware", 1100, 2400, False),
    ("WLAN-Access-Point NW-AP6", "hardware", 190, 420, False),
    ("SSD 512 GB NVMe", "hardware", 55, 95, True),
    ("SSD 1 TB NVMe", "hardware", 85, 160, True),
    ("SSD 2 TB NVMe", "hardware", 150, 290, False),
    ("SSD 4 TB SATA", "hardware", 260, 480, False),
    ("Festplatte 8 TB SAS", "hardware", 240, 390, False),
    ("Speichermodul 32 GB DDR5", "hardware", 95, 180, True),
    ("Notebook NW-Book 14 Zoll 16 GB RAM", "hardware", 1050, 1490, False),
    ("Notebook NW-Book 15 Zoll 32 GB RAM", "hardware", 1390, 2190, False),
    ("Monitor 24 Zoll Full HD", "hardware", 140, 260, False),
    ("Monitor 27 Zoll WQHD", "hardware", 260, 520, False),
    ("Monitor 32 Zoll 4K", "hardware", 480, 890, False),
    ("USB-C-Dockingstation NW-D3", "hardware", 149, 279, False),
    ("Thunderbolt-Dockingstation NW-D4", "hardware", 229, 389, False),
    ("Patchkabel Cat6 1 m grau", "hardware", 3, 6, True),
    ("Patchkabel Cat6 2 m grau", "hardware", 4, 8, True),
    ("Patchkabel Cat6 3 m blau", "hardware", 5, 9, True),
    ("Patchkabel Cat6 5 m blau", "hardware", 6, 12, True),
    ("Glasfaserkabel LC/LC 10 m", "hardware", 18, 39, True),
    ("HDMI-Kabel 2 m", "hardware", 7, 15, True),
    ("USB-C-Kabel 1 m", "hardware", 9, 19, True),
    ("Kaltgerätekabel C13 2 m", "hardware", 4, 9, True),
    ("Tastatur USB deutsch", "hardware", 19, 49, True),
    ("Maus kabellos", "hardware", 15, 39, True),
    ("Headset USB mit Geräuschunterdrückung", "hardware", 69, 149, True),
    ("Webcam Full HD", "hardware", 49, 119, True),
    ("USV 1500 VA", "hardware", 390, 790, False),
    ("Rackschrank 42 HE", "hardware", 890, 1690, False),
    ("Netzteil USB-C 65 W", "hardware", 29, 59, True),
    ("Notebooktasche 15 Zoll", "hardware", 25, 59, True),
    ("Installation vor Ort (Stunde)", "service", 85, 125, False),
    ("Einrichtung Netzwerk (Stunde)", "service", 90, 130, False),
    ("Konfiguration Server (Pauschale)", "service", 450, 1250, False),
    ("Datenmigration (Pauschale)", "service", 900, 2400, False),
    ("Wartungspauschale Quartal", "service", 600, 1800, False),
    ("Fernwartung (Stunde)", "service", 75, 110, False),
    ("Schulung Administratoren (Tag)", "service", 850, 1450, False),
    ("Versand und Verpackung", "service", 25, 95, False),
    ("Expressversand", "service", 45, 140, False),
    ("Entsorgung Altgeräte", "service", 80, 350, False),
    ("Rufbereitschaft Wochenende", "service", 400, 900, False),
]

_BRIGHTLINE_PRODUCTS = [
    ("Business laptop 14-inch 16 GB", "hardware", 890, 1290, False),
    ("Business laptop 15-inch 32 GB", "hardware", 1190, 1890, False),
    ("Monitor 24-inch Full HD", "hardware", 120, 220, False),
    ("Monitor 27-inch QHD", "hardware", 230, 460, False),
    ("USB-C docking station", "hardware", 130, 260, False),
    ("Wireless keyboard and mouse set", "hardware", 35, 79, True),
    ("Cat6 patch cable 2 m", "hardware", 3, 7, True),
    ("Cat6 patch cable 5 m", "hardware", 5, 11, True),
    ("HDMI cable 2 m", "hardware", 6, 14, True),
    ("USB-C charging cable 1 m", "hardware", 8, 16, True),
    ("NVMe SSD 1 TB", "hardware", 70, 140, True),
    ("NVMe SSD 2 TB", "hardware", 130, 250, False),
    ("Managed switch 24-port", "hardware", 320, 780, False),
    ("Wi-Fi access point", "hardware", 160, 380, False),
    ("Rack server 1U", "hardware", 2400, 4900, False),
    ("UPS 1500 VA", "hardware", 340, 690, False),
    ("USB headset", "hardware", 45, 119, True),
    ("Webcam 4K", "hardware", 89, 179, True),
    ("Installation (per hour)", "service", 70, 110, False),
    ("On-site support visit", "service", 180, 420, False),
    ("Annual maintenance plan", "service", 900, 2600, False),
    ("Admin training (per day)", "service", 650, 1150, False),
    ("Shipping and handling", "service", 20, 80, False),
    ("Data migration (flat fee)", "service", 700, 1900, False),
]

_KAPPA_PRODUCTS = [
    ("Storage array KS-200 12 TB", "hardware", 5400, 8900, False),
    ("Rack server KS-R1", "hardware", 2900, 5200, False),
    ("Backup appliance KS-B4", "hardware", 3900, 6400, False),
    ("Tape cartridge LTO-9", "hardware", 95, 160, True),
    ("10G network card dual-port", "hardware", 240, 480, False),
    ("Fibre cable LC-LC 5 m", "hardware", 14, 32, True),
    ("Rail kit for KS-R1", "hardware", 60, 140, False),
    ("Remote installation", "service", 600, 1400, False),
    ("Support subscription (12 months)", "service", 1800, 4800, False),
    ("Training workshop (day)", "service", 900, 1600, False),
    ("Freight", "service", 60, 240, False),
]

# Tessel resells other makers' products; the makers' names are in the items only.
_TESSEL_PRODUCTS = [
    ("Nordwerk USB-C dock (resold)", "hardware", 169, 299, False),
    ("Nordwerk 24-port switch (resold)", "hardware", 420, 940, False),
    ("Nordwerk 27-inch monitor (resold)", "hardware", 290, 560, False),
    ("Nordwerk NVMe SSD 1 TB (resold)", "hardware", 95, 175, True),
    ("Orvik wireless mouse (resold)", "hardware", 18, 42, True),
    ("Orvik keyboard DE layout (resold)", "hardware", 24, 55, True),
    ("Halvard laptop stand (resold)", "hardware", 29, 69, True),
    ("Halvard webcam 1080p (resold)", "hardware", 45, 99, True),
    ("Handling fee", "service", 15, 45, False),
    ("Freight", "service", 40, 160, False),
]


def _catalogue(rng: random.Random, rows: list[tuple], prefix: str) -> list[Product]:
    codes = rng.sample(range(10000, 99999), len(rows))
    return [
        Product(f"{prefix}{code}", desc, kind, low, high, bulk)
        for code, (desc, kind, low, high, bulk) in zip(codes, rows)
    ]


def _quantity(rng: random.Random, product: Product) -> int:
    if product.kind == "service":
        return rng.randint(1, 6)
    if product.bulk:
        return rng.choice([4, 5, 8, 10, 12, 15, 20, 25, 40, 50])
    return rng.randint(1, 8)


def _items(rng: random.Random, catalogue: list[Product], count: int, prices: dict[str, int]) -> list[Item]:
    chosen = rng.sample(catalogue, count)
    items = []
    for pos, product in enumerate(chosen, start=1):
        unit = prices.setdefault(product.code, _price(rng, product.low, product.high))
        items.append(
            Item(pos, product.code, product.description, product.kind, _quantity(rng, product), unit)
        )
    return items


# --------------------------------------------------------------------------------------------
# Building the records


@dataclass
class Corpus:
    invoices: list[Invoice]
    contracts: list[Contract]
    archive: list[Contract]
    slas: list[Sla]
    prices: list[tuple[str, str, str, int]]  # code, group, description, cents
    quote: list[tuple[str, int, int]]  # 품목, 수량, 단가 (KRW)
    tickets: list[dict[str, str]]


# (supplier, year, month, items, format). The third Nordwerk 2025 invoice is the long one.
_INVOICE_PLAN = [
    (NORDWERK, 2024, 3, 6, "docx"),
    (NORDWERK, 2024, 7, 5, "docx"),
    (NORDWERK, 2024, 11, 7, "docx"),
    (NORDWERK, 2025, 1, 6, "pdf"),
    (NORDWERK, 2025, 3, 8, "pdf"),
    (NORDWERK, 2025, 5, 45, "pdf"),
    (NORDWERK, 2025, 8, 5, "pdf"),
    (BRIGHTLINE, 2024, 3, 7, "pdf"),
    (BRIGHTLINE, 2024, 6, 5, "pdf"),
    (BRIGHTLINE, 2024, 10, 6, "pdf"),
    (BRIGHTLINE, 2025, 2, 6, "pdf"),
    (BRIGHTLINE, 2025, 7, 8, "pdf"),
    (KAPPA, 2024, 5, 4, "docx"),
    (KAPPA, 2024, 9, 5, "docx"),
    (KAPPA, 2025, 4, 5, "docx"),
    (KAPPA, 2025, 10, 4, "docx"),
    (TESSEL, 2025, 2, 5, "pdf"),
    (TESSEL, 2025, 6, 6, "pdf"),
    (TESSEL, 2025, 9, 4, "pdf"),
]

_NUMBER_FORMATS = {
    "nordwerk": "RE-{y}-{m:02d}{n:02d}",
    "brightline": "BL-{yy}{m:02d}{n:02d}",
    "kappa": "KS-INV-{y}-{m:02d}{n:01d}",
    "tessel": "TT/{y}/{m:02d}-{n:02d}",
}


def _build_invoices(rng: random.Random) -> list[Invoice]:
    catalogues = {
        "nordwerk": _catalogue(rng, _NORDWERK_PRODUCTS, "NW-"),
        "brightline": _catalogue(rng, _BRIGHTLINE_PRODUCTS, ""),
        "kappa": _catalogue(rng, _KAPPA_PRODUCTS, "K"),
        "tessel": _catalogue(rng, _TESSEL_PRODUCTS, "T"),
    }
    price_books: dict[tuple[str, int], dict[str, int]] = {}
    invoices = []
    for supplier, year, month, count, fmt in _INVOICE_PLAN:
        prices = price_books.setdefault((supplier.key, year), {})
        items = _items(rng, catalogues[supplier.key], count, prices)
        if supplier is TESSEL and not any("Nordwerk" in i.description for i in items):
            resold = next(p for p in catalogues["tessel"] if p.description.startswith("Nordwerk"))
            last = items[-1]
            items[-1] = Item(
                last.position,
                resold.code,
                resold.description,
                resold.kind,
                _quantity(rng, resold),
                prices.setdefault(resold.code, _price(rng, resold.low, resold.high)),
            )
        day = dt.date(year, month, rng.randint(3, 27))
        number = _NUMBER_FORMATS[supplier.key].format(y=year, yy=year % 100, m=month, n=rng.randint(1, 9))
        path = f"invoices/{year}/{supplier.key}-{year}-{month:02d}.{fmt}"
        invoices.append(Invoice(supplier, path, number, day, items))
    _ensure_bulk_boundary([i for i in invoices if i.supplier is BRIGHTLINE])
    return invoices


def _ensure_bulk_boundary(invoices: list[Invoice]) -> None:
    """Brightline positions must include quantities above 10 and exactly 10 (not 'more than 10')."""
    items = [item for inv in invoices for item in inv.items if item.kind == "hardware"]
    if not any(i.quantity > 10 for i in items):
        items[0].quantity = 25
    if not any(i.quantity == 10 for i in items):
        next(i for i in items if i.quantity < 10).quantity = 10


def _build_contracts() -> tuple[list[Contract], list[Contract]]:
    specs = [
        (
            "contracts/nordwerk-supply-agreement.docx",
            "Hardware Supply Agreement",
            "Nordwerk GmbH",
            "1 March 2024",
            "Haftungshöchstbetrag",
            "250.000 EUR",
            250_000,
            "EUR 36,000",
            "German law",
        ),
        (
            "contracts/brightline-services-agreement.pdf",
            "IT Services Agreement",
            "Brightline Ltd",
            "15 January 2024",
            "Cap on liability",
            "GBP 750,000",
            750_000,
            "GBP 54,000",
            "English law",
        ),
        (
            "contracts/kappa-framework-agreement.docx",
            "Framework Agreement for Storage Systems",
            "Kappa Systems AB",
            "1 September 2024",
            "Maximum liability",
            "EUR 1,500,000",
            1_500_000,
            "EUR 120,000",
            "Swedish law",
        ),
        (
            "contracts/tessel-reseller-agreement.md",
            "Reseller Supply Agreement",
            "Tessel Trading",
            "1 February 2025",
            "Liability cap",
            "EUR 500,000",
            500_000,
            "EUR 18,000",
            "Dutch law",
        ),
        (
            "contracts/halden-hosting-agreement.pdf",
            "Hosting Services Agreement",
            "Halden Cloud Services Ltd",
            "1 April 2024",
            "Liability cap",
            "GBP 2,000,000",
            2_000_000,
            "GBP 96,000",
            "English law",
        ),
        (
            "contracts/ostara-logistics-agreement.docx",
            "Logistics Services Agreement",
            "Ostara Logistik GmbH",
            "1 June 2025",
            "Maximum liability",
            "EUR 1,000,000",
            1_000_000,
            "EUR 42,000",
            "German law",
        ),
    ]
    contracts = []
    for path, title, supplier, effective, cap_key, cap_text, cap_amount, fee, law in specs:
        paragraphs = [
            (
                f'This {title} (the "Agreement") is made between {CUSTOMER[0]}, {CUSTOMER[1]}, '
                f'{CUSTOMER[2]} (the "Customer") and {supplier} (the "Supplier").'
            ),
            (
                "The Supplier shall deliver the products and services described in the order forms "
                "agreed from time to time, with the care of a diligent merchant and in accordance "
                "with the service levels attached to this Agreement."
            ),
            (
                f"The Customer shall pay an annual fee of {fee}, invoiced in advance, and all order "
                "forms at the prices agreed in them. Invoices are payable within 30 days."
            ),
            (
                "Each party's liability under this Agreement is limited as set out in the key terms "
                "below, except for damage caused intentionally or by gross negligence and for injury "
                "to life, body or health."
            ),
            (
                "This Agreement runs for an initial term of 24 months and renews for 12 months at a "
                "time unless either party gives notice three months before the end of a term."
            ),
        ]
        key_terms = [
            ("Supplier", supplier),
            ("Effective date", effective),
            (cap_key, cap_text),
            ("Governing law", law),
        ]
        contracts.append(
            Contract(path, title, supplier, effective, cap_key, cap_text, cap_amount, paragraphs, key_terms)
        )

    archive_specs = [
        (
            "agreements-archive/orvik-supply-agreement-2019.docx",
            "Supply Agreement",
            "Orvik Components GmbH",
            "1 July 2019",
            "EUR 300,000",
            300_000,
        ),
        (
            "agreements-archive/lumen-maintenance-agreement-2021.pdf",
            "Maintenance Agreement",
            "Lumen Facility Services Ltd",
            "1 October 2021",
            "EUR 2,500,000",
            2_500_000,
        ),
    ]
    archive = []
    for path, title, supplier, effective, cap_text, cap_amount in archive_specs:
        paragraphs = [
            (
                f"This {title} is entered into on {effective} between {CUSTOMER[0]}, {CUSTOMER[2]} "
                f'(the "Customer") and {supplier} (the "Supplier").'
            ),
            (
                "The Supplier undertakes to perform the work described in Schedule 1 in a "
                "professional manner and to keep the Customer informed of any delay."
            ),
            (
                "Save for wilful misconduct, fraud and personal injury, the aggregate liability of "
                f"either party shall be limited to {cap_text} for all claims arising in any contract "
                "year, whether in contract, tort or otherwise."
            ),
            (
                "This agreement has been superseded and is kept for reference only. Notices were to "
                "be given in writing to the addresses stated above."
            ),
        ]
        archive.append(Contract(path, title, supplier, effective, None, cap_text, cap_amount, paragraphs))
    return contracts, archive


def _build_slas() -> list[Sla]:
    return [
        Sla(
            "slas/sla-nordwerk.docx",
            "Nordwerk GmbH",
            "Service Level Agreement: hardware support",
            [
                ("P1", "1 hour", "8 hours"),
                ("P2", "4 hours", "2 business days"),
                ("P3", "1 business day", "5 business days"),
                ("P4", "2 business days", "10 business days"),
            ],
            "Nordwerk GmbH answers and resolves support requests for the delivered hardware within "
            "the times below, counted within business hours (Monday to Friday, 8:00 to 18:00 CET).",
        ),
        Sla(
            "slas/sla-halden-hosting.pdf",
            "Halden Cloud Services Ltd",
            "Service Level Agreement: hosting",
            [
                ("P1", "15 minutes", "4 hours"),
                ("P2", "30 minutes", "8 hours"),
                ("P3", "4 hours", "3 business days"),
                ("P4", "1 business day", "10 business days"),
            ],
            "Halden Cloud Services Ltd operates the hosted platform around the clock. Response and "
            "resolution times for P1 and P2 run 24/7; P3 and P4 run within business hours.",
        ),
        Sla(
            "slas/sla-kappa.md",
            "Kappa Systems AB",
            "Service Level Agreement: storage systems",
            [
                ("P1", "2 hours", "12 hours"),
                ("P2", "4 hours", "1 business day"),
                ("P3", "8 hours", "5 business days"),
                ("P4", "3 business days", "20 business days"),
            ],
            "Kappa Systems AB supports the storage arrays and backup appliances listed in the "
            "framework agreement. Times are measured from the ticket's creation.",
        ),
    ]


_PRICE_GROUPS = {
    "Cables": (
        [
            "Cat6 patch cable",
            "Cat6a patch cable",
            "Cat7 patch cable",
            "Fibre patch cable LC/LC",
            "Fibre trunk cable MPO",
            "HDMI cable",
            "DisplayPort cable",
            "USB-C cable",
            "Power cable C13",
            "Coaxial cable RG6",
        ],
        ["0.5 m", "1 m", "2 m", "3 m", "5 m", "10 m", "20 m", "50 m", "100 m"],
        ["grey", "blue", "black", "white", "yellow", "red"],
        (2, 40),
    ),
    "Adapters": (
        [
            "USB-C to HDMI adapter",
            "USB-C to DisplayPort adapter",
            "USB-A to Ethernet adapter",
            "USB-C to USB-A adapter",
            "Mini DisplayPort to HDMI adapter",
            "Travel power adapter",
            "SFP+ transceiver module",
            "Audio jack adapter",
        ],
        ["v1", "v2", "4K", "8K", "compact", "pro"],
        ["black", "white", "silver"],
        (6, 90),
    ),
    "Storage": (
        [
            "NVMe SSD",
            "SATA SSD",
            "Enterprise HDD",
            "Portable SSD",
            "USB flash drive",
            "microSD card",
            "LTO-9 tape",
        ],
        ["128 GB", "256 GB", "512 GB", "1 TB", "2 TB", "4 TB", "8 TB", "16 TB"],
        ["retail", "bulk", "enterprise"],
        (9, 780),
    ),
    "Networking": (
        [
            "Managed switch",
            "Unmanaged switch",
            "PoE switch",
            "Wi-Fi access point",
            "Router",
            "Firewall appliance",
            "Patch panel",
        ],
        ["5-port", "8-port", "16-port", "24-port", "48-port"],
        ["desktop", "rackmount", "outdoor"],
        (25, 2400),
    ),
    "Peripherals": (
        [
            "Wireless mouse",
            "Wired keyboard",
            "Wireless keyboard",
            "USB headset",
            "Webcam",
            "Document camera",
            "Presenter",
            "Docking station",
        ],
        ["standard", "compact", "ergonomic", "premium", "travel"],
        ["black", "grey", "white"],
        (12, 320),
    ),
}


def _build_price_list(rng: random.Random) -> list[tuple[str, str, str, int]]:
    codes = sorted(rng.sample(range(1, 15000), 300))  # most codes have leading zeros
    descriptions: set[str] = set()
    rows = []
    groups = list(_PRICE_GROUPS)
    for i, code in enumerate(codes):
        group = groups[i % len(groups)] if i < 250 else rng.choice(groups)
        names, sizes, colours, (low, high) = _PRICE_GROUPS[group]
        while True:
            desc = f"{rng.choice(names)} {rng.choice(sizes)} {rng.choice(colours)}"
            if desc not in descriptions:
                descriptions.add(desc)
                break
        cents = rng.randint(low * 100, high * 100)
        cents -= cents % 10  # prices to the ten cents
        if group == "Cables" and " 100 m" in desc:
            cents += 100_000  # long fibre and trunk runs cost over a thousand
        rows.append((f"{code:05d}", group, desc, cents))
    rows.sort(key=lambda r: (groups.index(r[1]), r[0]))
    return rows


_QUOTE_ITEMS = [
    ("서버 랙 42U", 900_000, 1_800_000),
    ("랙 서버 2U", 4_500_000, 9_800_000),
    ("네트워크 스위치 24포트", 450_000, 1_200_000),
    ("SSD 1TB NVMe", 110_000, 220_000),
    ("노트북 14인치", 1_300_000, 2_100_000),
    ("모니터 27인치", 280_000, 650_000),
    ("무정전 전원장치 1500VA", 420_000, 900_000),
    ("설치 및 설정", 300_000, 1_500_000),
    ("유지보수 (1년)", 1_200_000, 3_600_000),
]


def _build_quote(rng: random.Random) -> list[tuple[str, int, int]]:
    chosen = rng.sample(_QUOTE_ITEMS, 6)
    return [
        (name, rng.randint(1, 12), rng.randint(low // 10_000, high // 10_000) * 10_000)
        for name, low, high in chosen
    ]


_TICKET_CUSTOMERS = [
    "Aldmere Foods",
    "Birchway Logistics",
    "Calder Health Partners",
    "Dunmore Architects",
    "Elsworth Insurance",
    "Fenwick Retail Group",
    "Greyhaven Hotels",
    "Harlow Engineering",
    "Iverson Legal",
    "Juniper Schools Trust",
    "Kestrel Media",
    "Larkspur Pharmacy",
    "Moorfield Council",
    "Northgate Dental",
    "Oakridge Property",
    "Pemberton Bakeries",
    "Quayside Marine",
    "Redbrook Clinics",
    "Stanmore Accounting",
    "Thornbury Motors",
]

_TICKET_TOPICS = [
    (
        "VPN connection drops every few minutes",
        "network",
        (
            "Remote staff lose the VPN connection several times an hour. Reconnecting works but open "
            "remote desktop connections are lost."
        ),
    ),
    (
        "Printer queue stuck on second floor",
        "printing",
        (
            "Jobs sent to the shared printer stay in the queue and never print. Restarting the "
            "printer did not help."
        ),
    ),
    (
        "Email delivery delayed",
        "email",
        (
            "Outgoing messages take up to an hour to reach external recipients. Internal mail is "
            "delivered normally."
        ),
    ),
    (
        "Cannot log in after password reset",
        "accounts",
        (
            "A user reset the password this morning and is now locked out. The account shows as "
            "active in the directory."
        ),
    ),
    (
        "File server unreachable",
        "storage",
        ("The shared drive cannot be opened from any office workstation. Staff cannot reach project files."),
    ),
    (
        "New starter needs a laptop and account",
        "onboarding",
        (
            "A new colleague starts on Monday and needs a configured laptop, an email account and "
            "access to the shared drive."
        ),
    ),
    (
        "Wi-Fi slow in meeting rooms",
        "network",
        ("Video calls in the meeting rooms freeze and drop. The problem started after the office move."),
    ),
    (
        "Backup job failed overnight",
        "storage",
        ("The nightly backup reported an error and did not complete. The previous two runs succeeded."),
    ),
    (
        "Monitor flickers on docking station",
        "hardware",
        (
            "An external monitor flickers when the laptop is connected through the docking station. "
            "It works when connected directly."
        ),
    ),
    (
        "Request for additional software licence",
        "licensing",
        (
            "The design team needs two more licences for the drawing software. Please advise on cost "
            "and lead time."
        ),
    ),
    (
        "Phone system not ringing through",
        "telephony",
        (
            "Incoming calls to the main number are not ringing on reception desk phones. Callers "
            "hear a busy tone."
        ),
    ),
    (
        "Website showing certificate warning",
        "web",
        ("Visitors see a certificate warning on the company website. The certificate may have expired."),
    ),
    (
        "Shared calendar not syncing",
        "email",
        (
            "Changes to the shared team calendar do not appear on mobile phones. Desktop clients show "
            "them correctly."
        ),
    ),
    (
        "Laptop battery swelling",
        "hardware",
        ("A laptop's battery has swollen and the case no longer closes. The device has been switched off."),
    ),
    (
        "Accounting system runs very slowly",
        "applications",
        (
            "Month-end reports in the accounting system take over ten minutes to open. Other "
            "applications are fine."
        ),
    ),
]

_TICKET_CLOSERS = [
    "Please call back the office manager.",
    "This affects the whole team.",
    "A workaround is in place for now.",
    "Screenshots are available on request.",
    "We would appreciate an update by the end of the day.",
]


def _build_tickets(rng: random.Random) -> list[dict[str, str]]:
    count = 140
    p1 = set(rng.sample(range(count), 21))  # 15 %
    tickets = []
    for i in range(count):
        subject, _area, body = rng.choice(_TICKET_TOPICS)
        priority = "P1" if i in p1 else rng.choice(["P2", "P2", "P3", "P3", "P3", "P4"])
        text = body
        if rng.random() < 0.6:
            text += " " + rng.choice(_TICKET_CLOSERS)
        tickets.append(
            {
                "path": f"tickets/2025/ticket-{i + 1:04d}.txt",
                "Ticket": f"T-{i + 1:04d}",
                "Customer": rng.choice(_TICKET_CUSTOMERS),
                "Priority": priority,
                "Subject": subject,
                "Body": text,
            }
        )
    return tickets


def build(seed: int = 7) -> Corpus:
    """Every record of the corpus, without writing anything."""
    rng = random.Random(seed)
    invoices = _build_invoices(rng)
    contracts, archive = _build_contracts()
    return Corpus(
        invoices=invoices,
        contracts=contracts,
        archive=archive,
        slas=_build_slas(),
        prices=_build_price_list(rng),
        quote=_build_quote(rng),
        tickets=_build_tickets(rng),
    )


# --------------------------------------------------------------------------------------------
# Writers (how a file is made lives in corpora/writers.py; what it says, here)


def _write_invoice_docx(inv: Invoice, path: Path) -> None:
    s = inv.supplier
    german = s.notation == "de"
    doc = w.docx_document(LOOK, f"{'Rechnung' if german else 'Invoice'} {inv.number}", s.name)
    w.docx_bold(doc, s.name)
    doc.add_paragraph(", ".join(s.address))
    doc.add_heading("Rechnung" if german else "Invoice", level=1)
    if german:
        doc.add_paragraph(f"Rechnungsnummer: {inv.number}")
        doc.add_paragraph(f"Rechnungsdatum: {date_text(inv.date, 'de')}")
        doc.add_paragraph("Rechnungsempfänger: " + ", ".join(CUSTOMER[:3]))
    else:
        doc.add_paragraph(f"Invoice number: {inv.number}")
        doc.add_paragraph(f"Date: {date_text(inv.date, 'en')}")
        doc.add_paragraph("Bill to: " + ", ".join(CUSTOMER))
    right = {3, 4, 5} if german else {2, 3, 4}
    w.docx_table(doc, [list(s.header)] + [inv.cells(i) for i in inv.items], right=right)
    for line in _total_lines(inv):
        doc.add_paragraph(line)
    w.save_package(LOOK, doc, path)


def _total_lines(inv: Invoice) -> list[str]:
    s = inv.supplier
    net = inv.net_cents
    if s.notation == "de":
        vat = (net * 19 + 50) // 100
        return [
            f"Gesamtbetrag netto: {inv.money(net)} EUR",
            f"zzgl. 19 % Umsatzsteuer: {inv.money(vat)} EUR",
            f"Rechnungsbetrag brutto: {inv.money(net + vat)} EUR",
            "Zahlbar innerhalb von 30 Tagen ohne Abzug.",
        ]
    if s is KAPPA:
        return [
            f"Total: {inv.money(net)} {s.currency}",
            "VAT: reverse charge (intra-EU supply). Payment within 30 days.",
        ]
    return [
        f"Total: {inv.money(net)} {s.currency}",
        "VAT: reverse charge. Payment due within 30 days of the invoice date.",
    ]


def _write_contract_docx(c: Contract, path: Path) -> None:
    doc = w.docx_document(LOOK, c.title, c.supplier)
    doc.add_heading(c.title, level=0)
    for text in c.paragraphs:
        doc.add_paragraph(text)
    if c.key_terms:
        doc.add_heading("Key terms", level=2)
        for key, value in c.key_terms:
            doc.add_paragraph(f"{key}: {value}")
    w.save_package(LOOK, doc, path)


_SLA_HEADER = ["Priority", "Response time", "Resolution time"]


def _write_sla_docx(sla: Sla, path: Path) -> None:
    doc = w.docx_document(LOOK, sla.title, sla.provider)
    doc.add_heading(sla.title, level=0)
    doc.add_paragraph(f"Provider: {sla.provider}")
    doc.add_paragraph(sla.intro)
    w.docx_table(doc, [_SLA_HEADER] + [list(r) for r in sla.rows])
    doc.add_paragraph("Times not met are credited at 5 % of the monthly fee per breach.")
    w.save_package(LOOK, doc, path)


def _write_price_list(rows: list[tuple[str, str, str, int]], path: Path) -> None:
    wb = w.workbook(LOOK, "Price list 2025", "Purchasing")
    cells = [[code, group, desc, round(cents / 100, 2)] for code, group, desc, cents in rows]
    w.sheet(wb, "Prices", ["Item code", "Product group", "Description", "Unit price"], cells,
            {0: "@", 3: "#,##0.00"}, (12, 16, 42, 12))  # fmt: skip
    w.save_package(LOOK, wb, path)


_KICKOFF_SLIDES = [
    (
        "Project Heron kickoff",
        [
            "Replace the intranet with a searchable portal",
            "Team: product, design, two engineers",
            "Weekly demo on Thursdays",
        ],
    ),
    (
        "Milestones",
        [
            "Discovery interviews in April",
            "First prototype by the end of May",
            "Pilot with the finance team in June",
        ],
    ),
]


def _write_quote_hwpx(rows: list[tuple[str, int, int]], path: Path, seed: int) -> None:
    total = sum(q * p for _, q, p in rows)
    before = [
        "견적서",
        "견적번호: Q-2025-014",
        "견적일: 2025년 4월 8일",
        "공급자: 한빛테크 주식회사 (서울특별시 강남구 테헤란로 152)",
        f"수신: {CUSTOMER[0]}",
        "아래와 같이 견적합니다.",
    ]
    table = [["품목", "수량", "단가"]] + [[name, str(qty), f"{price:,}"] for name, qty, price in rows]
    after = [f"합계 금액: {total:,}원 (부가세 별도)", "견적 유효기간: 견적일로부터 30일"]
    w.write_hwpx(LOOK, path, seed, before, table, after)


def _write_nordwerk_pdf(inv: Invoice, path: Path) -> None:
    """German invoice, ruled table; a long table runs onto the next page without a header row."""
    s = inv.supplier
    place = f"{s.name} | {', '.join(s.address[:2])}"

    def footer(page: int) -> str:
        return f"{place} | Seite {page} von {{nb}}"

    pdf = w.pdf_document(LOOK, f"Rechnung {inv.number}", s.name, footer=footer)
    w.pdf_heading(pdf, s.name, 16, 8)
    w.pdf_lines(pdf, [", ".join(s.address), "Tel. +49 40 555 0190 | rechnung@nordwerk.example"])
    pdf.ln(6)
    w.pdf_lines(pdf, ["Rechnungsempfänger:", *CUSTOMER[:3]])
    pdf.ln(4)
    w.pdf_heading(pdf, "Rechnung", 14, 8)
    w.pdf_lines(
        pdf,
        [
            f"Rechnungsnummer: {inv.number}",
            f"Rechnungsdatum: {date_text(inv.date, 'de')}",
            "Kundennummer: K-10442",
        ],
    )
    pdf.ln(4)
    w.pdf_ruled(
        pdf,
        (10, 22, 82, 14, 26, 26),
        ("LEFT", "LEFT", "LEFT", "RIGHT", "RIGHT", "RIGHT"),
        [list(s.header)] + [inv.cells(item) for item in inv.items],
        9,
        line_height=5.5,
        padding=(0.8, 1.5),
        width="page",
        repeat_headings=0,
    )
    pdf.ln(5)
    _pdf_totals(pdf, _total_lines(inv))
    pdf.ln(3)
    w.pdf_lines(
        pdf,
        [
            "Bankverbindung: Hanseatische Bank, IBAN DE12 2003 0000 0012 3456 78",
            "Amtsgericht Hamburg HRB 181204 | USt-IdNr. DE 318 442 907",
        ],
        size=8,
    )
    pdf.output(str(path))


def _pdf_totals(pdf, lines: list[str]) -> None:
    w.pdf_heading(pdf, lines[0], 10, 6)
    w.pdf_lines(pdf, lines[1:])


def _write_unruled_pdf(inv: Invoice, path: Path) -> None:
    """English invoice whose table is text in aligned columns, without any ruling lines."""
    s = inv.supplier
    pdf = w.pdf_document(LOOK, f"Invoice {inv.number}", s.name)
    if s is TESSEL:
        letterhead = [
            "Resale of IT equipment and accessories",
            ", ".join(s.address),
            "KvK 71829304 | VAT NL 8618.22.917.B01",
        ]
    else:
        letterhead = [", ".join(s.address), "accounts@brightline.example | +44 161 555 0134"]
    w.pdf_heading(pdf, s.name, 16, 8)
    w.pdf_lines(pdf, letterhead)
    pdf.ln(6)
    w.pdf_heading(pdf, "Invoice", 14, 8)
    w.pdf_lines(
        pdf,
        [
            f"Invoice no.: {inv.number}",
            f"Date: {date_text(inv.date, 'en')}",
            "Bill to: " + ", ".join(CUSTOMER[:3]),
        ],
    )
    pdf.ln(6)
    rows = [list(s.header)] + [inv.cells(item) for item in inv.items]
    w.pdf_unruled(pdf, (14, 92, 16, 28, 30), ("L", "L", "R", "R", "R"), rows)
    pdf.ln(6)
    _pdf_totals(pdf, _total_lines(inv))
    pdf.output(str(path))


def _write_contract_pdf(c: Contract, path: Path) -> None:
    pdf = w.pdf_document(LOOK, c.title, c.supplier)
    w.pdf_heading(pdf, c.title, 16, 10)
    pdf.ln(3)
    for text in c.paragraphs:
        w.pdf_paragraph(pdf, text)
    if c.key_terms:
        pdf.ln(2)
        w.pdf_heading(pdf, "Key terms", 12, 7)
        w.pdf_lines(pdf, [f"{k}: {v}" for k, v in c.key_terms])
    pdf.output(str(path))


def _write_sla_pdf(sla: Sla, path: Path) -> None:
    pdf = w.pdf_document(LOOK, sla.title, sla.provider)
    w.pdf_heading(pdf, sla.title, 16, 10)
    w.pdf_lines(pdf, [f"Provider: {sla.provider}"])
    pdf.ln(2)
    w.pdf_paragraph(pdf, sla.intro)
    rows = [_SLA_HEADER] + [list(row) for row in sla.rows]
    w.pdf_ruled(pdf, (20, 40, 40), "LEFT", rows, 10, line_height=6, padding=None, width=120)
    pdf.ln(4)
    w.pdf_paragraph(pdf, "Service credits apply when a resolution time is missed.")
    pdf.output(str(path))


# --------------------------------------------------------------------------------------------
# Writers: text


def _contract_md(c: Contract) -> str:
    parts = [f"# {c.title}", "", *[p + "\n" for p in c.paragraphs], "## Key terms", ""]
    parts += [f"{k}: {v}" for k, v in c.key_terms]
    return "\n".join(parts) + "\n"


def _sla_md(sla: Sla) -> str:
    lines = [f"# {sla.title}", "", f"Provider: {sla.provider}", "", sla.intro, ""]
    lines += w.md_table([_SLA_HEADER] + [list(r) for r in sla.rows])
    lines += ["", "Times are suspended while the ticket waits for the customer's reply.", ""]
    return "\n".join(lines)


def _ticket_text(t: dict[str, str]) -> str:
    return (
        f"Ticket: {t['Ticket']}\nCustomer: {t['Customer']}\nPriority: {t['Priority']}\n"
        f"Subject: {t['Subject']}\n\n{t['Body']}\n"
    )


_NOTE_OFFSITE = """Team offsite: planning notes

Venue: the boathouse by the lake, two days in September.
We need a room for twelve people, a projector and vegetarian lunch options.
Travel: most people come by train; two cars leave from the office at 8:00.

Open questions
- Who books the evening dinner?
- Do we invite the new working students?
- Budget approval from the managing director is still pending.
"""

_NOTE_READING = """# Reading list

Books people recommended in the last retrospective:

- *The Design of Everyday Things*: on why doors need signs.
- *Thinking in Systems*: feedback loops, stocks and flows.
- *Working in Public*: how open-source maintainers spend their time.
- *The Manager's Path*: from tech lead to director.

Borrow the office copies from the shelf next to the kitchen and write your name on the list.
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
) -> dict:
    documents = sorted({path for path, _ in rows})
    return {
        "id": id_,
        "message": message,
        "tags": tags,
        "status": status,
        "columns": columns,
        "calculations": calculations,
        "documents_with_rows": documents,
        "rows": [{"file": path, "values": dict(zip(columns, values))} for path, values in rows],
    }


def _truth(c: Corpus) -> list[dict]:
    def invoices(supplier: Supplier, year: int | None = None) -> list[Invoice]:
        return [i for i in c.invoices if i.supplier is supplier and (year is None or i.date.year == year)]

    nordwerk_2025 = invoices(NORDWERK, 2025)
    brightline = invoices(BRIGHTLINE)
    brightline_file = next(i for i in brightline if i.path == "invoices/2024/brightline-2024-03.pdf")
    cables = [r for r in c.prices if r[1] == "Cables"]
    below_cap = [k for k in c.contracts if k.cap_amount < 1_000_000]
    archived_below = [k for k in c.archive if k.cap_amount < 1_000_000]
    position = ["Description", "Quantity", "Unit price"]

    return [
        _case(
            "nordwerk-2025-positions",
            "Every position on Nordwerk's 2025 invoices with description, quantity and unit price",
            ["explicit"],
            position,
            [
                (inv.path, [i.description, str(i.quantity), inv.money(i.unit_cents)])
                for inv in nordwerk_2025
                for i in inv.items
            ],
        ),
        _case(
            "brightline-file",
            "All positions from invoices/2024/brightline-2024-03.pdf with description and amount",
            ["explicit"],
            ["Description", "Amount"],
            [
                (brightline_file.path, [i.description, brightline_file.money(i.total_cents)])
                for i in brightline_file.items
            ],
        ),
        _case(
            "sla-times",
            "Priority, response time and resolution time from the SLAs",
            ["explicit"],
            ["Priority", "Response time", "Resolution time"],
            [(sla.path, list(row)) for sla in c.slas for row in sla.rows],
        ),
        _case(
            "price-list-cables",
            "Item code, description and unit price from the price list where product group is Cables",
            ["explicit"],
            ["Item code", "Description", "Unit price"],
            [
                ("pricelists/price-list-2025.xlsx", [code, desc, money(cents, "en")])
                for code, _g, desc, cents in cables
            ],
        ),
        _case(
            "contract-caps",
            "Supplier and liability cap of every contract where liability cap is below 1,000,000",
            ["explicit"],
            ["Supplier", "Liability cap"],
            [(k.path, [k.supplier, k.cap_text]) for k in below_cap],
        ),
        _case(
            "no-2023",
            "Description and amount from the 2023 invoices",
            ["explicit"],
            ["Description", "Amount"],
            [],
            status="no_documents",
        ),
        _case(
            "brightline-total",
            "The total amount of all Brightline invoices",
            ["explicit"],
            ["Amount"],
            [(inv.path, [inv.money(i.total_cents)]) for inv in brightline for i in inv.items],
            calculations=True,
        ),
        _case(
            "brightline-bulk",
            "Every position on Brightline's invoices where quantity is more than 10, "
            "with description, quantity and unit price",
            ["explicit"],
            position,
            [
                (inv.path, [i.description, str(i.quantity), inv.money(i.unit_cents)])
                for inv in brightline
                for i in inv.items
                if i.quantity > 10
            ],
        ),
        _case(
            "tickets-p1",
            "Ticket, customer and subject of every support ticket where priority is P1",
            ["explicit"],
            ["Ticket", "Customer", "Subject"],
            [
                (t["path"], [t["Ticket"], t["Customer"], t["Subject"]])
                for t in c.tickets
                if t["Priority"] == "P1"
            ],
        ),
        _case(
            "quote-hwpx",
            "All rows of quotes/견적서-2025.hwpx with 품목, 수량 and 단가",
            ["explicit"],
            ["품목", "수량", "단가"],
            [(QUOTE, [name, str(qty), f"{price:,}"]) for name, qty, price in c.quote],
        ),
        _case(
            "nordwerk-hardware",
            "Every hardware position on Nordwerk's 2025 invoices",
            ["semantic"],
            position,
            [
                (inv.path, [i.description, str(i.quantity), inv.money(i.unit_cents)])
                for inv in nordwerk_2025
                for i in inv.items
                if i.kind == "hardware"
            ],
        ),
        _case(
            "archive-caps",
            "Liability caps below one million in the archived agreements",
            ["semantic"],
            ["Supplier", "Liability cap"],
            [(k.path, [k.supplier, k.cap_text]) for k in archived_below],
        ),
    ]


# --------------------------------------------------------------------------------------------
# Entry points


def cases(seed: int = 7) -> list[dict]:
    """The cases of ``truth.json`` for ``seed``, computed without writing any file."""
    return _truth(build(seed))


def generate(out: Path, seed: int = 7) -> dict:
    """Write the documents into ``out/documents/`` and the truth into ``out/truth.json``.

    Paths in the truth are relative to ``out/documents/``, the folder to ingest; the truth
    itself stays outside it so it never becomes a document of the knowledge base.
    Returns the truth.
    """
    out = Path(out)
    folder = w.Folder(out / DOCUMENTS)
    target = folder.path
    corpus = build(seed)

    for inv in corpus.invoices:
        path = target(inv.path)
        if inv.path.endswith(".docx"):
            _write_invoice_docx(inv, path)
        elif inv.supplier is NORDWERK:
            _write_nordwerk_pdf(inv, path)
        else:
            _write_unruled_pdf(inv, path)

    for contract in corpus.contracts + corpus.archive:
        path = target(contract.path)
        if contract.path.endswith(".docx"):
            _write_contract_docx(contract, path)
        elif contract.path.endswith(".pdf"):
            _write_contract_pdf(contract, path)
        else:
            w.write_text(path, _contract_md(contract))

    for sla in corpus.slas:
        path = target(sla.path)
        if sla.path.endswith(".docx"):
            _write_sla_docx(sla, path)
        elif sla.path.endswith(".pdf"):
            _write_sla_pdf(sla, path)
        else:
            w.write_text(path, _sla_md(sla))

    _write_price_list(corpus.prices, target("pricelists/price-list-2025.xlsx"))
    _write_quote_hwpx(corpus.quote, target(QUOTE), seed)

    w.write_text(target("notes/team-offsite.txt"), _NOTE_OFFSITE)
    w.write_text(target("notes/reading-list.md"), _NOTE_READING)
    w.write_pptx(LOOK, target("notes/kickoff.pptx"), "Project Heron kickoff", "PMO", _KICKOFF_SLIDES)
    garbage = random.Random(seed * 7919 + 1).randbytes(4096)
    target(UNREADABLE).write_bytes(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n" + garbage)
    w.write_scanned_pdf(LOOK, target(SCANNED), _SCANNED_LINES)

    for ticket in corpus.tickets:
        w.write_text(target(ticket["path"]), _ticket_text(ticket))

    truth = {
        "seed": seed,
        "documents": sorted(folder.written),
        "unreadable": [UNREADABLE],
        "scanned": [SCANNED],
        "cases": _truth(corpus),
    }
    w.write_truth(out / "truth.json", truth)
    return truth


def main(argv: list[str] | None = None) -> int:
    return w.command_line("python -m corpora.first", "Write Kea's evaluation corpus into OUT/documents/ and its truth into OUT/truth.json.", generate, DOCUMENTS, argv)


if __name__ == "__main__":
    sys.exit(main())
