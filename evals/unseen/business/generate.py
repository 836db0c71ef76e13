#!/usr/bin/env python3
"""Held-out evaluation corpus 3: business documents of a fictitious company
(Kessler & Thal GmbH, Hamburg) plus 25 chat requests with exact expected tables.

Deterministic: fixed seed, fixed document timestamps, normalised zip entries.
Run with Python 3.11 + openpyxl + python-docx + fpdf2:
    python evals/unseen/business/generate.py
Writes documents/ (wiped first) and requests.json next to this script.

Conventions for expected values ("as printed"):
  * DOCX / PDF / CSV / TXT / MD: the exact cell text in the document.
  * XLSX: numbers and dates are real numeric/date cells; the expected value is
    what the cell shows under its number format in the document's locale
    (German workbooks: "1.689,00", "31.03.2026"; English: "1,150.00",
    "2025-03-18"). The request note gives the locale.
"""
import csv
import datetime as dt
import json
import os
import random
import re
import shutil
import zipfile
from decimal import ROUND_HALF_UP
from decimal import Decimal as D

import docx
import openpyxl
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Cm, Pt, RGBColor
from fpdf import FPDF
from fpdf.fonts import FontFace
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "documents")
SEED = 20250314
rng = random.Random(SEED)
ZIP_TS = (2025, 7, 31, 9, 0, 0)

FONT_DIRS = ["/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu",
             "/usr/share/fonts/TTF"]


# --------------------------------------------------------------------------
# formatting helpers (used both for rendering and for the expected tables)
# --------------------------------------------------------------------------
def q2(x):
    return D(str(x)).quantize(D("0.01"), ROUND_HALF_UP)


def _group(ip, sep):
    parts = []
    while len(ip) > 3:
        parts.insert(0, ip[-3:])
        ip = ip[:-3]
    parts.insert(0, ip)
    return sep.join(parts)


SEPS = {"en": (",", "."), "de": (".", ","), "fr": (" ", ",")}


def num(x, dec=2, loc="en", group=True):
    x = D(str(x))
    neg = x < 0
    s = f"{abs(x):.{dec}f}"
    ip, _, fp = s.partition(".")
    th, dp = SEPS[loc]
    if group:
        ip = _group(ip, th)
    r = ip + (dp + fp if dec else "")
    return ("-" if neg else "") + r


def qty(x, loc="de"):
    x = D(str(x))
    if x == x.to_integral_value():
        return str(int(x))
    dec = 1 if (x * 10) == (x * 10).to_integral_value() else 2
    return num(x, dec, loc)


EN_MONTHS = ["January", "February", "March", "April", "May", "June", "July",
             "August", "September", "October", "November", "December"]
FR_MONTHS = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet",
             "août", "septembre", "octobre", "novembre", "décembre"]


def d_de(d):
    return d.strftime("%d.%m.%Y")


def d_fr(d):
    return d.strftime("%d/%m/%Y")


def d_iso(d):
    return d.isoformat()


def d_en(d):
    return f"{d.day} {EN_MONTHS[d.month - 1]} {d.year}"


def d_fr_long(d):
    day = "1er" if d.day == 1 else str(d.day)
    return f"{day} {FR_MONTHS[d.month - 1]} {d.year}"


def date(y, m, d):
    return dt.date(y, m, d)


# XLSX cell kinds: (number_format, display function per locale)
def xl_fmt(kind):
    return {"money": "#,##0.00", "int": "0", "thousands": "#,##0",
            "date_de": "DD.MM.YYYY", "date_iso": "YYYY-MM-DD",
            "pct1": "0.0%", "qty": "General"}.get(kind)


def xl_display(value, kind, loc):
    if value is None:
        return ""
    if kind == "money":
        return num(value, 2, loc)
    if kind == "thousands":
        return num(value, 0, loc)
    if kind == "int":
        return str(int(value))
    if kind == "qty":
        return qty(value, loc)
    if kind == "date_de":
        return d_de(value)
    if kind == "date_iso":
        return d_iso(value)
    if kind == "pct1":
        return num(D(str(value)) * 100, 1, loc) + "%"
    return str(value)


# --------------------------------------------------------------------------
# writers
# --------------------------------------------------------------------------
DOCS = []  # relative paths written
if os.path.isdir(OUT):
    shutil.rmtree(OUT)


def out_path(rel):
    p = os.path.join(OUT, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    DOCS.append(rel)
    return p


def normalize_zip(path):
    """Rewrite an OOXML zip with fixed entry timestamps (byte-stable output)."""
    with zipfile.ZipFile(path) as z:
        items = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in items:
            if name == "docProps/core.xml":
                data = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)",
                              rb"\g<1>2025-07-31T09:00:00Z\g<2>", data)
                data = re.sub(rb"(<dcterms:created[^>]*>)[^<]*(</dcterms:created>)",
                              rb"\g<1>2025-07-31T09:00:00Z\g<2>", data)
            zi = zipfile.ZipInfo(name, date_time=ZIP_TS)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            z.writestr(zi, data)


# ---- DOCX ----------------------------------------------------------------
def new_doc(font="Calibri", size=10):
    d = docx.Document()
    st = d.styles["Normal"]
    st.font.name = font
    st.font.size = Pt(size)
    for s in d.sections:
        s.left_margin = s.right_margin = Cm(2.0)
        s.top_margin = Cm(1.8)
        s.bottom_margin = Cm(1.8)
    return d


def para(d, text="", bold=False, size=None, align=None, italic=False,
         color=None, space_after=2):
    p = d.add_paragraph()
    if text:
        r = p.add_run(text)
        r.bold = bold
        r.italic = italic
        if size:
            r.font.size = Pt(size)
        if color:
            r.font.color.rgb = RGBColor(*color)
    if align == "right":
        p.alignment = WD_ALIGN_PARAGRAPH.RIGHT
    elif align == "center":
        p.alignment = WD_ALIGN_PARAGRAPH.CENTER
    p.paragraph_format.space_after = Pt(space_after)
    return p


def heading(d, text, level=1):
    return d.add_heading(text, level=level)


def dtable(d, header, rows, right=(), widths=None, style="Table Grid",
           bold_last=False, size=9):
    t = d.add_table(rows=1, cols=len(header))
    t.style = style
    t.alignment = WD_TABLE_ALIGNMENT.CENTER
    for i, h in enumerate(header):
        c = t.rows[0].cells[i]
        c.text = ""
        r = c.paragraphs[0].add_run(h)
        r.bold = True
        r.font.size = Pt(size)
        if i in right:
            c.paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.RIGHT
    for ri, row in enumerate(rows):
        cells = t.add_row().cells
        for i, v in enumerate(row):
            cells[i].text = ""
            r = cells[i].paragraphs[0].add_run(str(v))
            r.font.size = Pt(size)
            if bold_last and ri == len(rows) - 1:
                r.bold = True
            if i in right:
                cells[i].paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.RIGHT
    if widths:
        for row in t.rows:
            for i, w in enumerate(widths):
                row.cells[i].width = Cm(w)
    return t


def save_docx(d, rel, title, author):
    p = out_path(rel)
    cp = d.core_properties
    cp.title = title
    cp.author = author
    cp.last_modified_by = author
    cp.created = dt.datetime(2025, 7, 31, 9, 0, 0)
    cp.modified = dt.datetime(2025, 7, 31, 9, 0, 0)
    cp.revision = 1
    d.save(p)
    normalize_zip(p)


# ---- XLSX ----------------------------------------------------------------
THIN = Side(style="thin", color="999999")
BOX = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
HEAD_FILL = PatternFill("solid", fgColor="DDE4EE")


def xsheet(ws, title_rows, header, rows, kinds, widths, total_rows=(),
           start_blank=True):
    """title_rows: list of strings (row 1..n); then a blank row; header; data.
    rows: raw values; kinds: per column xlsx kind or None.
    total_rows: list of (label_col, label, {col: value}) appended after data."""
    r = 1
    for i, t in enumerate(title_rows):
        ws.cell(row=r, column=1, value=t).font = Font(bold=(i == 0),
                                                      size=14 if i == 0 else 10)
        r += 1
    if start_blank and title_rows:
        r += 1
    hr = r
    for c, h in enumerate(header, 1):
        cell = ws.cell(row=r, column=c, value=h)
        cell.font = Font(bold=True)
        cell.fill = HEAD_FILL
        cell.border = BOX
        cell.alignment = Alignment(wrap_text=True, vertical="center")
    r += 1
    for row in rows:
        for c, v in enumerate(row, 1):
            if isinstance(v, D):
                v = float(v)
            cell = ws.cell(row=r, column=c, value=v)
            cell.border = BOX
            k = kinds[c - 1]
            if k and xl_fmt(k):
                cell.number_format = xl_fmt(k)
        r += 1
    for label_col, label, vals in total_rows:
        ws.cell(row=r, column=label_col, value=label).font = Font(bold=True)
        for c, v in vals.items():
            if isinstance(v, D):
                v = float(v)
            cell = ws.cell(row=r, column=c, value=v)
            cell.font = Font(bold=True)
            k = kinds[c - 1]
            if k and xl_fmt(k):
                cell.number_format = xl_fmt(k)
        r += 1
    for i, w in enumerate(widths, 1):
        ws.column_dimensions[get_column_letter(i)].width = w
    ws.freeze_panes = ws.cell(row=hr + 1, column=1)
    return hr


def save_xlsx(wb, rel, title, author):
    p = out_path(rel)
    wb.properties.title = title
    wb.properties.creator = author
    wb.properties.lastModifiedBy = author
    wb.properties.created = dt.datetime(2025, 7, 31, 9, 0, 0)
    wb.properties.modified = dt.datetime(2025, 7, 31, 9, 0, 0)
    wb.save(p)
    normalize_zip(p)


# ---- PDF -----------------------------------------------------------------
def _font(name):
    for d in FONT_DIRS:
        p = os.path.join(d, name)
        if os.path.exists(p):
            return p
    raise SystemExit(f"font {name} not found; PDFs need DejaVu Sans")


class Pdf(FPDF):
    def __init__(self, footer_text=""):
        super().__init__(format="A4")
        self.footer_text = footer_text
        self.add_font("DejaVu", "", _font("DejaVuSans.ttf"))
        self.add_font("DejaVu", "B", _font("DejaVuSans-Bold.ttf"))
        self.set_auto_page_break(True, margin=18)
        self.set_margins(18, 16, 18)
        self.set_creation_date(dt.datetime(2025, 7, 31, 9, 0, 0,
                                           tzinfo=dt.timezone.utc))
        self.set_creator("Kessler & Thal DMS import")
        self.add_page()
        self.set_font("DejaVu", "", 9.5)

    def footer(self):
        self.set_y(-15)
        self.set_font("DejaVu", "", 6.5)
        self.set_text_color(110, 110, 110)
        self.multi_cell(0, 3.2, self.footer_text, align="C")
        self.set_text_color(0, 0, 0)

    def line_(self, text="", bold=False, size=9.5, align="L", h=5):
        self.set_font("DejaVu", "B" if bold else "", size)
        self.multi_cell(0, h, text, align=align, new_x="LMARGIN", new_y="NEXT")
        self.set_font("DejaVu", "", 9.5)

    def kv_right(self, pairs, bold_last=True, w_label=55, w_val=35):
        for i, (k, v) in enumerate(pairs):
            b = bold_last and i == len(pairs) - 1
            self.set_font("DejaVu", "B" if b else "", 9.5)
            self.set_x(self.w - self.r_margin - w_label - w_val)
            self.cell(w_label, 5.5, k, align="R")
            self.cell(w_val, 5.5, v, align="R", new_x="LMARGIN", new_y="NEXT")
        self.set_font("DejaVu", "", 9.5)

    def grid(self, header, rows, aligns, wrap=1, size=8.5):
        """Table whose columns are sized to their content; only when the page
        is too narrow are columns wrapped (at spaces), the `wrap` column first."""
        pad = 2.8

        def sw(t, bold=False):
            self.set_font("DejaVu", "B" if bold else "", size)
            return self.get_string_width(t)

        n = len(header)
        full = [max([sw(header[i], True)] + [sw(str(r[i])) for r in rows]) + pad for i in range(n)]
        # headers may wrap at spaces before any data cell has to
        body = [max([sw(t, True) for t in header[i].split()] + [sw(str(r[i])) for r in rows]) + pad
                for i in range(n)]
        minw = [max([sw(t, True) for t in header[i].split()] +
                    [sw(t) for r in rows for t in str(r[i]).split()] + [0]) + pad for i in range(n)]
        epw = self.epw
        widths = full[:]
        excess = sum(widths) - epw
        for floor, cols in ((body, range(n)), (minw, [wrap]),
                            (minw, [i for i in range(n) if i != wrap])):
            for i in cols:
                if excess <= 0:
                    break
                cut = min(excess, widths[i] - floor[i])
                if cut > 0:
                    widths[i] -= cut
                    excess -= cut
        if excess < 0:
            widths[wrap] -= excess
        self.set_font("DejaVu", "", size)
        with self.table(col_widths=widths, width=sum(widths), text_align=aligns, line_height=4.6,
                        headings_style=FontFace(emphasis="BOLD",
                                                fill_color=(225, 230, 238)),
                        padding=1) as t:
            r = t.row()
            for h in header:
                r.cell(h)
            for row in rows:
                r = t.row()
                for v in row:
                    r.cell(str(v))
        self.set_font("DejaVu", "", 9.5)
        self.ln(2)


def save_pdf(pdf, rel, title, author):
    p = out_path(rel)
    pdf.set_title(title)
    pdf.set_author(author)
    pdf.output(p)


# ---- text ----------------------------------------------------------------
def save_text(rel, text, encoding="utf-8"):
    p = out_path(rel)
    with open(p, "w", encoding=encoding, newline="\n") as f:
        f.write(text)


def save_csv(rel, header, rows, delimiter=",", encoding="utf-8"):
    p = out_path(rel)
    with open(p, "w", encoding=encoding, newline="") as f:
        w = csv.writer(f, delimiter=delimiter, lineterminator="\r\n")
        w.writerow(header)
        w.writerows(rows)


# ==========================================================================
# master data
# ==========================================================================
US = {"name": "Kessler & Thal GmbH", "street": "Speicherstraße 12",
      "city": "20457 Hamburg", "vat": "DE298765432"}

NORDWERK = "Nordwerk Industrietechnik GmbH"
BRIGHTWAVE = "Brightwave Networks Ltd"
ATELIER = "Atelier Numérique SARL"

# product catalogue: sku, english name, german name, french name, category,
# unit, price 2025 (EUR), price 2024 (None = not listed), price France 2025
CATALOG = [
    ("KT-S100", "Temperature sensor PT100", "Temperaturfühler PT100",
     "Capteur de température PT100", "Sensors", "pc", "48.50", "46.90", "51.00", 10),
    ("KT-S120", "Humidity sensor HX-2", "Feuchtesensor HX-2",
     "Capteur d'humidité HX-2", "Sensors", "pc", "62.00", "59.50", "65.00", 10),
    ("KT-S150", "Pressure transmitter 0–10 bar", "Drucktransmitter 0–10 bar",
     "Transmetteur de pression 0–10 bar", "Sensors", "pc", "139.00", "134.00", "146.00", 5),
    ("KT-S210", "Vibration sensor VS-3", "Schwingungssensor VS-3",
     "Capteur de vibrations VS-3", "Sensors", "pc", "214.90", "205.00", "225.00", 5),
    ("KT-G300", "Edge gateway EG-300", "Edge-Gateway EG-300",
     "Passerelle Edge EG-300", "Gateways", "pc", "689.00", "659.00", "719.00", 1),
    ("KT-G310", "Edge gateway EG-310 LTE", "Edge-Gateway EG-310 LTE",
     "Passerelle Edge EG-310 LTE", "Gateways", "pc", "849.00", None, "889.00", 1),
    ("KT-C010", "Sensor cable M12, 5 m", "Sensorkabel M12, 5 m",
     "Câble capteur M12, 5 m", "Accessories", "pc", "14.90", "14.50", "15.90", 20),
    ("KT-C020", "Sensor cable M12, 10 m", "Sensorkabel M12, 10 m",
     "Câble capteur M12, 10 m", "Accessories", "pc", "21.50", "20.90", "22.50", 20),
    ("KT-M500", "DIN-rail mounting kit", "Montagesatz Hutschiene",
     "Kit de montage rail DIN", "Accessories", "pc", "9.80", "9.50", "10.50", 20),
    ("KT-L100", "Cloud dashboard licence (1 year)", "Cloud-Dashboard Lizenz (1 Jahr)",
     "Licence tableau de bord cloud (1 an)", "Software", "licence", "420.00", "399.00", "440.00", 1),
    ("KT-L200", "Analytics add-on (1 year)", "Analytics-Add-on (1 Jahr)",
     "Module Analytics (1 an)", "Software", "licence", "980.00", "940.00", "1020.00", 1),
    ("KT-SV01", "Commissioning service (per day)", "Inbetriebnahme (Tagessatz)",
     "Mise en service (par jour)", "Services", "day", "1150.00", "1090.00", "1190.00", 1),
]
CAT = {c[0]: c for c in CATALOG}

# ==========================================================================
# 1. Supplier invoices – Nordwerk (German)
# ==========================================================================
NW_INVOICES = [
    dict(no="RE-2024-1187", date=date(2024, 11, 28), delivery=date(2024, 11, 25),
         po="4500-2109", fmt="docx",
         rel="finance/invoices/2024/nordwerk/RE-2024-1187_Nordwerk.docx",
         lines=[("NW-IPC-740", "Industrie-PC IPC-740, Core i5, 16 GB RAM", "Hardware", "2", "Stk.", "1199.00"),
                ("NW-HMI-12", "Touch-Panel HMI-12, 12 Zoll", "Hardware", "2", "Stk.", "549.00"),
                ("NW-DL-INB", "Inbetriebnahme vor Ort (Techniker)", "Dienstleistung", "6", "Std.", "92.00")]),
    dict(no="RE-2025-0117", date=date(2025, 1, 14), delivery=date(2025, 1, 9),
         po="4500-2231", fmt="docx",
         rel="finance/invoices/2025/nordwerk/RE-2025-0117_Nordwerk.docx",
         lines=[("NW-IPC-740", "Industrie-PC IPC-740, Core i5, 16 GB RAM", "Hardware", "4", "Stk.", "1249.00"),
                ("NW-HMI-15", "Touch-Panel HMI-15, 15 Zoll", "Hardware", "4", "Stk.", "689.00"),
                ("NW-SW-SCR", "SCADA-Runtime-Lizenz, 12 Monate", "Software", "4", "Lizenz", "310.00"),
                ("NW-DL-INB", "Inbetriebnahme vor Ort (Techniker)", "Dienstleistung", "12", "Std.", "95.00")]),
    dict(no="RE-2025-0342", date=date(2025, 4, 3), delivery=date(2025, 3, 31),
         po="4500-2307", fmt="pdf",
         rel="finance/invoices/2025/nordwerk/RE-2025-0342_Nordwerk.pdf",
         lines=[("NW-SW-24M", "Industrial Switch 24-Port, managed", "Hardware", "2", "Stk.", "1480.00"),
                ("NW-USV-3K", "USV-Anlage 3 kVA, Rack 2 HE", "Hardware", "1", "Stk.", "2190.00"),
                ("NW-SW-FWM", "Firmware-Wartung Switches, 12 Monate", "Software", "2", "Lizenz", "145.00"),
                ("NW-DL-SRV", "Servicetechniker, Störungseinsatz 28.03.2025", "Dienstleistung", "5.5", "Std.", "95.00"),
                ("NW-DL-ANF", "Anfahrtspauschale Großraum Hamburg", "Dienstleistung", "1", "pausch.", "65.00")]),
    dict(no="RE-2025-0588", date=date(2025, 6, 17), delivery=date(2025, 6, 12),
         po="4500-2388", fmt="xlsx",
         rel="finance/invoices/2025/nordwerk/RE-2025-0588_Nordwerk.xlsx",
         lines=[("NW-IPC-760", "Industrie-PC IPC-760, Core i7, 32 GB RAM", "Hardware", "2", "Stk.", "1689.00"),
                ("NW-SSD-1T", "SSD 1 TB, Industrial Grade", "Hardware", "6", "Stk.", "189.90"),
                ("NW-HMI-15", "Touch-Panel HMI-15, 15 Zoll", "Hardware", "1", "Stk.", "689.00"),
                ("NW-WP-HW3", "Wartungspauschale Hardware Q3/2025", "Dienstleistung", "1", "pausch.", "1850.00"),
                ("NW-DL-INB", "Inbetriebnahme vor Ort (Techniker)", "Dienstleistung", "4", "Std.", "95.00")]),
]


def inv_totals(lines, vat="0.19", qi=3, pi=5):
    net = sum(q2(D(l[qi]) * D(l[pi])) for l in lines)
    tax = q2(net * D(vat))
    return net, tax, net + tax


NW_HEAD = ["Nordwerk Industrietechnik GmbH · Hafenrandstraße 41 · 28217 Bremen",
           "Tel. +49 421 69 44 80-0 · buchhaltung@nordwerk-industrie.de · USt-IdNr. DE812345670"]
NW_FOOT = ("Nordwerk Industrietechnik GmbH · Sitz Bremen · Amtsgericht Bremen HRB 28114 · "
           "Geschäftsführer: Dr. Henrik Brandes · Sparkasse Bremen · IBAN DE44 2905 0101 0012 3456 78 · BIC SBREDE22XXX")
NW_DISPLAY = {}  # invoice no -> dict(header, rows, meta)


def nordwerk_docx(inv):
    d = new_doc()
    for i, t in enumerate(NW_HEAD):
        para(d, t, bold=(i == 0), size=11 if i == 0 else 8, color=(30, 60, 110))
    para(d)
    para(d, US["name"], space_after=0)
    para(d, "Einkauf / Kreditorenbuchhaltung", space_after=0)
    para(d, US["street"], space_after=0)
    para(d, US["city"])
    para(d)
    para(d, "Rechnung", bold=True, size=16)
    para(d, f"Rechnungsnr.: {inv['no']}", space_after=0)
    para(d, f"Rechnungsdatum: {d_de(inv['date'])}", space_after=0)
    para(d, f"Lieferdatum: {d_de(inv['delivery'])}", space_after=0)
    para(d, f"Ihre Bestellung: {inv['po']}", space_after=0)
    para(d, "Kundennr.: 10482")
    para(d, "Sehr geehrte Damen und Herren,")
    para(d, "wir erlauben uns, Ihnen folgende Lieferungen und Leistungen in Rechnung zu stellen:")
    header = ["Pos.", "Art.-Nr.", "Beschreibung", "Warengruppe", "Menge", "Einheit",
              "Einzelpreis", "Gesamtpreis"]
    rows = []
    for i, (art, desc, grp, q, unit, p) in enumerate(inv["lines"], 1):
        rows.append([str(i), art, desc, grp, qty(q, "de"), unit,
                     num(p, 2, "de") + " €", num(q2(D(q) * D(p)), 2, "de") + " €"])
    dtable(d, header, rows, right=(0, 4, 6, 7), widths=[1.0, 2.2, 5.6, 2.4, 1.3, 1.4, 2.2, 2.4])
    net, tax, gross = inv_totals(inv["lines"])
    para(d)
    tt = [["Summe netto", num(net, 2, "de") + " €"],
          ["zzgl. 19 % USt.", num(tax, 2, "de") + " €"],
          ["Rechnungsbetrag", num(gross, 2, "de") + " €"]]
    t = dtable(d, ["", ""], tt, right=(0, 1), style="Table Grid", bold_last=True)
    t.rows[0]._tr.getparent().remove(t.rows[0]._tr)  # drop empty header row
    t.alignment = WD_TABLE_ALIGNMENT.RIGHT
    para(d)
    due = inv["date"] + dt.timedelta(days=30)
    para(d, f"Zahlbar innerhalb von 30 Tagen ohne Abzug bis {d_de(due)}. "
            f"Bitte geben Sie bei Zahlung die Rechnungsnummer {inv['no']} an.")
    para(d, "Mit freundlichen Grüßen")
    para(d, "Nordwerk Industrietechnik GmbH – Debitorenbuchhaltung")
    para(d, NW_FOOT, size=7, color=(110, 110, 110))
    save_docx(d, inv["rel"], f"Rechnung {inv['no']}", "Nordwerk Buchhaltung")
    NW_DISPLAY[inv["no"]] = dict(header=header, rows=rows,
                                 date=d_de(inv["date"]),
                                 gross=num(gross, 2, "de") + " €")


def nordwerk_pdf(inv):
    pdf = Pdf(NW_FOOT)
    pdf.line_(NW_HEAD[0], bold=True, size=11)
    pdf.line_(NW_HEAD[1], size=7.5)
    pdf.ln(6)
    for t in [US["name"], "z. Hd. Kreditorenbuchhaltung", US["street"], US["city"]]:
        pdf.line_(t)
    pdf.ln(6)
    pdf.line_("RECHNUNG", bold=True, size=15, h=8)
    for t in [f"Rechnungsnummer: {inv['no']}",
              f"Rechnungsdatum: {d_de(inv['date'])}",
              f"Leistungszeitraum/Lieferdatum: {d_de(inv['delivery'])}",
              f"Bestellnummer Kunde: {inv['po']}", "Kundennummer: 10482"]:
        pdf.line_(t)
    pdf.ln(3)
    header = ["Pos", "Artikel", "Bezeichnung", "Art", "Menge", "ME",
              "E-Preis (EUR)", "Betrag (EUR)"]
    rows = []
    for i, (art, desc, grp, q, unit, p) in enumerate(inv["lines"], 1):
        rows.append([str(i), art, desc, grp, qty(q, "de"), unit, num(p, 2, "de"),
                     num(q2(D(q) * D(p)), 2, "de")])
    pdf.grid(header, rows, ("R", "L", "L", "L", "R", "L", "R", "R"), wrap=2, size=8)
    net, tax, gross = inv_totals(inv["lines"])
    pdf.kv_right([("Nettobetrag", num(net, 2, "de") + " EUR"),
                  ("USt. 19 %", num(tax, 2, "de") + " EUR"),
                  ("Gesamtbetrag brutto", num(gross, 2, "de") + " EUR")])
    pdf.ln(5)
    due = inv["date"] + dt.timedelta(days=30)
    pdf.line_(f"Zahlungsziel: {d_de(due)}, netto ohne Abzug. Es gelten unsere "
              "Allgemeinen Geschäftsbedingungen sowie der Rahmenvertrag V-2021-004.")
    save_pdf(pdf, inv["rel"], f"Rechnung {inv['no']}", "Nordwerk Buchhaltung")
    NW_DISPLAY[inv["no"]] = dict(header=header, rows=rows, date=d_de(inv["date"]),
                                 gross=num(gross, 2, "de") + " EUR")


def nordwerk_xlsx(inv):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Rechnung"
    header = ["Pos", "Artikel-Nr.", "Bezeichnung", "Kategorie", "Anzahl", "Einheit",
              "Preis/Einheit (EUR)", "Summe (EUR)"]
    kinds = ["int", None, None, None, "qty", None, "money", "money"]
    raw = []
    for i, (art, desc, grp, q, unit, p) in enumerate(inv["lines"], 1):
        raw.append([i, art, desc, grp, D(q), unit, D(p), q2(D(q) * D(p))])
    net, tax, gross = inv_totals(inv["lines"])
    xsheet(ws, [f"Nordwerk Industrietechnik GmbH – Rechnung {inv['no']}",
                f"Rechnungsdatum: {d_de(inv['date'])} · Kunde: Kessler & Thal GmbH (Kd.-Nr. 10482) · "
                f"Ihre Bestellung {inv['po']} · Lieferdatum {d_de(inv['delivery'])}"],
           header, raw, kinds, [6, 14, 42, 16, 9, 9, 18, 16],
           total_rows=[(7, "Summe netto", {8: net}), (7, "USt. 19 %", {8: tax}),
                       (7, "Bruttobetrag", {8: gross})])
    n = ws.max_row + 2
    ws.cell(row=n, column=1, value=f"Zahlbar bis {d_de(inv['date'] + dt.timedelta(days=30))} ohne Abzug.")
    ws.cell(row=n + 1, column=1, value=NW_FOOT)
    save_xlsx(wb, inv["rel"], f"Rechnung {inv['no']}", "Nordwerk Buchhaltung")
    rows = [[xl_display(v, k, "de") if k else str(v) for v, k in zip(r, kinds)] for r in raw]
    NW_DISPLAY[inv["no"]] = dict(header=header, rows=rows, date=d_de(inv["date"]),
                                 gross=xl_display(gross, "money", "de"))


for inv in NW_INVOICES:
    {"docx": nordwerk_docx, "pdf": nordwerk_pdf, "xlsx": nordwerk_xlsx}[inv["fmt"]](inv)

# ==========================================================================
# 2. Supplier invoices – Brightwave (English, UK)
# ==========================================================================
BW_HEAD = ["BRIGHTWAVE NETWORKS LTD",
           "Unit 4, Tower Works, 18 Ancoats Street, Manchester M4 6DL, United Kingdom",
           "Company no. 08812345 · VAT no. GB 274 1184 32 · accounts@brightwave-networks.co.uk"]
BW_INVOICES = [
    dict(no="INV-2025-0142", date=date(2025, 3, 14), fmt="docx",
         rel="finance/invoices/2025/brightwave/INV-2025-0142.docx",
         lines=[("MWAN-S", "Managed WAN service – site Hamburg HQ", "Mar 2025", "1", "1150.00"),
                ("MWAN-S", "Managed WAN service – site Bremen warehouse", "Mar 2025", "1", "1150.00"),
                ("MWIFI-AP", "Managed Wi-Fi, per access point", "Mar 2025", "42", "18.50"),
                ("NOC-247", "24/7 NOC monitoring", "Mar 2025", "1", "2400.00"),
                ("LIC-FWTP", "Firewall threat-protection licence (annual)", "Apr 2025 – Mar 2026", "2", "1320.00"),
                ("HW-AP6", "Wi-Fi 6 access point (replacement unit)", "–", "3", "245.00")]),
    dict(no="INV-2025-0219", date=date(2025, 4, 11), fmt="pdf",
         rel="finance/invoices/2025/brightwave/INV-2025-0219.pdf",
         lines=[("MWAN-S", "Managed WAN service – site Hamburg HQ", "Apr 2025", "1", "1150.00"),
                ("MWAN-S", "Managed WAN service – site Bremen warehouse", "Apr 2025", "1", "1150.00"),
                ("MWIFI-AP", "Managed Wi-Fi, per access point", "Apr 2025", "44", "18.50"),
                ("NOC-247", "24/7 NOC monitoring", "Apr 2025", "1", "2400.00"),
                ("ENG-DAY", "On-site engineer, Bremen warehouse (2 Apr)", "Apr 2025", "1.5", "890.00"),
                ("CALL-OOH", "Out-of-hours call-out, incident INC-25-0226", "Apr 2025", "1", "350.00"),
                ("LIC-SDWA", "SD-WAN analytics licence, 12 months", "Apr 2025 – Mar 2026", "1", "960.00")]),
]
BW_DISPLAY = {}
BW_FOOT = ("Brightwave Networks Ltd · Registered in England and Wales no. 08812345 · "
           "Barclays Bank UK PLC · IBAN GB71 BARC 2003 5312 3456 78 · BIC BARCGB22")


def bw_net(lines):
    return sum(q2(D(l[3]) * D(l[4])) for l in lines)


def brightwave_docx(inv):
    d = new_doc("Arial", 10)
    para(d, BW_HEAD[0], bold=True, size=14, color=(0, 90, 140), space_after=0)
    for t in BW_HEAD[1:]:
        para(d, t, size=8, space_after=0)
    para(d)
    para(d, "INVOICE", bold=True, size=18)
    due = inv["date"] + dt.timedelta(days=30)
    for t in [f"Invoice no.: {inv['no']}", f"Date: {d_en(inv['date'])}",
              f"Supplier: {BRIGHTWAVE}",
              "Customer: Kessler & Thal GmbH, Speicherstraße 12, 20457 Hamburg, Germany",
              f"Customer VAT ID: {US['vat']}",
              "Contract: Master Services Agreement V-2023-011 (our ref. BW-MSA-0419)",
              f"Payment terms: 30 days net – due {d_en(due)}"]:
        para(d, t, space_after=0)
    para(d)
    header = ["Item", "Description", "Service period", "Qty", "Unit price", "Amount"]
    rows = []
    for code, desc, per, q, p in inv["lines"]:
        rows.append([code, desc, per, qty(q, "en"), "€" + num(p, 2, "en"),
                     "€" + num(q2(D(q) * D(p)), 2, "en")])
    dtable(d, header, rows, right=(3, 4, 5), widths=[2.0, 6.4, 3.2, 1.2, 2.2, 2.4])
    net = bw_net(inv["lines"])
    para(d)
    para(d, f"Subtotal: €{num(net, 2, 'en')}", align="right", space_after=0)
    para(d, "VAT (0 % – reverse charge, customer to account for VAT): €0.00", align="right", space_after=0)
    para(d, f"Total due: €{num(net, 2, 'en')}", bold=True, align="right")
    para(d)
    para(d, "Please quote the invoice number with your remittance. Thank you for your business.")
    para(d, BW_FOOT, size=7, color=(110, 110, 110))
    save_docx(d, inv["rel"], f"Invoice {inv['no']}", "Brightwave Accounts")
    BW_DISPLAY[inv["no"]] = dict(header=header, rows=rows)


def brightwave_pdf(inv):
    pdf = Pdf(BW_FOOT)
    pdf.line_(BW_HEAD[0], bold=True, size=13)
    for t in BW_HEAD[1:]:
        pdf.line_(t, size=7.5, h=4)
    pdf.ln(5)
    pdf.line_("INVOICE", bold=True, size=16, h=8)
    due = inv["date"] + dt.timedelta(days=30)
    for t in [f"Invoice no.: {inv['no']}", f"Invoice date: {d_en(inv['date'])}",
              "Bill to: Kessler & Thal GmbH, Speicherstraße 12, 20457 Hamburg, Germany",
              f"Customer VAT ID: {US['vat']}", "Contract ref.: MSA V-2023-011",
              f"Due date: {d_en(due)}"]:
        pdf.line_(t)
    pdf.ln(3)
    header = ["Code", "Description", "Period", "Quantity", "Price per unit (EUR)",
              "Line total (EUR)"]
    rows = []
    for code, desc, per, q, p in inv["lines"]:
        rows.append([code, desc, per, qty(q, "en"), num(p, 2, "en"),
                     num(q2(D(q) * D(p)), 2, "en")])
    pdf.grid(header, rows, ("L", "L", "L", "R", "R", "R"), wrap=1, size=8)
    net = bw_net(inv["lines"])
    pdf.kv_right([("Net total EUR", num(net, 2, "en")),
                  ("VAT 0 % (reverse charge)", "0.00"),
                  ("Amount due EUR", num(net, 2, "en"))], w_label=60)
    pdf.ln(4)
    pdf.line_("Reverse charge: the recipient of the services is liable to account for VAT.", size=8)
    save_pdf(pdf, inv["rel"], f"Invoice {inv['no']}", "Brightwave Accounts")
    BW_DISPLAY[inv["no"]] = dict(header=header, rows=rows)


for inv in BW_INVOICES:
    (brightwave_docx if inv["fmt"] == "docx" else brightwave_pdf)(inv)

# ==========================================================================
# 3. Supplier invoices – Atelier Numérique (French)
# ==========================================================================
AN_HEAD = ["Atelier Numérique SARL", "27, quai Saint-Vincent – 69001 Lyon – France",
           "SIRET 812 345 678 00021 – TVA intracommunautaire FR41 812345678"]
AN_FOOT = ("Atelier Numérique SARL au capital de 40 000 € – RCS Lyon 812 345 678 – "
           "IBAN FR76 3000 4008 2800 0123 4567 890 – BIC BNPAFRPPXXX")
AN_INVOICES = [
    dict(no="F-2025-031", date=date(2025, 2, 12), fmt="docx",
         rel="finance/invoices/2025/atelier-numerique/Facture_F-2025-031.docx",
         lines=[("AN-TMA", "Maintenance applicative – forfait T1 2025", "1", "forfait", "3750.00"),
                ("AN-DEV", "Développement module export CSV", "6", "jour", "640.00"),
                ("AN-CP", "Pilotage projet (chef de projet)", "1.5", "jour", "720.00"),
                ("AN-HEB", "Hébergement environnement de recette – février", "1", "mois", "180.00"),
                ("AN-FORM", "Formation utilisateurs (demi-journée)", "2", "demi-journée", "450.00")]),
    dict(no="F-2025-077", date=date(2025, 5, 15), fmt="pdf",
         rel="finance/invoices/2025/atelier-numerique/Facture_F-2025-077.pdf",
         lines=[("AN-TMA", "Maintenance applicative – forfait T2 2025", "1", "forfait", "3750.00"),
                ("AN-DEV", "Correctifs module planification (release 4.2)", "3.5", "jour", "640.00"),
                ("AN-REC", "Recette et mise en production", "1", "jour", "580.00"),
                ("AN-HEB", "Hébergement environnement de recette – avril/mai", "2", "mois", "180.00"),
                ("AN-LIC", "Licence composant graphique (refacturation)", "1", "unité", "295.00")]),
]
AN_DISPLAY = {}


def an_net(lines):
    return sum(q2(D(l[2]) * D(l[4])) for l in lines)


def atelier_docx(inv):
    d = new_doc("Calibri", 10)
    para(d, AN_HEAD[0], bold=True, size=14, color=(120, 30, 60), space_after=0)
    for t in AN_HEAD[1:]:
        para(d, t, size=8, space_after=0)
    para(d)
    para(d, "FACTURE", bold=True, size=18)
    for t in [f"Facture n° : {inv['no']}", f"Date : {d_fr(inv['date'])}",
              f"Échéance : {d_fr(inv['date'] + dt.timedelta(days=30))}",
              "Client : Kessler & Thal GmbH – Speicherstraße 12 – 20457 Hambourg – Allemagne",
              f"N° TVA client : {US['vat']}",
              "Référence contrat : V-2024-002 – Contrat de tierce maintenance applicative"]:
        para(d, t, space_after=0)
    para(d)
    header = ["Réf.", "Désignation", "Quantité", "Unité", "Prix unitaire HT", "Montant HT"]
    rows = []
    for ref, des, q, u, p in inv["lines"]:
        rows.append([ref, des, qty(q, "fr"), u, num(p, 2, "fr") + " €",
                     num(q2(D(q) * D(p)), 2, "fr") + " €"])
    dtable(d, header, rows, right=(2, 4, 5), widths=[1.8, 6.6, 1.6, 2.2, 2.6, 2.6])
    net = an_net(inv["lines"])
    para(d)
    para(d, f"Total HT : {num(net, 2, 'fr')} €", align="right", space_after=0)
    para(d, "TVA : autoliquidation – art. 196 de la directive 2006/112/CE", align="right", space_after=0)
    para(d, f"Net à payer : {num(net, 2, 'fr')} €", bold=True, align="right")
    para(d)
    para(d, "Conditions de paiement : 30 jours date de facture, par virement. Pas d'escompte pour "
            "paiement anticipé. Indemnité forfaitaire pour frais de recouvrement : 40 €.", size=8)
    para(d, AN_FOOT, size=7, color=(110, 110, 110))
    save_docx(d, inv["rel"], f"Facture {inv['no']}", "Atelier Numérique")
    AN_DISPLAY[inv["no"]] = dict(header=header, rows=rows)


def atelier_pdf(inv):
    pdf = Pdf(AN_FOOT)
    pdf.line_(AN_HEAD[0], bold=True, size=13)
    for t in AN_HEAD[1:]:
        pdf.line_(t, size=7.5, h=4)
    pdf.ln(5)
    pdf.line_("FACTURE", bold=True, size=16, h=8)
    for t in [f"N° de facture : {inv['no']}", f"Date de facture : {d_fr(inv['date'])}",
              f"Date d'échéance : {d_fr(inv['date'] + dt.timedelta(days=30))}",
              "Client : Kessler & Thal GmbH, Speicherstraße 12, 20457 Hambourg, Allemagne",
              "Votre référence : contrat V-2024-002"]:
        pdf.line_(t)
    pdf.ln(3)
    header = ["Code", "Description", "Qté", "P.U. HT (€)", "Total HT (€)"]
    rows = []
    for ref, des, q, u, p in inv["lines"]:
        rows.append([ref, des, qty(q, "fr"), num(p, 2, "fr"), num(q2(D(q) * D(p)), 2, "fr")])
    pdf.grid(header, rows, ("L", "L", "R", "R", "R"), wrap=1)
    net = an_net(inv["lines"])
    pdf.kv_right([("Total HT", num(net, 2, "fr") + " €"),
                  ("TVA (autoliquidation)", "0,00 €"),
                  ("Net à payer", num(net, 2, "fr") + " €")])
    pdf.ln(4)
    pdf.line_("Paiement à 30 jours par virement bancaire.", size=8)
    save_pdf(pdf, inv["rel"], f"Facture {inv['no']}", "Atelier Numérique")
    AN_DISPLAY[inv["no"]] = dict(header=header, rows=rows)


for inv in AN_INVOICES:
    (atelier_docx if inv["fmt"] == "docx" else atelier_pdf)(inv)

# ==========================================================================
# 4. Office supplies – Bürowelt CSV export (semicolon, German numbers)
# ==========================================================================
BUEROWELT_REL = "finance/invoices/2025/buerowelt/Buerowelt_RG-88412_Export.csv"
BUEROWELT = [
    ("BW-10021", "Kopierpapier A4 80 g, 500 Blatt", "40", "Pack", "4.19"),
    ("BW-20410", "Ordner DIN A4, 8 cm, blau", "25", "Stk", "2.35"),
    ("BW-31007", "Toner HP 59A schwarz", "4", "Stk", "89.90"),
    ("BW-31012", "Toner Brother TN-2420", "3", "Stk", "54.50"),
    ("BW-40220", "Haftnotizen 76x76 mm, 12er Pack", "10", "Pack", "8.95"),
    ("BW-50114", "Whiteboard-Marker, 4er Set", "12", "Set", "6.40"),
    ("BW-60300", "Bürostuhl ErgoFlex Pro", "2", "Stk", "329.00"),
    ("BW-60418", "Monitorarm, doppelt", "3", "Stk", "119.00"),
    ("BW-70021", "Tischleuchte LED, dimmbar", "5", "Stk", "39.90"),
    ("BW-80005", "Kugelschreiber, 50 Stück", "2", "Pack", "19.99"),
    ("BW-80011", "Schreibtischunterlage 65x50 cm", "6", "Stk", "20.00"),
]
bw_header = ["Belegnr", "Belegdatum", "Pos", "Artikelnr", "Artikelbezeichnung", "Menge",
             "ME", "Einzelpreis netto", "Gesamtpreis netto", "USt %"]
bw_rows = []
for i, (art, des, q, me, p) in enumerate(BUEROWELT, 1):
    bw_rows.append(["RG-88412", "07.05.2025", str(i), art, des, qty(q, "de"), me,
                     num(p, 2, "de"), num(q2(D(q) * D(p)), 2, "de"), "19"])
save_csv(BUEROWELT_REL, bw_header, bw_rows, delimiter=";", encoding="utf-8-sig")

# ==========================================================================
# 5. Contract register (XLSX, German) + contract documents
# ==========================================================================
CONTRACTS = [
    ("V-2021-004", NORDWERK, "Rahmenvertrag Hardware & Service", date(2022, 1, 1), date(2026, 12, 31),
     "6 Monate zum Vertragsende", 180000, "Markus Brandt", "Preisblatt Anlage 1"),
    ("V-2022-007", "Helix Facility Services GmbH", "Gebäudereinigung Standort Hamburg", date(2022, 7, 1),
     date(2025, 6, 30), "3 Monate", 38400, "Jonas Albrecht", "Neuausschreibung läuft"),
    ("V-2022-010", "AutoLease Hanse GmbH", "Fahrzeugleasing (4 Pkw)", date(2022, 9, 1), date(2025, 8, 31),
     "keine (Festlaufzeit)", 28800, "Jonas Albrecht", ""),
    ("V-2023-011", BRIGHTWAVE, "Managed Network Services (MSA)", date(2023, 4, 1), date(2026, 3, 31),
     "3 Monate", 96000, "Sophie Keller", "SLA v3 seit 01.04.2024"),
    ("V-2023-015", "Stadtwerke Nord Energie GmbH", "Stromliefervertrag", date(2024, 1, 1), date(2025, 12, 31),
     "3 Monate zum Jahresende", 64800, "Markus Brandt", ""),
    ("V-2024-002", ATELIER, "Tierce maintenance applicative (Planungs-App)", date(2024, 2, 15),
     date(2026, 2, 14), "3 Monate", 42500, "Sophie Keller", "Vertrag in französischer Sprache"),
    ("V-2024-009", "Bürowelt Schmidt KG", "Rahmenvertrag Büromaterial", date(2024, 10, 1), date(2026, 9, 30),
     "1 Monat", 12000, "Jonas Albrecht", ""),
    ("V-2024-013", "CloudHarbor GmbH", "Hosting / IaaS", date(2024, 6, 1), date(2026, 5, 31),
     "3 Monate zum Quartalsende", 54000, "Sophie Keller", ""),
    ("V-2025-001", "Lindqvist Retail AB", "Liefervertrag Sensorik (Verkauf)", date(2025, 1, 1),
     date(2027, 12, 31), "6 Monate", 250000, "Anna Petersen", "Kundenvertrag"),
    ("V-2025-003", "Maison Bérard SA", "Distributionsvertrag Frankreich", date(2025, 3, 1),
     date(2027, 2, 28), "6 Monate", 140000, "Anna Petersen", "Kundenvertrag"),
    ("V-2025-006", "Feldmann Bau GmbH", "Rahmenliefervertrag (Verkauf)", date(2025, 5, 1),
     date(2026, 4, 30), "3 Monate", 75000, "Anna Petersen", "Kundenvertrag"),
]
REG_REL = "legal/contracts/Vertragsregister_2025.xlsx"
REG_HEADER = ["Vertrags-Nr.", "Vertragspartner", "Vertragsgegenstand", "Beginn", "Ende",
              "Kündigungsfrist", "Jahreswert (EUR)", "Verantwortlich", "Bemerkung"]
REG_KINDS = [None, None, None, "date_de", "date_de", None, "thousands", None, None]
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Verträge"
xsheet(ws, ["Vertragsregister Kessler & Thal GmbH",
            "Stand: 30.06.2025 · Pflege: Einkauf / Legal · vertraulich"],
       REG_HEADER, [list(c) for c in CONTRACTS], REG_KINDS, [13, 32, 40, 12, 12, 26, 16, 16, 30],
       total_rows=[(6, "Summe Jahreswerte", {7: sum(c[6] for c in CONTRACTS)})])
save_xlsx(wb, REG_REL, "Vertragsregister 2025", "Sophie Keller")

# -- framework contract Nordwerk (DOCX, German) ------------------------------
NW_FRAME_REL = "legal/contracts/nordwerk/Rahmenvertrag_Nordwerk_V-2021-004.docx"
NW_RATES = [("Servicetechniker", "Stunde", "95,00"),
            ("Elektrofachkraft / SPS-Programmierung", "Stunde", "118,00"),
            ("Projektleitung", "Stunde", "125,00"),
            ("Anfahrtspauschale Großraum Hamburg", "Einsatz", "65,00"),
            ("Anfahrt außerhalb Großraum Hamburg", "km", "0,85"),
            ("Notdienstzuschlag (Nacht, Sonn- und Feiertage)", "Zuschlag", "+50 %"),
            ("Rufbereitschaft 24/7", "Monat", "450,00")]
d = new_doc("Cambria", 10.5)
para(d, "Rahmenvertrag über die Lieferung von Industrie-Hardware und Serviceleistungen",
     bold=True, size=14, align="center")
para(d, "Vertrags-Nr. V-2021-004", align="center")
para(d)
para(d, "zwischen")
para(d, "Kessler & Thal GmbH, Speicherstraße 12, 20457 Hamburg, vertreten durch die Geschäftsführung "
        "– nachfolgend „Auftraggeber“ –")
para(d, "und")
para(d, "Nordwerk Industrietechnik GmbH, Hafenrandstraße 41, 28217 Bremen, vertreten durch den "
        "Geschäftsführer Dr. Henrik Brandes – nachfolgend „Auftragnehmer“ –")
sections = [
    ("§ 1 Vertragsgegenstand", "Der Auftragnehmer liefert auf Abruf Industrie-PCs, Bedienpanels, "
     "Netzwerkkomponenten und Zubehör und erbringt Installations-, Wartungs- und Entstörungsleistungen "
     "an den Standorten des Auftraggebers in Hamburg und Bremen."),
    ("§ 2 Laufzeit und Kündigung", "Der Vertrag beginnt am 01.01.2022 und endet am 31.12.2026. "
     "Er verlängert sich um jeweils zwölf Monate, sofern er nicht mit einer Frist von sechs Monaten "
     "zum Vertragsende schriftlich gekündigt wird."),
    ("§ 3 Preise", "Für Dienstleistungen gelten die im Preisblatt (Anlage 1) vereinbarten Sätze. "
     "Hardware wird zu den jeweils gültigen Listenpreisen abzüglich der Rabattstaffel (Anlage 2) "
     "berechnet. Alle Preise verstehen sich netto zuzüglich der gesetzlichen Umsatzsteuer."),
    ("§ 4 Service Level", "Reaktions- und Wiederherstellungszeiten ergeben sich aus der gesonderten "
     "Service-Level-Vereinbarung Hardwareservice in ihrer jeweils gültigen Fassung."),
    ("§ 5 Zahlungsbedingungen", "Rechnungen sind innerhalb von 30 Tagen nach Rechnungsdatum ohne "
     "Abzug zahlbar."),
]
for h, t in sections:
    para(d, h, bold=True)
    para(d, t, space_after=6)
para(d, "Hamburg / Bremen, 12.11.2021")
para(d, "Anlage 1 – Preisblatt Dienstleistungen (gültig ab 01.01.2025)", bold=True, size=12)
dtable(d, ["Leistung", "Einheit", "Preis netto (EUR)"], [list(r) for r in NW_RATES], right=(2,),
       widths=[9.0, 3.0, 4.0], size=10)
para(d)
para(d, "Anlage 2 – Rabattstaffel Hardware", bold=True, size=12)
dtable(d, ["Auftragswert netto ab", "Rabatt auf Listenpreis"],
       [["10.000,00 €", "3 %"], ["25.000,00 €", "5 %"], ["50.000,00 €", "8 %"]], right=(0, 1), size=10)
save_docx(d, NW_FRAME_REL, "Rahmenvertrag Nordwerk V-2021-004", "Legal")

# -- Brightwave MSA schedule of fees (PDF, English) --------------------------
BW_MSA_REL = "legal/contracts/brightwave/Brightwave_MSA_V-2023-011_Schedule2_Fees.pdf"
BW_FEES = [("Managed WAN service", "per site / month", "1,150.00"),
           ("Managed Wi-Fi", "per access point / month", "18.50"),
           ("24/7 NOC monitoring", "per month", "2,400.00"),
           ("On-site engineer", "per day (8 hours)", "890.00"),
           ("Out-of-hours call-out", "per incident", "350.00"),
           ("Firewall threat-protection licence", "per appliance / year", "1,320.00"),
           ("Project services (design, migration)", "per day", "1,050.00")]
pdf = Pdf("Brightwave Networks Ltd – Master Services Agreement V-2023-011 – Confidential")
pdf.line_("MASTER SERVICES AGREEMENT", bold=True, size=14, align="C", h=7)
pdf.line_("between Brightwave Networks Ltd (\"Brightwave\") and Kessler & Thal GmbH (\"Customer\")",
          align="C")
pdf.line_("Customer contract no. V-2023-011 · Brightwave ref. BW-MSA-0419 · Effective date: 1 April 2023",
          align="C", size=8.5)
pdf.ln(6)
pdf.line_("Schedule 2 – Charges", bold=True, size=12, h=7)
pdf.line_("2.1 The Customer shall pay the following charges. Recurring charges are invoiced monthly in "
          "advance; usage-based charges are invoiced monthly in arrears. All charges are in EUR and "
          "exclusive of VAT.")
pdf.ln(2)
pdf.grid(["Service", "Charging basis", "Charge (EUR)"], [list(r) for r in BW_FEES],
         ("L", "L", "R"), wrap=0, size=9)
pdf.line_("2.2 Charges are fixed for the initial term (36 months). Thereafter Brightwave may adjust "
          "charges once per year by no more than the UK CPI change of the preceding year.")
pdf.line_("2.3 Service credits under the Service Level Agreement (Schedule 3) are deducted from the "
          "next monthly invoice.")
save_pdf(pdf, BW_MSA_REL, "MSA V-2023-011 Schedule 2", "Brightwave Legal")

# -- Atelier Numérique maintenance contract (DOCX, French) --------------------
AN_CONTRACT_REL = "legal/contracts/atelier-numerique/Contrat_TMA_V-2024-002.docx"
d = new_doc("Calibri", 10.5)
para(d, "CONTRAT DE TIERCE MAINTENANCE APPLICATIVE", bold=True, size=14, align="center")
para(d, "Référence client : V-2024-002", align="center")
para(d, "Entre les soussignés : Kessler & Thal GmbH, Speicherstraße 12, 20457 Hambourg (Allemagne), "
        "ci-après « le Client », et Atelier Numérique SARL, 27, quai Saint-Vincent, 69001 Lyon, "
        "ci-après « le Prestataire ».")
for h, t in [("Article 1 – Objet", "Le présent contrat a pour objet la maintenance corrective et "
              "évolutive de l'application de planification de production du Client."),
             ("Article 2 – Durée", "Le contrat prend effet le 15/02/2024 pour une durée de deux ans, "
              "soit jusqu'au 14/02/2026. Il peut être résilié avec un préavis de trois mois."),
             ("Article 3 – Niveaux de service", "Les délais de prise en charge et de correction sont "
              "définis dans la convention de service (SLA) annexée."),
             ("Article 4 – Prix", "Les prestations sont facturées selon l'annexe A, hors taxes. "
              "La maintenance forfaitaire est facturée trimestriellement à terme à échoir.")]:
    para(d, h, bold=True)
    para(d, t, space_after=6)
para(d, "Annexe A – Prestations et prix", bold=True, size=12)
dtable(d, ["Prestation", "Unité", "Prix unitaire HT"],
       [["Forfait de maintenance applicative", "trimestre", "3 750,00 €"],
        ["Développement / correctifs hors forfait", "jour", "640,00 €"],
        ["Pilotage projet (chef de projet)", "jour", "720,00 €"],
        ["Recette et mise en production", "jour", "580,00 €"],
        ["Hébergement environnement de recette", "mois", "180,00 €"],
        ["Formation utilisateurs", "demi-journée", "450,00 €"]], right=(2,), size=10)
para(d)
para(d, "Fait à Lyon, le 2 février 2024, en deux exemplaires originaux.")
save_docx(d, AN_CONTRACT_REL, "Contrat TMA V-2024-002", "Atelier Numérique")

# ==========================================================================
# 6. SLAs (DOCX English, PDF German, Markdown French) + SLA report (XLSX)
# ==========================================================================
BW_SLA_REL = "ops/sla/Brightwave_SLA_Managed_Network_v3.docx"
BW_SLA = [("P1 (Critical)", "Total loss of service at one or more sites", "15 minutes", "4 hours", "24 × 7"),
          ("P2 (High)", "Severe degradation or loss of resilience at a site", "30 minutes", "8 hours", "24 × 7"),
          ("P3 (Medium)", "Partial loss of non-critical functions", "4 business hours", "3 business days",
           "Mon–Fri 08:00–18:00"),
          ("P4 (Low)", "Service requests, cosmetic issues, questions", "1 business day", "10 business days",
           "Mon–Fri 08:00–18:00")]
d = new_doc("Arial", 10)
para(d, "Brightwave Networks Ltd", bold=True, size=12, color=(0, 90, 140), space_after=0)
para(d, "Service Level Agreement – Managed Network Services", bold=True, size=16)
para(d, "Schedule 3 to Master Services Agreement V-2023-011 · Version 3.0 · effective 1 April 2024")
para(d, "Parties: Brightwave Networks Ltd (\"Provider\") and Kessler & Thal GmbH (\"Customer\").")
para(d, "1. Scope", bold=True)
para(d, "This SLA applies to the managed WAN, managed Wi-Fi and NOC monitoring services provided at the "
        "Customer's sites in Hamburg (HQ) and Bremen (warehouse).")
para(d, "2. Incident priorities and target times", bold=True)
para(d, "Response time is measured from the logging of the incident with the Provider's service desk "
        "until an engineer starts working on it. Restore time is measured until the service is restored, "
        "including by a workaround.")
dtable(d, ["Priority", "Definition", "Response time", "Restore time", "Hours of cover"],
       [list(r) for r in BW_SLA], widths=[2.6, 6.0, 2.6, 2.6, 3.2])
para(d)
para(d, "3. Availability and service credits", bold=True)
dtable(d, ["Monthly availability per site", "Service credit (% of monthly site charge)"],
       [["≥ 99.90 %", "none"], ["99.50 % – 99.89 %", "5 %"], ["99.00 % – 99.49 %", "10 %"],
        ["< 99.00 %", "20 %"]])
para(d)
para(d, "4. Reporting", bold=True)
para(d, "The Provider delivers a monthly service report by the 10th working day of the following month.")
save_docx(d, BW_SLA_REL, "SLA Managed Network Services v3", "Brightwave Service Management")

NW_SLA_REL = "ops/sla/Nordwerk_SLA_Hardwareservice_2024.pdf"
NW_SLA = [("Prio 1 – kritisch", "Produktionsstillstand oder Ausfall einer kompletten Linie", "30 Minuten",
           "4 Stunden", "24/7"),
          ("Prio 2 – hoch", "Eingeschränkter Betrieb ohne Umgehungslösung", "2 Stunden", "8 Stunden", "24/7"),
          ("Prio 3 – mittel", "Störung mit Umgehungslösung", "4 Stunden", "2 Werktage", "Mo–Fr 7–18 Uhr"),
          ("Prio 4 – niedrig", "Anfragen, Kleinmängel", "1 Werktag", "5 Werktage", "Mo–Fr 7–18 Uhr")]
pdf = Pdf("Nordwerk Industrietechnik GmbH · SLA Hardwareservice · Version 2024-01")
pdf.line_("Service-Level-Vereinbarung Hardwareservice", bold=True, size=14, h=7)
pdf.line_("Anlage zum Rahmenvertrag V-2021-004 zwischen Nordwerk Industrietechnik GmbH (Auftragnehmer) "
          "und Kessler & Thal GmbH (Auftraggeber) · gültig ab 01.01.2024")
pdf.ln(4)
pdf.line_("1. Geltungsbereich", bold=True)
pdf.line_("Diese Vereinbarung gilt für alle vom Auftragnehmer gelieferten und gewarteten Industrie-PCs, "
          "Bedienpanels, USV-Anlagen und Netzwerkkomponenten an den Standorten Hamburg und Bremen.")
pdf.ln(2)
pdf.line_("2. Prioritäten, Reaktions- und Wiederherstellungszeiten", bold=True)
pdf.grid(["Priorität", "Definition", "Reaktionszeit", "Wiederherstellungszeit", "Servicezeit"],
         [list(r) for r in NW_SLA], ("L", "L", "L", "L", "L"), wrap=1)
pdf.line_("Die Reaktionszeit beginnt mit Eingang der Störungsmeldung über die Hotline +49 421 69 44 80-99 "
          "oder das Serviceportal. Werktage sind Montag bis Freitag mit Ausnahme bundeseinheitlicher Feiertage.")
pdf.ln(2)
pdf.line_("3. Vertragsstrafe", bold=True)
pdf.line_("Bei Überschreitung der Wiederherstellungszeit für Prio-1-Störungen um mehr als 2 Stunden "
          "schreibt der Auftragnehmer 250,00 EUR je angefangener weiterer Stunde gut, höchstens "
          "jedoch 5.000,00 EUR je Kalendermonat.")
save_pdf(pdf, NW_SLA_REL, "SLA Hardwareservice", "Nordwerk Service")

AN_SLA_REL = "ops/sla/Atelier_Numerique_SLA_TMA.md"
AN_SLA = [("Priorité 1 – Bloquant", "Application indisponible ou perte de données", "1 h ouvrée", "1 jour ouvré"),
          ("Priorité 2 – Majeur", "Fonction importante inutilisable, sans contournement", "4 h ouvrées",
           "3 jours ouvrés"),
          ("Priorité 3 – Mineur", "Anomalie avec solution de contournement", "1 jour ouvré", "10 jours ouvrés"),
          ("Priorité 4 – Demande", "Évolution, question d'utilisation", "2 jours ouvrés", "selon planning")]
md = ["# Convention de service (SLA) – Tierce maintenance applicative", "",
      "**Prestataire :** Atelier Numérique SARL, Lyon  ",
      "**Client :** Kessler & Thal GmbH, Hambourg  ",
      "**Contrat :** V-2024-002 – annexe B  ",
      "**Version :** 1.2 du 02/02/2024", "",
      "## 1. Périmètre", "",
      "La présente convention s'applique à l'application de planification de production "
      "(« Planning app ») et à ses interfaces avec l'ERP du Client.", "",
      "## 2. Plages de service", "",
      "Heures ouvrées : du lundi au vendredi, de 8 h 30 à 18 h 00 (heure de Paris), hors jours fériés "
      "en France.", "",
      "## 3. Niveaux de priorité et délais", "",
      "| Priorité | Définition | Délai de prise en charge | Délai de correction |",
      "|---|---|---|---|"]
for r in AN_SLA:
    md.append("| " + " | ".join(r) + " |")
md += ["", "Le délai de correction peut être atteint par une solution de contournement validée par le Client.",
       "", "## 4. Pénalités", "",
       "En cas de dépassement du délai de correction d'un incident de priorité 1, une pénalité de 150 € HT "
       "par jour ouvré de retard est appliquée, plafonnée à 10 % du forfait trimestriel.", "",
       "## 5. Comité de suivi", "",
       "Un comité de suivi se réunit chaque trimestre (visioconférence) ; le compte rendu est diffusé "
       "sous 5 jours ouvrés.", ""]
save_text(AN_SLA_REL, "\n".join(md))

# ==========================================================================
# 7. Incident log (CSV)
# ==========================================================================
INC_REL = "ops/incidents/incident_log_2025-H1.csv"
PRIO = {1: "1 - Critical", 2: "2 - High", 3: "3 - Moderate", 4: "4 - Low"}
INCIDENTS = [
    ("INC-25-0031", "2025-01-07 08:42", 3, "Nordwerk", "Shopfloor hardware", "HMI panel line 2 responds slowly", "Resolved", "2025-01-08 15:10"),
    ("INC-25-0048", "2025-01-15 22:18", 1, "Brightwave", "Managed WAN", "WAN outage Bremen warehouse", "Resolved", "2025-01-16 01:05"),
    ("INC-25-0062", "2025-01-21 10:03", 2, "Atelier Numérique", "Planning app", "Export to ERP fails for orders with more than 500 lines", "Resolved", "2025-01-23 16:40"),
    ("INC-25-0097", "2025-02-03 07:55", 1, "Nordwerk", "Shopfloor hardware", "IPC-740 line 1 does not boot - production stop", "Resolved", "2025-02-03 10:20"),
    ("INC-25-0118", "2025-02-11 14:30", 4, "Brightwave", "Managed Wi-Fi", "Weak Wi-Fi signal in meeting room 2.14", "Closed", "2025-02-20 09:00"),
    ("INC-25-0140", "2025-02-24 09:12", 1, "Atelier Numérique", "Planning app", "Planning app unavailable for all users", "Resolved", "2025-02-24 13:45"),
    ("INC-25-0163", "2025-03-04 11:26", 3, "Atelier Numérique", "Planning app", "Wrong calendar weeks in shift view", "Resolved", "2025-03-12 17:00"),
    ("INC-25-0189", "2025-03-17 06:40", 2, "Brightwave", "Managed WAN", "Packet loss on Hamburg HQ uplink", "Resolved", "2025-03-17 12:15"),
    ("INC-25-0211", "2025-03-26 13:05", 3, "Nordwerk", "Network hardware", "Port errors on switch rack B", "Resolved", "2025-03-28 10:30"),
    ("INC-25-0226", "2025-04-02 05:50", 1, "Brightwave", "Managed WAN", "WAN outage Bremen warehouse - router hardware fault", "Resolved", "2025-04-02 11:35"),
    ("INC-25-0240", "2025-04-08 16:22", 2, "Nordwerk", "UPS", "UPS alarm server room - battery test failed", "Resolved", "2025-04-09 09:10"),
    ("INC-25-0257", "2025-04-15 10:48", 3, "Atelier Numérique", "Planning app", "Report 'Capacity by line' shows duplicate rows", "Resolved", "2025-04-24 14:00"),
    ("INC-25-0271", "2025-04-23 08:15", 2, "Atelier Numérique", "Planning app", "SSO login fails intermittently", "Resolved", "2025-04-25 11:20"),
    ("INC-25-0290", "2025-05-06 04:31", 1, "Nordwerk", "Network hardware", "Switch stack failure hall 3 - line 3 stopped", "Resolved", "2025-05-06 07:58"),
    ("INC-25-0302", "2025-05-12 13:40", 4, "Nordwerk", "Shopfloor hardware", "Replace worn keyboard on IPC line 4", "Closed", "2025-05-19 10:00"),
    ("INC-25-0318", "2025-05-20 15:05", 1, "Atelier Numérique", "Planning app", "Data not saved after release 4.2", "Resolved", "2025-05-21 09:30"),
    ("INC-25-0333", "2025-05-28 09:57", 3, "Brightwave", "Managed Wi-Fi", "Certificate warning on guest Wi-Fi portal", "Resolved", "2025-06-02 12:00"),
    ("INC-25-0347", "2025-06-04 19:20", 2, "Brightwave", "Managed WAN", "VPN tunnel to Bremen flapping", "Resolved", "2025-06-05 02:45"),
    ("INC-25-0361", "2025-06-11 11:02", 3, "Atelier Numérique", "Planning app", "Order overview loads slowly (> 20 s)", "In progress", ""),
    ("INC-25-0374", "2025-06-18 07:12", 1, "Brightwave", "Managed WAN", "Complete WAN outage Hamburg HQ (carrier fibre cut)", "Resolved", "2025-06-18 10:49"),
    ("INC-25-0380", "2025-06-23 14:35", 2, "Atelier Numérique", "Planning app", "ERP interface creates duplicate bookings", "Open", ""),
    ("INC-25-0388", "2025-06-26 05:18", 1, "Nordwerk", "Shopfloor hardware", "IPC-760 line 5 overheating - line stopped", "In progress", ""),
    ("INC-25-0391", "2025-06-27 10:10", 4, "Brightwave", "Managed Wi-Fi", "Request: additional access point in warehouse", "Open", ""),
    ("INC-25-0395", "2025-06-30 16:44", 3, "Nordwerk", "Shopfloor hardware", "HMI-15 display flickers at line 1", "Open", ""),
]
save_csv(INC_REL, ["Number", "Opened", "Priority", "Vendor", "Service", "Short description", "State",
                   "Resolved"],
         [[i[0], i[1], PRIO[i[2]], i[3], i[4], i[5], i[6], i[7]] for i in INCIDENTS])


# -- SLA performance report Q1 (XLSX), incident counts taken from the log ------
SLA_REP_REL = "ops/sla/reports/SLA_Performance_Q1_2025.xlsx"
AVAIL = {"Brightwave": ("Managed WAN", "0.999", ["0.9963", "1", "0.9992"]),
         "Nordwerk": ("Hardware service", "0.995", ["0.9998", "0.9964", "0.9995"]),
         "Atelier Numérique": ("Planning app", "0.99", ["0.9995", "0.9932", "0.9990"])}
sla_rep = []
for m, mname in [(1, "Jan 2025"), (2, "Feb 2025"), (3, "Mar 2025")]:
    for vendor, (svc, target, av) in AVAIL.items():
        inc = sum(1 for i in INCIDENTS if i[3] == vendor and i[1].startswith(f"2025-{m:02d}"))
        avail = D(av[m - 1])
        sla_rep.append([mname, vendor, svc, avail, D(target), inc, inc,
                        "met" if avail >= D(target) else "not met"])
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Q1 2025"
xsheet(ws, ["SLA performance report – Q1 2025", "IT Operations · prepared 08 Apr 2025 · source: ITSM incident log + vendor availability reports"],
       ["Month", "Vendor", "Service", "Availability", "Target", "Incidents", "Resolved within SLA", "Status"],
       sla_rep, [None, None, None, "pct1", "pct1", "int", "int", None], [11, 20, 18, 13, 10, 10, 18, 10])
save_xlsx(wb, SLA_REP_REL, "SLA performance Q1 2025", "IT Operations")

# ==========================================================================
# 8. Expenses: Q1 (XLSX English), Q2 (XLSX German), travel claim (DOCX)
# ==========================================================================
EXP_Q1_REL = "hr/expenses/2025/Expense_Report_Q1_2025.xlsx"
VOGT_TRIP = [  # date, category(Q1 report), type (claim), description, amount, receipt
    (date(2025, 3, 18), "Flight", "Air travel", "HAM – CDG, Air France AF1411 (trade fair Paris)", "312.40", "R-25-0318"),
    (date(2025, 3, 18), "Taxi", "Taxi", "CDG airport – hotel", "56.00", "R-25-0319"),
    (date(2025, 3, 19), "Meals", "Business meal", "Client dinner Maison Bérard (4 pers.)", "238.50", "R-25-0320"),
    (date(2025, 3, 21), "Hotel", "Accommodation", "Hôtel Le Marais, 3 nights", "567.00", "R-25-0321"),
    (date(2025, 3, 21), "Taxi", "Taxi", "Hotel – CDG airport", "58.00", "R-25-0322"),
    (date(2025, 3, 21), "Flight", "Air travel", "CDG – HAM, Air France AF1410", "289.90", "R-25-0323"),
]
EXP_Q1 = [
    (date(2025, 1, 9), "Markus Brandt", "Operations", "Train", "Hamburg – Bremen return (Nordwerk site visit)", "79.80", "R-25-0012"),
    (date(2025, 1, 9), "Markus Brandt", "Operations", "Meals", "Lunch with Nordwerk project team", "64.30", "R-25-0013"),
    (date(2025, 1, 16), "Anna Petersen", "Sales", "Flight", "HAM – ARN return (Lindqvist kick-off)", "418.60", "R-25-0031"),
    (date(2025, 1, 16), "Anna Petersen", "Sales", "Taxi", "Arlanda – Lindqvist HQ", "41.20", "R-25-0032"),
    (date(2025, 1, 17), "Anna Petersen", "Sales", "Hotel", "Scandic Continental Stockholm, 1 night", "189.00", "R-25-0033"),
    (date(2025, 1, 28), "Tim Okafor", "IT", "Software", "Annual licence – diagramming tool", "96.00", "R-25-0058"),
    (date(2025, 2, 4), "Sophie Keller", "Procurement", "Train", "Hamburg – Lyon via Paris (Atelier Numérique workshop)", "236.90", "R-25-0101"),
    (date(2025, 2, 5), "Sophie Keller", "Procurement", "Hotel", "Hôtel Carlton Lyon, 2 nights", "312.00", "R-25-0102"),
    (date(2025, 2, 6), "Sophie Keller", "Procurement", "Meals", "Workshop dinner with Atelier Numérique team", "147.50", "R-25-0103"),
    (date(2025, 2, 6), "Sophie Keller", "Procurement", "Taxi", "Hotel – Lyon Part-Dieu station", "18.40", "R-25-0104"),
    (date(2025, 2, 19), "Jonas Albrecht", "Facilities", "Office supplies", "Label printer tape (urgent)", "27.45", "R-25-0140"),
    (date(2025, 2, 25), "Tim Okafor", "IT", "Taxi", "Taxi to data centre (night maintenance)", "38.70", "R-25-0151"),
] + [(t[0], "Lena Vogt", "Sales", t[1], t[3], t[4], t[5]) for t in VOGT_TRIP] + [
    (date(2025, 3, 27), "Markus Brandt", "Operations", "Mileage", "Private car, 212 km × €0.30", "63.60", "R-25-0344"),
]
EXP_Q1.sort(key=lambda r: r[0])  # stable: keeps entry order within a day
EXP_Q1_HEADER = ["Date", "Employee", "Department", "Category", "Description", "Amount (EUR)", "Receipt no."]
EXP_Q1_KINDS = ["date_iso", None, None, None, None, "money", None]
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Q1 2025"
xsheet(ws, ["Kessler & Thal GmbH – Travel & Expense Report", "Q1 2025 (January – March) · all amounts in EUR incl. VAT"],
       EXP_Q1_HEADER, [[r[0], r[1], r[2], r[3], r[4], D(r[5]), r[6]] for r in EXP_Q1], EXP_Q1_KINDS,
       [12, 16, 13, 15, 52, 14, 12],
       total_rows=[(5, "Total", {6: sum(D(r[5]) for r in EXP_Q1)})])
n = ws.max_row + 2
ws.cell(row=n, column=1, value="Approved: M. Kessler (CFO), 11 Apr 2025")
save_xlsx(wb, EXP_Q1_REL, "Expense report Q1 2025", "HR / Payroll")

EXP_Q2_REL = "hr/expenses/2025/Spesenabrechnung_Q2_2025.xlsx"
EXP_Q2 = [
    (date(2025, 4, 3), "Markus Brandt", "2100", "Bahn", "Hamburg – Bremen, Störungseinsatz Nordwerk", "79.80", "B-25-0402"),
    (date(2025, 4, 10), "Anna Petersen", "3100", "Flug", "HAM – ARN – HAM, Quartalsgespräch Lindqvist", "402.30", "B-25-0415"),
    (date(2025, 4, 10), "Anna Petersen", "3100", "Hotel", "Hotel Birger Jarl Stockholm, 1 Nacht", "176.00", "B-25-0416"),
    (date(2025, 4, 24), "Tim Okafor", "4200", "IT-Zubehör", "USB-C-Dockingstation (Ersatz)", "149.00", "B-25-0447"),
    (date(2025, 5, 6), "Jonas Albrecht", "5100", "Bewirtung", "Arbeitsessen mit Helix Facility Services", "86.40", "B-25-0503"),
    (date(2025, 5, 14), "Lena Vogt", "3100", "Bahn", "Hamburg – Paris, Kundentermin Maison Bérard", "214.60", "B-25-0521"),
    (date(2025, 5, 15), "Lena Vogt", "3100", "Hotel", "Hôtel Saint-Paul Rive Gauche, 2 Nächte", "348.00", "B-25-0522"),
    (date(2025, 5, 15), "Lena Vogt", "3100", "Bewirtung", "Geschäftsessen Maison Bérard (3 Pers.)", "195.80", "B-25-0523"),
    (date(2025, 5, 22), "Sophie Keller", "1300", "Seminar", "Seminar „Vertragsrecht für IT-Verträge“", "690.00", "B-25-0540"),
    (date(2025, 6, 3), "Markus Brandt", "2100", "Kfz", "Dienstfahrt Privat-Pkw, 318 km × 0,30 €", "95.40", "B-25-0601"),
    (date(2025, 6, 23), "Anna Petersen", "3100", "Flug", "HAM – MUC – HAM, Messe automatica", "311.70", "B-25-0618"),
    (date(2025, 6, 25), "Anna Petersen", "3100", "Hotel", "Hotel München Messe, 2 Nächte", "458.00", "B-25-0619"),
    (date(2025, 6, 18), "Tim Okafor", "4200", "Taxi", "Taxi Rechenzentrum (Nachtwartung)", "42.10", "B-25-0612"),
    (date(2025, 6, 26), "Jonas Albrecht", "5100", "Büromaterial", "Etikettendrucker-Bänder", "31.90", "B-25-0625"),
    (date(2025, 6, 27), "Sophie Keller", "1300", "Bahn", "Hamburg – Berlin, Lieferantengespräch CloudHarbor", "139.90", "B-25-0630"),
    (date(2025, 6, 27), "Sophie Keller", "1300", "Hotel", "Hotel Berlin Mitte, 1 Nacht", "200.00", "B-25-0631"),
]
EXP_Q2.sort(key=lambda r: r[0])
EXP_Q2_HEADER = ["Datum", "Mitarbeiter/in", "Kostenstelle", "Kategorie", "Beschreibung", "Betrag (€)", "Beleg-Nr."]
EXP_Q2_KINDS = ["date_de", None, None, None, None, "money", None]
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Q2"
xsheet(ws, ["Spesenabrechnung 2. Quartal 2025", "Kessler & Thal GmbH · Zeitraum 01.04.2025 – 30.06.2025 · Beträge brutto in EUR"],
       EXP_Q2_HEADER, [[r[0], r[1], r[2], r[3], r[4], D(r[5]), r[6]] for r in EXP_Q2], EXP_Q2_KINDS,
       [12, 16, 12, 14, 50, 13, 12],
       total_rows=[(5, "Summe", {6: sum(D(r[5]) for r in EXP_Q2)})])
n = ws.max_row + 2
ws.cell(row=n, column=1, value="Geprüft: Personalabteilung, 08.07.2025")
save_xlsx(wb, EXP_Q2_REL, "Spesenabrechnung Q2 2025", "Personalabteilung")

CLAIM_REL = "hr/expenses/2025/claims/Travel_Claim_L-Vogt_Paris_2025-03.docx"
d = new_doc("Calibri", 10)
para(d, "Kessler & Thal GmbH", bold=True, size=11, space_after=0)
para(d, "Travel expense claim", bold=True, size=16)
for t in ["Claim no.: TEC-2025-031", "Employee: Lena Vogt (personnel no. 1187)", "Department / cost centre: Sales / 3100",
          "Purpose of trip: Global Industrie trade fair, Paris – customer meetings incl. Maison Bérard",
          "Travel dates: 18–21 March 2025", "Advance received: none"]:
    para(d, t, space_after=0)
para(d)
claim_rows = [[d_fr(t[0]), t[2], t[3], num(t[4], 2, "en"), t[5]] for t in VOGT_TRIP]
claim_total = sum(D(t[4]) for t in VOGT_TRIP)
dtable(d, ["Date", "Expense type", "Details", "Amount (EUR)", "Receipt"],
       claim_rows + [["", "", "Total claimed", num(claim_total, 2, "en"), ""]], right=(3,),
       widths=[2.2, 3.0, 7.0, 2.6, 2.4], bold_last=True)
para(d)
para(d, "Per diem allowances are paid via payroll and are not part of this claim.", italic=True, size=9)
para(d, "Employee signature: L. Vogt, 24/03/2025          Approved: A. Petersen (Head of Sales), 25/03/2025")
save_docx(d, CLAIM_REL, "Travel expense claim TEC-2025-031", "Lena Vogt")

# ==========================================================================
# 9. Sales: order lines H1 (CSV), order confirmations, customer PO, price lists
# ==========================================================================
CUSTOMERS = {"Lindqvist": ("Lindqvist Retail AB", "C-20417", "0.05"),
             "Oakridge": ("Oakridge Controls Inc.", "C-20388", "0"),
             "VdB": ("Van der Berg Techniek B.V.", "C-20291", "0.03"),
             "Polaris": ("Polaris Energie GmbH", "C-20155", "0.08"),
             "Nordhavn": ("Nordhavn Marine ApS", "C-20460", "0"),
             "Feldmann": ("Feldmann Bau GmbH", "C-20502", "0.05")}
SCHEDULE = ["Oakridge", "Lindqvist", "Polaris", "VdB", "Nordhavn", "Polaris",
            "Lindqvist", "Oakridge", "Feldmann", "VdB", "Polaris", "Nordhavn",
            "Oakridge", "Lindqvist", "VdB", "Polaris", "Feldmann", "Oakridge"]
ORDER_LINES = []  # dicts
for i, key in enumerate(SCHEDULE):
    month = i // 3 + 1
    day = sorted(rng.sample(range(2, 28), 3))[i % 3]
    odate = date(2025, month, day)
    cust, cno, disc = CUSTOMERS[key]
    skus = rng.sample([c[0] for c in CATALOG], rng.randint(1, 4))
    skus.sort(key=lambda s: [c[0] for c in CATALOG].index(s))
    for sku in skus:
        cat = CAT[sku][4]
        if cat == "Sensors":
            q = rng.choice([10, 20, 25, 30, 40, 50, 60, 80, 100, 120])
        elif cat == "Gateways":
            q = rng.randint(1, 8)
        elif cat == "Accessories":
            q = rng.choice([20, 40, 50, 60, 100, 150, 200])
        elif cat == "Software":
            q = rng.randint(1, 10)
        else:
            q = rng.randint(1, 4)
        price = D(CAT[sku][6])
        total = q2(q * price * (1 - D(disc)))
        ORDER_LINES.append(dict(order=f"SO-2025-{i + 1:04d}", date=odate, customer=cust, cno=cno,
                                sku=sku, desc=CAT[sku][1], qty=q, price=price,
                                disc=disc, total=total))
ORDER_LINES.sort(key=lambda r: (r["date"], r["order"]))
# renumber orders chronologically so order numbers increase with the date
_ren, _n = {}, 0
for r in ORDER_LINES:
    if r["order"] not in _ren:
        _n += 1
        _ren[r["order"]] = f"SO-2025-{_n:04d}"
    r["order"] = _ren[r["order"]]
SALES_CSV_REL = "sales/orders/2025/order_lines_2025-H1.csv"
SALES_HEADER = ["order_no", "order_date", "customer", "customer_no", "sku", "description", "qty",
                "unit_price", "discount_pct", "line_total", "currency"]
sales_rows = [[r["order"], d_iso(r["date"]), r["customer"], r["cno"], r["sku"], r["desc"], str(r["qty"]),
               f"{r['price']:.2f}", f"{D(r['disc']) * 100:.0f}", f"{r['total']:.2f}", "EUR"]
              for r in ORDER_LINES]
save_csv(SALES_CSV_REL, SALES_HEADER, sales_rows)

# -- order confirmation Lindqvist (DOCX, English) -----------------------------
LQ_REL = "sales/orders/2025/lindqvist/Order_Confirmation_SO-2025-0021.docx"
LQ_LINES = [("KT-S100", "120", "pc"), ("KT-S120", "60", "pc"), ("KT-G310", "10", "pc"), ("KT-L100", "10", "licence")]
d = new_doc("Calibri", 10)
para(d, "Kessler & Thal GmbH", bold=True, size=14, color=(20, 80, 60), space_after=0)
para(d, "Speicherstraße 12 · 20457 Hamburg · Germany · sales@kessler-thal.de", size=8)
para(d)
para(d, "Lindqvist Retail AB", space_after=0)
para(d, "Attn. Erik Sundberg, Purchasing", space_after=0)
para(d, "Sveavägen 44, 111 34 Stockholm, Sweden")
para(d)
para(d, "Order confirmation", bold=True, size=16)
for t in ["Order no.: SO-2025-0021", "Date: 8 July 2025", "Customer: Lindqvist Retail AB (customer no. C-20417)",
          "Your reference: LR-PO-77812 of 3 July 2025", "Delivery terms: FCA Hamburg (Incoterms 2020)",
          "Requested delivery: calendar week 30/2025"]:
    para(d, t, space_after=0)
para(d)
para(d, "Thank you for your order, which we confirm as follows:")
lq_rows = []
lq_net = D(0)
for i, (sku, q, unit) in enumerate(LQ_LINES, 1):
    p = D(CAT[sku][6])
    net = q2(D(q) * p * D("0.95"))
    lq_net += net
    lq_rows.append([str(i), sku, CAT[sku][1], q, unit, num(p, 2, "en"), "5 %", num(net, 2, "en")])
dtable(d, ["Pos", "Article", "Description", "Quantity", "Unit", "Price per unit (EUR)", "Discount",
           "Net amount (EUR)"], lq_rows, right=(0, 3, 5, 6, 7), widths=[1.0, 2.0, 5.2, 1.6, 1.5, 2.4, 1.6, 2.4])
para(d)
para(d, f"Total net: EUR {num(lq_net, 2, 'en')}", bold=True, align="right", space_after=0)
para(d, "VAT: intra-Community supply, VAT exempt (reverse charge), your VAT no. SE556677889901", align="right")
para(d, "Payment terms: 30 days net according to supply agreement V-2025-001.")
para(d, "Kind regards, Anna Petersen – Key Account Manager Nordics")
save_docx(d, LQ_REL, "Order confirmation SO-2025-0021", "Anna Petersen")

# -- customer purchase order Maison Bérard (PDF, French) ----------------------
MB_REL = "sales/orders/2025/maison-berard/Bon_de_commande_MB-2025-0217.pdf"
MB_LINES = [("KT-S100", "80"), ("KT-S150", "25"), ("KT-G310", "6"), ("KT-C020", "100"), ("KT-L100", "6")]
pdf = Pdf("Maison Bérard SA – SA au capital de 250 000 € – RCS Lyon 401 223 987 – TVA FR58 401223987")
pdf.line_("Maison Bérard SA", bold=True, size=13)
pdf.line_("Équipements et automatismes industriels · 12, rue de la Charité · 69002 Lyon · France", size=8)
pdf.ln(5)
pdf.line_("BON DE COMMANDE", bold=True, size=16, h=8)
for t in ["N° : MB-2025-0217", "Date : 15 juillet 2025",
          "Fournisseur : Kessler & Thal GmbH, Speicherstraße 12, 20457 Hambourg, Allemagne",
          "Contrat de distribution : V-2025-003", "Livraison souhaitée : semaine 31 – entrepôt de Vénissieux",
          "Acheteur : Claire Morel (c.morel@maison-berard.fr)"]:
    pdf.line_(t)
pdf.ln(3)
mb_rows = []
mb_total = D(0)
for sku, q in MB_LINES:
    p = D(CAT[sku][8])
    tot = q2(D(q) * p)
    mb_total += tot
    mb_rows.append([sku, CAT[sku][3], q, num(p, 2, "fr") + " €", num(tot, 2, "fr") + " €"])
pdf.grid(["Réf. fournisseur", "Désignation", "Qté", "P.U. HT", "Total HT"], mb_rows,
         ("L", "L", "R", "R", "R"), wrap=1)
pdf.kv_right([("Total HT", num(mb_total, 2, "fr") + " €"), ("TVA", "autoliquidation"),
              ("Total à payer", num(mb_total, 2, "fr") + " €")])
pdf.ln(4)
pdf.line_("Prix selon tarifs distributeurs France 2025. Merci de nous retourner un accusé de réception "
          "de commande sous 48 h. Toute facture doit rappeler le numéro de commande.", size=8.5)
save_pdf(pdf, MB_REL, "Bon de commande MB-2025-0217", "Maison Bérard Achats")

# -- order confirmation Feldmann (plain text, German) -------------------------
FB_REL = "sales/orders/2025/feldmann/Auftragsbestaetigung_SO-2025-0024.txt"
FB_LINES = [("KT-S150", "30", "Stk"), ("KT-S210", "12", "Stk"), ("KT-G300", "4", "Stk"),
            ("KT-C010", "60", "Stk"), ("KT-M500", "40", "Stk"), ("KT-SV01", "2", "Tag")]
fb_rows = []
fb_sub = D(0)
for i, (sku, q, me) in enumerate(FB_LINES, 1):
    p = D(CAT[sku][6])
    tot = q2(D(q) * p)
    fb_sub += tot
    fb_rows.append((str(i), sku, CAT[sku][2], q, me, num(p, 2, "de") + " €", num(tot, 2, "de") + " €"))
fb_disc = q2(fb_sub * D("0.05"))
fb_net = fb_sub - fb_disc
fb_vat = q2(fb_net * D("0.19"))
lines = ["Kessler & Thal GmbH · Speicherstraße 12 · 20457 Hamburg", "",
         "Feldmann Bau GmbH", "Einkauf – Frau Petra Lohmann", "Industriestraße 7", "33719 Bielefeld", "",
         "AUFTRAGSBESTÄTIGUNG".ljust(44) + "Nr.:             SO-2025-0024",
         " " * 44 + "Datum:           04.08.2025",
         " " * 44 + "Kunden-Nr.:      C-20502",
         " " * 44 + "Ihre Bestellung: FB-B-25-1183 vom 31.07.2025", "",
         "Sehr geehrte Frau Lohmann,", "",
         "vielen Dank für Ihre Bestellung. Wir bestätigen Ihnen die Lieferung wie folgt:", ""]
fmt = "{:>3}  {:<8}  {:<32}  {:>5}  {:<3}  {:>12}  {:>12}"
lines.append(fmt.format("Pos", "Artikel", "Bezeichnung", "Menge", "ME", "Einzelpreis", "Gesamt"))
lines.append(fmt.format("---", "-" * 8, "-" * 32, "-" * 5, "---", "-" * 12, "-" * 12))
for r in fb_rows:
    lines.append(fmt.format(*r))
lines.append(" " * 60 + "-" * 26)
lines += [f"{'Warenwert':>58}  {num(fb_sub, 2, 'de') + ' €':>26}",
          f"{'abzgl. 5 % Rabatt lt. Rahmenvertrag':>58}  {'-' + num(fb_disc, 2, 'de') + ' €':>26}",
          f"{'Nettobetrag':>58}  {num(fb_net, 2, 'de') + ' €':>26}",
          f"{'zzgl. 19 % USt.':>58}  {num(fb_vat, 2, 'de') + ' €':>26}",
          f"{'Gesamtbetrag':>58}  {num(fb_net + fb_vat, 2, 'de') + ' €':>26}", "",
          "Liefertermin: KW 34/2025, frei Baustelle Bielefeld-Sennestadt.",
          "Inbetriebnahme nach Terminabsprache mit unserem Service (2 Tage vor Ort).",
          "Zahlungsbedingungen: 30 Tage netto gemäß Rahmenliefervertrag V-2025-006.", "",
          "Mit freundlichen Grüßen", "Kessler & Thal GmbH – Vertriebsinnendienst", "",
          "Amtsgericht Hamburg HRB 140 221 · Geschäftsführung: Dr. Claudia Thal, Martin Kessler", ""]
save_text(FB_REL, "\n".join(lines))

# -- price list 2025 (XLSX, English) ------------------------------------------
PL25_REL = "sales/pricelists/Price_List_2025_Standard_EUR.xlsx"
PL25_HEADER = ["SKU", "Product", "Category", "Unit", "List price (EUR)", "Min. order qty"]
PL25_KINDS = [None, None, None, None, "money", "int"]
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Price list 2025"
xsheet(ws, ["Kessler & Thal GmbH — Price List 2025 (Standard, EUR)",
            "Valid from 1 January 2025 until further notice · prices per unit, excl. VAT, ex works Hamburg"],
       PL25_HEADER, [[c[0], c[1], c[4], c[5], D(c[6]), c[9]] for c in CATALOG], PL25_KINDS,
       [11, 36, 14, 9, 16, 15])
n = ws.max_row + 2
ws.cell(row=n, column=1, value="Volume discounts and distributor prices on request. Subject to change; errors excepted.")
save_xlsx(wb, PL25_REL, "Price list 2025", "Sales Operations")

# -- price list 2024 (CSV semicolon, German, Windows-1252 legacy export) -------
PL24_REL = "sales/pricelists/archive/Preisliste_2024.csv"
GROUP_DE = {"Sensors": "Sensorik", "Gateways": "Gateways", "Accessories": "Zubehör",
            "Software": "Software", "Services": "Dienstleistung"}
UNIT_DE = {"pc": "Stk", "licence": "Lizenz", "day": "Tag"}
pl24 = [["KT-S090", "Temperaturfühler PT100 (Auslaufmodell)", "Sensorik", "Stk", "39,90", "01.01.2024"]]
for c in CATALOG:
    if c[7] is not None:
        pl24.append([c[0], c[2], GROUP_DE[c[4]], UNIT_DE[c[5]], num(c[7], 2, "de"), "01.01.2024"])
save_csv(PL24_REL, ["Artikelnr", "Bezeichnung", "Warengruppe", "Einheit", "Listenpreis EUR", "gültig ab"],
         pl24, delimiter=";", encoding="cp1252")

# -- tarifs France 2025 (PDF, French) -----------------------------------------
PLFR_REL = "sales/pricelists/Tarifs_Distributeurs_France_2025.pdf"
GROUP_FR = {"Sensors": "Capteurs", "Gateways": "Passerelles", "Accessories": "Accessoires",
            "Software": "Logiciels", "Services": "Services"}
UNIT_FR = {"pc": "pièce", "licence": "licence", "day": "jour"}
pdf = Pdf("Kessler & Thal GmbH · Speicherstraße 12 · 20457 Hambourg · Allemagne · export@kessler-thal.de")
pdf.line_("Kessler & Thal GmbH", bold=True, size=13)
pdf.line_("Tarifs distributeurs France 2025", bold=True, size=15, h=8)
pdf.line_("Valables du 1er mars 2025 au 31 décembre 2025 · prix nets HT en euros, départ Hambourg · "
          "franco de port à partir de 1 500,00 € HT")
pdf.ln(3)
pdf.grid(["Référence", "Désignation", "Gamme", "Unité", "Prix unitaire HT (€)"],
         [[c[0], c[3], GROUP_FR[c[4]], UNIT_FR[c[5]], num(c[8], 2, "fr")] for c in CATALOG],
         ("L", "L", "L", "L", "R"), wrap=1)
pdf.line_("Conditions : paiement à 30 jours fin de mois. Remise quantitative de 3 % à partir de 10 000 € HT "
          "par commande. Contact commercial : Lena Vogt, +49 40 3344 120.", size=8.5)
save_pdf(pdf, PLFR_REL, "Tarifs France 2025", "Sales Operations")

# ==========================================================================
# 10. Reports: Q1 management report (MD), Q2 board report (DOCX), open items (TXT)
# ==========================================================================
QR_REL = "management/reports/2025/Quarterly_Report_Q1_2025.md"
REGIONS = [("DACH", 1842, 1655), ("Nordics", 612, 498), ("France & Benelux", 538, 561),
           ("UK & Ireland", 214, 190), ("North America", 305, 247)]


def chg(a, b):
    v = (D(a) - D(b)) / D(b) * 100
    v = v.quantize(D("0.1"), ROUND_HALF_UP)
    return ("+" if v > 0 else ("−" if v < 0 else "±")) + f"{abs(v):.1f} %"


reg_rows = [[r, num(a, 0, "en"), num(b, 0, "en"), chg(a, b)] for r, a, b in REGIONS]
ta, tb = sum(r[1] for r in REGIONS), sum(r[2] for r in REGIONS)
md = ["# Quarterly Management Report – Q1 2025", "",
      "Kessler & Thal GmbH · Finance & Controlling · issued 22 April 2025 · internal", "",
      "## 1. Summary", "",
      f"Revenue in Q1 2025 reached EUR {num(ta, 0, 'en')}k, up {chg(ta, tb).lstrip('+')} on Q1 2024. Growth was "
      "driven by the Nordics (Lindqvist roll-out) and North America, while France & Benelux declined ahead of "
      "the new distribution agreement with Maison Bérard (effective 1 March 2025).", "",
      "## 2. Revenue by region", "", "All figures in EUR thousand.", "",
      "| Region | Q1 2025 | Q1 2024 | Change |", "|:--|--:|--:|--:|"]
md += ["| " + " | ".join(r) + " |" for r in reg_rows]
md += [f"| **Total** | **{num(ta, 0, 'en')}** | **{num(tb, 0, 'en')}** | **{chg(ta, tb)}** |", "",
       "## 3. Revenue by product line", "",
       "| Product line | Q1 2025 (EUR k) | Share |", "|:--|--:|--:|",
       "| Sensors | 1,655 | 47.1 % |", "| Gateways | 902 | 25.7 % |", "| Accessories | 311 | 8.9 % |",
       "| Software & licences | 426 | 12.1 % |", "| Services | 217 | 6.2 % |", "",
       "## 4. Headcount", "",
       "| Department | 31 Dec 2024 | 31 Mar 2025 | Open positions |", "|:--|--:|--:|--:|",
       "| Sales | 14 | 15 | 2 |", "| Operations | 22 | 23 | 1 |", "| Engineering | 18 | 19 | 3 |",
       "| IT | 5 | 5 | 0 |", "| Procurement | 3 | 3 | 0 |", "| Finance & HR | 7 | 7 | 1 |", "",
       "## 5. Outlook", "",
       "We confirm the full-year revenue guidance of EUR 15.2–15.8 million. Main risks: semiconductor lead "
       "times for the EG-310 gateway and the renewal of the Brightwave network contract (ends 31 March 2026).", ""]
save_text(QR_REL, "\n".join(md))

BR_REL = "management/reports/2025/Board_Report_Q2_2025.docx"
KPIS = [("Revenue (EUR k)", "3,900", "3,764", "Not met"),
        ("Order intake (EUR k)", "4,200", "4,455", "Met"),
        ("Gross margin", "42.0 %", "43.1 %", "Met"),
        ("EBIT margin", "9.0 %", "8.2 %", "Not met"),
        ("Days sales outstanding (DSO)", "≤ 45 days", "52 days", "Not met"),
        ("On-time delivery", "≥ 95.0 %", "96.4 %", "Met"),
        ("Employee turnover (annualised)", "≤ 8.0 %", "6.5 %", "Met"),
        ("Customer NPS", "≥ 40", "37", "Not met")]
d = new_doc("Calibri", 10.5)
para(d, "Kessler & Thal GmbH", bold=True, size=11, space_after=0)
para(d, "Board Report – Q2 2025", bold=True, size=18)
para(d, "Supervisory board meeting of 24 July 2025 · prepared by Dr. Claudia Thal (CEO) and Martin Kessler (CFO)")
para(d, "1. Key messages", bold=True, size=12)
for t in ["Order intake exceeded plan thanks to the first Maison Bérard orders and the Lindqvist framework.",
          "Revenue missed target by EUR 136k because EG-310 gateway deliveries slipped into July.",
          "Receivables: DSO rose to 52 days; two overdue customers are in the dunning process."]:
    d.add_paragraph(t, style="List Bullet")
para(d, "2. KPI overview", bold=True, size=12)
dtable(d, ["KPI", "Target Q2 2025", "Actual Q2 2025", "Status"], [list(k) for k in KPIS], right=(1, 2),
       widths=[6.5, 3.2, 3.2, 2.4])
para(d)
para(d, "3. Major risks", bold=True, size=12)
dtable(d, ["Risk", "Owner", "Mitigation"],
       [["Gateway component shortage (LTE modem)", "Markus Brandt", "Second source qualified, buffer stock 6 weeks"],
        ["Renewal of Brightwave MSA (ends 31.03.2026)", "Sophie Keller", "RFP to three providers in Q3"],
        ["Planning app stability (Atelier Numérique)", "Tim Okafor", "Escalation meeting held 2 June 2025"]])
para(d)
para(d, "4. Decisions requested", bold=True, size=12)
para(d, "The board is asked to approve the capex budget of EUR 420k for the line 5 retrofit.")
save_docx(d, BR_REL, "Board report Q2 2025", "Finance & Controlling")

OP_REL = "finance/reports/OP-Liste_Debitoren_2025-06-30.txt"
STICHTAG = date(2025, 6, 30)
OPEN_ITEMS = [  # customer, customer no, doc, doc date, due date, amount
    ("Feldmann Bau GmbH", "C-20502", "AR-2025-0219", date(2025, 6, 13), date(2025, 7, 13), "9840.00"),
    ("Lindqvist Retail AB", "C-20417", "AR-2025-0188", date(2025, 5, 12), date(2025, 6, 11), "14326.80"),
    ("Maison Bérard SA", "C-20511", "AR-2025-0120", date(2025, 3, 28), date(2025, 4, 27), "6455.00"),
    ("Nordhavn Marine ApS", "C-20460", "AR-2024-0911", date(2024, 12, 18), date(2025, 1, 17), "1180.00"),
    ("Nordhavn Marine ApS", "C-20460", "AR-2025-0172", date(2025, 5, 2), date(2025, 6, 1), "2267.90"),
    ("Oakridge Controls Inc.", "C-20388", "AR-2025-0097", date(2025, 3, 14), date(2025, 4, 13), "8912.00"),
    ("Polaris Energie GmbH", "C-20155", "AR-2025-0066", date(2025, 2, 20), date(2025, 3, 22), "21760.00"),
    ("Polaris Energie GmbH", "C-20155", "AR-2025-0203", date(2025, 5, 27), date(2025, 6, 26), "5120.40"),
    ("Van der Berg Techniek B.V.", "C-20291", "AR-2025-0141", date(2025, 3, 31), date(2025, 4, 30), "3418.45"),
    ("Van der Berg Techniek B.V.", "C-20291", "AR-2025-0144", date(2025, 4, 1), date(2025, 5, 1), "2904.10"),
]


def overdue(due):
    return max(0, (STICHTAG - due).days)


fmt = "{:<28} {:<8} {:<13} {:<10} {:<10} {:>13} {:>6}"
op = ["KESSLER & THAL GMBH                                           Seite 1",
      "Offene-Posten-Liste Debitoren",
      "Stichtag: 30.06.2025           Währung: EUR           Sortierung: Kunde", "",
      fmt.format("Kunde", "Kd-Nr.", "Beleg", "Belegdat.", "Fällig am", "Betrag EUR", "Tage"),
      "-" * 94]
for c, cno, doc, dd, due, amt in OPEN_ITEMS:
    od = overdue(due)
    op.append(fmt.format(c, cno, doc, d_de(dd), d_de(due), num(amt, 2, "de"), str(od) if od else "-"))
op.append("-" * 94)
op.append(fmt.format("Summe offene Posten", "", "", "", "", num(sum(D(o[5]) for o in OPEN_ITEMS), 2, "de"), ""))
op += ["", "Tage = Tage überfällig zum Stichtag ('-' = noch nicht fällig).",
       "Erstellt: 01.07.2025 07:00 · FiBu-Modul OP-LISTE v5.2 · Benutzer: MKESSLER", ""]
save_text(OP_REL, "\n".join(op))

# ==========================================================================
# requests
# ==========================================================================
REQS = []


def add(rid, request, columns, rows, files, note):
    assert len(rows) == len(files), rid
    for r in rows:
        assert len(r) == len(columns), (rid, r)
    REQS.append(dict(id=rid, request=request, columns=columns, rows=rows, files=files, note=note))


def col(display, name):
    return display["header"].index(name)


# c01 – hardware positions on Nordwerk 2025 invoices (docx + pdf + xlsx)
rows, files = [], []
for inv in NW_INVOICES:
    if inv["date"].year != 2025:
        continue
    disp = NW_DISPLAY[inv["no"]]
    h = disp["header"]
    gi = [h.index(x) for x in ("Warengruppe", "Art", "Kategorie") if x in h][0]
    di = [h.index(x) for x in ("Beschreibung", "Bezeichnung") if x in h][0]
    qi = [h.index(x) for x in ("Menge", "Anzahl") if x in h][0]
    pi = [h.index(x) for x in ("Einzelpreis", "E-Preis (EUR)", "Preis/Einheit (EUR)") if x in h][0]
    for r in disp["rows"]:
        if r[gi] == "Hardware":
            rows.append([r[di], r[qi], r[pi]])
            files.append(inv["rel"])
add("c01", "List every hardware position on Nordwerk's 2025 invoices with description, quantity and unit price.",
    ["description", "quantity", "unit price"], rows, files,
    "Three 2025 Nordwerk invoices in three formats (DOCX 'Warengruppe', PDF 'Art', XLSX 'Kategorie'); "
    "the 2024 invoice RE-2024-1187 must be excluded. XLSX values shown as a de-DE Excel displays the numeric "
    "cells (raw 2, 1689.0 ...). DOCX prices carry ' €', PDF/XLSX prices have no currency sign.")

# c02 – Brightwave SLA, every priority
add("c02", "Under our SLA with Brightwave, how fast do they have to respond to and fix an incident of each priority?",
    ["priority", "response time", "time to fix"], [[r[0], r[2], r[3]] for r in BW_SLA], [BW_SLA_REL] * 4,
    "'time to fix' = column 'Restore time'. The DOCX also has a service-credit table that is not wanted.")

# c03 – contracts expiring before April 2026
rows = [[c[0], c[1], d_de(c[4])] for c in CONTRACTS if c[4] < date(2026, 4, 1)]
add("c03", "Which contracts in the contract register run out before April 2026? Give contract number, partner and end date.",
    ["contract no.", "counterparty", "end date"], rows, [REG_REL] * len(rows),
    "Date condition on column 'Ende' (includes 31.03.2026). Dates are date cells shown as DD.MM.YYYY (de-DE); "
    "the 'Summe Jahreswerte' row is not a contract.")

# c04 – Q2 expenses over 200 EUR
rows = [[d_de(r[0]), r[1], r[4], xl_display(D(r[5]), "money", "de")] for r in EXP_Q2 if D(r[5]) > 200]
add("c04", "Show me all items over 200 euros in the Q2 2025 expense report: date, employee, what it was and amount.",
    ["date", "employee", "description", "amount"], rows, [EXP_Q2_REL] * len(rows),
    "German workbook (Spesenabrechnung), amounts displayed de-DE. Boundary: 'Hotel Berlin Mitte' = 200,00 is NOT over "
    "200; 195,80 excluded. The 'Summe' total row is excluded. Rows in sheet order (sorted by date).")

# c05 – Atelier Numérique invoice lines with unit price > 500
rows, files = [], []
for inv in AN_INVOICES:
    disp = AN_DISPLAY[inv["no"]]
    for line, r in zip(inv["lines"], disp["rows"]):
        if D(line[4]) > 500:
            pi = 4 if inv["fmt"] == "docx" else 3
            rows.append([inv["no"], r[1], r[pi]])
            files.append(inv["rel"])
add("c05", "On Atelier Numérique's invoices this year, which lines have a unit price above 500 €? "
           "Invoice number, line description and unit price please.",
    ["invoice no.", "description", "unit price"], rows, files,
    "French invoices: DOCX 'Désignation'/'Prix unitaire HT' (values with ' €'), PDF 'Description'/'P.U. HT (€)' "
    "(no € sign). Invoice number comes from the header text ('Facture n° :' / 'N° de facture :'). "
    "The maintenance contract (Annexe A) also lists prices but is not an invoice.")

# c06 – Lindqvist orders in 2025 (CSV + DOCX)
rows, files = [], []
for r in ORDER_LINES:
    if r["customer"] == "Lindqvist Retail AB":
        rows.append([r["order"], d_iso(r["date"]), r["desc"], str(r["qty"]), f"{r['price']:.2f}"])
        files.append(SALES_CSV_REL)
for lr in lq_rows:
    rows.append(["SO-2025-0021", "8 July 2025", lr[2], lr[3], lr[5]])
    files.append(LQ_REL)
add("c06", "What has Lindqvist Retail ordered from us in 2025? Order number, order date, product, quantity and price per unit.",
    ["order no.", "order date", "product", "quantity", "unit price"], rows, files,
    "H1 lines come from the order-line export (ISO dates, customer column), the July order from the DOCX order "
    "confirmation (order number and date in the header paragraphs). Unit price = list price before the 5 % discount.")

# c07 – sensors in the standard 2025 price list
rows = [[c[0], c[1], xl_display(D(c[6]), "money", "en")] for c in CATALOG if c[4] == "Sensors"]
add("c07", "How much does each of our sensors cost according to the standard 2025 price list?",
    ["SKU", "product", "price"], rows, [PL25_REL] * len(rows),
    "Category 'Sensors'; price = 'List price (EUR)' (numeric cells, en display). Not the French distributor "
    "price list (different prices) nor the 2024 archive.")

# c08 – empty: open P1 incidents for Atelier Numérique
rows = [[i[0], i[1], i[5]] for i in INCIDENTS if i[3] == "Atelier Numérique" and i[2] == 1
        and i[6] in ("Open", "In progress")]
assert rows == []
add("c08", "Are there any P1 incidents with Atelier Numérique that are still open? List ticket, opened date and description.",
    ["ticket", "opened", "description"], rows, [],
    "True answer is empty: both Atelier Numérique '1 - Critical' tickets are Resolved; Atelier has open tickets "
    "only at priority 2 and 3, and the open critical ticket INC-25-0388 belongs to Nordwerk.")

# c09 – P1 incidents opened in Q2
rows = [[i[0], i[1], i[3], i[5]] for i in INCIDENTS if i[2] == 1 and "2025-04-01" <= i[1] < "2025-07-01"]
add("c09", "List all priority-1 incidents opened between April and June 2025 with ticket number, opened time, vendor and summary.",
    ["ticket", "opened", "vendor", "summary"], rows, [INC_REL] * len(rows),
    "Priority is written '1 - Critical' in the log. 'summary' = column 'Short description'.")

# c10 – revenue by region, Q1 management report
add("c10", "From the Q1 2025 management report, give me revenue per region and the change versus last year.",
    ["region", "revenue Q1 2025", "change"], [[r[0], r[1], r[3]] for r in reg_rows], [QR_REL] * len(reg_rows),
    "Markdown table 'Revenue by region' (EUR thousand). The bold Total row is not a region. Change values use a "
    "true minus sign (U+2212) for France & Benelux.")

# c11 – KPIs that missed target in the Q2 board report
rows = [[k[0], k[1], k[2]] for k in KPIS if k[3] == "Not met"]
add("c11", "Which KPIs missed their target last quarter according to the board report? KPI, target and actual.",
    ["KPI", "target", "actual"], rows, [BR_REL] * len(rows),
    "'last quarter' = Q2 2025 board report; status column says 'Not met'. The risk table is not wanted.")

# c12 – open items more than 60 days overdue
rows = [[o[0], o[2], num(o[5], 2, "de"), str(overdue(o[4]))] for o in OPEN_ITEMS if overdue(o[4]) > 60]
add("c12", "Which customer invoices were more than 60 days overdue at the end of June? Customer, invoice, amount and days overdue.",
    ["customer", "invoice", "amount", "days overdue"], rows, [OP_REL] * len(rows),
    "Fixed-width German OP list (Stichtag 30.06.2025), column 'Tage'. Boundary: AR-2025-0144 has exactly 60 days "
    "and is excluded; AR-2025-0141 has 61.")

# c13 – German request: all positions of the April Nordwerk invoice
inv = [i for i in NW_INVOICES if i["no"] == "RE-2025-0342"][0]
disp = NW_DISPLAY[inv["no"]]
add("c13", "Zeig mir alle Positionen der Nordwerk-Rechnung vom April 2025 mit Bezeichnung, Menge und Einzelpreis.",
    ["Bezeichnung", "Menge", "Einzelpreis"], [[r[2], r[4], r[6]] for r in disp["rows"]], [inv["rel"]] * len(disp["rows"]),
    "Request in German. PDF invoice RE-2025-0342 dated 03.04.2025; unit price column is 'E-Preis (EUR)'. "
    "Quantity '5,5' is a decimal hour count.")

# c14 – Lena Vogt's travel claim
add("c14", "From Lena Vogt's travel expense claim for the Paris trade fair, list each expense with date, type and amount.",
    ["date", "expense type", "amount"], [[r[0], r[1], r[3]] for r in claim_rows], [CLAIM_REL] * len(claim_rows),
    "DOCX claim TEC-2025-031; the 'Total claimed' row is excluded. The same expenses also appear (ISO dates, other "
    "category names) in the Q1 expense report, but the request names the claim.")

# c15 – Bürowelt items over 20 EUR per unit
rows = [[r[3], r[4], r[7]] for (b, r) in zip(BUEROWELT, bw_rows) if D(b[4]) > 20]
add("c15", "Which items on the Bürowelt office-supplies invoice cost more than 20 euros each? Article number, item and price each.",
    ["article no.", "item", "unit price"], rows, [BUEROWELT_REL] * len(rows),
    "Semicolon CSV (UTF-8 with BOM), German decimals. Boundaries: 'Schreibtischunterlage' 20,00 is not more than 20; "
    "'Kugelschreiber' 19,99 excluded.")

# c16 – licence lines on Brightwave's 2025 invoices
rows, files = [], []
for inv in BW_INVOICES:
    disp = BW_DISPLAY[inv["no"]]
    for r in disp["rows"]:
        if "licence" in r[1].lower():
            rows.append([inv["no"], r[1], r[3], r[5]])
            files.append(inv["rel"])
add("c16", "Pull out all licence charges Brightwave billed us in 2025: invoice number, description, quantity and amount.",
    ["invoice no.", "description", "quantity", "amount"], rows, files,
    "Invoice number is in the header paragraphs ('Invoice no.:'). Amount = line total: DOCX 'Amount' with '€' prefix, "
    "PDF 'Line total (EUR)' without currency sign.")

# c17 – Nordwerk 2025 invoices: number, date, gross total
rows, files = [], []
for inv in NW_INVOICES:
    if inv["date"].year == 2025:
        disp = NW_DISPLAY[inv["no"]]
        rows.append([inv["no"], disp["date"], disp["gross"]])
        files.append(inv["rel"])
add("c17", "For each invoice Nordwerk sent us in 2025, give the invoice number, invoice date and the gross total.",
    ["invoice no.", "invoice date", "gross total"], rows, files,
    "Document-level values: gross total is labelled 'Rechnungsbetrag' (DOCX), 'Gesamtbetrag brutto' (PDF, printed "
    "with ' EUR'), 'Bruttobetrag' (XLSX numeric cell, de-DE display). XLSX date is inside the text of row 2.")

# c18 – critical-priority response time in every SLA
rows = [[BRIGHTWAVE, BW_SLA[0][0], BW_SLA[0][2]], [NORDWERK, NW_SLA[0][0], NW_SLA[0][2]],
        [ATELIER, AN_SLA[0][0], AN_SLA[0][2]]]
add("c18", "For each of our SLAs, what is the response time for the most critical priority? Show the supplier too.",
    ["supplier", "priority", "response time"], rows, [BW_SLA_REL, NW_SLA_REL, AN_SLA_REL],
    "Three SLAs in English/German/French; response time is 'Response time' / 'Reaktionszeit' / 'Délai de prise en "
    "charge'. Supplier name as written in each document's parties line. The SLA performance report is not an SLA.")

# c19 – contracts Sophie Keller is responsible for
rows = [[c[1], c[2], xl_display(c[6], "thousands", "de")] for c in CONTRACTS if c[7] == "Sophie Keller"]
add("c19", "Which contracts is Sophie Keller responsible for, and what is each worth per year?",
    ["counterparty", "subject", "annual value"], rows, [REG_REL] * len(rows),
    "Owner column 'Verantwortlich'; annual value 'Jahreswert (EUR)' is a numeric cell with format #,##0 shown de-DE.")

# c20 – taxi rides in the Q1 expense report
rows = [[d_iso(r[0]), r[1], xl_display(D(r[5]), "money", "en")] for r in EXP_Q1 if r[3] == "Taxi"]
add("c20", "In the Q1 2025 expense report, which taxi rides were claimed? Date, employee and amount.",
    ["date", "employee", "amount"], rows, [EXP_Q1_REL] * len(rows),
    "English workbook; date cells shown YYYY-MM-DD, amounts en display. Category 'Taxi'.")

# c21 – 2024 price list items above 100 EUR
rows = [[r[0], r[1], r[4]] for r in pl24 if D(r[4].replace(".", "").replace(",", ".")) > 100]
add("c21", "Which articles cost more than 100 EUR in last year's price list? Article number, name and list price.",
    ["article no.", "name", "list price"], rows, [PL24_REL] * len(rows),
    "Archived 2024 price list: semicolon CSV in Windows-1252 encoding, German decimals ('1.090,00').")

# c22 – hourly rates in the Nordwerk framework agreement
rows = [[r[0], r[2]] for r in NW_RATES if r[1] == "Stunde"]
add("c22", "What hourly rates did we agree with Nordwerk in the framework contract?",
    ["service", "rate per hour"], rows, [NW_FRAME_REL] * len(rows),
    "Anlage 1 Preisblatt, rows with Einheit 'Stunde'. The night/holiday surcharge (+50 %) is a surcharge, not an "
    "hourly rate; Anlage 2 discount tiers not wanted.")

# c23 – monthly charges in the Brightwave MSA
rows = [[r[0], r[1], r[2]] for r in BW_FEES if "month" in r[1]]
add("c23", "What are the monthly recurring charges in our master services agreement with Brightwave?",
    ["service", "charging basis", "charge"], rows, [BW_MSA_REL] * len(rows),
    "PDF Schedule 2; 'monthly' = charging basis containing 'month'. Per-day, per-incident and per-year items excluded.")

# c24 – Feldmann's August order
add("c24", "What did Feldmann Bau order from us in August? Article, description, quantity and unit price.",
    ["article", "description", "quantity", "unit price"], [[r[1], r[2], r[3], r[5]] for r in fb_rows],
    [FB_REL] * len(fb_rows),
    "Plain-text order confirmation SO-2025-0024 dated 04.08.2025 (German, fixed-width). Feldmann's H1 orders in the "
    "CSV export are not from August.")

# c25 – French request: Maison Bérard purchase order
add("c25", "Qu'est-ce que Maison Bérard nous a commandé en juillet ? Référence, désignation, quantité et prix unitaire.",
    ["référence", "désignation", "quantité", "prix unitaire"], [[r[0], r[1], r[2], r[3]] for r in mb_rows],
    [MB_REL] * len(mb_rows),
    "Request in French. Customer purchase order MB-2025-0217 (PDF, 15 juillet 2025); quantity header is 'Qté', "
    "unit price 'P.U. HT'.")

assert len(REQS) == 25
with open(os.path.join(HERE, "requests.json"), "w", encoding="utf-8") as f:
    json.dump(REQS, f, ensure_ascii=False, indent=2)
    f.write("\n")

print(f"{len(DOCS)} documents written to {OUT}")
for p in sorted(DOCS):
    print("  ", p)
print(f"{len(REQS)} requests written to requests.json")
