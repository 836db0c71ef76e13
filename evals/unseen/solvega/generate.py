#!/usr/bin/env python3
"""Write the 'solvega' held-out set: the documents of the fictitious Spanish solar
installer Solvega Instalaciones S.L. (Valencia) under documents/, and truth.json,
both from the data below.

Deterministic: fixed core-property dates, fixed zip entry dates, fixed PDF creation
date. Run with the project's virtualenv:  .venv/bin/python evals/unseen/solvega/generate.py
"""
import csv
import datetime as dt
import json
import re
import shutil
import zipfile
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import docx
import openpyxl
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Pt
from fpdf import FPDF
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side

HERE = Path(__file__).resolve().parent
DOCS = HERE / "documents"
FIXED = dt.datetime(2025, 7, 20, 9, 0, 0)
FIXED_UTC = dt.datetime(2025, 7, 20, 9, 0, 0, tzinfo=dt.timezone.utc)
ZIP_DATE = (2025, 7, 20, 9, 0, 0)

D = Decimal


# ----------------------------------------------------------------------------
# formatting helpers
# ----------------------------------------------------------------------------
def q(x, places=2):
    return D(x).quantize(D(1).scaleb(-places), ROUND_HALF_UP)


def num(x, places, th, dp):
    v = q(x, places)
    s = f"{abs(v):,.{places}f}".replace(",", "\0").replace(".", dp).replace("\0", th)
    return ("-" if v < 0 else "") + s


def es(x, places=2):
    """Spanish / German notation: 1.234,56"""
    return num(x, places, ".", ",")


def en(x, places=2):
    """English notation: 1,234.56"""
    return num(x, places, ",", ".")


def d(s):
    """'14/03/2025' -> date"""
    return dt.datetime.strptime(s, "%d/%m/%Y").date()


def dmy(date):
    return date.strftime("%d/%m/%Y")


def dmy_dot(date):
    return date.strftime("%d.%m.%Y")


def hm(hours):
    """Decimal hours -> 'h:mm' as Excel shows format h:mm"""
    minutes = int(q(D(hours) * 60, 0))
    return f"{minutes // 60}:{minutes % 60:02d}"


# ----------------------------------------------------------------------------
# deterministic packaging
# ----------------------------------------------------------------------------
def normalise_zip(path):
    with zipfile.ZipFile(path) as z:
        items = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    fixed = []
    for name, data in items:
        if name == "docProps/core.xml":
            txt = data.decode("utf-8")
            for tag in ("created", "modified"):
                txt = re.sub(
                    r"(<dcterms:%s[^>]*>)[^<]*(</dcterms:%s>)" % (tag, tag),
                    r"\g<1>2025-07-20T09:00:00Z\g<2>",
                    txt,
                )
            data = txt.encode("utf-8")
        fixed.append((name, data))
    with zipfile.ZipFile(path, "w") as z:
        for name, data in fixed:
            zi = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            z.writestr(zi, data)


def out(rel):
    p = DOCS / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    return p


def save_xlsx(wb, rel, title):
    wb.properties.creator = "Solvega Instalaciones S.L."
    wb.properties.lastModifiedBy = "Solvega Instalaciones S.L."
    wb.properties.title = title
    wb.properties.created = FIXED
    wb.properties.modified = FIXED
    p = out(rel)
    wb.save(p)
    normalise_zip(p)


def new_docx(title):
    doc = docx.Document()
    cp = doc.core_properties
    cp.author = "Solvega Instalaciones S.L."
    cp.last_modified_by = "Solvega Instalaciones S.L."
    cp.title = title
    cp.created = FIXED
    cp.modified = FIXED
    cp.revision = 1
    cp.comments = ""
    st = doc.styles["Normal"]
    st.font.name = "Calibri"
    st.font.size = Pt(10)
    return doc


def save_docx(doc, rel):
    p = out(rel)
    doc.save(p)
    normalise_zip(p)


def new_pdf(title, author):
    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_creation_date(FIXED_UTC)
    pdf.set_title(title)
    pdf.set_author(author)
    pdf.set_creator("Solvega document archive")
    pdf.set_margins(15, 15, 15)
    pdf.set_auto_page_break(True, 18)
    pdf.add_page()
    return pdf


def save_pdf(pdf, rel):
    pdf.output(str(out(rel)))


def para(doc, text, bold=False, size=None, align=None, space_after=None):
    p = doc.add_paragraph()
    r = p.add_run(text)
    r.bold = bold
    if size:
        r.font.size = Pt(size)
    if align == "right":
        p.alignment = WD_ALIGN_PARAGRAPH.RIGHT
    if space_after is not None:
        p.paragraph_format.space_after = Pt(space_after)
    return p


def docx_table(doc, header, rows, widths=None, right_cols=()):
    t = doc.add_table(rows=1, cols=len(header))
    t.style = "Table Grid"
    for i, h in enumerate(header):
        c = t.rows[0].cells[i]
        c.text = ""
        r = c.paragraphs[0].add_run(h)
        r.bold = True
    for row in rows:
        cells = t.add_row().cells
        for i, v in enumerate(row):
            cells[i].text = v
            if i in right_cols:
                cells[i].paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.RIGHT
    return t


THIN = Side(style="thin", color="808080")
BOX = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
HEAD_FILL = PatternFill("solid", fgColor="D9E1F2")


def xl_header(ws, row, header):
    for i, h in enumerate(header, start=1):
        c = ws.cell(row=row, column=i, value=h)
        c.font = Font(bold=True)
        c.fill = HEAD_FILL
        c.border = BOX
        c.alignment = Alignment(vertical="center", wrap_text=True)


def xl_widths(ws, widths):
    for i, w in enumerate(widths):
        ws.column_dimensions[openpyxl.utils.get_column_letter(i + 1)].width = w


# ----------------------------------------------------------------------------
# company
# ----------------------------------------------------------------------------
SOLVEGA = "Solvega Instalaciones S.L."
SOLVEGA_ADDR = "C/ de la Serrería 41, 46022 Valencia"
SOLVEGA_CIF = "B98765432"

# ----------------------------------------------------------------------------
# 1-3. Levante Fotovoltaica invoices (Spanish)
# ----------------------------------------------------------------------------
LEVANTE = "Distribuciones Fotovoltaicas Levante S.L."
LEVANTE_ADDR = "Polígono Fuente del Jarro, C/ Ciudad de Sevilla 22, 46988 Paterna (Valencia)"
LEVANTE_CIF = "B46813275"

LEV_0147 = dict(
    rel="Compras/Facturas/2025/Levante Fotovoltaica/FAC-2025-0147.pdf",
    number="FAC-2025-0147", date=d("14/03/2025"), due=d("13/04/2025"), po="PO-SOL-2025-019",
    lines=[  # ref, description, qty, unit price, discount %
        ("LV-MOD-450", "Módulo FV monocristalino 450 Wp", 48, "112.50", 5),
        ("LV-INV-6H", "Inversor híbrido 6 kW monofásico", 2, "1245.00", 0),
        ("LV-EST-COP", "Estructura coplanar aluminio (kit 4 módulos)", 12, "86.40", 0),
        ("LV-CAB-6", "Cable solar 6 mm² rojo (rollo 100 m)", 3, "94.90", 0),
        ("LV-CON-MC4", "Conector MC4 (par)", 40, "2.15", 0),
    ],
)
LEV_0982 = dict(
    rel="Compras/Facturas/2024/Levante Fotovoltaica/FAC-2024-0982.pdf",
    number="FAC-2024-0982", date=d("18/11/2024"), due=d("18/12/2024"), po="PO-SOL-2024-112",
    lines=[
        ("LV-MOD-430", "Módulo FV monocristalino 430 Wp", 24, "118.00", 0),
        ("LV-EST-TEJ", "Estructura teja (kit 4 módulos)", 6, "92.50", 0),
        ("LV-INV-3M", "Inversor monofásico 3,6 kW", 1, "865.00", 0),
    ],
)
LEV_0311 = dict(
    rel="Compras/Facturas/2025/Levante Fotovoltaica/FAC-2025-0311.docx",
    number="FAC-2025-0311", date=d("27/06/2025"), po="PO-SOL-2025-058",
    lines=[  # ref, description, qty, unit price
        ("LV-MOD-450", "Módulo FV monocristalino 450 Wp", 60, "109.80"),
        ("LV-INV-5H", "Inversor híbrido 5 kW", 3, "1120.00"),
        ("LV-BAT-512", "Batería de litio LFP 5,12 kWh", 4, "1690.00"),
        ("LV-BAT-EXT", "Módulo de ampliación de almacenamiento 2,56 kWh", 2, "845.00"),
        ("LV-MET-1F", "Medidor de energía monofásico", 3, "78.50"),
        ("LV-CAB-6", "Cable solar 6 mm² (rollo 100 m)", 2, "94.90"),
    ],
)


def levante_amounts(inv):
    rows = []
    base = D(0)
    for line in inv["lines"]:
        ref, desc, qty, price = line[:4]
        disc = line[4] if len(line) > 4 else 0
        amount = q(D(qty) * D(price) * (D(100) - D(disc)) / D(100))
        base += amount
        rows.append(dict(ref=ref, desc=desc, qty=str(qty), price=es(price), disc=str(disc),
                         amount=es(amount)))
    vat = q(base * D("0.21"))
    total = base + vat
    inv["rows"] = rows
    inv["base"], inv["vat"], inv["total"] = es(base), es(vat), es(total)
    return inv


for _inv in (LEV_0147, LEV_0982, LEV_0311):
    levante_amounts(_inv)


def write_levante_pdf(inv):
    pdf = new_pdf(f"Factura {inv['number']}", LEVANTE)
    pdf.set_font("Helvetica", "B", 13)
    pdf.cell(0, 7, LEVANTE.upper(), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 8.5)
    pdf.cell(0, 4.5, LEVANTE_ADDR, new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 4.5, f"CIF {LEVANTE_CIF} - Tel. 961 342 780 - facturacion@levantefv.es",
             new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    pdf.set_font("Helvetica", "B", 18)
    pdf.cell(0, 9, "FACTURA", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    y0 = pdf.get_y()
    pdf.set_font("Helvetica", "", 9)
    for i, txt in enumerate(["Cliente:", SOLVEGA, SOLVEGA_ADDR, f"CIF {SOLVEGA_CIF}"]):
        pdf.set_xy(15, y0 + i * 5)
        pdf.set_font("Helvetica", "B" if i == 0 else "", 9)
        pdf.cell(90, 5, txt)
    for i, (lab, val) in enumerate([("N.º factura:", inv["number"]), ("Fecha factura:", dmy(inv["date"])),
                                    ("Su pedido:", inv["po"]), ("Vencimiento:", dmy(inv["due"]))]):
        pdf.set_xy(120, y0 + i * 5)
        pdf.set_font("Helvetica", "B", 9)
        pdf.cell(28, 5, lab)
        pdf.set_font("Helvetica", "", 9)
        pdf.cell(40, 5, val)
    pdf.set_xy(15, y0 + 26)
    widths = [25, 73, 13, 27, 14, 28]
    header = ["Ref.", "Descripción", "Cant.", "Precio unit. (EUR)", "Dto. %", "Importe (EUR)"]
    aligns = ["L", "L", "R", "R", "R", "R"]
    pdf.set_font("Helvetica", "B", 8.5)
    pdf.set_fill_color(220, 220, 220)
    for w, h in zip(widths, header):
        pdf.cell(w, 7, h, border=1, align="C", fill=True)
    pdf.ln(7)
    pdf.set_font("Helvetica", "", 8.5)
    for r in inv["rows"]:
        vals = [r["ref"], r["desc"], r["qty"], r["price"], r["disc"], r["amount"]]
        for w, v, a in zip(widths, vals, aligns):
            pdf.cell(w, 6.5, v, border=1, align=a)
        pdf.ln(6.5)
    pdf.ln(5)
    for lab, val, bold in [("Base imponible", inv["base"], False), ("IVA 21 %", inv["vat"], False),
                           ("TOTAL FACTURA (EUR)", inv["total"], True)]:
        pdf.set_x(15 + 180 - 80)
        pdf.set_font("Helvetica", "B" if bold else "", 9)
        pdf.cell(52, 6.5, lab, border=1)
        pdf.cell(28, 6.5, val, border=1, align="R")
        pdf.ln(6.5)
    pdf.ln(8)
    pdf.set_font("Helvetica", "", 8)
    pdf.multi_cell(0, 4.2, "Forma de pago: transferencia bancaria a 30 días fecha factura. "
                           "IBAN ES76 2100 4417 6122 0015 9032 (CaixaBank). "
                           "Inscrita en el Registro Mercantil de Valencia, Tomo 8.412, Folio 77, Hoja V-114.203.")
    save_pdf(pdf, inv["rel"])


def write_levante_docx(inv):
    doc = new_docx(f"Factura {inv['number']}")
    para(doc, LEVANTE.upper(), bold=True, size=13, space_after=0)
    para(doc, f"{LEVANTE_ADDR} · CIF {LEVANTE_CIF}", size=8.5)
    para(doc, "FACTURA", bold=True, size=16)
    para(doc, f"Factura n.º: {inv['number']}", space_after=0)
    para(doc, f"Fecha: {dmy(inv['date'])}", space_after=0)
    para(doc, f"Cliente: {SOLVEGA} – CIF {SOLVEGA_CIF}", space_after=0)
    para(doc, f"Su pedido: {inv['po']}")
    docx_table(doc, ["Ref.", "Descripción", "Cantidad", "Precio unitario (EUR)", "Importe (EUR)"],
               [[r["ref"], r["desc"], r["qty"], r["price"], r["amount"]] for r in inv["rows"]],
               right_cols=(2, 3, 4))
    para(doc, "")
    para(doc, f"Base imponible (EUR): {inv['base']}", align="right", space_after=0)
    para(doc, f"IVA 21 % (EUR): {inv['vat']}", align="right", space_after=0)
    para(doc, f"Total factura (EUR): {inv['total']}", bold=True, align="right")
    para(doc, "Forma de pago: transferencia bancaria a 30 días. IBAN ES76 2100 4417 6122 0015 9032.", size=8.5)
    save_docx(doc, inv["rel"])


# ----------------------------------------------------------------------------
# 4-5. Sonnwerk invoices (German)
# ----------------------------------------------------------------------------
SONNWERK = "Sonnwerk Energietechnik GmbH"
SON_0412 = dict(
    rel="Compras/Facturas/2025/Sonnwerk GmbH/RE-25-0412.pdf",
    number="RE-25-0412", date=d("08/04/2025"), delivery=d("04/04/2025"),
    lines=[  # art-no, description, qty, unit, unit price
        ("SW-WR-10T", "Wechselrichter 10 kW dreiphasig", 2, "Stk.", "2180.00"),
        ("SW-WR-8T", "Wechselrichter 8 kW dreiphasig", 1, "Stk.", "1895.00"),
        ("SW-OPT-450", "Leistungsoptimierer 450 W", 36, "Stk.", "48.60"),
        ("SW-MON-GW", "Monitoring-Gateway", 3, "Stk.", "215.00"),
        ("SW-KAB-DC", "DC-Verbindungskabel 4 mm²", 150, "m", "1.35"),
        ("SW-FR", "Frachtkosten Spedition", 1, "psch.", "320.00"),
    ],
)
SON_0587 = dict(
    rel="Compras/Facturas/2025/Sonnwerk GmbH/RE-25-0587.docx",
    number="RE-25-0587", date=d("22/05/2025"), delivery=d("20/05/2025"),
    lines=[
        ("SW-HWR-10T", "Hybrid-Wechselrichter 10 kW dreiphasig", 3, "Stk.", "2640.00"),
        ("SW-BAT-HV10", "Hochvolt-Batteriespeicher 10,2 kWh", 2, "Stk.", "4350.00"),
        ("SW-MON-GW", "Monitoring-Gateway", 2, "Stk.", "215.00"),
        ("SW-SMR-3", "Smart Meter dreiphasig", 2, "Stk.", "164.00"),
    ],
)


def sonnwerk_amounts(inv):
    rows, net = [], D(0)
    for pos, (art, desc, qty, unit, price) in enumerate(inv["lines"], start=1):
        amount = q(D(qty) * D(price))
        net += amount
        rows.append(dict(pos=str(pos), art=art, desc=desc, qty=str(qty), unit=unit,
                         price=es(price), amount=es(amount)))
    inv["rows"], inv["net"], inv["total"] = rows, es(net), es(net)
    return inv


for _inv in (SON_0412, SON_0587):
    sonnwerk_amounts(_inv)


def write_sonnwerk_pdf(inv):
    """No rulings at all: text placed in aligned columns."""
    pdf = new_pdf(f"Rechnung {inv['number']}", SONNWERK)
    pdf.set_font("Helvetica", "B", 14)
    pdf.cell(0, 7, SONNWERK, align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 8.5)
    pdf.cell(0, 4.5, "Hanferstraße 28 · 79108 Freiburg im Breisgau · Deutschland", align="R",
             new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 4.5, "USt-IdNr. DE 318 442 905 · buchhaltung@sonnwerk-energie.de", align="R",
             new_x="LMARGIN", new_y="NEXT")
    pdf.ln(8)
    pdf.set_font("Helvetica", "", 9)
    for txt in [SOLVEGA, SOLVEGA_ADDR, "Spanien", f"USt-IdNr. ES{SOLVEGA_CIF}"]:
        pdf.cell(0, 4.8, txt, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    pdf.set_font("Helvetica", "B", 15)
    pdf.cell(0, 8, "Rechnung", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 9)
    for lab, val in [("Rechnungsnummer:", inv["number"]), ("Rechnungsdatum:", dmy_dot(inv["date"])),
                     ("Lieferdatum:", dmy_dot(inv["delivery"])), ("Kundennummer:", "40117")]:
        pdf.cell(35, 5, lab)
        pdf.cell(0, 5, val, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    widths = [10, 25, 62, 14, 15, 29, 25]
    header = ["Pos.", "Art.-Nr.", "Bezeichnung", "Menge", "Einheit", "Einzelpreis (EUR)", "Gesamt (EUR)"]
    aligns = ["L", "L", "L", "R", "C", "R", "R"]
    pdf.set_font("Helvetica", "B", 8.5)
    for w, h, a in zip(widths, header, aligns):
        pdf.cell(w, 6, h, align=a)
    pdf.ln(8)
    pdf.set_font("Helvetica", "", 8.5)
    for r in inv["rows"]:
        vals = [r["pos"], r["art"], r["desc"], r["qty"], r["unit"], r["price"], r["amount"]]
        for w, v, a in zip(widths, vals, aligns):
            pdf.cell(w, 6, v, align=a)
        pdf.ln(6)
    pdf.ln(6)
    for lab, val, bold in [("Nettobetrag", inv["net"], False), ("Umsatzsteuer 0 %", "0,00", False),
                           ("Rechnungsbetrag (EUR)", inv["total"], True)]:
        pdf.set_x(15 + 180 - 75)
        pdf.set_font("Helvetica", "B" if bold else "", 9)
        pdf.cell(51, 5.5, lab)
        pdf.cell(24, 5.5, val, align="R")
        pdf.ln(5.5)
    pdf.ln(8)
    pdf.set_font("Helvetica", "", 8)
    pdf.multi_cell(0, 4.2, "Steuerfreie innergemeinschaftliche Lieferung gemäß § 4 Nr. 1b UStG. "
                           "Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge).\n"
                           "Zahlbar innerhalb von 30 Tagen ohne Abzug. Sparkasse Freiburg-Nördlicher Breisgau, "
                           "IBAN DE41 6805 0101 0012 4471 90, BIC FRSPDE66XXX.")
    save_pdf(pdf, inv["rel"])


def write_sonnwerk_docx(inv):
    """Word table whose last rows are the totals (label merged across the item columns)."""
    doc = new_docx(f"Rechnung {inv['number']}")
    para(doc, SONNWERK, bold=True, size=13, align="right", space_after=0)
    para(doc, "Hanferstraße 28 · 79108 Freiburg im Breisgau · USt-IdNr. DE 318 442 905", size=8.5, align="right")
    para(doc, f"{SOLVEGA}\n{SOLVEGA_ADDR}\nSpanien")
    para(doc, "Rechnung", bold=True, size=15)
    para(doc, f"Rechnungsnummer: {inv['number']}", space_after=0)
    para(doc, f"Rechnungsdatum: {dmy_dot(inv['date'])}", space_after=0)
    para(doc, f"Lieferdatum: {dmy_dot(inv['delivery'])}", space_after=0)
    para(doc, "Ihre Bestellung: PO-SOL-2025-044")
    t = docx_table(doc, ["Pos.", "Art.-Nr.", "Bezeichnung", "Menge", "Einzelpreis (EUR)", "Gesamtpreis (EUR)"],
                   [[r["pos"], r["art"], r["desc"], r["qty"], r["price"], r["amount"]] for r in inv["rows"]],
                   right_cols=(3, 4, 5))
    for lab, val in [("Nettobetrag", inv["net"]), ("Umsatzsteuer 0 % (Reverse Charge)", "0,00"),
                     ("Rechnungsbetrag", inv["total"])]:
        cells = t.add_row().cells
        merged = cells[0].merge(cells[4])
        merged.text = lab
        merged.paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.RIGHT
        merged.paragraphs[0].runs[0].bold = True
        cells[5].text = val
        cells[5].paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.RIGHT
    para(doc, "")
    para(doc, "Steuerfreie innergemeinschaftliche Lieferung gemäß § 4 Nr. 1b UStG. Zahlbar innerhalb von 30 Tagen.",
         size=8.5)
    save_docx(doc, inv["rel"])


# ----------------------------------------------------------------------------
# 6. Brightcell invoice (English, XLSX)
# ----------------------------------------------------------------------------
BRIGHTCELL = "Brightcell Storage Ltd"
GBP = '[$£-809]#,##0.00'
BC_INV = dict(
    rel="Compras/Facturas/2025/Brightcell Storage/INV-BC-20931.xlsx",
    number="INV-BC-20931", date=d("02/04/2025"),
    lines=[
        ("BC-LFP-5K", "LFP battery module 5.12 kWh", 6, "1240.00"),
        ("BC-LFP-10K", "LFP battery module 10.24 kWh", 2, "2310.00"),
        ("BC-BMU-2", "Battery management unit BMU-2", 4, "185.00"),
        ("BC-RACK-4", "Floor rack for 4 modules", 2, "265.00"),
        ("BC-CBL-HV", "HV interconnect cable set", 6, "38.50"),
        ("BC-SHIP", "Carriage & packaging (EU)", 1, "410.00"),
    ],
)


def write_brightcell_xlsx(inv):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Invoice"
    ws["A1"] = BRIGHTCELL
    ws["A1"].font = Font(bold=True, size=14)
    ws["A2"] = "Unit 7, Trafford Park Road, Manchester M17 1HG, United Kingdom"
    ws["A3"] = "VAT Reg. No. GB 284 6153 09 · accounts@brightcell-storage.co.uk"
    ws["A5"] = "INVOICE"
    ws["A5"].font = Font(bold=True, size=13)
    labels = [("Invoice No:", inv["number"]), ("Invoice Date:", inv["date"]),
              ("Customer:", f"{SOLVEGA}, Valencia (Spain)"), ("Customer PO:", "PO-SOL-2025-041"),
              ("Currency:", "GBP")]
    for i, (lab, val) in enumerate(labels, start=6):
        ws.cell(row=i, column=1, value=lab).font = Font(bold=True)
        c = ws.cell(row=i, column=2, value=val)
        if isinstance(val, dt.date):
            c.number_format = "dd/mm/yyyy"
            c.alignment = Alignment(horizontal="left")
    hr = 12
    header = ["Item Code", "Description", "Qty", "Unit Price", "Line Total"]
    xl_header(ws, hr, header)
    rows, subtotal = [], D(0)
    for i, (code, desc, qty, price) in enumerate(inv["lines"], start=hr + 1):
        total = q(D(qty) * D(price))
        subtotal += total
        ws.cell(row=i, column=1, value=code)
        ws.cell(row=i, column=2, value=desc)
        ws.cell(row=i, column=3, value=qty).number_format = "0"
        ws.cell(row=i, column=4, value=float(price)).number_format = GBP
        ws.cell(row=i, column=5, value=float(total)).number_format = GBP
        for col in range(1, 6):
            ws.cell(row=i, column=col).border = BOX
        rows.append({"Item Code": code, "Description": desc, "Qty": str(qty),
                     "Unit Price": "£" + en(price), "Line Total": "£" + en(total)})
    r = hr + len(inv["lines"]) + 2
    for lab, val in [("Subtotal", subtotal), ("VAT 0% (export of goods)", D(0)), ("Total due", subtotal)]:
        ws.cell(row=r, column=4, value=lab).font = Font(bold=True)
        c = ws.cell(row=r, column=5, value=float(val))
        c.number_format = GBP
        c.font = Font(bold=(lab == "Total due"))
        r += 1
    ws.cell(row=r + 1, column=1, value="Payment terms: 30 days net. Barclays Bank UK, sort code 20-55-41, "
                                       "account 60371188, IBAN GB19 BARC 2055 4160 3711 88.")
    xl_widths(ws, [16, 38, 8, 14, 16])
    inv["truth_rows"] = rows
    inv["total"] = "£" + en(subtotal)
    save_xlsx(wb, inv["rel"], f"Invoice {inv['number']}")


# ----------------------------------------------------------------------------
# 7. Solvega sales price list (Spanish PDF, no rulings, shaded header)
# ----------------------------------------------------------------------------
PRICE_LIST_REL = "Ventas/Tarifas/Tarifa_Solvega_2025.pdf"
PRICE_LIST = [  # code, description, category, unit, net price
    ("SV-PAN-430", "Panel solar monocristalino 430 Wp", "Paneles", "ud", "139.00"),
    ("SV-PAN-450", "Panel solar monocristalino 450 Wp", "Paneles", "ud", "142.50"),
    ("SV-PAN-500B", "Panel solar bifacial 500 Wp", "Paneles", "ud", "171.90"),
    ("SV-INV-3M", "Inversor monofásico 3,6 kW", "Inversores", "ud", "1049.00"),
    ("SV-INV-5H", "Inversor híbrido 5 kW", "Inversores", "ud", "1395.00"),
    ("SV-INV-6H", "Inversor híbrido 6 kW", "Inversores", "ud", "1540.00"),
    ("SV-INV-10T", "Inversor trifásico 10 kW", "Inversores", "ud", "2690.00"),
    ("SV-MIC-800", "Microinversor 800 W", "Inversores", "ud", "235.00"),
    ("SV-BAT-5", "Batería de litio LFP 5,12 kWh", "Baterías", "ud", "2090.00"),
    ("SV-BAT-10HV", "Batería alto voltaje 10,2 kWh", "Baterías", "ud", "5390.00"),
    ("SV-BAT-EXT", "Módulo de ampliación de batería 2,56 kWh", "Baterías", "ud", "1049.00"),
    ("SV-EST-COP", "Estructura coplanar aluminio (kit 4 paneles)", "Estructuras", "kit", "109.00"),
    ("SV-EST-TEJ", "Estructura para teja (kit 4 paneles)", "Estructuras", "kit", "118.50"),
    ("SV-EST-INC", "Estructura inclinada 30° cubierta plana (kit 2 paneles)", "Estructuras", "kit", "96.80"),
    ("SV-EST-LAS", "Lastre de hormigón 25 kg", "Estructuras", "ud", "14.90"),
    ("SV-ACC-CAB6", "Cable solar 6 mm² (metro)", "Accesorios", "m", "1.45"),
    ("SV-ACC-MC4", "Conector MC4 (par)", "Accesorios", "par", "3.20"),
    ("SV-ACC-WIFI", "Dongle Wi-Fi de monitorización", "Accesorios", "ud", "100.00"),
    ("SV-ACC-MET1", "Medidor de energía monofásico", "Accesorios", "ud", "99.00"),
    ("SV-ACC-MET3", "Medidor de energía trifásico", "Accesorios", "ud", "179.00"),
    ("SV-ACC-PROT", "Cuadro de protecciones CC/CA", "Accesorios", "ud", "248.00"),
]


def write_price_list():
    pdf = new_pdf("Tarifa de precios 2025", SOLVEGA)
    pdf.set_font("Helvetica", "B", 15)
    pdf.cell(0, 8, "TARIFA DE PRECIOS 2025", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 9)
    pdf.cell(0, 5, f"{SOLVEGA} - Venta de material a instaladores y clientes profesionales",
             new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 5, "Tarifa válida del 01/02/2025 al 31/12/2025. Sustituye a la tarifa 2024.",
             new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    widths = [27, 80, 25, 18, 30]
    header = ["Código", "Descripción del artículo", "Categoría", "Unidad", "Precio neto (EUR)"]
    aligns = ["L", "L", "L", "C", "R"]
    pdf.set_font("Helvetica", "B", 8.5)
    pdf.set_fill_color(210, 225, 240)
    for w, h, a in zip(widths, header, aligns):
        pdf.cell(w, 7, h, align=a, fill=True)
    pdf.ln(8)
    pdf.set_font("Helvetica", "", 8.5)
    for code, desc, cat, unit, price in PRICE_LIST:
        for w, v, a in zip(widths, [code, desc, cat, unit, es(price)], aligns):
            pdf.cell(w, 6, v, align=a)
        pdf.ln(6)
    pdf.ln(6)
    pdf.set_font("Helvetica", "", 8)
    pdf.multi_cell(0, 4.2, "Precios netos por unidad de venta, IVA no incluido. Portes pagados en la Comunitat "
                           "Valenciana para pedidos superiores a 1.500,00 EUR. Condiciones de pago: 30 días. "
                           "Los precios pueden variar sin previo aviso según disponibilidad de fabricante.")
    save_pdf(pdf, PRICE_LIST_REL)


# ----------------------------------------------------------------------------
# 8. Contract register (English XLSX)
# ----------------------------------------------------------------------------
REGISTER_REL = "Legal/Contracts/Contract_Register_2025.xlsx"
CONTRACTS = [  # no, counterparty, subject, start, end, annual value, status, responsible
    ("CT-2021-003", "Iberdrola Clientes S.A.U.", "Electricity supply, Paterna warehouse", "01/01/2021", "31/12/2024", "14400", "Expired", "Lucía Ferrer"),
    ("CT-2022-007", "Sonnwerk Energietechnik GmbH", "Framework supply agreement – inverters", "01/03/2022", "28/02/2026", "120000", "Active", "Pablo Mendoza"),
    ("CT-2022-011", "Distribuciones Fotovoltaicas Levante S.L.", "Framework supply agreement – modules", "15/06/2022", "14/06/2025", "180000", "Expired", "Pablo Mendoza"),
    ("CT-2023-002", "Renting Furgonetas Turia S.L.", "Van leasing (6 vehicles)", "01/02/2023", "31/01/2027", "43200", "Active", "Lucía Ferrer"),
    ("CT-2023-015", "Oficinas Ruzafa Patrimonial S.L.", "Office lease, Valencia", "01/07/2023", "30/06/2028", "30000", "Active", "Lucía Ferrer"),
    ("CT-2024-004", "Brightcell Storage Ltd", "Battery supply & service agreement", "01/04/2024", "31/03/2027", "95000", "Active", "Pablo Mendoza"),
    ("CT-2024-009", "Andamios Safor S.L.", "Scaffolding hire", "01/05/2024", "30/04/2025", "9600", "Expired", "Jordi Puig"),
    ("CT-2024-013", "Hotel Marina Dénia S.L.", "O&M service contract (customer)", "01/09/2024", "31/08/2027", "18500", "Active", "Marta Ibáñez"),
    ("CT-2024-016", "SegurTec Levante S.A.", "Occupational risk prevention services", "01/10/2024", "30/09/2025", "6800", "Terminated", "Lucía Ferrer"),
    ("CT-2025-001", "Bodegas Requena Coop. V.", "O&M service contract (customer)", "01/01/2025", "31/12/2027", "12750", "Active", "Marta Ibáñez"),
    ("CT-2025-005", "Gestoría Albufera S.L.", "Payroll & tax advisory", "01/03/2025", "28/02/2026", "7800", "Active", "Lucía Ferrer"),
    ("CT-2025-008", "Grúas Camp de Túria S.L.", "Crane services framework", "01/07/2025", "30/06/2026", "36000", "Pending", "Jordi Puig"),
]
REGISTER_HEADER = ["Contract No.", "Counterparty", "Subject", "Start Date", "End Date",
                   "Annual Value (EUR)", "Status", "Responsible"]


def contract_display(c):
    no, cp, subj, start, end, val, status, resp = c
    return dict(zip(REGISTER_HEADER, [no, cp, subj, start, end, en(val), status, resp]))


def write_register():
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Register"
    ws["A1"] = f"{SOLVEGA} – Contract Register"
    ws["A1"].font = Font(bold=True, size=14)
    ws["A2"] = "Status as of 30/06/2025 · maintained by Administration (Lucía Ferrer)"
    hr = 4
    xl_header(ws, hr, REGISTER_HEADER)
    for i, c in enumerate(CONTRACTS, start=hr + 1):
        no, cp, subj, start, end, val, status, resp = c
        vals = [no, cp, subj, d(start), d(end), float(val), status, resp]
        for j, v in enumerate(vals, start=1):
            cell = ws.cell(row=i, column=j, value=v)
            cell.border = BOX
            if j in (4, 5):
                cell.number_format = "dd/mm/yyyy"
            if j == 6:
                cell.number_format = "#,##0.00"
    last = hr + len(CONTRACTS)
    ws.cell(row=last + 2, column=1,
            value="Legend – Status: Active = in force; Expired = term ended, not renewed; "
                  "Terminated = ended early by notice; Pending = signed, starts later. Values in EUR excl. VAT.")
    ws.cell(row=last + 2, column=1).font = Font(italic=True, size=9)
    ws.freeze_panes = "A5"
    ws.auto_filter.ref = f"A{hr}:H{last}"
    xl_widths(ws, [14, 38, 40, 12, 12, 18, 12, 16])
    save_xlsx(wb, REGISTER_REL, "Contract Register 2025")


# ----------------------------------------------------------------------------
# 9. Brightcell battery service agreement (English DOCX)
# ----------------------------------------------------------------------------
BC_SLA_REL = "Legal/Contracts/Suppliers/Brightcell_Battery_Service_Agreement.docx"
BC_SLA_HEADER = ["Priority", "Definition", "Response Time", "Resolution Time"]
BC_SLA = [
    ("Priority 1 (Critical)", "Battery system offline, or safety alarm (thermal event, BMS lock-out)", "2 hours", "2 business days"),
    ("Priority 2 (High)", "Usable capacity reduced by more than 20 %, or recurring BMS warnings", "1 business day", "5 business days"),
    ("Priority 3 (Normal)", "Single module fault; system still operating", "2 business days", "10 business days"),
    ("Priority 4 (Low)", "Documentation, firmware or configuration questions", "5 business days", "Best effort"),
]


def write_bc_sla():
    doc = new_docx("Battery Service Agreement")
    para(doc, "Battery Service Agreement", bold=True, size=16)
    para(doc, f"between {BRIGHTCELL}, Manchester (United Kingdom) (\"Brightcell\") and {SOLVEGA}, "
              "Valencia (Spain) (\"the Installer\")")
    para(doc, "Agreement ref.: CT-2024-004 · Effective date: 1 April 2024 · Term: 36 months", size=9)
    para(doc, "1. Scope", bold=True, size=12)
    para(doc, "Brightcell provides warranty support, remote diagnosis and replacement of LFP battery modules "
              "and battery management units supplied to the Installer and installed at end-customer sites in Spain.")
    para(doc, "2. Service levels", bold=True, size=12)
    para(doc, "Incidents are reported through the Brightcell service portal. Times are measured from ticket "
              "creation; business days are Monday to Friday, 08:00–17:00 UK time, excluding English bank holidays.")
    docx_table(doc, BC_SLA_HEADER, [list(r) for r in BC_SLA])
    para(doc, "")
    para(doc, "3. Fees", bold=True, size=12)
    docx_table(doc, ["Item", "Amount (GBP)"],
               [["Annual support fee per installed site", "120.00"],
                ["On-site call-out, mainland Spain", "650.00"],
                ["Replacement module shipping within warranty", "included"]], right_cols=(1,))
    para(doc, "")
    para(doc, "4. Governing law", bold=True, size=12)
    para(doc, "This agreement is governed by the laws of England and Wales.")
    save_docx(doc, BC_SLA_REL)


# ----------------------------------------------------------------------------
# 10. O&M SLA with Hotel Marina Dénia (Spanish Markdown)
# ----------------------------------------------------------------------------
SLA_MD_REL = "Legal/Contratos/Clientes/SLA_OyM_Hotel_Marina_Denia.md"
SLA_MD = [
    ("P1 – Crítica", "Parada total de la instalación o riesgo eléctrico", "4 horas", "24 horas", "24/7"),
    ("P2 – Alta", "Pérdida de producción superior al 30 %", "8 horas laborables", "3 días laborables", "L–V 8:00–18:00"),
    ("P3 – Media", "Fallo parcial; pérdida de producción inferior al 30 %", "2 días laborables", "5 días laborables", "L–V 8:00–18:00"),
    ("P4 – Baja", "Consultas, informes de monitorización, incidencias estéticas", "5 días laborables", "15 días laborables", "L–V 8:00–18:00"),
]


def write_sla_md():
    lines = [
        "# Acuerdo de Nivel de Servicio (SLA) – Operación y Mantenimiento",
        "",
        "**Cliente:** Hotel Marina Dénia S.L. (Dénia, Alicante)  ",
        f"**Proveedor:** {SOLVEGA}  ",
        "**Contrato:** CT-2024-013 · Vigencia: 01/09/2024 – 31/08/2027  ",
        "**Instalación:** 64,80 kWp en cubierta, 144 módulos, 2 inversores",
        "",
        "## 1. Objeto",
        "",
        "El presente anexo fija los tiempos de respuesta y de resolución de las incidencias de la instalación "
        "fotovoltaica del cliente, según su prioridad. La prioridad la asigna el centro de control de Solvega "
        "al registrar el aviso.",
        "",
        "## 2. Prioridades y tiempos de servicio",
        "",
        "| Prioridad | Definición | Tiempo de respuesta | Tiempo de resolución | Horario de atención |",
        "|---|---|---|---|---|",
    ]
    for r in SLA_MD:
        lines.append("| " + " | ".join(r) + " |")
    lines += [
        "",
        "Los tiempos se cuentan desde el registro del aviso en el portal o en el teléfono 963 551 208.",
        "",
        "## 3. Penalizaciones",
        "",
        "| Incumplimiento | Penalización |",
        "|---|---|",
        "| Respuesta P1 fuera de plazo | 5 % de la cuota mensual |",
        "| Resolución P1 o P2 fuera de plazo | 10 % de la cuota mensual |",
        "| Disponibilidad anual inferior al 98 % | 15 % de la cuota anual |",
        "",
        "Firmado en Valencia, a 28 de agosto de 2024.",
        "",
    ]
    out(SLA_MD_REL).write_text("\n".join(lines), encoding="utf-8")


# ----------------------------------------------------------------------------
# 11. Installation projects (Spanish CSV, semicolons, decimal commas)
# ----------------------------------------------------------------------------
PROJECTS_REL = "Proyectos/Instalaciones/Proyectos_instalacion_2024-2025.csv"
PROJECTS_HEADER = ["Código proyecto", "Cliente", "Municipio", "Provincia", "Tipo de instalación",
                   "Potencia (kWp)", "N.º paneles", "Fecha fin obra", "Estado"]
PROJECTS = [  # code, customer, town, province, type, panels (450 Wp), end date, status
    ("PRJ-24-031", "Comunidad de Propietarios Av. del Puerto 112", "Valencia", "Valencia", "Residencial colectivo", 72, "12/09/2024", "Finalizado"),
    ("PRJ-24-038", "Bodegas Requena Coop. V.", "Requena", "Valencia", "Industrial", 219, "28/11/2024", "Finalizado"),
    ("PRJ-24-044", "Juan Carlos Beltrán Sanchis", "Gandia", "Valencia", "Residencial", 12, "05/12/2024", "Finalizado"),
    ("PRJ-24-047", "Hotel Marina Dénia S.L.", "Dénia", "Alicante", "Terciario", 144, "20/12/2024", "Finalizado"),
    ("PRJ-24-050", "Cooperativa Citrícola de Burriana", "Burriana", "Castellón", "Industrial", 180, "15/01/2025", "Finalizado"),
    ("PRJ-25-002", "Frutas Ribera Alta S.A.", "Alzira", "Valencia", "Industrial", 267, "14/02/2025", "Finalizado"),
    ("PRJ-25-006", "Ana Martínez Pons", "Alicante", "Alicante", "Residencial", 14, "03/03/2025", "Finalizado"),
    ("PRJ-25-009", "Colegio San Vicente Ferrer", "Elche", "Alicante", "Educativo", 100, "27/03/2025", "Finalizado"),
    ("PRJ-25-013", "Talleres Vinalopó S.L.", "Elda", "Alicante", "Industrial", 85, "16/04/2025", "Finalizado"),
    ("PRJ-25-015", "Ayuntamiento de Vila-real", "Vila-real", "Castellón", "Público", 120, "", "Cancelado"),
    ("PRJ-25-018", "Cerámicas Onda S.A.", "Onda", "Castellón", "Industrial", 468, "30/05/2025", "Finalizado"),
    ("PRJ-25-021", "Miguel Ángel Soler Roig", "Torrent", "Valencia", "Residencial", 11, "10/06/2025", "Finalizado"),
    ("PRJ-25-024", "Supermercados Horta Sud S.L.", "Alicante", "Alicante", "Terciario", 162, "", "En curso"),
    ("PRJ-25-027", "Residencial Los Almendros", "Sant Joan d'Alacant", "Alicante", "Residencial colectivo", 63, "", "Planificado"),
    ("PRJ-25-030", "Clínica Dental Sorolla", "Valencia", "Valencia", "Terciario", 27, "02/06/2025", "Finalizado"),
]


def project_display(p):
    code, cust, town, prov, typ, panels, end, status = p
    kwp = es(D(panels) * D("0.45"))
    return dict(zip(PROJECTS_HEADER, [code, cust, town, prov, typ, kwp, str(panels), end, status]))


def write_projects():
    p = out(PROJECTS_REL)
    with open(p, "w", encoding="utf-8-sig", newline="") as f:
        w = csv.writer(f, delimiter=";", lineterminator="\r\n")
        w.writerow(PROJECTS_HEADER)
        for pr in PROJECTS:
            w.writerow(list(project_display(pr).values()))


# ----------------------------------------------------------------------------
# 12. Maintenance log (English XLSX)
# ----------------------------------------------------------------------------
MAINT_REL = "Mantenimiento/Maintenance_Log_H1_2025.xlsx"
MAINT_HEADER = ["Date", "Ticket No.", "Site", "Technician", "Fault Type", "Work Description", "Hours", "Cost (EUR)"]
MAINT = [
    ("09/01/2025", "MT-25-001", "Bodegas Requena (Requena)", "Raúl Gómez", "Preventive", "Annual inspection and IV-curve test", "6.0", "390.00"),
    ("21/01/2025", "MT-25-002", "Hotel Marina Dénia (Dénia)", "Sergio Navarro", "Inverter fault", "Inverter 2 error F21, reset and firmware update", "2.5", "162.50"),
    ("04/02/2025", "MT-25-003", "Frutas Ribera Alta (Alzira)", "Elena Vidal", "Monitoring/Comms", "Gateway offline, router SIM replaced", "1.5", "97.50"),
    ("18/02/2025", "MT-25-004", "C.P. Av. del Puerto 112 (Valencia)", "Raúl Gómez", "String/DC fault", "Ground fault on string 3, MC4 connectors replaced", "3.0", "214.00"),
    ("05/03/2025", "MT-25-005", "Hotel Marina Dénia (Dénia)", "Sergio Navarro", "Inverter fault", "Inverter 2 replaced under warranty", "5.0", "325.00"),
    ("12/03/2025", "MT-25-006", "Colegio San Vicente Ferrer (Elche)", "Elena Vidal", "Preventive", "Panel cleaning and visual inspection", "4.0", "260.00"),
    ("19/03/2025", "MT-25-007", "Bodegas Requena (Requena)", "Raúl Gómez", "Panel damage", "Hail damage, 3 modules replaced", "7.5", "1842.50"),
    ("27/03/2025", "MT-25-008", "Beltrán residence (Gandia)", "Sergio Navarro", "Monitoring/Comms", "App not reporting, Wi-Fi dongle reconfigured", "1.0", "65.00"),
    ("08/04/2025", "MT-25-009", "Frutas Ribera Alta (Alzira)", "Raúl Gómez", "Inverter fault", "Cooling fan failure, fan replaced", "3.5", "412.00"),
    ("23/04/2025", "MT-25-010", "Talleres Vinalopó (Elda)", "Elena Vidal", "String/DC fault", "Rodent-damaged DC cable, 20 m replaced", "4.5", "356.75"),
    ("06/05/2025", "MT-25-011", "Cerámicas Onda (Onda)", "Sergio Navarro", "Preventive", "30-day check after commissioning", "3.0", "195.00"),
    ("20/05/2025", "MT-25-012", "Hotel Marina Dénia (Dénia)", "Elena Vidal", "Monitoring/Comms", "Energy meter not communicating, RS485 cable replaced", "2.0", "138.00"),
    ("03/06/2025", "MT-25-013", "C.P. Av. del Puerto 112 (Valencia)", "Raúl Gómez", "Preventive", "Annual inspection", "3.0", "195.00"),
    ("17/06/2025", "MT-25-014", "Cerámicas Onda (Onda)", "Sergio Navarro", "Inverter fault", "Isolation fault alarm, inverter 3 replaced", "6.0", "1250.00"),
    ("26/06/2025", "MT-25-015", "Clínica Dental Sorolla (Valencia)", "Elena Vidal", "Panel damage", "Cracked module glass, module replaced", "2.5", "350.00"),
]


def maint_display(m):
    date, ticket, site, tech, fault, work, hours, cost = m
    return dict(zip(MAINT_HEADER, [date, ticket, site, tech, fault, work, en(hours, 1), en(cost)]))


def write_maintenance():
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Log"
    ws["A1"] = f"{SOLVEGA} – O&M Maintenance Log"
    ws["A1"].font = Font(bold=True, size=14)
    ws["A2"] = "Period: January – June 2025 · corrective and preventive visits"
    hr = 4
    xl_header(ws, hr, MAINT_HEADER)
    th, tc = D(0), D(0)
    for i, m in enumerate(MAINT, start=hr + 1):
        date, ticket, site, tech, fault, work, hours, cost = m
        th += D(hours)
        tc += D(cost)
        vals = [d(date), ticket, site, tech, fault, work, float(hours), float(cost)]
        for j, v in enumerate(vals, start=1):
            c = ws.cell(row=i, column=j, value=v)
            c.border = BOX
            if j == 1:
                c.number_format = "dd/mm/yyyy"
            elif j == 7:
                c.number_format = "0.0"
            elif j == 8:
                c.number_format = "#,##0.00"
    tr = hr + len(MAINT) + 1
    ws.cell(row=tr, column=1, value="Total").font = Font(bold=True)
    c = ws.cell(row=tr, column=7, value=float(th))
    c.number_format = "0.0"
    c.font = Font(bold=True)
    c = ws.cell(row=tr, column=8, value=float(tc))
    c.number_format = "#,##0.00"
    c.font = Font(bold=True)
    ws.freeze_panes = "A5"
    xl_widths(ws, [12, 12, 34, 16, 18, 48, 8, 12])
    save_xlsx(wb, MAINT_REL, "Maintenance Log H1 2025")


# ----------------------------------------------------------------------------
# 13-14. Travel expense reports (English PDF, ruled)
# ----------------------------------------------------------------------------
EXP_HEADER = ["Date", "Employee", "Category", "Description", "Amount (EUR)"]
EXP_APR = dict(
    rel="RRHH/Gastos de viaje/2025/Travel_Expenses_2025-04.pdf", month="April 2025", submitted="02/05/2025",
    rows=[
        ("03/04/2025", "Jordi Puig", "Fuel", "Diesel, van 4471-LKM, Elche site", "71.20"),
        ("04/04/2025", "Jordi Puig", "Meals", "Site lunch, Elche", "14.90"),
        ("10/04/2025", "Marta Ibáñez", "Train", "Cercanías Valencia - Gandia, customer visit", "8.30"),
        ("15/04/2025", "Marta Ibáñez", "Hotel", "Hotel Madrid Feria, 2 nights (trade fair)", "236.00"),
        ("16/04/2025", "Marta Ibáñez", "Meals", "Dinner with Brightcell account manager", "61.50"),
        ("23/04/2025", "Jordi Puig", "Fuel", "Diesel, van 4471-LKM, Elda site", "68.75"),
        ("24/04/2025", "Jordi Puig", "Parking", "Parking Elda centre", "9.00"),
    ],
)
EXP_MAY = dict(
    rel="RRHH/Gastos de viaje/2025/Travel_Expenses_2025-05.pdf", month="May 2025", submitted="02/06/2025",
    rows=[
        ("05/05/2025", "Marta Ibáñez", "Train", "AVE Valencia - Madrid (supplier meeting)", "68.40"),
        ("05/05/2025", "Marta Ibáñez", "Hotel", "Hotel Atocha, 1 night", "112.00"),
        ("06/05/2025", "Marta Ibáñez", "Meals", "Lunch with Sonnwerk sales team", "46.80"),
        ("06/05/2025", "Marta Ibáñez", "Train", "AVE Madrid - Valencia", "68.40"),
        ("12/05/2025", "Jordi Puig", "Fuel", "Diesel, van 4471-LKM, Onda site", "82.35"),
        ("12/05/2025", "Jordi Puig", "Tolls", "AP-7 Valencia - Castellón", "9.60"),
        ("14/05/2025", "Jordi Puig", "Meals", "Site lunch, Onda (2 people)", "27.50"),
        ("20/05/2025", "Marta Ibáñez", "Fuel", "Petrol, own car, customer visit Alicante", "54.10"),
        ("21/05/2025", "Jordi Puig", "Hotel", "Hostal Elda, 1 night (Talleres Vinalopó)", "58.00"),
        ("21/05/2025", "Jordi Puig", "Fuel", "Diesel, van 4471-LKM, Elda", "76.90"),
        ("22/05/2025", "Jordi Puig", "Parking", "Parking Elda centre", "12.00"),
        ("28/05/2025", "Marta Ibáñez", "Meals", "Dinner with customer Hotel Marina Dénia", "93.20"),
    ],
)


def exp_display(r):
    return dict(zip(EXP_HEADER, [r[0], r[1], r[2], r[3], en(r[4])]))


def write_expenses(rep):
    pdf = new_pdf(f"Travel Expense Report - {rep['month']}", SOLVEGA)
    pdf.set_font("Helvetica", "B", 14)
    pdf.cell(0, 8, f"Travel Expense Report - {rep['month']}", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 9)
    pdf.cell(0, 5, f"{SOLVEGA} - Human Resources / RRHH", new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 5, f"Cost centre: Operations & Sales - Submitted: {rep['submitted']}", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(5)
    widths = [22, 28, 20, 85, 25]
    aligns = ["L", "L", "L", "L", "R"]
    pdf.set_font("Helvetica", "B", 8.5)
    pdf.set_fill_color(225, 225, 225)
    for w, h in zip(widths, EXP_HEADER):
        pdf.cell(w, 7, h, border=1, align="C", fill=True)
    pdf.ln(7)
    pdf.set_font("Helvetica", "", 8.5)
    total = D(0)
    per = {}
    for r in rep["rows"]:
        total += D(r[4])
        per[r[1]] = per.get(r[1], D(0)) + D(r[4])
        for w, v, a in zip(widths, exp_display(r).values(), aligns):
            pdf.cell(w, 6.5, v, border=1, align=a)
        pdf.ln(6.5)
    pdf.set_font("Helvetica", "B", 8.5)
    pdf.cell(sum(widths[:4]), 6.5, "Total", border=1, align="R")
    pdf.cell(widths[4], 6.5, en(total), border=1, align="R")
    pdf.ln(10)
    pdf.set_font("Helvetica", "", 8.5)
    parts = [f"{k} {en(v)}" for k, v in per.items()]
    pdf.cell(0, 5, "Per employee (EUR): " + "; ".join(parts), new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 5, "Approved by: Lucía Ferrer (Administration & HR)", new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 5, "Receipts attached. Mileage for own car is claimed separately.", new_x="LMARGIN", new_y="NEXT")
    save_pdf(pdf, rep["rel"])


# ----------------------------------------------------------------------------
# 15. Timesheet (Spanish XLSX, hours as h:mm)
# ----------------------------------------------------------------------------
TS_REL = "RRHH/Partes de horas/2025/Parte_horas_2025-06_Raul_Gomez.xlsx"
TS_HEADER = ["Fecha", "Código obra", "Obra", "Tarea", "Horas"]
TS = [
    ("02/06/2025", "PRJ-25-021", "Soler Roig (Torrent)", "Montaje de estructura y paneles", "8"),
    ("03/06/2025", "MT-25-013", "C.P. Av. del Puerto 112 (Valencia)", "Inspección anual O&M", "3"),
    ("03/06/2025", "PRJ-25-021", "Soler Roig (Torrent)", "Conexionado del inversor", "5"),
    ("04/06/2025", "PRJ-25-024", "Supermercados Horta Sud (Alicante)", "Replanteo de cubierta", "7.5"),
    ("05/06/2025", "PRJ-25-024", "Supermercados Horta Sud (Alicante)", "Montaje de estructura", "8.5"),
    ("06/06/2025", "—", "Almacén Paterna", "Preparación de material", "6"),
    ("09/06/2025", "PRJ-25-024", "Supermercados Horta Sud (Alicante)", "Montaje de estructura", "9"),
    ("10/06/2025", "PRJ-25-021", "Soler Roig (Torrent)", "Puesta en marcha", "4"),
    ("10/06/2025", "—", "Oficina Valencia", "Formación PRL", "4"),
    ("11/06/2025", "PRJ-25-024", "Supermercados Horta Sud (Alicante)", "Montaje de paneles", "9"),
    ("12/06/2025", "PRJ-25-024", "Supermercados Horta Sud (Alicante)", "Montaje de paneles", "8.5"),
    ("16/06/2025", "PRJ-25-027", "Residencial Los Almendros (Sant Joan d'Alacant)", "Visita técnica previa", "3.5"),
    ("16/06/2025", "PRJ-25-024", "Supermercados Horta Sud (Alicante)", "Cableado CC", "5"),
    ("17/06/2025", "PRJ-25-024", "Supermercados Horta Sud (Alicante)", "Cableado CC", "8"),
    ("18/06/2025", "—", "Almacén Paterna", "Inventario trimestral", "7"),
]


def ts_display(r):
    return dict(zip(TS_HEADER, [r[0], r[1], r[2], r[3], hm(r[4])]))


def write_timesheet():
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Junio 2025"
    ws["A1"] = "Parte mensual de horas – Junio 2025"
    ws["A1"].font = Font(bold=True, size=14)
    ws["A2"] = "Empleado: Raúl Gómez Ortiz · Categoría: Técnico instalador · Responsable: Jordi Puig"
    hr = 4
    xl_header(ws, hr, TS_HEADER)
    total = D(0)
    for i, r in enumerate(TS, start=hr + 1):
        total += D(r[4])
        minutes = int(D(r[4]) * 60)
        vals = [d(r[0]), r[1], r[2], r[3], dt.time(minutes // 60, minutes % 60)]
        for j, v in enumerate(vals, start=1):
            c = ws.cell(row=i, column=j, value=v)
            c.border = BOX
            if j == 1:
                c.number_format = "dd/mm/yyyy"
            if j == 5:
                c.number_format = "h:mm"
    tr = hr + len(TS) + 1
    ws.cell(row=tr, column=4, value="Total horas").font = Font(bold=True)
    c = ws.cell(row=tr, column=5, value=dt.timedelta(minutes=int(total * 60)))
    c.number_format = "[h]:mm"
    c.font = Font(bold=True)
    ws.cell(row=tr + 2, column=1, value="Firma del empleado: ____________    Firma del responsable: ____________")
    xl_widths(ws, [12, 13, 44, 32, 9])
    save_xlsx(wb, TS_REL, "Parte de horas junio 2025")


# ----------------------------------------------------------------------------
# 16-17. Quarterly management reports (Q1 Markdown, Q2 DOCX, English)
# ----------------------------------------------------------------------------
Q1_REL = "Direccion/Informes/Management_Report_Q1_2025.md"
Q2_REL = "Direccion/Informes/Management_Report_Q2_2025.docx"
KPI_HEADER = ["KPI", "Target", "Actual"]
Q1_KPI = [
    ("Installed capacity (kWp)", "380", "402.6"),
    ("New installations completed", "12", "13"),
    ("Revenue (EUR)", "1,100,000", "1,034,900"),
    ("Gross margin (%)", "28.0%", "27.1%"),
    ("Average installation lead time (days)", "35", "33"),
    ("Customer satisfaction (NPS)", "60", "58"),
    ("O&M tickets resolved within SLA (%)", "95%", "96%"),
    ("Lost-time accidents", "0", "1"),
]
Q2_KPI = [
    ("Installed capacity (kWp)", "450", "472.8"),
    ("New installations completed", "14", "12"),
    ("Revenue (EUR)", "1,350,000", "1,286,400"),
    ("Gross margin (%)", "28.0%", "29.4%"),
    ("Average installation lead time (days)", "35", "41"),
    ("Customer satisfaction (NPS)", "60", "64"),
    ("O&M tickets resolved within SLA (%)", "95%", "97%"),
    ("Lost-time accidents", "0", "0"),
]
REGIONS = ["Valencia", "Alicante", "Castellón", "Murcia"]
Q1_REV = {"Valencia": (441200, 476300), "Alicante": (248900, 291500), "Castellón": (139700, 198400),
          "Murcia": (61000, 68700)}
Q2_REV = {"Valencia": (512300, 598700), "Alicante": (301800, 377200), "Castellón": (164500, 233900),
          "Murcia": (58200, 76600)}


def rev_rows(rev):
    rows = []
    for reg in REGIONS + ["Total"]:
        if reg == "Total":
            a = sum(v[0] for v in rev.values())
            b = sum(v[1] for v in rev.values())
        else:
            a, b = rev[reg]
        ch = q(D(b - a) * 100 / D(a), 1)
        rows.append((reg, en(a, 0), en(b, 0), ("+" if ch >= 0 else "") + en(ch, 1) + "%"))
    return rows


def write_q1_md():
    rows = rev_rows(Q1_REV)
    lines = [
        "# Quarterly Management Report – Q1 2025",
        "",
        f"{SOLVEGA} · Prepared by Finance & Controlling · 14 April 2025",
        "",
        "## 1. Summary",
        "",
        "The first quarter closed with revenue of EUR 1,034,900, 5.9% below plan, mainly because two "
        "industrial projects in Castellón slipped into Q2. Installed capacity beat the target.",
        "",
        "## 2. Key performance indicators",
        "",
        "| KPI | Target | Actual |",
        "|---|---:|---:|",
    ]
    lines += [f"| {k} | {t} | {a} |" for k, t, a in Q1_KPI]
    lines += [
        "",
        "## 3. Revenue by region",
        "",
        "| Region | Q1 2024 (EUR) | Q1 2025 (EUR) | Change vs Q1 2024 |",
        "|---|---:|---:|---:|",
    ]
    lines += [f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} |" for r in rows]
    lines += ["", "## 4. Outlook", "",
              "Order intake for Q2 stands at 1.4 M EUR; the Onda and Alicante projects are the main drivers.", ""]
    out(Q1_REL).write_text("\n".join(lines), encoding="utf-8")


def write_q2_docx():
    rows = rev_rows(Q2_REV)
    doc = new_docx("Quarterly Management Report – Q2 2025")
    para(doc, "Quarterly Management Report – Q2 2025", bold=True, size=16)
    para(doc, f"{SOLVEGA} · Prepared by Finance & Controlling · 15 July 2025", size=9)
    para(doc, "1. Summary", bold=True, size=12)
    para(doc, "Q2 revenue reached EUR 1,286,400 (Q1: EUR 1,034,900), 4.7% below the quarterly plan but 24.1% "
              "above Q2 2024. Gross margin improved thanks to better module purchase prices. Lead times grew "
              "because of grid-connection delays in the province of Alicante.")
    para(doc, "2. Key performance indicators", bold=True, size=12)
    docx_table(doc, KPI_HEADER, [list(r) for r in Q2_KPI], right_cols=(1, 2))
    para(doc, "")
    para(doc, "3. Revenue by region", bold=True, size=12)
    docx_table(doc, ["Region", "Q2 2024 (EUR)", "Q2 2025 (EUR)", "Change vs Q2 2024"],
               [list(r) for r in rows], right_cols=(1, 2, 3))
    para(doc, "")
    para(doc, "4. Outlook", bold=True, size=12)
    para(doc, "For H2 we expect the Supermercados Horta Sud and Los Almendros projects to be completed and "
              "the battery retrofit campaign to add around 150 kWh of storage per month.")
    save_docx(doc, Q2_REL)


# ----------------------------------------------------------------------------
# truth
# ----------------------------------------------------------------------------
def case(cid, message, tags, columns, rows, note):
    files = []
    for r in rows:
        if r["file"] not in files:
            files.append(r["file"])
    for r in rows:
        assert list(r["values"]) == columns, (cid, r)
    return {
        "id": cid,
        "message": message,
        "tags": ["explicit", "unseen"] + tags,
        "status": "done",
        "columns": columns,
        "columns_in_request_order": True,
        "documents_with_rows": files,
        "rows": rows,
        "note": note,
    }


def row(file, columns, values):
    assert len(columns) == len(values)
    return {"file": file, "values": dict(zip(columns, values))}


def build_truth():
    cases = []

    # s01 -- all lines of one named invoice (XLSX), no columns named
    cols = ["Item Code", "Description", "Qty", "Unit Price", "Line Total"]
    cases.append(case(
        "unseen-s01",
        "Can you list all the lines of the Brightcell invoice INV-BC-20931?",
        ["xlsx", "whole-table", "english", "named-document"],
        cols,
        [row(BC_INV["rel"], cols, [r[c] for c in cols]) for r in BC_INV["truth_rows"]],
        "The request names no columns, so the columns are the invoice table's own headers in order "
        "(row 12 of sheet 'Invoice'). Title/letterhead rows 1-10 (Invoice No, Invoice Date, Customer...) "
        "are not lines, and the Subtotal / 'VAT 0% (export of goods)' / 'Total due' rows below the table "
        "are totals, not lines. Amounts are number-formatted [$£-809]#,##0.00, shown '£7,440.00'; Qty "
        "format 0. The carriage line BC-SHIP is a priced invoice line and is included.",
    ))

    # s02 -- all invoices of one supplier in a year, header fields
    cols = ["invoice number", "invoice date", "total"]
    cases.append(case(
        "unseen-s02",
        "Give me all 2025 invoices from Distribuciones Fotovoltaicas Levante with invoice number, "
        "invoice date and total.",
        ["pdf", "docx", "header-fields", "supplier", "year-condition", "english", "spanish-documents"],
        cols,
        [row(LEV_0147["rel"], cols, [LEV_0147["number"], dmy(LEV_0147["date"]), LEV_0147["total"]]),
         row(LEV_0311["rel"], cols, [LEV_0311["number"], dmy(LEV_0311["date"]), LEV_0311["total"]])],
        "One row per invoice, read from the invoice headers: FAC-2025-0147 (ruled PDF: 'N.º factura', "
        "'Fecha factura', 'TOTAL FACTURA (EUR)') and FAC-2025-0311 (Word: paragraphs 'Factura n.º:', "
        "'Fecha:', 'Total factura (EUR):'). The total is the gross total including IVA 21 %, in Spanish "
        "notation as printed. FAC-2024-0982 (folder Compras/Facturas/2024, dated 18/11/2024) is from 2024 "
        "and excluded. 'Base imponible' would be the net amount, not the total.",
    ))

    # s03 -- active contracts with value at least 30,000 (question form)
    cols = ["contract number", "counterparty", "annual value", "end date"]
    sel = [contract_display(c) for c in CONTRACTS if c[6] == "Active" and D(c[5]) >= 30000]
    cases.append(case(
        "unseen-s03",
        "Which active contracts have an annual value of at least 30,000 EUR? Show contract number, "
        "counterparty, annual value and end date.",
        ["xlsx", "numeric-condition", "status-condition", "question", "english", "boundary"],
        cols,
        [row(REGISTER_REL, cols, [c["Contract No."], c["Counterparty"], c["Annual Value (EUR)"], c["End Date"]])
         for c in sel],
        "Contract_Register_2025.xlsx: title rows 1-2, header on row 4, legend line below the table. "
        "Columns map to 'Contract No.', 'Counterparty', 'Annual Value (EUR)' (format #,##0.00, English "
        "locale) and 'End Date' (dd/mm/yyyy). CT-2023-015 is exactly 30,000.00 and is included ('at least'). "
        "Excluded: CT-2022-011 (180,000.00, Expired), CT-2025-008 (36,000.00, Pending - signed but not yet "
        "in force), and active contracts below 30,000 (CT-2024-013, CT-2025-001, CT-2025-005).",
    ))

    # s04 -- maintenance jobs in March
    cols = ["date", "site", "fault type", "cost"]
    sel = [maint_display(m) for m in MAINT if d(m[0]).month == 3]
    cases.append(case(
        "unseen-s04",
        "List the maintenance jobs from March 2025 with date, site, fault type and cost.",
        ["xlsx", "date-condition", "month", "english"],
        cols,
        [row(MAINT_REL, cols, [m["Date"], m["Site"], m["Fault Type"], m["Cost (EUR)"]]) for m in sel],
        "Maintenance_Log_H1_2025.xlsx, sheet 'Log', header on row 4, a 'Total' row at the bottom (not a job). "
        "Dates are real date cells formatted dd/mm/yyyy; 'cost' is 'Cost (EUR)' formatted #,##0.00 "
        "(English locale). Four jobs dated 05/03 - 27/03/2025.",
    ))

    # s05 -- jobs by a technician
    cols = ["date", "ticket", "site", "hours"]
    sel = [maint_display(m) for m in MAINT if m[3] == "Sergio Navarro"]
    cases.append(case(
        "unseen-s05",
        "Show me every job technician Sergio Navarro did in the maintenance log: date, ticket, site and hours.",
        ["xlsx", "person-condition", "english"],
        cols,
        [row(MAINT_REL, cols, [m["Date"], m["Ticket No."], m["Site"], m["Hours"]]) for m in sel],
        "Rows whose 'Technician' is Sergio Navarro. 'ticket' is 'Ticket No.'; 'hours' is 'Hours' with "
        "format 0.0, shown '2.5', '5.0' in an English locale. The Total row is excluded.",
    ))

    # s06 -- fuel expenses (category) in the May report
    cols = ["date", "employee", "description", "amount"]
    sel = [exp_display(r) for r in EXP_MAY["rows"] if r[2] == "Fuel"]
    cases.append(case(
        "unseen-s06",
        "I need the fuel expenses from the May 2025 travel expense report - date, employee, description and amount.",
        ["pdf", "category-condition", "english", "named-document"],
        cols,
        [row(EXP_MAY["rel"], cols, [e["Date"], e["Employee"], e["Description"], e["Amount (EUR)"]]) for e in sel],
        "Travel_Expenses_2025-05.pdf (ruled table): rows with Category 'Fuel'. 'amount' is 'Amount (EUR)'. "
        "The April report (Travel_Expenses_2025-04.pdf) also has Fuel lines but is not the May report. "
        "The 'Total' row and the per-employee line below the table are excluded.",
    ))

    # s07 -- price list under 100, paraphrased columns
    cols = ["code", "product name", "price"]
    sel = [p for p in PRICE_LIST if D(p[4]) < 100]
    cases.append(case(
        "unseen-s07",
        "Which items in our 2025 price list cost under 100 euros? I need the code, product name and price.",
        ["pdf", "numeric-condition", "paraphrased-columns", "question", "english", "boundary", "spanish-documents"],
        cols,
        [row(PRICE_LIST_REL, cols, [p[0], p[1], es(p[4])]) for p in sel],
        "Ventas/Tarifas/Tarifa_Solvega_2025.pdf (Solvega's own tariff, Spanish, no rulings, shaded header). "
        "'code' = 'Código', 'product name' = 'Descripción del artículo', 'price' = 'Precio neto (EUR)' "
        "(the only price column), in Spanish notation as printed. SV-ACC-WIFI costs exactly 100,00 and is "
        "not 'under 100'. The footer text mentioning 1.500,00 EUR is not an item.",
    ))

    # s08 -- judgement: battery / storage lines of one invoice
    cols = ["description", "quantity", "amount"]
    sel = [r for r in LEV_0311["rows"] if r["ref"].startswith("LV-BAT")]
    cases.append(case(
        "unseen-s08",
        "On Levante invoice FAC-2025-0311, which lines are batteries or energy storage? Give description, "
        "quantity and amount.",
        ["docx", "judgement", "question", "english", "spanish-documents"],
        cols,
        [row(LEV_0311["rel"], cols, [r["desc"], r["qty"], r["amount"]]) for r in sel],
        "FAC-2025-0311.docx: the item table has no category column, so the reader judges from 'Descripción': "
        "'Batería de litio LFP 5,12 kWh' (battery) and 'Módulo de ampliación de almacenamiento 2,56 kWh' "
        "(storage extension module) qualify. 'Inversor híbrido 5 kW' is an inverter (it can drive a battery "
        "but stores nothing) and 'Módulo FV ...' is a PV module, not a storage module; both excluded. "
        "'quantity' = 'Cantidad', 'amount' = 'Importe (EUR)'.",
    ))

    # s09 -- inverter lines of all 2025 Sonnwerk invoices (German)
    cols = ["invoice number", "article number", "description", "quantity", "unit price"]
    rows = []
    for inv in (SON_0412, SON_0587):
        for r in inv["rows"]:
            if "Wechselrichter" in r["desc"]:
                rows.append(row(inv["rel"], cols, [inv["number"], r["art"], r["desc"], r["qty"], r["price"]]))
    cases.append(case(
        "unseen-s09",
        "Pull the inverter lines from all 2025 Sonnwerk invoices: invoice number, article number, description, "
        "quantity and unit price.",
        ["pdf", "docx", "category-condition", "german-documents", "english", "multi-document", "header-fields"],
        cols,
        rows,
        "Sonnwerk invoices are German: inverter = 'Wechselrichter' (incl. 'Hybrid-Wechselrichter'). "
        "RE-25-0412 is a PDF without any rulings (aligned text columns), RE-25-0587 a Word table whose last "
        "three rows are totals. 'invoice number' comes from 'Rechnungsnummer' above the table, 'article "
        "number' = 'Art.-Nr.', 'quantity' = 'Menge', 'unit price' = 'Einzelpreis (EUR)' in German notation. "
        "Excluded: power optimisers ('Leistungsoptimierer'), monitoring gateway, battery, smart meter, cable, "
        "freight.",
    ))

    # s10 -- for each region, Q2 report
    cols = ["region", "Q2 2025 revenue", "change versus Q2 2024"]
    cases.append(case(
        "unseen-s10",
        "For each region in the Q2 management report, what was the Q2 2025 revenue and the change versus Q2 2024?",
        ["docx", "for-each", "named-by-subject", "english"],
        cols,
        [row(Q2_REL, cols, [r[0], r[2], r[3]]) for r in rev_rows(Q2_REV) if r[0] != "Total"],
        "Management_Report_Q2_2025.docx, table 'Revenue by region': 'Q2 2025 revenue' = 'Q2 2025 (EUR)', "
        "'change versus Q2 2024' = 'Change vs Q2 2024'. The 'Total' row is not a region. "
        "Management_Report_Q1_2025.md has the same layout for Q1 and must not be used.",
    ))

    # s11 -- judgement: KPIs that missed their target
    cols = ["KPI", "target", "actual"]
    missed = {"New installations completed", "Revenue (EUR)", "Average installation lead time (days)"}
    cases.append(case(
        "unseen-s11",
        "Which KPIs missed their target in the Q2 2025 management report? Give KPI, target and actual.",
        ["docx", "judgement", "question", "named-by-subject", "english"],
        cols,
        [row(Q2_REL, cols, list(k)) for k in Q2_KPI if k[0] in missed],
        "Q2 KPI table (KPI / Target / Actual). Missed: installations 12 < 14, revenue 1,286,400 < 1,350,000, "
        "and average lead time 41 days against a target of 35 (lower is better, so 41 is a miss). Met: "
        "capacity, gross margin, NPS, SLA share (higher is better) and lost-time accidents (0 = 0). The Q1 "
        "report (Markdown) is a different quarter.",
    ))

    # s12 -- SLA for each priority (paraphrased priorities)
    cols = ["priority level", "response time", "resolution time"]
    cases.append(case(
        "unseen-s12",
        "What response and resolution times does the O&M service agreement with Hotel Marina Dénia set for "
        "each priority level?",
        ["markdown", "for-each", "named-by-subject", "english", "spanish-documents"],
        cols,
        [row(SLA_MD_REL, cols, [r[0], r[2], r[3]]) for r in SLA_MD],
        "SLA_OyM_Hotel_Marina_Denia.md (Spanish): 'priority level' = 'Prioridad' (values like 'P1 – Crítica', "
        "with an en dash), 'response time' = 'Tiempo de respuesta', 'resolution time' = 'Tiempo de "
        "resolución', as written. The penalties table is a different table. The Brightcell battery service "
        "agreement is with a supplier, not with Hotel Marina Dénia.",
    ))

    # s13 -- projects in the province of Alicante
    cols = ["customer", "town", "kWp", "status"]
    sel = [project_display(p) for p in PROJECTS if p[3] == "Alicante"]
    cases.append(case(
        "unseen-s13",
        "List the installation projects in the province of Alicante with customer, town, kWp and status.",
        ["csv", "place-condition", "english", "spanish-documents", "decimal-comma"],
        cols,
        [row(PROJECTS_REL, cols, [p["Cliente"], p["Municipio"], p["Potencia (kWp)"], p["Estado"]]) for p in sel],
        "Proyectos_instalacion_2024-2025.csv (UTF-8 with BOM, ';' separated): rows whose 'Provincia' is "
        "Alicante, whatever their status. 'customer' = 'Cliente', 'town' = 'Municipio', 'kWp' = 'Potencia "
        "(kWp)' with decimal comma as written, 'status' = 'Estado'. Dénia, Elche, Elda and Sant Joan "
        "d'Alacant are in the province; two projects are in the town of Alicante itself.",
    ))

    # s14 -- empty answer
    cols = ["customer", "town", "completion date"]
    sel = [p for p in PROJECTS if p[3] == "Castellón" and p[6].endswith("/2024")]
    assert not sel
    cases.append(case(
        "unseen-s14",
        "Which projects in Castellón were completed in 2024? Customer, town and completion date please.",
        ["csv", "place-condition", "date-condition", "empty", "question", "english", "spanish-documents"],
        cols,
        [],
        "Empty answer. The projects CSV has three Castellón rows: PRJ-24-050 (Burriana), whose code says 24 "
        "but whose 'Fecha fin obra' is 15/01/2025; PRJ-25-015 (Vila-real), Cancelado with no completion date; "
        "PRJ-25-018 (Onda), completed 30/05/2025. None was completed in 2024.",
    ))

    # s15 -- cost more than 350
    cols = ["ticket", "site", "technician", "fault type", "cost"]
    sel = [maint_display(m) for m in MAINT if D(m[7]) > 350]
    cases.append(case(
        "unseen-s15",
        "Which maintenance jobs cost more than 350 EUR? Ticket, site, technician, fault type and cost.",
        ["xlsx", "numeric-condition", "boundary", "question", "english"],
        cols,
        [row(MAINT_REL, cols, [m["Ticket No."], m["Site"], m["Technician"], m["Fault Type"], m["Cost (EUR)"]])
         for m in sel],
        "Maintenance log, 'Cost (EUR)' > 350 (English locale, #,##0.00). MT-25-015 costs exactly 350.00 and "
        "is excluded ('more than'); MT-25-010 (356.75) is included. The bottom 'Total' row (sum of costs) "
        "is not a job.",
    ))

    # s16 -- Spanish: completed in 2025 before June
    cols = ["cliente", "municipio", "potencia en kWp", "fecha de finalización"]
    sel = [project_display(p) for p in PROJECTS
           if p[7] == "Finalizado" and p[6] and d(p[6]).year == 2025 and d(p[6]).month < 6]
    cases.append(case(
        "unseen-s16",
        "¿Qué instalaciones se terminaron en 2025 antes de junio? Necesito cliente, municipio, potencia en kWp "
        "y fecha de finalización.",
        ["csv", "date-condition", "question", "spanish", "decimal-comma"],
        cols,
        [row(PROJECTS_REL, cols, [p["Cliente"], p["Municipio"], p["Potencia (kWp)"], p["Fecha fin obra"]])
         for p in sel],
        "Projects CSV: 'Fecha fin obra' between 01/01/2025 and 31/05/2025. PRJ-24-050 (code from 2024) was "
        "finished on 15/01/2025 and is included. PRJ-25-030 (02/06/2025) and PRJ-25-021 (10/06/2025) are in "
        "June; projects without a date (En curso, Planificado, Cancelado) were not finished. 'potencia en kWp' "
        "= 'Potencia (kWp)' with decimal comma.",
    ))

    # s17 -- Spanish: contracts of a responsible person
    cols = ["número de contrato", "contraparte", "fecha de fin", "estado"]
    sel = [contract_display(c) for c in CONTRACTS if c[7] == "Lucía Ferrer"]
    cases.append(case(
        "unseen-s17",
        "Lista los contratos de los que es responsable Lucía Ferrer, con número de contrato, contraparte, "
        "fecha de fin y estado.",
        ["xlsx", "person-condition", "spanish", "english-documents"],
        cols,
        [row(REGISTER_REL, cols, [c["Contract No."], c["Counterparty"], c["End Date"], c["Status"]]) for c in sel],
        "Contract register (English headers): 'Responsible' = Lucía Ferrer, all statuses. Columns map to "
        "'Contract No.', 'Counterparty', 'End Date' (dd/mm/yyyy), 'Status' (values in English as written). "
        "Row 2 of the sheet ('maintained by Administration (Lucía Ferrer)') is a title, not a contract.",
    ))

    # s18 -- Spanish: timesheet rows for one site
    cols = ["fecha", "tarea", "horas"]
    sel = [ts_display(r) for r in TS if r[1] == "PRJ-25-024"]
    cases.append(case(
        "unseen-s18",
        "Del parte de horas de junio de Raúl Gómez, dame fecha, tarea y horas de los días que trabajó en la "
        "obra de Supermercados Horta Sud.",
        ["xlsx", "text-condition", "spanish", "time-format"],
        cols,
        [row(TS_REL, cols, [t["Fecha"], t["Tarea"], t["Horas"]]) for t in sel],
        "Parte_horas_2025-06_Raul_Gomez.xlsx: rows whose 'Obra' is 'Supermercados Horta Sud (Alicante)' "
        "(Código obra PRJ-25-024). 'Horas' are time cells formatted h:mm, shown '7:30', '8:00'. The 'Total "
        "horas' row ([h]:mm) and the signature line are excluded.",
    ))

    # s19 -- Spanish: Brightcell SLA, critical and high priorities
    cols = ["prioridad", "tiempo de respuesta", "tiempo de resolución"]
    cases.append(case(
        "unseen-s19",
        "En el acuerdo de servicio de baterías con Brightcell, ¿qué tiempos de respuesta y de resolución hay "
        "para las prioridades crítica y alta?",
        ["docx", "text-condition", "paraphrased-values", "question", "spanish", "english-documents"],
        cols,
        [row(BC_SLA_REL, cols, [r[0], r[2], r[3]]) for r in BC_SLA[:2]],
        "Brightcell_Battery_Service_Agreement.docx (English), service-level table: 'crítica' = 'Priority 1 "
        "(Critical)', 'alta' = 'Priority 2 (High)'. 'tiempo de respuesta' = 'Response Time', 'tiempo de "
        "resolución' = 'Resolution Time', values in English as written. The fees table is a different table; "
        "the Hotel Marina Dénia SLA (P1 – Crítica, P2 – Alta) is a different agreement.",
    ))

    # s20 -- Spanish: lines of the ruled PDF invoice, some columns
    cols = ["referencia", "descripción", "cantidad", "precio unitario", "importe"]
    cases.append(case(
        "unseen-s20",
        "Lista todas las líneas de la factura FAC-2025-0147 de Levante: referencia, descripción, cantidad, "
        "precio unitario e importe.",
        ["pdf", "ruled", "named-document", "spanish"],
        cols,
        [row(LEV_0147["rel"], cols, [r["ref"], r["desc"], r["qty"], r["price"], r["amount"]])
         for r in LEV_0147["rows"]],
        "FAC-2025-0147.pdf, ruled table: 'referencia' = 'Ref.', 'cantidad' = 'Cant.', 'precio unitario' = "
        "'Precio unit. (EUR)', 'importe' = 'Importe (EUR)' (after the 5 % discount on LV-MOD-450: 5.130,00). "
        "The 'Dto. %' column is not asked. The Base imponible / IVA 21 % / TOTAL FACTURA block below is not "
        "a line.",
    ))

    return {
        "source": (
            "Held-out set 'unseen-solvega': 17 generated business documents (PDF with and without rulings, "
            "DOCX, XLSX, semicolon CSV, Markdown; Spanish, English and German, Spanish/German number notation "
            "'1.234,56' beside English '1,234.56') of the fictitious solar installer Solvega Instalaciones S.L. "
            "(Valencia) and its suppliers in Spain, Germany and the UK, with 20 table-extraction requests (15 in "
            "English, 5 in Spanish). generate.py wrote the documents and this truth from the same data; the "
            "requests and expected rows were written from the documents alone, before any engine ran on them. "
            "Values are as the documents display them; XLSX cells are what their number format shows in an "
            "English locale (dd/mm/yyyy dates, '1,842.50', '£7,440.00', h:mm hours)."
        ),
        "cases": cases,
    }


def main():
    if DOCS.exists():
        shutil.rmtree(DOCS)
    DOCS.mkdir(parents=True)
    write_levante_pdf(LEV_0147)
    write_levante_pdf(LEV_0982)
    write_levante_docx(LEV_0311)
    write_sonnwerk_pdf(SON_0412)
    write_sonnwerk_docx(SON_0587)
    write_brightcell_xlsx(BC_INV)
    write_price_list()
    write_register()
    write_bc_sla()
    write_sla_md()
    write_projects()
    write_maintenance()
    write_expenses(EXP_APR)
    write_expenses(EXP_MAY)
    write_timesheet()
    write_q1_md()
    write_q2_docx()
    truth = build_truth()
    (HERE / "truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
