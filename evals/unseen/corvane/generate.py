#!/usr/bin/env python3
"""Generate the held-out knowledge base of the fictional company
Corvane Instruments B.V. (Rotterdam) - maker of laboratory measuring instruments.

Run:  python generate.py   -> writes documents under ./documents/
"""
import csv
import datetime as dt
import os
import shutil

from docx import Document
from docx.shared import Pt
from fpdf import FPDF
from openpyxl import Workbook
from openpyxl.styles import Font

BASE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "documents")
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DEJAVU_B = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def path(rel):
    p = os.path.join(BASE, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    return p


# ---------------------------------------------------------------- xlsx
def halvorsen_invoice(rel, number, date, lines, freight):
    wb = Workbook()
    ws = wb.active
    ws.title = "Invoice"
    ws["A1"] = "HALVORSEN METALS AS  ·  Industriveien 8, 4033 Stavanger, Norway"
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = "Invoice no.:"
    ws["B2"] = number
    ws["D2"] = "Customer:"
    ws["E2"] = "Corvane Instruments B.V., Rotterdam"
    ws["A3"] = "Invoice date:"
    ws["B3"] = date
    ws["B3"].number_format = "dd.mm.yyyy"
    ws["D3"] = "Currency:"
    ws["E3"] = "EUR"
    hdr = ["Item #", "Description", "Alloy", "Qty", "Unit", "Unit cost", "Line total"]
    r = 5
    for c, h in enumerate(hdr, 1):
        ws.cell(r, c, h).font = Font(bold=True)
    subtotal = 0.0
    for item, desc, alloy, qty, unit, cost in lines:
        r += 1
        total = round(qty * cost, 2)
        subtotal += total
        vals = [item, desc, alloy, qty, unit, cost, total]
        for c, v in enumerate(vals, 1):
            cell = ws.cell(r, c, v)
            if c == 4:
                cell.number_format = "0"
            if c in (6, 7):
                cell.number_format = "#,##0.00"
    r += 2
    for label, val in (("Subtotal", subtotal), ("Freight", freight), ("Total", subtotal + freight)):
        ws.cell(r, 6, label).font = Font(bold=True)
        cell = ws.cell(r, 7, round(val, 2))
        cell.number_format = "#,##0.00"
        r += 1
    ws.cell(r + 1, 1, "Payment terms: 30 days net. IBAN NO93 8601 1117 947")
    for col, w in zip("ABCDEFG", (14, 30, 10, 8, 7, 11, 12)):
        ws.column_dimensions[col].width = w
    wb.save(path(rel))


def sales_order_aldercrest(rel):
    wb = Workbook()
    ws = wb.active
    ws.title = "SO-24-118"
    ws["A1"] = "Corvane Instruments B.V. — Sales Order Confirmation"
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = "Order: SO-24-118"
    ws["C2"] = "Customer: Aldercrest University Hospital, Leeds (UK)"
    ws["A3"] = "Order date:"
    ws["B3"] = dt.datetime(2024, 4, 22)
    ws["B3"].number_format = "yyyy-mm-dd"
    hdr = ["Line", "SKU", "Product", "Qty ordered", "List price", "Discount", "Net price", "Line value"]
    r = 5
    for c, h in enumerate(hdr, 1):
        ws.cell(r, c, h).font = Font(bold=True)
    rows = [
        (1, "CI-200", "Spectrophotometer CI-200", 3, 8950.00, 0.10),
        (2, "CI-200-CUV", "Quartz cuvette set (4 pcs)", 6, 189.00, 0.0),
        (3, "CI-PH-7", "Benchtop pH meter PH-7", 5, 1240.00, 0.05),
        (4, "CI-SRV-INST", "Installation & calibration visit", 2, 780.00, 0.0),
    ]
    total = 0
    for line, sku, prod, qty, lp, disc in rows:
        r += 1
        net = round(lp * (1 - disc), 2)
        val = round(net * qty, 2)
        total += val
        for c, v in enumerate([line, sku, prod, qty, lp, disc, net, val], 1):
            cell = ws.cell(r, c, v)
            if c in (5, 7, 8):
                cell.number_format = '"€"#,##0.00'
            if c == 6:
                cell.number_format = "0%"
    r += 1
    ws.cell(r, 7, "Order total").font = Font(bold=True)
    ws.cell(r, 8, total).number_format = '"€"#,##0.00'
    ws.cell(r + 2, 1, "Delivery: DAP Leeds, estimated week 24. Prices excl. VAT.")
    wb.save(path(rel))


def price_list(rel):
    wb = Workbook()
    ws = wb.active
    ws.title = "Price list 2024"
    ws["A1"] = "Corvane Instruments — Price List 2024"
    ws["A1"].font = Font(bold=True, size=14)
    ws["A2"] = "Valid from 1 January 2024 until further notice. All prices in EUR, excl. VAT."
    hdr = ["Article no.", "Product name", "Product group", "List price EUR", "Min. order qty", "Lead time (weeks)"]
    for c, h in enumerate(hdr, 1):
        ws.cell(4, c, h).font = Font(bold=True)
    rows = [
        ("CI-200", "Spectrophotometer CI-200", "Instruments", 8950.00, 1, 6),
        ("CI-300", "Spectrophotometer CI-300 UV-Vis", "Instruments", 12400.00, 1, 8),
        ("CI-PH-7", "Benchtop pH meter PH-7", "Instruments", 1240.00, 1, 3),
        ("CI-PH-7P", "Portable pH meter PH-7P", "Instruments", 495.00, 2, 2),
        ("CI-200-CUV", "Quartz cuvette set (4 pcs)", "Accessories", 189.00, 1, 1),
        ("CI-PH-BUF", "pH buffer solution kit", "Consumables", 38.50, 10, 1),
        ("CI-PH-ELEC", "Replacement pH electrode", "Accessories", 145.00, 1, 2),
        ("CI-SRV-INST", "Installation & calibration visit", "Services", 780.00, 1, 2),
        ("CI-SRV-CAL", "Annual recalibration", "Services", 420.00, 1, 2),
        ("CI-SW-LINK", "CorvaneLink software licence", "Software", 500.00, 1, 0),
    ]
    for i, row in enumerate(rows, 5):
        for c, v in enumerate(row, 1):
            cell = ws.cell(i, c, v)
            if c == 4:
                cell.number_format = "#,##0.00"
    wb.save(path(rel))


def contract_register(rel):
    wb = Workbook()
    ws = wb.active
    ws.title = "Register"
    hdr = ["Contract ID", "Counterparty", "Type", "Start date", "End date", "Annual value",
           "Currency", "Notice period", "Owner", "Status"]
    for c, h in enumerate(hdr, 1):
        ws.cell(1, c, h).font = Font(bold=True)
    D = dt.datetime
    rows = [
        ("C-2021-004", "Halvorsen Metals AS", "Supply agreement", D(2021, 7, 1), D(2025, 6, 30), 38000, "EUR", "6 months", "Purchasing", "Active"),
        ("C-2022-011", "Praxis Elektronik GmbH", "Framework agreement", D(2022, 1, 1), D(2024, 12, 31), 45000, "EUR", "3 months", "Purchasing", "Active"),
        ("C-2022-015", "Brandvoort Verpakkingen B.V.", "Supply agreement", D(2022, 9, 1), D(2024, 8, 31), 6500, "EUR", "1 month", "Purchasing", "Expired"),
        ("C-2023-002", "Tessaro Software Ltd", "Software licence & support", D(2023, 2, 1), D(2026, 1, 31), 18500, "GBP", "90 days", "IT", "Active"),
        ("C-2023-009", "Van Rijn Logistiek B.V.", "Logistics services", D(2023, 4, 1), D(2024, 3, 31), 27600, "EUR", "2 months", "Logistics", "Expired"),
        ("C-2023-014", "Clearwell Cleaning Services", "Cleaning services", D(2023, 10, 1), D(2024, 9, 30), 14400, "EUR", "1 month", "Facilities", "Expired"),
        ("C-2024-001", "Van Rijn Logistiek B.V.", "Logistics services", D(2024, 4, 1), D(2026, 3, 31), 29900, "EUR", "2 months", "Logistics", "Active"),
        ("C-2024-003", "Optique Delaunay SARL", "Supply agreement", D(2024, 2, 1), D(2025, 1, 31), 12000, "EUR", "1 month", "Purchasing", "Active"),
        ("C-2024-007", "Aldercrest University Hospital", "Service contract (customer)", D(2024, 5, 1), D(2027, 4, 30), 9800, "GBP", "6 months", "Sales", "Active"),
        ("C-2024-010", "Kantoorpand Stationsweg C.V.", "Office lease", D(2024, 1, 1), D(2033, 12, 31), 96000, "EUR", "12 months", "Facilities", "Active"),
    ]
    for i, row in enumerate(rows, 2):
        for c, v in enumerate(row, 1):
            cell = ws.cell(i, c, v)
            if c in (4, 5):
                cell.number_format = "yyyy-mm-dd"
            if c == 6:
                cell.number_format = "#,##0"
    wb.save(path(rel))


# ---------------------------------------------------------------- docx
def praxis_invoice(rel, number, date, kundennr, lines, net):
    d = Document()
    st = d.styles["Normal"]
    st.font.name = "Arial"
    st.font.size = Pt(10)
    p = d.add_paragraph()
    p.add_run("Praxis Elektronik GmbH").bold = True
    d.add_paragraph("Gewerbestraße 12 · 79108 Freiburg im Breisgau · USt-IdNr. DE 281 447 903")
    d.add_paragraph("Corvane Instruments B.V.\nStationsweg 41\n3011 Rotterdam\nNiederlande")
    d.add_heading("Rechnung", level=1)
    d.add_paragraph(f"Rechnungsnr.: {number}")
    d.add_paragraph(f"Rechnungsdatum: {date}")
    d.add_paragraph(f"Kundennr.: {kundennr}")
    d.add_paragraph("Lieferbedingung: DAP Rotterdam")
    hdr = ["Pos.", "Art.-Nr.", "Bezeichnung", "Menge", "Einheit", "Einzelpreis", "Gesamtpreis"]
    t = d.add_table(rows=1, cols=len(hdr))
    t.style = "Table Grid"
    for c, h in enumerate(hdr):
        t.rows[0].cells[c].text = h
    for row in lines:
        cells = t.add_row().cells
        for c, v in enumerate(row):
            cells[c].text = v
    d.add_paragraph("")
    d.add_paragraph(f"Nettobetrag: {net}")
    d.add_paragraph("Umsatzsteuer 0 % – Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge)")
    d.add_paragraph(f"Rechnungsbetrag: {net}")
    d.add_paragraph("Zahlbar innerhalb von 30 Tagen ohne Abzug.")
    d.save(path(rel))


def purchase_order(rel):
    d = Document()
    p = d.add_paragraph()
    p.add_run("Corvane Instruments B.V.").bold = True
    d.add_paragraph("Stationsweg 41 · 3011 Rotterdam · The Netherlands")
    d.add_heading("Purchase Order", level=1)
    d.add_paragraph("PO number: PO-2024-0061")
    d.add_paragraph("Order date: 8 April 2024")
    d.add_paragraph("Supplier: Brandvoort Verpakkingen B.V., Tilburg")
    d.add_paragraph("Requested delivery: 29 April 2024")
    d.add_paragraph("Buyer: J. de Haan, Purchasing")
    hdr = ["#", "Supplier part no.", "Description", "Quantity", "UoM", "Price/unit (EUR)", "Total (EUR)"]
    rows = [
        ["1", "BV-DOOS-4030", "Shipping carton 400x300x200, double wall", "500", "pcs", "1.18", "590.00"],
        ["2", "BV-SCH-INL", "Foam insert, custom cut (CI-200 housing)", "500", "pcs", "2.45", "1,225.00"],
        ["3", "BV-TAPE-50", "Packing tape 50 mm x 66 m, printed", "48", "rolls", "3.10", "148.80"],
        ["4", "BV-LBL-A6", "Thermal labels A6, 500/roll", "10", "rolls", "14.90", "149.00"],
        ["", "", "Order total", "", "", "", "2,112.80"],
    ]
    t = d.add_table(rows=1, cols=len(hdr))
    t.style = "Table Grid"
    for c, h in enumerate(hdr):
        t.rows[0].cells[c].text = h
    for row in rows:
        cells = t.add_row().cells
        for c, v in enumerate(row):
            cells[c].text = v
    d.add_paragraph("Please quote the PO number on all delivery notes and invoices.")
    d.save(path(rel))


# ---------------------------------------------------------------- pdf
def delaunay_invoice(rel, number, date, lines, total):
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.cell(0, 9, "Optique Delaunay SARL", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 9)
    pdf.cell(0, 5, "14 rue des Tanneurs, 69002 Lyon - SIRET 512 884 301 00027", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    pdf.set_font("Helvetica", "B", 14)
    pdf.cell(0, 8, "FACTURE", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 10)
    for t in (f"N° de facture : {number}", f"Date : {date}",
              "Client : Corvane Instruments B.V., Rotterdam (Pays-Bas)",
              "Conditions : paiement à 30 jours"):
        pdf.cell(0, 6, t, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    widths = (32, 78, 14, 33, 33)
    hdr = ("Réf.", "Désignation", "Qté", "Prix unit. HT (EUR)", "Montant HT (EUR)")
    pdf.set_font("Helvetica", "B", 8)
    for w, h in zip(widths, hdr):
        pdf.cell(w, 7, h, border=1, align="C")
    pdf.ln()
    pdf.set_font("Helvetica", "", 9)
    for row in lines:
        for i, (w, v) in enumerate(zip(widths, row)):
            pdf.cell(w, 7, v, border=1, align="R" if i >= 2 else "L")
        pdf.ln()
    pdf.ln(3)
    for label, val in (("Total HT", total), ("TVA (autoliquidation)", "0,00"), ("Net à payer (EUR)", total)):
        pdf.cell(sum(widths[:4]), 6, label, align="R")
        pdf.cell(widths[4], 6, val, align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.output(path(rel))


def tessaro_invoice(rel, number, date, po, lines, subtotal):
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 18)
    pdf.cell(120, 10, "TESSARO SOFTWARE LTD")
    pdf.set_font("Helvetica", "B", 14)
    pdf.cell(0, 10, "INVOICE", align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 9)
    pdf.cell(0, 5, "3 Harbour Yard, Bristol BS1 5QD, United Kingdom - VAT GB 318 4471 02", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    pdf.set_font("Helvetica", "", 10)
    info = [("Bill to:", "Corvane Instruments B.V., Stationsweg 41, Rotterdam"),
            ("Invoice number:", number), ("Invoice date:", date), ("Your PO:", po)]
    for k, v in info:
        pdf.cell(35, 6, k)
        pdf.cell(0, 6, v, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.set_font("Helvetica", "", 9)
    data = [("Line", "SKU", "Description", "Category", "Seats/Qty", "Unit price", "Amount excl. VAT")] + lines
    with pdf.table(col_widths=(10, 24, 56, 20, 22, 24, 30),
                   text_align=("CENTER", "LEFT", "LEFT", "LEFT", "RIGHT", "RIGHT", "RIGHT")) as table:
        for row in data:
            r = table.row()
            for v in row:
                r.cell(v)
    pdf.ln(4)
    for k, v in (("Subtotal", subtotal), ("VAT 0% (reverse charge)", "£0.00"), ("Total due", subtotal)):
        pdf.cell(150, 6, k, align="R")
        pdf.cell(0, 6, v, align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.cell(0, 6, "Payment within 30 days to Sort code 20-45-77, Account 63011842.")
    pdf.output(path(rel))


def quist_order(rel):
    pdf = FPDF()
    pdf.add_font("DejaVu", "", DEJAVU)
    pdf.add_font("DejaVu", "B", DEJAVU_B)
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 15)
    pdf.cell(0, 9, "Corvane Instruments B.V.", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", 9)
    pdf.cell(0, 5, "Stationsweg 41 · 3011 Rotterdam · KvK 71234987", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    pdf.set_font("DejaVu", "B", 13)
    pdf.cell(0, 8, "ORDERBEVESTIGING", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", 10)
    for t in ("Ordernummer: SO-24-131", "Orderdatum: 14 mei 2024",
              "Klant: Quist Biotech B.V., Leiden", "Uw referentie: QB-PO-7781"):
        pdf.cell(0, 6, t, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.set_font("DejaVu", "", 9)
    data = [
        ("Art.nr.", "Omschrijving", "Aantal", "Stukprijs", "Korting", "Bedrag"),
        ("CI-300", "Spectrofotometer CI-300 UV-Vis", "2", "€ 12.400,00", "8%", "€ 22.816,00"),
        ("CI-PH-7P", "Draagbare pH-meter PH-7P", "10", "€ 495,00", "0%", "€ 4.950,00"),
        ("CI-PH-BUF", "pH-bufferoplossing set", "20", "€ 38,50", "0%", "€ 770,00"),
        ("CI-SW-LINK", "CorvaneLink softwarelicentie", "2", "€ 500,00", "0%", "€ 1.000,00"),
        ("CI-SRV-INST", "Installatie en kalibratie", "1", "€ 780,00", "0%", "€ 780,00"),
    ]
    with pdf.table(col_widths=(26, 62, 16, 28, 16, 30),
                   text_align=("LEFT", "LEFT", "RIGHT", "RIGHT", "RIGHT", "RIGHT")) as table:
        for row in data:
            r = table.row()
            for v in row:
                r.cell(v)
    pdf.ln(4)
    for k, v in (("Subtotaal", "€ 30.316,00"), ("BTW 21%", "€ 6.366,36"), ("Totaal", "€ 36.682,36")):
        pdf.cell(150, 6, k, align="R")
        pdf.cell(0, 6, v, align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.cell(0, 6, "Levering binnen 8 weken na orderbevestiging. Betaling binnen 30 dagen.")
    pdf.output(path(rel))


def kpi_report(rel):
    pdf = FPDF(orientation="L")
    pdf.add_font("DejaVu", "", DEJAVU)
    pdf.add_font("DejaVu", "B", DEJAVU_B)
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 15)
    pdf.cell(0, 9, "Corvane Instruments B.V. - Monthly KPI Report, H1 2024", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", 9)
    pdf.cell(0, 5, "Prepared by: Controlling · Distribution: Management Team · Status: final (12 July 2024)",
             new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    data = [
        ("KPI", "Target", "Jan", "Feb", "Mar", "Apr", "May", "Jun"),
        ("On-time delivery (%)", "≥ 95", "96.2", "94.8", "97.1", "93.5", "95.0", "96.4"),
        ("Customer complaints (count)", "≤ 5", "3", "6", "2", "4", "5", "1"),
        ("First-pass yield (%)", "≥ 98", "98.4", "97.9", "98.6", "98.1", "97.5", "98.8"),
        ("Days sales outstanding", "≤ 45", "47", "44", "42", "46", "43", "41"),
        ("Headcount (FTE, month end)", "-", "112", "113", "113", "115", "116", "118"),
    ]
    with pdf.table(col_widths=(70, 24, 20, 20, 20, 20, 20, 20),
                   text_align=("LEFT",) + ("CENTER",) * 7) as table:
        for row in data:
            r = table.row()
            for v in row:
                r.cell(v)
    pdf.ln(5)
    pdf.multi_cell(0, 5, "Comment: April on-time delivery was affected by a late aluminium delivery. "
                         "Complaints in February relate to cuvette packaging (resolved).")
    pdf.output(path(rel))


# ---------------------------------------------------------------- csv / txt / md
def monthly_sales_csv(rel):
    rows = [
        ("2024-01", "Benelux", 41, "96420.00", 17), ("2024-01", "DACH", 28, "71350.50", 12), ("2024-01", "UK", 19, "48900.00", 8),
        ("2024-02", "Benelux", 37, "88115.00", 15), ("2024-02", "DACH", 33, "80240.00", 14), ("2024-02", "UK", 22, "55310.75", 9),
        ("2024-03", "Benelux", 52, "121780.00", 21), ("2024-03", "DACH", 30, "76905.25", 13), ("2024-03", "UK", 26, "66120.00", 11),
        ("2024-04", "Benelux", 45, "104300.00", 19), ("2024-04", "DACH", 35, "90060.00", 15), ("2024-04", "UK", 31, "100000.00", 12),
        ("2024-05", "Benelux", 48, "110250.50", 20), ("2024-05", "DACH", 29, "73480.00", 12), ("2024-05", "UK", 24, "61775.00", 10),
        ("2024-06", "Benelux", 50, "118900.00", 22), ("2024-06", "DACH", 38, "95615.00", 16), ("2024-06", "UK", 27, "70340.00", 11),
    ]
    with open(path(rel), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["Month", "Region", "Units sold", "Revenue (EUR)", "Orders"])
        w.writerows(rows)


def expense_csv(rel):
    rows = [
        ("05.03.2024", "B-01", "Reise", "Bahnticket Freiburg–Rotterdam", "189,40", "Firmenkreditkarte"),
        ("05.03.2024", "B-02", "Hotel", "Hotel Inntel Rotterdam, 2 Nächte", "312,00", "Firmenkreditkarte"),
        ("06.03.2024", "B-03", "Bewirtung", "Geschäftsessen mit Aldercrest (4 Pers.)", "246,80", "Privat"),
        ("07.03.2024", "B-04", "Reise", "Taxi Hotel–Büro", "23,50", "Privat"),
        ("12.03.2024", "B-05", "Material", "Kabel und Adapter (Messe)", "64,99", "Privat"),
        ("19.03.2024", "B-06", "Reise", "Flug Amsterdam–Manchester", "278,15", "Firmenkreditkarte"),
        ("20.03.2024", "B-07", "Hotel", "Hotel Leeds City, 1 Nacht", "149,00", "Firmenkreditkarte"),
        ("21.03.2024", "B-08", "Bewirtung", "Mittagessen Kunde Aldercrest", "87,60", "Privat"),
    ]
    with open(path(rel), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, delimiter=";")
        w.writerow(["Spesenabrechnung März 2024", "", "", "", "", ""])
        w.writerow(["Mitarbeiterin: Martina Brandt", "Kostenstelle: 4100 Vertrieb", "", "", "", ""])
        w.writerow([])
        w.writerow(["Datum", "Beleg-Nr.", "Kategorie", "Beschreibung", "Betrag (EUR)", "Zahlungsart"])
        w.writerows(rows)
        w.writerow(["Summe", "", "", "", "1.351,44", ""])


def vanrijn_txt(rel):
    rows = [
        ("VR-240412", "03-04-2024", "Leeds (GB)", "6", "184,5", "€ 412,00"),
        ("VR-240466", "11-04-2024", "Freiburg (DE)", "2", "38,0", "€ 96,50"),
        ("VR-240519", "24-04-2024", "Lyon (FR)", "3", "61,2", "€ 148,00"),
        ("VR-240587", "08-05-2024", "Antwerpen (BE)", "1", "12,4", "€ 45,00"),
        ("VR-240633", "21-05-2024", "Leeds (GB)", "4", "120,0", "€ 298,75"),
        ("VR-240702", "05-06-2024", "Utrecht (NL)", "8", "230,8", "€ 185,00"),
        ("VR-240745", "19-06-2024", "Kopenhagen (DK)", "2", "44,6", "€ 176,40"),
    ]
    fmt = "{:<11} {:<11} {:<20} {:>5} {:>13} {:>13}"
    out = ["VAN RIJN LOGISTIEK B.V. - ZENDINGSOVERZICHT",
           "Klant: Corvane Instruments B.V.          Periode: 01-04-2024 t/m 30-06-2024",
           "Contract: C-2024-001",
           "",
           fmt.format("Zendingnr.", "Datum", "Bestemming", "Colli", "Gewicht (kg)", "Vrachtkosten"),
           fmt.format("-" * 10, "-" * 10, "-" * 20, "-" * 5, "-" * 12, "-" * 12)]
    for r in rows:
        out.append(fmt.format(*r))
    out.append(fmt.format("-" * 10, "-" * 10, "-" * 20, "-" * 5, "-" * 12, "-" * 12))
    out.append(fmt.format("Totaal", "", "", "26", "691,5", "€ 1.361,65"))
    out.append("")
    out.append("Alle bedragen excl. BTW. Factuur volgt per kwartaal.")
    with open(path(rel), "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def sla_md(rel):
    text = """# Service Level Agreement – LabTrace hosting & support

Provider: **Tessaro Software Ltd** · Customer: **Corvane Instruments B.V.**
Schedule 2 to contract C-2023-002 · Version 1.3 · effective 1 February 2023

## 1. Incident priorities

| Priority | Description | Response time | Resolution target | Support hours | Service credit |
|----------|-------------|---------------|-------------------|---------------|----------------|
| P1 | System down, no workaround | 30 minutes | 4 hours | 24/7 | 10% of monthly fee |
| P2 | Major function impaired | 2 hours | 1 business day | 24/7 | 5% of monthly fee |
| P3 | Minor fault, workaround available | 8 business hours | 5 business days | Mon–Fri 08:00–18:00 CET | none |
| P4 | Question / change request | 2 business days | Next scheduled release | Mon–Fri 08:00–18:00 CET | none |

## 2. Availability

| Service | Availability target | Measurement period | Maintenance window |
|---------|--------------------:|--------------------|--------------------|
| LabTrace web application | 99.9% | Monthly | Sun 02:00–04:00 CET |
| LabTrace API | 99.5% | Monthly | Sun 02:00–04:00 CET |
| Reporting module | 99.0% | Quarterly | Sat 22:00–Sun 02:00 CET |
| Backup & restore | 99.0% | Quarterly | none |

Service credits are capped at 20% of the monthly fee.
"""
    with open(path(rel), "w", encoding="utf-8") as f:
        f.write(text)


def main():
    if os.path.isdir(BASE):
        shutil.rmtree(BASE)
    D = dt.datetime
    halvorsen_invoice("Purchasing/Invoices/2024/Halvorsen Metals/HM-24-0311.xlsx", "HM-24-0311", D(2024, 3, 12), [
        ("HM-6061-R20", "Round bar Ø20 mm, 3 m", "6061-T6", 40, "pcs", 18.75),
        ("HM-6061-P05", "Plate 5 mm, 1000x500", "6061-T6", 12, "pcs", 64.20),
        ("HM-316-T12", "Tube Ø12x1 mm, 2 m", "316L", 25, "pcs", 22.10),
        ("HM-304-S02", "Sheet 2 mm, 1250x2500", "304", 6, "pcs", 148.00),
        ("HM-CUT-SRV", "Cutting service", "—", 3, "h", 55.00),
    ], 95.00)
    halvorsen_invoice("Purchasing/Invoices/2024/Halvorsen Metals/HM-24-0458.xlsx", "HM-24-0458", D(2024, 5, 27), [
        ("HM-6061-R20", "Round bar Ø20 mm, 3 m", "6061-T6", 60, "pcs", 18.75),
        ("HM-7075-R30", "Round bar Ø30 mm, 3 m", "7075-T6", 10, "pcs", 51.40),
        ("HM-316-T12", "Tube Ø12x1 mm, 2 m", "316L", 8, "pcs", 22.10),
        ("HM-CUT-SRV", "Cutting service", "—", 2, "h", 55.00),
    ], 95.00)
    praxis_invoice("Purchasing/Invoices/2024/Praxis Elektronik/RE-2024-1187.docx", "RE-2024-1187", "05.03.2024", "40217", [
        ["1", "PE-MCU-4471", "Mikrocontroller STM32F4, LQFP64", "200", "Stk.", "6,85 €", "1.370,00 €"],
        ["2", "PE-CAP-0104", "Keramikkondensator 100 nF, 0603", "5.000", "Stk.", "0,02 €", "100,00 €"],
        ["3", "PE-DSP-0290", "OLED-Display 2,9\", SPI", "50", "Stk.", "18,90 €", "945,00 €"],
        ["4", "PE-CON-1208", "Steckverbinder M12, 8-polig", "120", "Stk.", "4,35 €", "522,00 €"],
    ], "2.937,00 €")
    praxis_invoice("Purchasing/Invoices/2024/Praxis Elektronik/RE-2024-1342.docx", "RE-2024-1342", "18.06.2024", "40217", [
        ["1", "PE-MCU-4471", "Mikrocontroller STM32F4, LQFP64", "150", "Stk.", "6,85 €", "1.027,50 €"],
        ["2", "PE-SEN-7730", "Drucksensor 0–10 bar, I²C", "40", "Stk.", "27,60 €", "1.104,00 €"],
        ["3", "PE-PCB-0012", "Leiterplatte Hauptplatine Rev. C", "150", "Stk.", "11,20 €", "1.680,00 €"],
        ["4", "PE-VER-0001", "Versandkostenpauschale", "1", "psch.", "25,00 €", "25,00 €"],
    ], "3.836,50 €")
    praxis_invoice("Purchasing/Invoices/2025/Praxis Elektronik/RE-2025-0093.docx", "RE-2025-0093", "22.01.2025", "40217", [
        ["1", "PE-DSP-0290", "OLED-Display 2,9\", SPI", "80", "Stk.", "19,40 €", "1.552,00 €"],
        ["2", "PE-CON-1208", "Steckverbinder M12, 8-polig", "10", "Stk.", "4,35 €", "43,50 €"],
        ["3", "PE-SEN-7730", "Drucksensor 0–10 bar, I²C", "25", "Stk.", "27,60 €", "690,00 €"],
    ], "2.285,50 €")
    delaunay_invoice("Purchasing/Invoices/2024/Optique Delaunay/FA-2024-077.pdf", "FA-2024-077", "14/02/2024", [
        ("OD-LEN-25F50", "Lentille achromatique Ø25 mm f=50", "30", "42,50", "1 275,00"),
        ("OD-LEN-25F100", "Lentille achromatique Ø25 mm f=100", "20", "44,80", "896,00"),
        ("OD-FIL-532", "Filtre passe-bande 532 nm", "10", "118,00", "1 180,00"),
        ("OD-MIR-50", "Miroir plan Ø50 mm, aluminium", "15", "36,20", "543,00"),
    ], "3 894,00")
    delaunay_invoice("Purchasing/Invoices/2024/Optique Delaunay/FA-2024-102.pdf", "FA-2024-102", "09/09/2024", [
        ("OD-LEN-25F50", "Lentille achromatique Ø25 mm f=50", "40", "42,50", "1 700,00"),
        ("OD-PRI-10", "Prisme à angle droit 10 mm", "25", "29,90", "747,50"),
        ("OD-FIL-532", "Filtre passe-bande 532 nm", "5", "118,00", "590,00"),
    ], "3 037,50")
    tessaro_invoice("Purchasing/Invoices/Tessaro Software/TS-INV-5521.pdf", "TS-INV-5521", "31 January 2024", "PO-2024-0007", [
        ("1", "TS-LAB-PRO", "LabTrace Pro annual licence", "Software", "12", "£480.00", "£5,760.00"),
        ("2", "TS-LAB-API", "LabTrace API add-on", "Software", "1", "£1,200.00", "£1,200.00"),
        ("3", "TS-SUP-GLD", "Gold support plan (12 months)", "Support", "1", "£2,400.00", "£2,400.00"),
        ("4", "TS-TRN-DAY", "On-site training day", "Services", "2", "£950.00", "£1,900.00"),
    ], "£11,260.00")
    tessaro_invoice("Purchasing/Invoices/Tessaro Software/TS-INV-5604.pdf", "TS-INV-5604", "15 July 2024", "PO-2024-0088", [
        ("1", "TS-LAB-PRO", "LabTrace Pro annual licence (additional seats, pro rata)", "Software", "4", "£240.00", "£960.00"),
        ("2", "TS-CON-HR", "Integration consulting (hours)", "Services", "14", "£125.00", "£1,750.00"),
        ("3", "TS-DAT-MIG", "Data migration package", "Services", "1", "£3,500.00", "£3,500.00"),
        ("4", "TS-RPT-MOD", "Report designer module", "Software", "1", "£650.00", "£650.00"),
    ], "£6,860.00")
    purchase_order("Purchasing/Orders/PO-2024-0061_Brandvoort.docx")
    sales_order_aldercrest("Sales/Orders/2024/SO-24-118_Aldercrest.xlsx")
    quist_order("Sales/Orders/2024/Orderbevestiging_SO-24-131_Quist.pdf")
    price_list("Sales/Price lists/Corvane_Price_List_2024.xlsx")
    monthly_sales_csv("Sales/Reports/monthly_sales_2024.csv")
    expense_csv("Finance/Expenses/2024/Spesenabrechnung_2024-03_Brandt.csv")
    contract_register("Legal/Contracts/contract_register.xlsx")
    sla_md("IT/SLA/SLA_LabTrace_Tessaro.md")
    vanrijn_txt("Logistics/Van Rijn/2024/Zendingsoverzicht_Q2-2024.txt")
    kpi_report("Management/KPI/KPI_Report_H1_2024.pdf")
    n = sum(len(f) for _, _, f in os.walk(BASE))
    print(f"wrote {n} documents under {BASE}")


if __name__ == "__main__":
    main()
