#!/usr/bin/env python3
"""Deterministic generator for the 'Bursztyn Hurt Spożywczy' held-out document set.

Fictional Polish food wholesaler (Gdańsk) — invoices from several suppliers,
contract register, price list, KPI report, order export, incident log, fleet
service log, temperature checks, timesheet, expense report, training register.

Run:  /work/main/.venv/bin/python generate.py
Writes everything under ./documents/ (next to this script). Output is
byte-identical between runs (fixed dates, normalised ZIP timestamps).
"""
import csv
import io
import os
import re
import shutil
import zipfile
from datetime import date, datetime, time, timezone
from decimal import Decimal, ROUND_HALF_UP

from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from docx import Document
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Pt
from fpdf import FPDF

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "documents")
FONT_DIR = "/usr/share/fonts/truetype/dejavu"
FIXED_DT = datetime(2025, 7, 1, 9, 0, 0)
FIXED_ISO = "2025-07-01T09:00:00Z"

COMPANY = "Bursztyn Hurt Spożywczy Sp. z o.o."
COMPANY_ADDR = "ul. Kartuska 214, 80-122 Gdańsk"
COMPANY_NIP = "NIP 584-271-93-06"

D = Decimal


def q2(x):
    return D(x).quantize(D("0.01"), rounding=ROUND_HALF_UP)


def fmt_pl(x, dec=2):
    """Polish number format: space as thousands separator, comma decimal."""
    s = f"{q2(x):,.{dec}f}" if dec == 2 else f"{D(x):,.{dec}f}"
    return s.replace(",", " ").replace(".", ",")


def fmt_en(x, dec=2):
    return f"{D(x):,.{dec}f}"


def path(*parts):
    p = os.path.join(OUT, *parts)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    return p


# ---------------------------------------------------------------------------
# ZIP normalisation (xlsx / docx): fixed timestamps + fixed core props
# ---------------------------------------------------------------------------
def normalise_zip(fn):
    with zipfile.ZipFile(fn) as z:
        items = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in items:
            if name == "docProps/core.xml":
                txt = data.decode("utf-8")
                txt = re.sub(r"(<dcterms:created[^>]*>)[^<]*(</dcterms:created>)",
                             r"\g<1>" + FIXED_ISO + r"\g<2>", txt)
                txt = re.sub(r"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)",
                             r"\g<1>" + FIXED_ISO + r"\g<2>", txt)
                data = txt.encode("utf-8")
            zi = zipfile.ZipInfo(name, date_time=(2025, 7, 1, 9, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            z.writestr(zi, data)
    with open(fn, "wb") as f:
        f.write(buf.getvalue())


def save_wb(wb, fn):
    wb.properties.creator = "Bursztyn Hurt"
    wb.properties.created = FIXED_DT
    wb.properties.modified = FIXED_DT
    wb.save(fn)
    normalise_zip(fn)


def save_doc(doc, fn):
    cp = doc.core_properties
    cp.author = "Bursztyn Hurt"
    cp.last_modified_by = "Bursztyn Hurt"
    cp.created = FIXED_DT
    cp.modified = FIXED_DT
    cp.revision = 1
    doc.save(fn)
    normalise_zip(fn)


# ---------------------------------------------------------------------------
# PDF helpers
# ---------------------------------------------------------------------------
class PDF(FPDF):
    footer_text = ""

    def footer(self):
        if self.footer_text:
            self.set_y(-12)
            self.set_font("DejaVu", "", 7)
            self.cell(0, 5, self.footer_text.format(p=self.page_no()), align="C")


def new_pdf(title, footer=""):
    pdf = PDF(orientation="P", unit="mm", format="A4")
    pdf.add_font("DejaVu", "", os.path.join(FONT_DIR, "DejaVuSans.ttf"))
    pdf.add_font("DejaVu", "B", os.path.join(FONT_DIR, "DejaVuSans-Bold.ttf"))
    pdf.set_creation_date(FIXED_DT.replace(tzinfo=timezone.utc))
    pdf.set_title(title)
    pdf.set_author("Bursztyn Hurt")
    pdf.set_creator("fpdf2")
    pdf.set_producer("fpdf2")
    pdf.set_auto_page_break(False)
    pdf.set_margins(15, 15, 15)
    pdf.footer_text = footer
    pdf.add_page()
    return pdf


def pdf_row(pdf, cells, widths, aligns, h=6, border=0, bold=False, size=8, fill=False):
    pdf.set_font("DejaVu", "B" if bold else "", size)
    for txt, w, a in zip(cells, widths, aligns):
        pdf.cell(w, h, str(txt), border=border, align=a, fill=fill)
    pdf.ln(h)


def pdf_label(pdf, label, value, lw=42, size=9):
    pdf.set_font("DejaVu", "B", size)
    pdf.cell(lw, 5, label)
    pdf.set_font("DejaVu", "", size)
    pdf.cell(0, 5, value)
    pdf.ln(5)


# ---------------------------------------------------------------------------
# 1-3. Mleczarnia Kaszubska invoices (DOCX, Polish)
# ---------------------------------------------------------------------------
DAIRY_SELLER = "Mleczarnia Kaszubska Spółdzielnia"
DAIRY_INVOICES = [
    {
        "no": "FV/0312/2025", "issued": "2025-03-14", "sold": "2025-03-13", "due": "2025-03-28",
        "folder": ("Finance", "Invoices", "2025", "Mleczarnia_Kaszubska"), "file": "FV_0312_2025.docx",
        "lines": [
            ("Mleko 3,2% 1 l UHT", 480, "szt.", "3.05"),
            ("Masło ekstra 82% 200 g", 240, "szt.", "6.90"),
            ("Śmietana 18% 400 g", 180, "szt.", "4.15"),
            ("Ser gouda blok ok. 3 kg", 36, "kg", "27.40"),
            ("Jogurt naturalny 400 g", 150, "szt.", "3.60"),
            ("Twaróg półtłusty 1 kg", 60, "kg", "16.80"),
        ],
    },
    {
        "no": "FV/0588/2025", "issued": "2025-05-09", "sold": "2025-05-08", "due": "2025-05-23",
        "folder": ("Finance", "Invoices", "2025", "Mleczarnia_Kaszubska"), "file": "FV_0588_2025.docx",
        "lines": [
            ("Mleko 3,2% 1 l UHT", 600, "szt.", "3.10"),
            ("Masło ekstra 82% 200 g", 200, "szt.", "7.20"),
            ("Ser gouda blok ok. 3 kg", 42, "kg", "27.90"),
            ("Kefir 400 g", 120, "szt.", "3.25"),
            ("Ser twarogowy kremowy 1,5 kg", 24, "szt.", "28.50"),
            ("Śmietanka 30% 1 l", 90, "szt.", "11.40"),
        ],
    },
    {
        "no": "FV/1187/2024", "issued": "2024-12-11", "sold": "2024-12-10", "due": "2024-12-27",
        "folder": ("Finance", "Invoices", "2024", "Mleczarnia_Kaszubska"), "file": "FV_1187_2024.docx",
        "lines": [
            ("Mleko 3,2% 1 l UHT", 720, "szt.", "2.95"),
            ("Masło ekstra 82% 200 g", 320, "szt.", "7.45"),
            ("Śmietana 18% 400 g", 260, "szt.", "4.05"),
            ("Ser gouda blok ok. 3 kg", 50, "kg", "26.80"),
            ("Twaróg półtłusty 1 kg", 80, "kg", "16.40"),
        ],
    },
]


def set_cell(cell, text, bold=False, align=None, size=9):
    cell.text = ""
    p = cell.paragraphs[0]
    run = p.add_run(text)
    run.bold = bold
    run.font.size = Pt(size)
    if align == "R":
        p.alignment = WD_ALIGN_PARAGRAPH.RIGHT
    elif align == "C":
        p.alignment = WD_ALIGN_PARAGRAPH.CENTER


def gen_dairy_invoices():
    for inv in DAIRY_INVOICES:
        doc = Document()
        st = doc.styles["Normal"]
        st.font.name = "Calibri"
        st.font.size = Pt(10)
        p = doc.add_paragraph()
        r = p.add_run(DAIRY_SELLER)
        r.bold = True
        r.font.size = Pt(14)
        doc.add_paragraph("ul. Mleczarska 7, 83-300 Kartuzy · NIP 589-104-66-20 · tel. 58 681 22 40")
        doc.add_paragraph("Rachunek: PKO BP 12 1020 1811 0000 0402 0031 7788")
        h = doc.add_paragraph()
        r = h.add_run(f"FAKTURA VAT nr {inv['no']}")
        r.bold = True
        r.font.size = Pt(13)
        doc.add_paragraph(f"Data wystawienia: {inv['issued']}")
        doc.add_paragraph(f"Data sprzedaży: {inv['sold']}")
        doc.add_paragraph(f"Termin płatności: {inv['due']}")
        doc.add_paragraph("Forma płatności: przelew")
        doc.add_paragraph(f"Sprzedawca: {DAIRY_SELLER}")
        doc.add_paragraph(f"Nabywca: {COMPANY}, {COMPANY_ADDR}, {COMPANY_NIP}")

        hdr = ["Lp.", "Nazwa towaru", "Ilość", "J.m.", "Cena netto (PLN)", "Wartość netto (PLN)", "VAT %"]
        t = doc.add_table(rows=1, cols=len(hdr))
        t.style = "Table Grid"
        for c, txt in zip(t.rows[0].cells, hdr):
            set_cell(c, txt, bold=True, align="C")
        net = D(0)
        for i, (name, qty, unit, price) in enumerate(inv["lines"], 1):
            val = q2(D(qty) * D(price))
            net += val
            row = t.add_row().cells
            vals = [str(i), name, str(qty), unit, fmt_pl(price), fmt_pl(val), "5"]
            al = ["C", None, "R", "C", "R", "R", "C"]
            for c, txt, a in zip(row, vals, al):
                set_cell(c, txt, align=a)
        vat = q2(net * D("0.05"))
        gross = net + vat
        doc.add_paragraph("")
        s = doc.add_table(rows=3, cols=2)
        s.style = "Table Grid"
        for row, (lab, v) in zip(s.rows, [("Razem netto", net), ("VAT 5%", vat), ("Razem brutto", gross)]):
            set_cell(row.cells[0], lab, bold=True)
            set_cell(row.cells[1], fmt_pl(v) + " PLN", align="R", bold=(lab == "Razem brutto"))
        doc.add_paragraph("")
        doc.add_paragraph(f"Do zapłaty: {fmt_pl(gross)} PLN")
        doc.add_paragraph("Wystawił(a): Halina Formela")
        save_doc(doc, path(*inv["folder"], inv["file"]))


# ---------------------------------------------------------------------------
# 4. Ogrody Żuławskie invoice (XLSX with letterhead, Polish headers)
# ---------------------------------------------------------------------------
def gen_ogrody_invoice():
    wb = Workbook()
    ws = wb.active
    ws.title = "Faktura"
    bold = Font(bold=True)
    ws["A1"] = "Ogrody Żuławskie s.c. — Gospodarstwo Warzywne"
    ws["A1"].font = Font(bold=True, size=14)
    ws["A2"] = "ul. Żuławska 18, 82-100 Nowy Dwór Gdański · NIP 578-302-11-46"
    ws["A4"] = "Faktura nr:"
    ws["B4"] = "OZ/2025/061"
    ws["A5"] = "Data wystawienia:"
    ws["B5"] = date(2025, 4, 22)
    ws["B5"].number_format = "dd.mm.yyyy"
    ws["A6"] = "Termin płatności:"
    ws["B6"] = date(2025, 5, 6)
    ws["B6"].number_format = "dd.mm.yyyy"
    ws["D4"] = "Nabywca:"
    ws["E4"] = COMPANY
    ws["E5"] = COMPANY_ADDR
    for c in ("A4", "A5", "A6", "D4"):
        ws[c].font = bold
    hdr = ["Kod", "Towar", "Ilość (kg)", "Cena za kg (PLN)", "Wartość netto (PLN)", "Stawka VAT"]
    thin = Side(style="thin")
    for j, h in enumerate(hdr, 1):
        c = ws.cell(row=8, column=j, value=h)
        c.font = bold
        c.fill = PatternFill("solid", fgColor="DDEBD2")
        c.border = Border(top=thin, bottom=thin, left=thin, right=thin)
        c.alignment = Alignment(horizontal="center", wrap_text=True)
    lines = [
        ("OZ-101", "Ziemniaki jadalne", 400, "1.35"),
        ("OZ-114", "Marchew myta", 150, "2.10"),
        ("OZ-120", "Cebula żółta", 120, "2.40"),
        ("OZ-133", "Buraki czerwone", 80, "2.20"),
        ("OZ-141", "Kapusta biała", 95, "1.90"),
        ("OZ-152", "Pietruszka korzeń", 40, "6.80"),
        ("OZ-167", "Pomidory szklarniowe", 100, "8.90"),
        ("OZ-175", "Ogórki gruntowe", 60, "5.40"),
    ]
    r = 9
    net = D(0)
    for code, name, qty, price in lines:
        val = q2(D(qty) * D(price))
        net += val
        ws.cell(row=r, column=1, value=code)
        ws.cell(row=r, column=2, value=name)
        c = ws.cell(row=r, column=3, value=qty); c.number_format = "#,##0"
        c = ws.cell(row=r, column=4, value=float(price)); c.number_format = "#,##0.00"
        c = ws.cell(row=r, column=5, value=float(val)); c.number_format = "#,##0.00"
        c = ws.cell(row=r, column=6, value=0.05); c.number_format = "0%"
        r += 1
    vat = q2(net * D("0.05"))
    r += 1
    for lab, v in [("Razem netto", net), ("VAT 5%", vat), ("Razem brutto", net + vat)]:
        ws.cell(row=r, column=4, value=lab).font = bold
        c = ws.cell(row=r, column=5, value=float(v)); c.number_format = "#,##0.00"
        if lab == "Razem brutto":
            c.font = bold
        r += 1
    ws.cell(row=r + 1, column=1, value="Płatne przelewem na rachunek: BS Nowy Dwór Gdański 44 8309 0000 0012 4455 2000 0010")
    for col, w in zip("ABCDEF", (16, 26, 12, 16, 20, 11)):
        ws.column_dimensions[col].width = w
    save_wb(wb, path("Finance", "Invoices", "2025", "Ogrody_Zulawskie", "Faktura_OZ-2025-061.xlsx"))


# ---------------------------------------------------------------------------
# 5-6. Baltic Cold Logistics invoices (PDF, English, drawn cells)
# ---------------------------------------------------------------------------
BCL = [
    {
        "no": "INV-BCL-25-0417", "date": "2025-04-30", "due": "2025-05-30",
        "period": "01.04.2025 – 30.04.2025", "file": "INV-BCL-25-0417.pdf",
        "lines": [
            ("2025-04-03", "Gdańsk – Warszawa", "Reefer FTL +2/+4 °C", 1, "trip", "3450.00"),
            ("2025-04-08", "Gdańsk – Bydgoszcz", "Reefer LTL", 6, "pallet", "185.00"),
            ("2025-04-10", "Gdańsk – Warszawa", "Reefer FTL -20 °C", 1, "trip", "3780.00"),
            ("2025-04-15", "Gdańsk – Olsztyn", "Reefer LTL", 8, "pallet", "210.00"),
            ("2025-04-17", "Gdańsk – Warszawa", "Reefer FTL +2/+4 °C", 1, "trip", "3450.00"),
            ("2025-04-24", "Gdynia port – Gdańsk", "Container drayage", 2, "container", "890.00"),
            ("2025-04-29", "—", "Cold storage (pallet-days)", 140, "pallet-day", "6.50"),
        ],
    },
    {
        "no": "INV-BCL-25-0522", "date": "2025-05-31", "due": "2025-06-30",
        "period": "01.05.2025 – 31.05.2025", "file": "INV-BCL-25-0522.pdf",
        "lines": [
            ("2025-05-06", "Gdańsk – Warszawa", "Reefer FTL +2/+4 °C", 1, "trip", "3520.00"),
            ("2025-05-09", "Gdańsk – Toruń", "Reefer LTL", 10, "pallet", "195.00"),
            ("2025-05-14", "Gdańsk – Warszawa", "Reefer FTL -20 °C", 1, "trip", "3860.00"),
            ("2025-05-20", "Gdańsk – Bydgoszcz", "Reefer LTL", 12, "pallet", "185.00"),
            ("2025-05-27", "Gdańsk – Warszawa", "Reefer FTL +2/+4 °C", 2, "trip", "3520.00"),
            ("2025-05-30", "—", "Cold storage (pallet-days)", 155, "pallet-day", "6.50"),
        ],
    },
]


def gen_bcl_invoices():
    for inv in BCL:
        pdf = new_pdf(f"Invoice {inv['no']}", footer="Baltic Cold Logistics Sp. z o.o. · KRS 0000718204 · Page {p}")
        pdf.set_font("DejaVu", "B", 15)
        pdf.cell(0, 8, "Baltic Cold Logistics Sp. z o.o.")
        pdf.ln(8)
        pdf.set_font("DejaVu", "", 8)
        pdf.cell(0, 4, "ul. Hutnicza 40, 81-061 Gdynia, Poland · VAT ID PL5862301147 · accounts@balticcold.example")
        pdf.ln(10)
        pdf.set_font("DejaVu", "B", 13)
        pdf.cell(0, 7, "INVOICE")
        pdf.ln(9)
        pdf_label(pdf, "Invoice No.:", inv["no"])
        pdf_label(pdf, "Invoice date:", inv["date"])
        pdf_label(pdf, "Service period:", inv["period"])
        pdf_label(pdf, "Due date:", inv["due"])
        pdf_label(pdf, "Bill to:", f"{COMPANY}, {COMPANY_ADDR}")
        pdf_label(pdf, "Customer VAT ID:", "PL5842719306")
        pdf.ln(4)
        widths = [20, 36, 44, 12, 20, 24, 24]
        aligns = ["C", "L", "L", "R", "C", "R", "R"]
        pdf.set_fill_color(225, 232, 240)
        pdf_row(pdf, ["Date", "Route", "Service", "Qty", "Unit", "Unit price (PLN)", "Amount (PLN)"],
                widths, ["C"] * 7, h=7, border=1, bold=True, size=7.5, fill=True)
        net = D(0)
        for d_, route, svc, qty, unit, price in inv["lines"]:
            amt = q2(D(qty) * D(price))
            net += amt
            pdf_row(pdf, [d_, route, svc, f"{qty}", unit, fmt_en(price), fmt_en(amt)],
                    widths, aligns, h=6.5, border=1, size=7.5)
        vat = q2(net * D("0.23"))
        tot = net + vat
        for lab, v, b in [("Subtotal (net)", net, False), ("VAT 23%", vat, False), ("Total due (PLN)", tot, True)]:
            pdf.set_x(15 + sum(widths[:5]))
            pdf.set_font("DejaVu", "B" if b else "", 8)
            pdf.cell(widths[5], 6.5, lab, border=1)
            pdf.cell(widths[6], 6.5, fmt_en(v), border=1, align="R")
            pdf.ln(6.5)
        pdf.ln(6)
        pdf.set_font("DejaVu", "", 8)
        pdf.multi_cell(0, 4.5, "Payment by bank transfer to mBank 61 1140 2004 0000 3902 7765 4321, quoting the invoice number.\n"
                               "Temperature records for each shipment are available on request.")
        pdf.output(path("Finance", "Invoices", "2025", "Baltic_Cold_Logistics", inv["file"]))


# ---------------------------------------------------------------------------
# 7. Nordic Packaging AB invoice (PDF, EUR, header rule only)
# ---------------------------------------------------------------------------
def gen_nordic_invoice():
    pdf = new_pdf("Faktura / Invoice NP-INV-88213", footer="Nordic Packaging AB · Org.nr 556712-3489 · Sida/Page {p}")
    pdf.set_font("DejaVu", "B", 15)
    pdf.cell(0, 8, "Nordic Packaging AB")
    pdf.ln(8)
    pdf.set_font("DejaVu", "", 8)
    pdf.cell(0, 4, "Industrigatan 12, 212 25 Malmö, Sverige · Momsreg.nr / VAT no. SE556712348901")
    pdf.ln(10)
    pdf.set_font("DejaVu", "B", 13)
    pdf.cell(0, 7, "FAKTURA / INVOICE")
    pdf.ln(9)
    lw = 62
    pdf_label(pdf, "Fakturanr / Invoice no.:", "NP-INV-88213", lw)
    pdf_label(pdf, "Fakturadatum / Invoice date:", "2025-02-18", lw)
    pdf_label(pdf, "Förfallodatum / Due date:", "2025-03-20", lw)
    pdf_label(pdf, "Er referens / Your ref.:", "PO-2025-0041 (P. Zieliński)", lw)
    pdf_label(pdf, "Kund / Customer:", f"{COMPANY}, {COMPANY_ADDR}, Poland", lw)
    pdf_label(pdf, "Leveransvillkor / Delivery:", "DAP Gdańsk (Incoterms 2020)", lw)
    pdf.ln(4)
    widths = [20, 72, 18, 14, 28, 28]
    hdr = ["Art.nr", "Description", "Qty", "Unit", "Price/unit EUR", "Total EUR"]
    pdf.set_font("DejaVu", "B", 8)
    for txt, w in zip(hdr, widths):
        pdf.cell(w, 7, txt, border="B", align="L" if txt in ("Art.nr", "Description") else ("C" if txt == "Unit" else "R"))
    pdf.ln(7)
    lines = [
        ("NP-3312", "Thermal insulated box 40 L, EPS", 300, "pcs", "2.85"),
        ("NP-3320", "Gel ice pack 600 g", 1200, "pcs", "0.42"),
        ("NP-4105", "Stretch film 23 µm, 500 mm x 300 m", 48, "roll", "9.60"),
        ("NP-5140", "Corrugated box 600x400x300, 5-ply", 800, "pcs", "0.88"),
        ("NP-6002", "Pallet labels, thermal, 100x150 (1,000/roll)", 20, "roll", "25.00"),
        ("NP-7210", "Food-grade liner bags 80x120 cm", 2000, "pcs", "0.19"),
        ("FRT-01", "Freight DAP Gdańsk", 1, "lot", "320.00"),
    ]
    net = D(0)
    for code, desc, qty, unit, price in lines:
        tot = q2(D(qty) * D(price))
        net += tot
        pdf_row(pdf, [code, desc, f"{qty:,}", unit, fmt_en(price), fmt_en(tot)], widths,
                ["L", "L", "R", "C", "R", "R"], h=6.5, size=8)
    pdf.ln(2)
    x0 = 15 + sum(widths[:4])
    for lab, v, b in [("Netto / Net", fmt_en(net), False),
                      ("Moms / VAT 0% (reverse charge)", "0.00", False),
                      ("Att betala / Total EUR", fmt_en(net), True)]:
        pdf.set_x(x0 - 20)
        pdf.set_font("DejaVu", "B" if b else "", 8)
        pdf.cell(48, 6, lab)
        pdf.cell(28, 6, v, align="R")
        pdf.ln(6)
    pdf.ln(6)
    pdf.set_font("DejaVu", "", 7.5)
    pdf.multi_cell(0, 4, "Omvänd betalningsskyldighet / Reverse charge, Art. 196 Directive 2006/112/EC.\n"
                         "Bankgiro 5123-8870 · IBAN SE45 5000 0000 0583 9825 7466 · BIC ESSESESS")
    pdf.output(path("Finance", "Invoices", "2025", "Nordic_Packaging_AB", "NP-INV-88213.pdf"))


# ---------------------------------------------------------------------------
# 8. Contract register (XLSX, English, title rows + total row)
# ---------------------------------------------------------------------------
CONTRACTS = [
    ("UM/2021/008", "Sieć Delikatesów Mewa", "Customer – retail", date(2021, 6, 1), date(2025, 5, 31), 264000, "Terminated", "Karolina Lewandowska"),
    ("UM/2022/004", "Mleczarnia Kaszubska Spółdzielnia", "Supply – dairy", date(2022, 3, 1), date(2026, 2, 28), 310000, "Active", "Marta Wiśniewska"),
    ("UM/2022/019", "Frigo-Serwis Tczew", "Maintenance – refrigeration", date(2022, 11, 1), date(2025, 10, 31), 44400, "Active", "Jakub Wójcik"),
    ("UM/2023/011", "Baltic Cold Logistics Sp. z o.o.", "Transport", date(2023, 7, 1), date(2025, 6, 30), 186500, "Expiring", "Tomasz Kowalski"),
    ("UM/2023/017", "Ogrody Żuławskie s.c.", "Supply – vegetables", date(2023, 4, 15), date(2026, 4, 14), 92000, "Active", "Marta Wiśniewska"),
    ("UM/2023/021", "Hotel Neptun Sopot", "Customer – HoReCa", date(2024, 1, 1), date(2025, 12, 31), 412000, "Active", "Karolina Lewandowska"),
    ("UM/2024/002", "Nordic Packaging AB", "Supply – packaging", date(2024, 2, 1), date(2026, 1, 31), 68400, "Active", "Piotr Zieliński"),
    ("UM/2024/009", "CleanPro Pomorze Sp. z o.o.", "Cleaning services", date(2024, 5, 1), date(2025, 4, 30), 54000, "Expired", "Anna Nowak"),
    ("UM/2024/014", "EkoWywóz Gdańsk Sp. z o.o.", "Waste collection", date(2024, 9, 1), date(2025, 8, 31), 21600, "Active", "Anna Nowak"),
    ("UM/2024/020", "Restauracja Przystań Gdynia", "Customer – HoReCa", date(2024, 10, 1), date(2025, 9, 30), 96000, "Active", "Karolina Lewandowska"),
    ("UM/2025/003", "CleanPro Pomorze Sp. z o.o.", "Cleaning services", date(2025, 5, 1), date(2027, 4, 30), 58800, "Active", "Anna Nowak"),
    ("UM/2025/006", "Auto-Flota Leasing S.A.", "Vehicle leasing", date(2025, 2, 1), date(2029, 1, 31), 238200, "Active", "Tomasz Kowalski"),
    ("UM/2025/010", "Sieć Delikatesów Mewa", "Customer – retail", date(2025, 6, 1), date(2027, 5, 31), 290000, "Active", "Karolina Lewandowska"),
    ("UM/2025/012", "Kancelaria Radcy Prawnego J. Bielecka", "Legal services", date(2025, 3, 1), date(2026, 2, 28), 100000, "Active", "Piotr Zieliński"),
]


def gen_contract_register():
    wb = Workbook()
    ws = wb.active
    ws.title = "Register"
    ws["A1"] = f"{COMPANY} — Contract Register"
    ws["A1"].font = Font(bold=True, size=14)
    ws["A2"] = "Status as of 30.06.2025 · maintained by Legal & Admin (A. Nowak)"
    ws["A2"].font = Font(italic=True, size=9)
    hdr = ["Contract ID", "Counterparty", "Category", "Start Date", "End Date", "Annual Value (PLN)", "Status", "Responsible"]
    thin = Side(style="thin")
    for j, h in enumerate(hdr, 1):
        c = ws.cell(row=4, column=j, value=h)
        c.font = Font(bold=True, color="FFFFFF")
        c.fill = PatternFill("solid", fgColor="7A4B12")
        c.border = Border(bottom=thin)
    r = 5
    total = 0
    for row in CONTRACTS:
        for j, v in enumerate(row, 1):
            c = ws.cell(row=r, column=j, value=v)
            if j in (4, 5):
                c.number_format = "dd.mm.yyyy"
            if j == 6:
                c.number_format = "#,##0.00"
        total += row[5]
        r += 1
    ws.cell(row=r, column=1, value="Total").font = Font(bold=True)
    c = ws.cell(row=r, column=6, value=total)
    c.number_format = "#,##0.00"
    c.font = Font(bold=True)
    ws.freeze_panes = "A5"
    for col, w in zip("ABCDEFGH", (14, 36, 28, 12, 12, 18, 12, 22)):
        ws.column_dimensions[col].width = w
    ws2 = wb.create_sheet("Notes")
    ws2["A1"] = "Status values: Active, Expiring (renewal under negotiation), Expired, Terminated."
    ws2["A2"] = "Annual Value is the estimated yearly net value in PLN; EUR contracts converted at NBP rate of signing date."
    save_wb(wb, path("Contracts", "Contract_Register_2025.xlsx"))


# ---------------------------------------------------------------------------
# 9. Price list (PDF, Polish, no rules, continued across two pages)
# ---------------------------------------------------------------------------
PRICE_LIST = [
    ("WA-401", "Ziemniaki jadalne", "Warzywa", "worek 15 kg", "27.00", "5%"),
    ("WA-404", "Marchew myta", "Warzywa", "worek 10 kg", "24.00", "5%"),
    ("WA-407", "Cebula żółta", "Warzywa", "worek 10 kg", "28.00", "5%"),
    ("WA-410", "Pomidory szklarniowe", "Warzywa", "kg", "11.90", "5%"),
    ("WA-413", "Ogórki gruntowe", "Warzywa", "kg", "7.80", "5%"),
    ("WA-416", "Sałata lodowa", "Warzywa", "szt.", "4.90", "5%"),
    ("WA-419", "Papryka czerwona", "Warzywa", "kg", "14.50", "5%"),
    ("WA-422", "Pieczarki", "Warzywa", "kg", "12.40", "5%"),
    ("WA-425", "Kapusta biała", "Warzywa", "kg", "3.10", "5%"),
    ("OW-501", "Jabłka Ligol", "Owoce", "skrzynka 10 kg", "32.00", "5%"),
    ("OW-504", "Cytryny", "Owoce", "kg", "9.90", "5%"),
    ("OW-507", "Truskawki krajowe", "Owoce", "łubianka 2 kg", "29.80", "5%"),
    ("OW-510", "Banany", "Owoce", "kg", "6.90", "5%"),
    ("OW-513", "Borówka amerykańska", "Owoce", "12 × 125 g", "54.00", "5%"),
    ("MD-101", "Filet z kurczaka, świeży", "Mięso i drób", "kg", "24.90", "5%"),
    ("MD-104", "Udko z kurczaka b/k", "Mięso i drób", "kg", "19.40", "5%"),
    ("MD-110", "Schab wieprzowy b/k", "Mięso i drób", "kg", "22.80", "5%"),
    ("MD-115", "Karkówka wieprzowa b/k", "Mięso i drób", "kg", "23.60", "5%"),
    ("MD-122", "Polędwica wołowa", "Mięso i drób", "kg", "139.00", "5%"),
    ("MD-128", "Mięso mielone wołowo-wieprzowe", "Mięso i drób", "kg", "21.50", "5%"),
    ("MD-134", "Pierś z indyka", "Mięso i drób", "kg", "32.40", "5%"),
    ("MD-140", "Boczek wędzony parzony", "Mięso i drób", "kg", "27.90", "5%"),
    ("RB-201", "Filet z dorsza, świeży", "Ryby", "kg", "69.00", "5%"),
    ("RB-205", "Łosoś norweski, filet ze skórą", "Ryby", "kg", "79.50", "5%"),
    ("RB-210", "Śledź bałtycki, tusza", "Ryby", "kg", "14.90", "5%"),
    ("RB-214", "Pstrąg tęczowy, patroszony", "Ryby", "kg", "36.80", "5%"),
    ("RB-220", "Makrela wędzona", "Ryby", "kg", "26.40", "5%"),
    ("NB-301", "Mleko 3,2% UHT", "Nabiał", "12 × 1 l", "43.20", "5%"),
    ("NB-304", "Masło ekstra 82%", "Nabiał", "20 × 200 g", "168.00", "5%"),
    ("NB-307", "Śmietana 18%", "Nabiał", "10 × 400 g", "52.50", "5%"),
    ("NB-310", "Śmietanka kremówka 30%", "Nabiał", "1 l", "13.90", "5%"),
    ("NB-313", "Ser gouda, blok", "Nabiał", "kg", "34.90", "5%"),
    ("NB-316", "Twaróg półtłusty", "Nabiał", "kg", "19.80", "5%"),
    ("NB-319", "Jogurt naturalny", "Nabiał", "6 × 400 g", "25.80", "5%"),
    ("NB-322", "Kefir", "Nabiał", "6 × 400 g", "19.90", "5%"),
    ("NB-325", "Mozzarella fior di latte", "Nabiał", "8 × 125 g", "31.20", "5%"),
    ("NB-328", "Ser twarogowy kremowy", "Nabiał", "1,5 kg", "36.90", "5%"),
    ("NB-331", "Jaja kurze L, klasa A", "Nabiał", "30 szt.", "20.00", "5%"),
    ("NB-334", "Parmezan Grana Padano", "Nabiał", "kg", "89.00", "5%"),
    ("MR-601", "Frytki 10 mm", "Mrożonki", "4 × 2,5 kg", "64.00", "5%"),
    ("MR-604", "Mieszanka warzywna 7-składnikowa", "Mrożonki", "2,5 kg", "21.90", "5%"),
    ("MR-607", "Pierogi ruskie", "Mrożonki", "2 kg", "38.50", "5%"),
    ("MR-610", "Lody waniliowe", "Mrożonki", "5 l", "42.00", "5%"),
    ("SU-701", "Mąka pszenna typ 450", "Artykuły suche", "25 kg", "62.50", "5%"),
    ("SU-704", "Cukier biały", "Artykuły suche", "10 × 1 kg", "39.00", "5%"),
    ("SU-707", "Olej rzepakowy", "Artykuły suche", "5 l", "38.90", "5%"),
    ("SU-710", "Ryż długoziarnisty", "Artykuły suche", "5 kg", "27.50", "5%"),
    ("SU-713", "Makaron penne", "Artykuły suche", "5 kg", "31.00", "5%"),
    ("SU-716", "Kawa ziarnista 100% arabica", "Artykuły suche", "1 kg", "79.00", "23%"),
    ("NP-801", "Woda mineralna niegazowana", "Napoje", "12 × 0,5 l", "14.40", "23%"),
    ("NP-804", "Sok jabłkowy NFC", "Napoje", "6 × 1 l", "35.40", "5%"),
    ("NP-807", "Lemoniada cytrynowa", "Napoje", "24 × 0,33 l", "74.40", "23%"),
]
PRICE_ROWS_PAGE1 = 33


def gen_price_list():
    pdf = new_pdf("Cennik HoReCa II kw. 2025", footer="Bursztyn Hurt Spożywczy · Cennik HoReCa II kw. 2025 · Strona {p} z 2")
    widths = [18, 62, 28, 30, 30, 12]
    aligns = ["L", "L", "L", "L", "R", "R"]
    hdr = ["Indeks", "Nazwa produktu", "Kategoria", "Opakowanie", "Cena netto (PLN)", "VAT"]

    def header(first):
        pdf.set_font("DejaVu", "B", 14)
        pdf.cell(0, 8, "CENNIK HoReCa — II kwartał 2025" + ("" if first else " (ciąg dalszy)"))
        pdf.ln(8)
        if first:
            pdf.set_font("DejaVu", "", 8.5)
            pdf.cell(0, 5, f"{COMPANY} · {COMPANY_ADDR} · zamowienia@bursztyn-hurt.example · tel. 58 520 14 00")
            pdf.ln(5)
            pdf.cell(0, 5, "Ceny netto w PLN, ważne od 01.04.2025 do 30.06.2025. Minimalna wartość zamówienia: 400 PLN netto.")
            pdf.ln(8)
        else:
            pdf.ln(3)
        pdf_row(pdf, hdr, widths, aligns, h=6, bold=True, size=8.5)
        pdf.ln(1)

    header(True)
    for i, (idx, name, cat, pack, price, vat) in enumerate(PRICE_LIST):
        if i == PRICE_ROWS_PAGE1:
            pdf.ln(2)
            pdf.set_font("DejaVu", "", 7.5)
            pdf.cell(0, 5, "ciąg dalszy na następnej stronie →", align="R")
            pdf.add_page()
            header(False)
        pdf_row(pdf, [idx, name, cat, pack, fmt_pl(price), vat], widths, aligns, h=6, size=8.5)
    pdf.ln(4)
    pdf.set_font("DejaVu", "", 7.5)
    pdf.multi_cell(0, 4, "Rabaty: od 5 000 PLN netto miesięcznie — 3%, od 15 000 PLN — 5%. "
                         "Dostawa gratis na terenie Trójmiasta przy zamówieniu od 800 PLN netto.")
    pdf.output(path("Sales", "Price_Lists", "Cennik_HoReCa_2025-Q2.pdf"))


# ---------------------------------------------------------------------------
# 10. Sales KPI report (XLSX, English, title + totals row, % formats)
# ---------------------------------------------------------------------------
KPI = [
    # month, region, net sales, orders, margin, on-time
    (1, "Gdańsk", 612340, 402, 0.248, 0.965), (1, "Gdynia", 388120, 251, 0.261, 0.972), (1, "Kaszuby", 205480, 164, 0.223, 0.938),
    (2, "Gdańsk", 584905, 389, 0.252, 0.959), (2, "Gdynia", 371460, 240, 0.257, 0.968), (2, "Kaszuby", 198730, 158, 0.229, 0.946),
    (3, "Gdańsk", 655210, 431, 0.245, 0.949), (3, "Gdynia", 402880, 262, 0.264, 0.975), (3, "Kaszuby", 221150, 171, 0.231, 0.953),
    (4, "Gdańsk", 701560, 455, 0.250, 0.961), (4, "Gdynia", 436290, 279, 0.268, 0.960), (4, "Kaszuby", 239870, 180, 0.236, 0.950),
    (5, "Gdańsk", 748330, 478, 0.256, 0.970), (5, "Gdynia", 468150, 301, 0.272, 0.927), (5, "Kaszuby", 262440, 193, 0.240, 0.962),
    (6, "Gdańsk", 792615, 502, 0.259, 0.964), (6, "Gdynia", 521300, 327, 0.275, 0.956), (6, "Kaszuby", 288905, 206, 0.244, 0.958),
]


def gen_kpi():
    wb = Workbook()
    ws = wb.active
    ws.title = "KPI H1 2025"
    ws["A1"] = "Sales KPI Report — H1 2025"
    ws["A1"].font = Font(bold=True, size=14)
    ws["A2"] = "Net sales in PLN excl. VAT · Gross margin on net sales · On-time = deliveries within agreed window"
    ws["A2"].font = Font(italic=True, size=9)
    hdr = ["Month", "Region", "Net Sales (PLN)", "Orders", "Avg Order Value (PLN)", "Gross Margin %", "On-Time Delivery %"]
    for j, h in enumerate(hdr, 1):
        c = ws.cell(row=4, column=j, value=h)
        c.font = Font(bold=True)
        c.fill = PatternFill("solid", fgColor="F3E2C7")
    r = 5
    tot_sales = 0
    tot_orders = 0
    for m, reg, sales, orders, gm, otd in KPI:
        c = ws.cell(row=r, column=1, value=date(2025, m, 1)); c.number_format = "mmm yyyy"
        ws.cell(row=r, column=2, value=reg)
        c = ws.cell(row=r, column=3, value=sales); c.number_format = "#,##0"
        c = ws.cell(row=r, column=4, value=orders); c.number_format = "0"
        aov = float(q2(D(sales) / D(orders)))
        c = ws.cell(row=r, column=5, value=aov); c.number_format = "#,##0.00"
        c = ws.cell(row=r, column=6, value=gm); c.number_format = "0.0%"
        c = ws.cell(row=r, column=7, value=otd); c.number_format = "0.0%"
        tot_sales += sales
        tot_orders += orders
        r += 1
    ws.cell(row=r, column=1, value="H1 total").font = Font(bold=True)
    c = ws.cell(row=r, column=3, value=tot_sales); c.number_format = "#,##0"; c.font = Font(bold=True)
    c = ws.cell(row=r, column=4, value=tot_orders); c.number_format = "0"; c.font = Font(bold=True)
    c = ws.cell(row=r, column=5, value=float(q2(D(tot_sales) / D(tot_orders)))); c.number_format = "#,##0.00"; c.font = Font(bold=True)
    for col, w in zip("ABCDEFG", (11, 11, 16, 9, 20, 15, 19)):
        ws.column_dimensions[col].width = w
    save_wb(wb, path("Sales", "Reports", "Sales_KPI_2025_H1.xlsx"))


# ---------------------------------------------------------------------------
# 11. Order export (CSV, semicolons, decimal commas, Polish)
# ---------------------------------------------------------------------------
ORDERS = [
    ("ZAM/2025/05/001", "02.05.2025", "Hotel Neptun Sopot", "Sopot", "8245.60", "zrealizowane"),
    ("ZAM/2025/05/002", "02.05.2025", "Restauracja Przystań", "Gdynia", "3120.00", "zrealizowane"),
    ("ZAM/2025/05/003", "05.05.2025", "Delikatesy Mewa – sklep nr 4", "Gdańsk", "5480.25", "zrealizowane"),
    ("ZAM/2025/05/004", "06.05.2025", "Bistro Molo", "Sopot", "1875.40", "anulowane"),
    ("ZAM/2025/05/005", "07.05.2025", "Hotel Neptun Sopot", "Sopot", "7930.00", "zrealizowane"),
    ("ZAM/2025/05/006", "08.05.2025", "Pizzeria Da Nonna", "Gdańsk", "2240.75", "zrealizowane"),
    ("ZAM/2025/05/007", "09.05.2025", "Kawiarnia Sopocka", "Sopot", "4999.99", "zrealizowane"),
    ("ZAM/2025/05/008", "12.05.2025", "Restauracja Przystań", "Gdynia", "3410.50", "anulowane"),
    ("ZAM/2025/05/009", "13.05.2025", "Delikatesy Mewa – sklep nr 2", "Gdynia", "6120.00", "zrealizowane"),
    ("ZAM/2025/05/010", "14.05.2025", "Hotel Neptun Sopot", "Sopot", "9015.30", "zrealizowane"),
    ("ZAM/2025/05/011", "16.05.2025", "Stołówka SP nr 12", "Gdańsk", "2780.00", "zrealizowane"),
    ("ZAM/2025/05/012", "19.05.2025", "Bistro Molo", "Sopot", "5000.00", "zrealizowane"),
    ("ZAM/2025/05/013", "20.05.2025", "Pizzeria Da Nonna", "Gdańsk", "1960.20", "anulowane"),
    ("ZAM/2025/05/014", "22.05.2025", "Hotel Neptun Sopot", "Sopot", "8870.45", "w realizacji"),
    ("ZAM/2025/05/015", "26.05.2025", "Delikatesy Mewa – sklep nr 4", "Gdańsk", "5215.80", "w realizacji"),
    ("ZAM/2025/05/016", "28.05.2025", "Restauracja Przystań", "Gdynia", "3660.00", "w realizacji"),
    ("ZAM/2025/05/017", "30.05.2025", "Kawiarnia Sopocka", "Sopot", "5340.10", "w realizacji"),
]


def gen_orders_csv():
    fn = path("Sales", "Exports", "zamowienia_2025-05.csv")
    with open(fn, "w", encoding="utf-8-sig", newline="") as f:
        w = csv.writer(f, delimiter=";", lineterminator="\r\n")
        w.writerow(["Nr zamówienia", "Data zamówienia", "Klient", "Miasto", "Wartość netto (PLN)", "Status"])
        for no, d_, cl, city, val, st in ORDERS:
            w.writerow([no, d_, cl, city, val.replace(".", ","), st])


# ---------------------------------------------------------------------------
# 12. Warehouse incident log (Markdown, English)
# ---------------------------------------------------------------------------
INCIDENTS = [
    ("INC-2025-001", "2025-01-09", "Cold Store A", "Temperature excursion", "Door left ajar during night shift, +7.1 °C for 40 min", "Medium", "Closed", "J. Wójcik"),
    ("INC-2025-002", "2025-01-27", "Loading Dock 2", "Equipment damage", "Forklift hit dock leveller lip", "Low", "Closed", "P. Mazur"),
    ("INC-2025-003", "2025-02-14", "Freezer F1", "Equipment failure", "Compressor trip, stock moved to F2 within 2 h", "High", "Closed", "J. Wójcik"),
    ("INC-2025-004", "2025-03-05", "Dry Store", "Pest control", "Rodent droppings found near aisle 6", "High", "Open", "A. Nowak"),
    ("INC-2025-005", "2025-03-21", "Yard", "Vehicle accident", "Van GD 4K221 reversed into bollard", "Medium", "Closed", "T. Kowalski"),
    ("INC-2025-006", "2025-04-11", "Cold Store A", "Temperature excursion", "Sensor drift, readings +5.2 °C, probe recalibrated", "Low", "Closed", "J. Wójcik"),
    ("INC-2025-007", "2025-04-30", "Picking Area", "Workplace injury", "Employee cut hand on strapping band", "Medium", "Under investigation", "A. Nowak"),
    ("INC-2025-008", "2025-05-16", "Freezer F2", "Equipment failure", "Evaporator fan noise, ice build-up, temp. up to -16.4 °C", "High", "Open", "J. Wójcik"),
    ("INC-2025-009", "2025-05-29", "Loading Dock 1", "Food safety", "Supplier delivery rejected, chilled goods at +9 °C", "High", "Under investigation", "M. Wiśniewska"),
    ("INC-2025-010", "2025-06-10", "Office", "IT", "Label printer network outage", "Low", "Open", "P. Zieliński"),
]


def gen_incident_md():
    lines = [
        "# Warehouse Incident Log 2025",
        "",
        f"**Site:** {COMPANY}, warehouse {COMPANY_ADDR}  ",
        "**Maintained by:** Jakub Wójcik (Warehouse Manager)  ",
        "**Last updated:** 2025-06-30",
        "",
        "Severity scale: Low / Medium / High. Status: Open, Under investigation, Closed.",
        "",
        "| ID | Date | Location | Type | Description | Severity | Status | Owner |",
        "|----|------|----------|------|-------------|----------|--------|-------|",
    ]
    for row in INCIDENTS:
        lines.append("| " + " | ".join(row) + " |")
    lines += [
        "",
        "## Follow-up actions",
        "",
        "- INC-2025-004: pest control contractor visit booked, bait stations added in aisles 5–7.",
        "- INC-2025-008: Frigo-Serwis Tczew to replace evaporator fan motor (quote pending).",
        "- INC-2025-009: complaint sent to supplier; HACCP deviation record DK-2025-07.",
        "",
    ]
    with open(path("Operations", "Warehouse", "Incident_Log_2025.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines))


# ---------------------------------------------------------------------------
# 13. Fleet service log (fixed-width TXT, English)
# ---------------------------------------------------------------------------
FLEET = [
    ("2025-01-14", "Iveco Daily 35S14", "GD 4K221", "148 320", "Oil & filter change", "AutoSerwis Kowal", "780.00"),
    ("2025-01-22", "Renault Master", "GD 7M540", "96 410", "Reefer unit service (Thermo King V-300)", "Frigo-Serwis Tczew", "1,450.00"),
    ("2025-02-05", "MAN TGL 8.190", "GD 2P987", "211 050", "Brake pads + discs, front axle", "MAN Truck Gdańsk", "3,260.00"),
    ("2025-02-19", "Fiat Ducato", "GD 9L113", "64 800", "Tyre repair, rear left", "Opony Oliwa", "180.00"),
    ("2025-03-24", "Iveco Daily 35S14", "GD 4K221", "151 900", "Rear bumper repair after yard incident", "Blacharnia Morena", "2,350.00"),
    ("2025-04-08", "MAN TGL 8.190", "GD 2P987", "218 400", "Annual roadworthiness inspection", "SKP Gdańsk Kokoszki", "253.00"),
    ("2025-04-15", "Renault Master", "GD 7M540", "101 230", "Summer tyres fitted", "Opony Oliwa", "240.00"),
    ("2025-04-16", "Iveco Daily 35S14", "GD 4K221", "152 760", "Summer tyres fitted", "Opony Oliwa", "240.00"),
    ("2025-05-06", "Fiat Ducato", "GD 9L113", "70 115", "Clutch replacement", "AutoSerwis Kowal", "4,180.00"),
    ("2025-05-21", "MAN TGL 8.190", "GD 2P987", "224 900", "Reefer unit service (Carrier Supra 750)", "Frigo-Serwis Tczew", "1,890.00"),
    ("2025-06-03", "Iveco Daily 35S14", "GD 4K221", "156 480", "Air-conditioning service", "AutoSerwis Kowal", "420.00"),
    ("2025-06-18", "Renault Master", "GD 7M540", "104 990", "Oil & filter change", "AutoSerwis Kowal", "690.00"),
]


def gen_fleet_txt():
    widths = [12, 19, 10, 13, 41, 21, 10]
    hdr = ["DATE", "VEHICLE", "REG. NO.", "ODOMETER KM", "WORK PERFORMED", "WORKSHOP", "COST PLN"]

    def line(vals):
        out = ""
        for i, (v, w) in enumerate(zip(vals, widths)):
            if i in (3, 6):
                out += v.rjust(w - 2) + "  " if i != 6 else v.rjust(w)
            else:
                out += v.ljust(w)
        return out.rstrip()

    total = sum(D(r[6].replace(",", "")) for r in FLEET)
    width = sum(widths)
    out = [
        "BURSZTYN HURT SPOŻYWCZY SP. Z O.O. - FLEET SERVICE LOG 2025",
        "Fleet: 4 refrigerated vehicles, depot ul. Kartuska 214, Gdańsk",
        "Responsible: Tomasz Kowalski (Logistics Manager)    Printed: 2025-06-30",
        "=" * width,
        line(hdr),
        "-" * width,
    ]
    for r in FLEET:
        out.append(line(list(r)))
    out += [
        "-" * width,
        line(["", "", "", "", "TOTAL 2025 YTD", "", fmt_en(total)]),
        "=" * width,
        "Costs are net amounts (excl. VAT) as invoiced by the workshop.",
        "",
    ]
    with open(path("Operations", "Fleet", "Fleet_Service_Log_2025.txt"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(out))


# ---------------------------------------------------------------------------
# 14. Temperature checks (CSV, comma, English)
# ---------------------------------------------------------------------------
def gen_temperature_csv():
    zones = [("Chiller C1", "2.0", "4.0"), ("Chiller C2", "3.0", "5.0"),
             ("Freezer F1", "-22.0", "-18.0"), ("Freezer F2", "-22.0", "-18.0")]
    days = ["2025-05-02", "2025-05-05", "2025-05-08", "2025-05-12", "2025-05-14",
            "2025-05-16", "2025-05-19", "2025-05-22", "2025-05-26", "2025-05-29"]
    checkers = ["J. Wójcik", "E. Kamińska", "P. Mazur"]
    offsets = ["0.4", "-0.3", "0.8", "0.1", "-0.6", "1.1", "0.5", "-0.2", "0.9", "0.3", "-0.4", "1.4", "0.6"]
    overrides = {
        ("2025-05-08", "07:00", "Chiller C1"): "4.6",
        ("2025-05-16", "07:00", "Freezer F2"): "-16.4",
        ("2025-05-22", "07:00", "Freezer F1"): "-17.9",
        ("2025-05-29", "07:00", "Freezer F2"): "-18.0",
    }
    rechecks = [
        ("2025-05-08", "11:30", "Chiller C1", "3.8"),
        ("2025-05-16", "15:00", "Freezer F2", "-17.2"),
        ("2025-05-16", "19:30", "Freezer F2", "-19.6"),
        ("2025-05-22", "15:00", "Freezer F1", "-18.0"),
    ]
    rows = []
    k = 0
    for di, d_ in enumerate(days):
        for zi, (zone, sp, mx) in enumerate(zones):
            reading = overrides.get((d_, "07:00", zone))
            if reading is None:
                reading = str(D(sp) + D(offsets[k % len(offsets)]) * (2 if zone.startswith("Freezer") else 1))
            k += 1
            rows.append((d_, "07:00", zone, sp, reading, mx, checkers[(di + zi) % 3]))
        for rd, rt, rz, rv in rechecks:
            if rd == d_:
                sp, mx = [(z[1], z[2]) for z in zones if z[0] == rz][0]
                rows.append((rd, rt, rz, sp, rv, mx, "J. Wójcik"))
    fn = path("Operations", "Warehouse", "Temperature_Checks_2025-05.csv")
    with open(fn, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["date", "time", "zone", "setpoint_c", "reading_c", "max_allowed_c", "checked_by", "within_limits"])
        for d_, t_, zone, sp, reading, mx, who in rows:
            reading = f"{D(reading):.1f}"
            ok = "yes" if D(reading) <= D(mx) else "no"
            w.writerow([d_, t_, zone, sp, reading, mx, who, ok])


# ---------------------------------------------------------------------------
# 15. Timesheet (XLSX, Polish headers, letterhead fields, total row)
# ---------------------------------------------------------------------------
TIMESHEET = [
    (1, "czwartek", None, None, 0, "—", "Święto Pracy"),
    (2, "piątek", None, None, 0, "—", "urlop wypoczynkowy"),
    (5, "poniedziałek", (8, 0), (16, 30), 30, "Obsługa umów", ""),
    (6, "wtorek", (7, 30), (16, 30), 30, "Rozliczenia faktur", ""),
    (7, "środa", (8, 0), (16, 30), 30, "Rozliczenia faktur", ""),
    (8, "czwartek", (8, 0), (16, 30), 30, "Obsługa umów", ""),
    (9, "piątek", (8, 0), (15, 30), 30, "Obsługa umów", "wyjście prywatne 1 h"),
    (12, "poniedziałek", (8, 0), (16, 30), 30, "Szkolenia BHP – organizacja", ""),
    (13, "wtorek", (7, 15), (17, 0), 30, "Inwentaryzacja magazynu", "nadgodziny zatwierdzone"),
    (14, "środa", (8, 0), (16, 30), 30, "Inwentaryzacja magazynu", ""),
    (15, "czwartek", (8, 0), (16, 30), 30, "Rozliczenia faktur", ""),
    (16, "piątek", (8, 0), (16, 30), 30, "Obsługa umów", ""),
    (19, "poniedziałek", (8, 0), (16, 30), 30, "Audyt HACCP – przygotowanie", ""),
    (20, "wtorek", (7, 45), (17, 0), 30, "Audyt HACCP – przygotowanie", ""),
    (21, "środa", (8, 0), (16, 30), 30, "Audyt HACCP", ""),
    (22, "czwartek", (8, 0), (16, 15), 15, "Rozliczenia faktur", ""),
    (23, "piątek", (8, 0), (16, 30), 30, "Obsługa umów", ""),
    (26, "poniedziałek", (8, 0), (16, 30), 30, "Rozliczenia faktur", ""),
    (27, "wtorek", (7, 0), (17, 30), 30, "Zamknięcie miesiąca", "nadgodziny zatwierdzone"),
    (28, "środa", (8, 0), (16, 30), 30, "Zamknięcie miesiąca", ""),
    (29, "czwartek", (8, 0), (16, 30), 30, "Obsługa umów", ""),
    (30, "piątek", (8, 0), (16, 45), 30, "Rozliczenia faktur", ""),
]


def gen_timesheet():
    wb = Workbook()
    ws = wb.active
    ws.title = "Maj 2025"
    ws["A1"] = "Karta czasu pracy — maj 2025"
    ws["A1"].font = Font(bold=True, size=14)
    for r, (lab, val) in enumerate([("Pracownik:", "Anna Nowak"), ("Stanowisko:", "Specjalista ds. administracji"),
                                    ("Dział:", "Administracja"), ("Przełożony:", "Piotr Zieliński")], 2):
        ws.cell(row=r, column=1, value=lab).font = Font(bold=True)
        ws.cell(row=r, column=2, value=val)
    hdr = ["Data", "Dzień", "Początek", "Koniec", "Przerwa (min)", "Godziny", "Zadanie / projekt", "Uwagi"]
    for j, h in enumerate(hdr, 1):
        c = ws.cell(row=7, column=j, value=h)
        c.font = Font(bold=True)
        c.fill = PatternFill("solid", fgColor="D9E1F2")
    r = 8
    total = D(0)
    for d_, day, st, en, brk, task, note in TIMESHEET:
        c = ws.cell(row=r, column=1, value=date(2025, 5, d_)); c.number_format = "yyyy-mm-dd"
        ws.cell(row=r, column=2, value=day)
        if st:
            c = ws.cell(row=r, column=3, value=time(*st)); c.number_format = "hh:mm"
            c = ws.cell(row=r, column=4, value=time(*en)); c.number_format = "hh:mm"
            c = ws.cell(row=r, column=5, value=brk); c.number_format = "0"
            mins = (en[0] * 60 + en[1]) - (st[0] * 60 + st[1]) - brk
            hours = D(mins) / D(60)
        else:
            hours = D(0)
        total += hours
        c = ws.cell(row=r, column=6, value=float(hours)); c.number_format = "0.00"
        ws.cell(row=r, column=7, value=task)
        if note:
            ws.cell(row=r, column=8, value=note)
        r += 1
    ws.cell(row=r, column=5, value="Razem").font = Font(bold=True)
    c = ws.cell(row=r, column=6, value=float(total)); c.number_format = "0.00"; c.font = Font(bold=True)
    ws.cell(row=r + 2, column=1, value="Podpis pracownika: ....................    Zatwierdził: ....................")
    for col, w in zip("ABCDEFGH", (12, 14, 10, 10, 13, 9, 30, 26)):
        ws.column_dimensions[col].width = w
    save_wb(wb, path("HR", "Timesheets", "2025-05", "Karta_czasu_pracy_A_Nowak_2025-05.xlsx"))


# ---------------------------------------------------------------------------
# 16. Expense report (PDF, English, table without rules)
# ---------------------------------------------------------------------------
EXPENSES = [
    ("2025-04-02", "Fuel", "Diesel, Renault Master GD 7M540, 58.4 l", "361.50", "R-0402-1"),
    ("2025-04-03", "Parking", "Parking Warszawa Centrum, delivery coordination", "48.00", "R-0403-1"),
    ("2025-04-03", "Meals", "Lunch with Hotel Neptun procurement (2 pers.)", "186.00", "R-0403-2"),
    ("2025-04-09", "Travel", "PKP Intercity Gdańsk – Bydgoszcz, return", "124.80", "R-0409-1"),
    ("2025-04-10", "Accommodation", "Hotel Brda, Bydgoszcz, 1 night", "289.00", "R-0410-1"),
    ("2025-04-15", "Fuel", "Diesel, Iveco Daily GD 4K221, 46.2 l", "287.90", "R-0415-1"),
    ("2025-04-22", "Other", "Padlocks for loading dock (2 pcs)", "79.98", "R-0422-1"),
    ("2025-04-24", "Travel", "Taxi Gdynia port – office", "64.00", "R-0424-1"),
    ("2025-04-28", "Fuel", "Diesel, MAN TGL GD 2P987, 95.0 l", "583.30", "R-0428-1"),
]


def gen_expense_report():
    pdf = new_pdf("Expense Report EXP-2025-04-TK", footer="Bursztyn Hurt · Expense report · page {p}")
    pdf.set_font("DejaVu", "B", 14)
    pdf.cell(0, 8, "EXPENSE REPORT")
    pdf.ln(8)
    pdf.set_font("DejaVu", "", 8.5)
    pdf.cell(0, 5, f"{COMPANY} · {COMPANY_ADDR}")
    pdf.ln(9)
    for lab, val in [("Report no.:", "EXP-2025-04-TK"), ("Employee:", "Tomasz Kowalski"),
                     ("Department:", "Logistics"), ("Period:", "April 2025"),
                     ("Cost centre:", "LOG-01"), ("Submitted:", "2025-05-05")]:
        pdf_label(pdf, lab, val, lw=30)
    pdf.ln(5)
    widths = [22, 28, 80, 26, 24]
    aligns = ["L", "L", "L", "R", "C"]
    pdf_row(pdf, ["Date", "Category", "Description", "Amount (PLN)", "Receipt"], widths,
            ["L", "L", "L", "R", "C"], h=6, bold=True, size=8.5)
    tot = D(0)
    for d_, cat, desc, amt, rec in EXPENSES:
        tot += D(amt)
        pdf_row(pdf, [d_, cat, desc, fmt_en(amt), rec], widths, aligns, h=6, size=8.5)
    pdf.ln(2)
    pdf_row(pdf, ["", "", "Total to reimburse", fmt_en(tot), ""], widths, aligns, h=6, bold=True, size=8.5)
    pdf.ln(10)
    pdf.set_font("DejaVu", "", 8.5)
    pdf.cell(0, 5, "Approved by: Piotr Zieliński (Finance), 2025-05-07        Paid with payroll: May 2025")
    pdf.output(path("HR", "Expenses", "2025", "Expense_Report_T_Kowalski_2025-04.pdf"))


# ---------------------------------------------------------------------------
# 17. Training register (DOCX, Polish)
# ---------------------------------------------------------------------------
TRAININGS = [
    ("Anna Nowak", "Specjalista ds. administracji", "BHP okresowe", "2025-02-11", "2031-02-11", "pozytywny"),
    ("Tomasz Kowalski", "Kierownik logistyki", "BHP okresowe", "2025-02-11", "2030-02-11", "pozytywny"),
    ("Jakub Wójcik", "Kierownik magazynu", "HACCP", "2025-03-04", "2026-03-04", "pozytywny"),
    ("Ewa Kamińska", "Magazynier", "HACCP", "2025-03-04", "2026-03-04", "negatywny"),
    ("Paweł Mazur", "Magazynier", "Obsługa wózków widłowych (UDT)", "2025-03-18", "2030-03-18", "pozytywny"),
    ("Michał Dąbrowski", "Kierowca", "BHP okresowe", "2025-04-07", "2030-04-07", "pozytywny"),
    ("Karolina Lewandowska", "Key Account Manager", "BHP okresowe", "2025-04-07", "2031-04-07", "pozytywny"),
    ("Ewa Kamińska", "Magazynier", "HACCP (poprawka)", "2025-04-15", "2026-04-15", "pozytywny"),
    ("Łukasz Szymański", "Kierowca", "Pierwsza pomoc", "2025-05-12", "2027-05-12", "pozytywny"),
    ("Michał Dąbrowski", "Kierowca", "Pierwsza pomoc", "2025-05-12", "2027-05-12", "pozytywny"),
    ("Paweł Mazur", "Magazynier", "HACCP", "2025-05-20", "2026-05-20", "negatywny"),
    ("Marta Wiśniewska", "Kupiec", "BHP okresowe", "2025-06-03", "2031-06-03", "pozytywny"),
]


def gen_training_docx():
    doc = Document()
    st = doc.styles["Normal"]
    st.font.name = "Calibri"
    st.font.size = Pt(10)
    p = doc.add_paragraph()
    r = p.add_run(COMPANY)
    r.bold = True
    r.font.size = Pt(12)
    doc.add_paragraph(COMPANY_ADDR)
    h = doc.add_paragraph()
    r = h.add_run("Rejestr szkoleń BHP, HACCP i uprawnień — 2025")
    r.bold = True
    r.font.size = Pt(14)
    doc.add_paragraph("Stan na dzień: 2025-06-30")
    doc.add_paragraph("Prowadzący rejestr: Anna Nowak (Administracja)")
    hdr = ["Lp.", "Imię i nazwisko", "Stanowisko", "Rodzaj szkolenia", "Data szkolenia", "Ważne do", "Wynik"]
    t = doc.add_table(rows=1, cols=len(hdr))
    t.style = "Table Grid"
    for c, txt in zip(t.rows[0].cells, hdr):
        set_cell(c, txt, bold=True, align="C")
    for i, row in enumerate(TRAININGS, 1):
        cells = t.add_row().cells
        for c, txt in zip(cells, (str(i),) + row):
            set_cell(c, txt)
    doc.add_paragraph("")
    doc.add_paragraph("Wynik negatywny oznacza konieczność powtórzenia szkolenia w ciągu 30 dni.")
    save_doc(doc, path("HR", "Training", "Rejestr_szkolen_2025.docx"))


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    gen_dairy_invoices()
    gen_ogrody_invoice()
    gen_bcl_invoices()
    gen_nordic_invoice()
    gen_contract_register()
    gen_price_list()
    gen_kpi()
    gen_orders_csv()
    gen_incident_md()
    gen_fleet_txt()
    gen_temperature_csv()
    gen_timesheet()
    gen_expense_report()
    gen_training_docx()
    n = 0
    for root, _, files in os.walk(OUT):
        n += len(files)
    print(f"wrote {n} files under {OUT}")


if __name__ == "__main__":
    main()
