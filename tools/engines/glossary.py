"""The names business documents print over their columns, kind by kind, in English, German,
French, Dutch, Spanish and Polish: the standard term, its variants and plurals and the usual
printed abbreviations, written lower case with punctuation as spaces ("Rechnungs-Nr." is
"rechnungs nr").

Written from the languages, kind by kind, for the columns invoices, orders, shipments,
timesheets, expense reports, contracts, SLAs, price lists, reports and project lists carry;
not from any document Kea was tried on. Names that mostly mean something else in ordinary text
("plan", "state", "data") and two-letter abbreviations are left out: a wrong kind is worse than
none. Read with the table of ``tools.engines.synonyms`` (same format, groups merged).
"""

GLOSSARY = """
    invoice number: invoice number | invoice no | inv no | invoice nr | invoice num | invoice numbers
    invoice number: rechnungsnummer | rechnungs nr | rechnungsnr | rechnung nr | re nr | rg nr
    invoice number: numéro de facture | n facture | n de facture | no facture | facture n | num facture
    invoice number: factuurnummer | factuurnr | factuur nr | factuurnummers | número de factura | n factura
    invoice number: n de factura | núm factura | num factura | factura n | no factura | numer faktury
    invoice number: nr faktury | faktura nr | faktura vat nr
    invoice date: invoice date | date of invoice | inv date | invoice dates | rechnungsdatum | rechnungs datum
    invoice date: datum der rechnung | date de facture | date de facturation | date facture | factuurdatum
    invoice date: factuur datum | fecha de factura | fecha factura | fecha de emisión | fecha emisión
    invoice date: data wystawienia | data faktury | data wystawienia faktury
    due date: due date | payment due | payment due date | date due | due on | fälligkeitsdatum | fällig am
    due date: fälligkeit | zahlbar bis | fällig | date d échéance | échéance | date limite de paiement
    due date: date d exigibilité | vervaldatum | vervaldag | uiterste betaaldatum | te betalen voor
    due date: fecha de vencimiento | vencimiento | fecha vencimiento | fecha vto | termin płatności
    due date: termin zapłaty | płatne do | data płatności
    supplier: supplier | suppliers | vendor | vendors | seller | supplier name | vendor name | lieferant
    supplier: lieferanten | verkäufer | kreditor | rechnungssteller | fournisseur | fournisseurs | vendeur
    supplier: leverancier | leveranciers | verkoper | crediteur | proveedor | proveedores | vendedor | dostawca
    supplier: dostawcy | sprzedawca
    customer: customer | customers | client | clients | buyer | bill to | sold to | customer name | kunde
    customer: kunden | käufer | auftraggeber | rechnungsempfänger | debitor | acheteur | facturé à | klant
    customer: klanten | afnemer | koper | opdrachtgever | debiteur | cliente | clientes | comprador | facturar a
    customer: nabywca | klient | klienci | odbiorca | zamawiający
    customer number: customer number | customer no | customer id | client no | client number | cust no
    customer number: account no | kundennummer | kunden nr | kundennr | kd nr | kunden id | debitorennummer
    customer number: numéro client | numéro de client | n client | no client | code client | réf client
    customer number: klantnummer | klantnr | klant nr | debiteurnummer | debiteurnr | número de cliente
    customer number: n cliente | n de cliente | código cliente | cód cliente | núm cliente | numer klienta
    customer number: nr klienta | nr kontrahenta | id klienta | numer odbiorcy | nr nabywcy
    description: description | descriptions | item description | item | beschreibung | bezeichnung
    description: artikelbezeichnung | positionsbeschreibung | leistungsbeschreibung | désignation | libellé
    description: désignations | omschrijving | beschrijving | omschrijvingen | descripción | concepto | detalle
    description: conceptos | opis | nazwa towaru usługi | nazwa towaru lub usługi | nazwa usługi
    quantity: quantity | quantities | qty | qty ordered | menge | anzahl | anz | mengen | quantité | qté | qte
    quantity: quantités | aantal | hoeveelheid | hoeveelh | cantidad | cant | cantidades | ilość | liczba
    quantity: ilość szt
    unit: unit | uom | unit of measure | units of measure | einheit | mengeneinheit | einh | unité
    unit: unité de mesure | eenheid | eenh | maateenheid | unidad | unidad de medida | jednostka | j m | jm
    unit: jednostka miary | jedn
    unit price: unit price | price | price per unit | unit cost | unit prices | price per piece | price per item | piece price
    unit price: price each | einzelpreis | preis | stückpreis
    unit price: e preis | preis je einheit | preis pro einheit | prix unitaire | pu | p u | prix unit | prix
    unit price: prix unitaire ht | eenheidsprijs | prijs | stukprijs | prijs per stuk | prijs per eenheid
    unit price: precio unitario | precio | precio unidad | p unitario | precio unit | cena jednostkowa
    unit price: coût unitaire | cout unitaire | coste unitario | costo unitario | stückkosten | koszt jednostkowy
    unit price: cena jedn | cena | cena jedn netto | cena netto | cena jednostkowa netto
    discount: discount | discounts | disc | rebate | rabatt | nachlass | rabatte | preisnachlass | remise
    discount: rabais | réduction | remises | korting | kortingen | descuento | descuentos | bonificación | rabat
    discount: upust | bonifikata | rabaty
    net amount: net amount | net | net total | amount excl vat | net value | total excl vat | nettobetrag
    net amount: netto | nettosumme | nettowert | gesamt netto | betrag netto | montant ht | total ht
    net amount: prix total ht | montant hors taxes | nettobedrag | bedrag excl btw | totaal excl btw | excl btw
    net amount: importe neto | base imponible | neto | total neto | wartość netto | kwota netto | razem netto
    vat rate: vat rate | tax rate | vat rates | mwst satz | ust satz | steuersatz | mwst satz in
    vat rate: umsatzsteuersatz | taux de tva | taux tva | btw tarief | btw percentage | btw perc | btw tarieven
    vat rate: tipo de iva | tipo iva | tipo impositivo | stawka vat | st vat | stawka podatku
    vat rate: stawka podatku vat
    vat amount: vat amount | vat | tax | tax amount | sales tax | mwst | ust | mwst betrag | ust betrag
    vat amount: mehrwertsteuer | umsatzsteuer | steuerbetrag | steuer | tva | montant tva | montant de tva
    vat amount: total tva | btw | btw bedrag | bedrag btw | iva | cuota iva | importe iva | cuota de iva
    vat amount: kwota vat | podatek vat | wartość vat | kwota podatku
    gross amount: gross amount | gross | total incl vat | amount incl vat | gross total | brutto
    gross amount: bruttobetrag | gesamtbetrag brutto | bruttosumme | betrag brutto | montant ttc | ttc
    gross amount: total ttc | montant toutes taxes comprises | bruto | brutobedrag | bruto bedrag
    gross amount: totaal incl btw | incl btw | importe bruto | total con iva | total factura
    gross amount: wartość brutto | kwota brutto | razem brutto
    currency: currency | curr | ccy | currencies | währung | whg | währungen | devise | monnaie | devises
    currency: valuta | munt | moneda | divisa | monedas | waluta | wal | waluty
    payment terms: payment terms | terms | terms of payment | payment term | zahlungsbedingungen | zahlungsziel
    payment terms: zahlungskonditionen | zahlungsbedingung | conditions de paiement | conditions de règlement
    payment terms: modalités de paiement | délai de paiement | betalingsvoorwaarden | betalingstermijn
    payment terms: betaalvoorwaarden | betaaltermijn | condiciones de pago | plazo de pago | condiciones pago
    payment terms: warunki płatności | forma i termin płatności
    order number: order number | order no | po number | po no | purchase order | purchase order no | order ref
    order number: bestellnummer | bestell nr | bestellnr | auftragsnummer | auftrags nr | auftragsnr
    order number: ihre bestellung | numéro de commande | n commande | n de commande | no commande
    order number: bon de commande | réf commande | bestelnummer | bestelnr | ordernummer | ordernr | order nr
    order number: inkoopordernummer | número de pedido | n pedido | n de pedido | núm pedido | pedido
    order number: numer zamówienia | nr zamówienia | zamówienie | zamówienie nr
    delivery date: delivery date | date of delivery | delivery dates | lieferdatum | liefertermin
    delivery date: leistungsdatum | lieferung am | liefertag | date de livraison | livraison le | date livraison
    delivery date: leveringsdatum | leverdatum | afleverdatum | geleverd op | fecha de entrega | fecha entrega
    delivery date: fecha de suministro | data dostawy | data dostawy wykonania usługi | data wykonania usługi
    delivery date: termin dostawy | data sprzedaży
    shipment number: shipment number | shipment no | consignment number | consignment no | waybill number
    shipment number: waybill no | awb | awb no | air waybill | bill of lading | sendungsnummer | sendungs nr
    shipment number: sendungsnr | frachtbriefnummer | frachtbrief nr | numéro d expédition | n expédition
    shipment number: n d expédition | n envoi | numéro d envoi | lettre de voiture | n lettre de voiture
    shipment number: zendingnummer | zendingnr | zending nr | vrachtbriefnummer | vrachtbrief nr | cmr nummer
    shipment number: número de envío | n envío | número de expedición | n expedición | carta de porte
    shipment number: n carta de porte | numer przesyłki | nr przesyłki | numer listu przewozowego
    shipment number: nr listu przewozowego | list przewozowy | nr wysyłki
    tracking number: tracking number | tracking no | tracking id | tracking | tracking code | tracking numbers
    tracking number: sendungsverfolgungsnummer | sendungsverfolgung | trackingnummer | tracking nummer
    tracking number: tracking nr | numéro de suivi | n de suivi | n suivi | suivi | code de suivi
    tracking number: track and trace | track trace | track trace code | trackingcode | número de seguimiento
    tracking number: n seguimiento | seguimiento | código de seguimiento | n de seguimiento | numer śledzenia
    tracking number: nr śledzenia | numer do śledzenia | numer monitorowania
    destination: destination | ship to | destination city | deliver to | destinations | zielort | bestimmungsort
    destination: empfangsort | lieferort | lieferadresse | lieu de livraison | ville de destination | livrer à
    destination: bestemming | plaats van bestemming | afleveradres | losplaats | destino | lugar de entrega
    destination: ciudad de destino | destinos | miejsce przeznaczenia | miejsce dostawy | miejsce docelowe
    destination: miejsce rozładunku
    origin: origin | ship from | origin city | place of origin | point of origin | herkunft | abgangsort
    origin: versandort | abholort | ladeort | origine | provenance | lieu d expédition | lieu de chargement
    origin: départ | herkomst | vertrekplaats | laadplaats | plaats van herkomst | origen | procedencia
    origin: lugar de origen | lugar de carga | miejsce nadania | pochodzenie | miejsce załadunku
    origin: miejsce wysyłki
    weight: weight | weight kg | weights | gewicht | gew | gewicht kg | poids | poids kg | gewicht in kg | peso
    weight: peso kg | waga | masa | ciężar | waga kg
    gross weight: gross weight | gross wt | gross weight kg | bruttogewicht | brutto gewicht | gewicht brutto
    gross weight: poids brut | poids brut kg | brutogewicht | bruto gewicht | peso bruto | peso bruto kg
    gross weight: waga brutto | masa brutto | ciężar brutto
    packages: packages | pkgs | no of packages | number of packages | parcels | pieces | colli | packstücke
    packages: anzahl packstücke | pakete | kolli | anzahl pakete | colis | nombre de colis | nb colis
    packages: nbre colis | aantal colli | pakketten | aantal pakketten | pakken | bultos | n bultos
    packages: número de bultos | paquetes | n paquetes | paczki | liczba paczek | ilość paczek | liczba opakowań
    packages: ilość opakowań | liczba sztuk
    freight cost: freight | freight cost | freight costs | freight charges | shipping cost | shipping | carriage
    freight cost: shipping costs | frachtkosten | fracht | versandkosten | transportkosten | frachtgebühr
    freight cost: frais de port | frais de transport | fret | coût du transport | vrachtkosten | verzendkosten
    freight cost: vracht | portokosten | portes | coste de transporte | gastos de envío | flete
    freight cost: coste del flete | gastos de transporte | koszt transportu | koszt frachtu | koszty wysyłki
    freight cost: koszt przesyłki | koszty transportu
    carrier: carrier | carriers | forwarder | haulier | shipping company | courier | freight forwarder
    carrier: spediteur | frachtführer | transporteur | paketdienst | versanddienstleister | frachtführers
    carrier: transporteurs | messagerie | vervoerder | expediteur | koerier | transportbedrijf | transportista
    carrier: agencia de transporte | mensajería | empresa de transporte | transportistas | przewoźnik | spedytor
    carrier: kurier | firma kurierska | przewoźnicy
    ship date: ship date | shipping date | dispatch date | date shipped | shipment date | shipped on
    ship date: versanddatum | versandtag | versendet am | abholdatum | warenausgang | date d expédition
    ship date: date d envoi | expédié le | date expédition | verzenddatum | verzonden op | datum verzending
    ship date: verzenddag | fecha de envío | fecha de expedición | fecha envío | fecha expedición | data wysyłki
    ship date: data nadania | data wysłania | data załadunku
    employee: employee | employees | employee name | staff | worker | staff member | mitarbeiter | mitarbeiterin
    employee: mitarbeitende | arbeitnehmer | mitarbeitername | employé | salarié | collaborateur | employés
    employee: nom de l employé | intervenant | medewerker | werknemer | medewerkers | naam medewerker | empleado
    employee: trabajador | empleados | nombre del empleado | pracownik | pracownicy | nazwisko pracownika
    surname: surname | surnames | last name | last names | family name | nachname | nachnamen | familienname
    surname: nom de famille | achternaam | apellido | apellidos | primer apellido | nazwisko | nazwiska
    given name: given name | given names | first name | first names | forename | forenames | vorname
    given name: vornamen | prénom | prénoms | voornaam | voornamen | nombre de pila | nombres | imię | imiona
    hours: hours | hours worked | hrs | total hours | no of hours | stunden | arbeitsstunden | anzahl stunden
    hours: arbeitszeit | heures | heures travaillées | nb heures | nombre d heures | uren | gewerkte uren
    hours: aantal uren | horas | horas trabajadas | n horas | godziny | liczba godzin | godz
    hours: przepracowane godziny | ilość godzin
    task: task | tasks | activity | activities | work item | work performed | tätigkeit | aufgabe | tätigkeiten
    task: aufgaben | ausgeführte arbeiten | tâche | tâches | activité | activités | travaux réalisés | taak
    task: taken | werkzaamheden | activiteit | activiteiten | tarea | tareas | actividad | actividades
    task: trabajo realizado | zadanie | zadania | czynność | czynności | wykonane prace | opis prac
    project: project | projects | project name | projekt | projektname | projekte | projet | projets
    project: nom du projet | projecten | projectnaam | proyecto | proyectos | nombre del proyecto
    project: nazwa projektu | projekty
    break: break | breaks | break min | break minutes | lunch break | pause | pausen | pausenzeit | pause min
    break: mittagspause | pauses | pauze | pauzes | pauze min | descanso | pausa | pausas | descanso min
    break: przerwa | przerwy | przerwa min
    start time: start time | start | time in | begin time | clock in | beginn | arbeitsbeginn | startzeit
    start time: anfang | beginnzeit | heure de début | début | heure d arrivée | heure début | begintijd
    start time: aanvang | starttijd | begin | hora de inicio | hora inicio | inicio | hora de entrada
    start time: godzina rozpoczęcia | początek | rozpoczęcie | godz rozpoczęcia | godzina rozp
    end time: end time | end | finish | time out | clock out | finish time | ende | endzeit | arbeitsende
    end time: endezeit | heure de fin | fin | heure de départ | heure fin | eindtijd | einde | stoptijd
    end time: hora de fin | hora fin | hora de salida | hora final | godzina zakończenia | koniec | zakończenie
    end time: godz zakończenia
    day: day | weekday | day of week | day of the week | tag | wochentag | wochentage | jour
    day: jour de la semaine | jours de la semaine | dag | weekdag | dag van de week | día | día de la semana
    day: dia | dzień | dzień tygodnia
    overtime: overtime | overtime hours | überstunden | mehrarbeit | mehrstunden | überstd
    overtime: heures supplémentaires | heures sup | h sup | overuren | overwerk | meeruren | overuur
    overtime: horas extra | horas extras | h extra | nadgodziny | godziny nadliczbowe | nadgodz
    department: department | departments | dept | abteilung | abt | abteilungen | département | départements
    department: afdeling | afd | afdelingen | departamento | depto | dpto | departamentos | dział | departament
    department: wydział | działy
    cost centre: cost centre | cost center | cost centres | cost centers | cost ctr | kostenstelle | kst
    cost centre: kostenst | kostenstellen | centre de coût | centre de coûts | centre de frais
    cost centre: centre analytique | kostenplaats | kostenplaatsen | kostenpl | centro de coste
    cost centre: centro de costo | centro de costes | centro de costos | centrum kosztów | mpk
    cost centre: miejsce powstawania kosztów | centrum kosztowe
    category: category | categories | expense category | expense type | type of expense | kategorie | kostenart
    category: ausgabenart | kategorien | spesenart | catégorie | type de dépense | nature de la dépense
    category: catégories | categorie | kostensoort | soort kosten | categorieën | type uitgave | categoría
    category: tipo de gasto | categorías | naturaleza del gasto | kategoria | rodzaj wydatku | rodzaj kosztu
    category: kategorie wydatków
    receipt number: receipt number | receipt no | voucher no | voucher number | receipt nr | receipt id
    receipt number: quittungsnummer | quittungs nr | quittung nr | bon nr | kassenbon nr | numéro de reçu
    receipt number: n reçu | n de reçu | n justificatif | n ticket | justificatif n | bonnummer | bonnr
    receipt number: kwitantienummer | kwitantie nr | bonnetje nr | número de recibo | n recibo
    receipt number: n ticket de compra | n justificante | justificante | núm recibo | numer paragonu
    receipt number: nr paragonu | nr pokwitowania | nr dowodu wpłaty
    contract number: contract number | contract no | contract id | agreement no | agreement number
    contract number: contract ref | vertragsnummer | vertrags nr | vertragsnr | vertrag nr | numéro de contrat
    contract number: n contrat | n de contrat | no contrat | réf contrat | contractnummer | contractnr
    contract number: contract nr | overeenkomstnummer | número de contrato | n contrato | n de contrato
    contract number: núm contrato | numer umowy | nr umowy | umowa nr
    party: counterparty | contract partner | party | contracting party | counter party | contractor
    party: vertragspartner | vertragspartei | gegenpartei | vertragspartnerin | partner | cocontractant
    party: contrepartie | partie | partenaire | contractant | wederpartij | contractpartij | tegenpartij
    party: contractpartner | contraparte | parte | contratante | parte contratante | kontrahent | strona umowy
    party: druga strona | kontrahenci
    subject: subject | subject matter | scope | contract subject | gegenstand | vertragsgegenstand
    subject: leistungsgegenstand | betreff | objet | objet du contrat | onderwerp | voorwerp
    subject: voorwerp van de overeenkomst | objeto | objeto del contrato | asunto | przedmiot | przedmiot umowy
    start date: start date | commencement date | effective date | begin date | contract start | start dates
    start date: startdatum | vertragsbeginn | beginndatum | anfangsdatum | laufzeitbeginn | beginn am
    start date: date de début | date d effet | début du contrat | date début | ingangsdatum | begindatum
    start date: aanvangsdatum | fecha de inicio | fecha inicio | fecha de comienzo | fecha de entrada en vigor
    start date: data rozpoczęcia | data początkowa | data wejścia w życie | data obowiązywania od
    end date: end date | expiry date | expiration date | termination date | contract end | enddatum
    end date: vertragsende | ablaufdatum | laufzeitende | endet am | date de fin | date d expiration
    end date: fin du contrat | date fin | date de fin de contrat | einddatum | afloopdatum | expiratiedatum
    end date: fecha de fin | fecha fin | fecha de terminación | fecha de expiración
    end date: fecha de finalización del contrato | data zakończenia | data końcowa | data wygaśnięcia
    end date: obowiązuje do | data obowiązywania do
    notice period: notice period | notice | termination notice | period of notice | notice periods
    notice period: kündigungsfrist | kündigung | kündigungsfristen | préavis | délai de préavis
    notice period: délai de résiliation | opzegtermijn | opzegging | opzegtermijnen | plazo de preaviso
    notice period: preaviso | período de preaviso | okres wypowiedzenia | wypowiedzenie | termin wypowiedzenia
    annual value: annual value | annual contract value | acv | value per year | annual amount | yearly value
    annual value: value p a | jahreswert | jahresvolumen | jahresbetrag | vertragswert p a
    annual value: jährlicher vertragswert | wert p a | valeur annuelle | montant annuel
    annual value: valeur annuelle du contrat | jaarwaarde | jaarbedrag | jaarlijkse waarde
    annual value: contractwaarde per jaar | valor anual | importe anual | valor anual del contrato
    annual value: wartość roczna | roczna wartość umowy | kwota roczna | wartość rocznie
    responsible: responsible | owner | person responsible | responsible person | accountable | verantwortlich
    responsible: verantwortliche | verantwortlicher | zuständig | zuständigkeit | responsable | responsables
    responsible: personne responsable | verantwoordelijke | eigenaar | verantwoordelijk | encargado
    responsible: persona responsable | odpowiedzialny | osoba odpowiedzialna | właściciel | odpowiedzialna
    status: status | statuses | statut | état | estado | estatus | situación
    remarks: remarks | notes | comments | note | comment | bemerkungen | anmerkungen | bemerkung | kommentar
    remarks: hinweise | notizen | anmerkung | remarques | commentaires | observations | remarque | commentaire
    remarks: opmerkingen | opmerking | toelichting | observaciones | comentarios | notas | observación | uwagi
    remarks: komentarz | komentarze | notatki | adnotacje | uwaga
    term: term | duration | contract term | term months | contract duration | laufzeit | vertragslaufzeit
    term: dauer | vertragsdauer | durée | durée du contrat | durée contractuelle | looptijd | duur
    term: contractduur | looptijd contract | duración | vigencia | duración del contrato | okres obowiązywania
    term: czas trwania | okres umowy | czas obowiązywania | okres trwania umowy
    priority: priority | priorities | prio | severity | severity level | priority level | priorität
    priority: dringlichkeit | prioritätsstufe | schweregrad | priorité | niveau de priorité | gravité
    priority: prioriteit | urgentie | prioriteiten | prioridad | prioridades | nivel de prioridad | severidad
    priority: priorytet | priorytety | poziom priorytetu | waga zgłoszenia
    definition: definition | definitions | meaning | definitionen | bedeutung | définition | définitions
    definition: signification | definitie | definities | betekenis | definición | definiciones | significado
    definition: definicja | definicje | znaczenie
    response time: response time | response | initial response | response times | time to respond
    response time: reaktionszeit | antwortzeit | reaktionszeiten | temps de réponse | délai de réponse
    response time: délai d intervention | délai de prise en charge | reactietijd | responstijd | reactietijden
    response time: tiempo de respuesta | tiempos de respuesta | tiempo de reacción | czas reakcji
    response time: czas odpowiedzi
    resolution time: resolution time | time to resolve | time to fix | restore time | fix time | resolution
    resolution time: time to restore | resolution times | lösungszeit | behebungszeit | wiederherstellungszeit
    resolution time: entstörzeit | lösungszeiten | temps de résolution | délai de résolution
    resolution time: délai de rétablissement | délai de correction | oplostijd | hersteltijd | oplossingstijd
    resolution time: tiempo de resolución | tiempo de restauración | tiempo de solución | czas rozwiązania
    resolution time: czas naprawy | czas przywrócenia | czas usunięcia awarii
    service hours: service hours | support hours | hours of cover | coverage | business hours | hours of service
    service hours: servicezeit | servicezeiten | supportzeiten | supportzeit | betriebszeit | heures de service
    service hours: plages horaires | horaires de support | plage horaire | heures d ouverture | servicetijden
    service hours: supporttijden | openingstijden | servicevenster | horario de servicio | horario de soporte
    service hours: horario de atención | godziny serwisu | godziny wsparcia | godziny świadczenia usług
    service hours: okno serwisowe
    availability: availability | uptime | availability target | verfügbarkeit | disponibilité
    availability: taux de disponibilité | beschikbaarheid | disponibilidad | dostępność
    service credit: service credit | service credits | penalty | penalties | service level credit
    service credit: vertragsstrafe | pönale | malus | servicegutschrift | pönalen | pénalité | pénalités
    service credit: crédit de service | boete | servicecredit | boetes | penalización | penalidad
    service credit: crédito de servicio | penalizaciones | kara umowna | kara | kary umowne
    item code: article number | item number | item no | sku | item code | product code | part number | part no
    item code: art no | article no | artikelnummer | art nr | artikel nr | artikelnr | materialnummer
    item code: material nr | référence | réf | réf article | code article | n article | référence article
    item code: artikelcode | artikel nummer | artnr | referencia | ref | cód artículo | código de artículo
    item code: n artículo | código artículo | indeks | kod produktu | numer katalogowy | nr kat | kod towaru
    item code: nr artykułu
    description: product name | product | item name | products | product description | produkt | produktname
    description: produktbezeichnung | nom du produit | produit | nom produit | produits | productnaam
    description: artikelnaam | producten | nombre del producto | producto | artículo | productos
    description: nombre producto | nazwa produktu | nazwa towaru | towar | produkty
    unit price: list price | msrp | rrp | retail price | list prices | listenpreis | uvp | bruttolistenpreis
    unit price: listenpreise | prix catalogue | prix de liste | prix public | prix de vente conseillé
    unit price: lijstprijs | catalogusprijs | adviesprijs | bruto prijs | precio de lista | precio de tarifa
    unit price: pvp | precio catálogo | cena katalogowa | cena cennikowa | cena detaliczna | cena z cennika
    minimum order quantity: minimum order quantity | moq | min order qty | min qty | minimum order
    minimum order quantity: min order quantity | mindestbestellmenge | mindestmenge | mindestabnahme
    minimum order quantity: mindestabnahmemenge | quantité minimum de commande | qté min | minimum de commande
    minimum order quantity: quantité minimale | quantité minimale de commande | minimale bestelhoeveelheid
    minimum order quantity: min bestelhoeveelheid | minimale afname | min aantal | cantidad mínima de pedido
    minimum order quantity: pedido mínimo | cant mín | cantidad mínima | minimalna ilość zamówienia | min ilość
    minimum order quantity: minimum logistyczne | minimalne zamówienie
    product group: product group | product category | product line | product family | product groups
    product group: produktgruppe | warengruppe | artikelgruppe | produktkategorie | famille de produits
    product group: famille | gamme | groupe de produits | famille produit | productgroep | artikelgroep
    product group: productcategorie | productgroepen | grupo de productos | familia | familia de productos
    product group: grupo de artículos | grupa produktów | grupa towarowa | grupa asortymentowa
    product group: kategoria produktu
    valid from: valid from | effective from | valid as of | gültig ab | gültig von | gilt ab | gültigkeit ab
    valid from: valable à partir du | valable du | valable dès | en vigueur au | geldig vanaf | geldig van
    valid from: geldig per | válido desde | vigente desde | válido a partir de | ważny od | obowiązuje od
    valid from: ważne od
    kpi: kpi | kpis | key figure | key figures | metric | metrics | indicator | key performance indicator
    kpi: kennzahl | kennzahlen | leistungskennzahl | indicateur | indicateurs | indicateur clé | kengetal
    kpi: kengetallen | prestatie indicator | indicador | indicadores | métrica | wskaźnik | wskaźniki | miernik
    kpi: mierniki
    target: target | targets | goal | objective | target value | ziel | soll | zielwert | sollwert | ziele
    target: objectif | cible | valeur cible | objectifs | doel | doelstelling | streefwaarde | objetivo
    target: valor objetivo | objetivos | cel | wartość docelowa | cele
    actual: actual | actuals | actual value | ist | istwert | ist wert | réel | réalisé | réalisation
    actual: valeur réelle | werkelijk | realisatie | gerealiseerd | realizado | valor real | wykonanie
    actual: rzeczywiste | realizacja | wartość rzeczywista | faktyczne
    variance: variance | deviation | diff | difference | variances | abweichung | differenz | soll ist
    variance: abweichungen | écart | différence | écarts | afwijking | verschil | afwijkingen | desviación
    variance: diferencia | desviaciones | odchylenie | różnica | odchyłka | odchylenia
    region: region | regions | territory | sales region | gebiet | vertriebsgebiet | regionen | région | régions
    region: regio | gebied | regio s | región | zona | regiones | obszar | regiony
    revenue: revenue | revenues | sales | turnover | net sales | umsatz | umsätze | erlöse | umsatzerlöse
    revenue: chiffre d affaires | ventes | omzet | opbrengsten | verkopen | netto omzet | ingresos | ventas
    revenue: facturación | cifra de negocio | przychód | przychody | sprzedaż | obrót | obroty
    change: change | chg | yoy | vs prior year | change vs py | veränderung | änderung | veränd
    change: veränderung zum vorjahr | évolution | variation | évol | verandering | wijziging | mutatie
    change: variación | cambio | var interanual | zmiana | dynamika | zmiana rdr
    period: period | periods | reporting period | billing period | zeitraum | periode | abrechnungszeitraum
    period: berichtszeitraum | période | périodes | periodes | verslagperiode | período | periodo | períodos
    period: okres | okres rozliczeniowy | okresy
    month: month | months | mth | monat | monate | mois | maand | maanden | mes | meses | miesiąc | miesiące
    quarter: quarter | quarters | qtr | quartal | quartale | trimestre | trimestres | kwartaal | kwartalen
    quarter: kwartał | kwartały
    year: year | years | fiscal year | jahr | jahre | geschäftsjahr | année | années | exercice | jaar | jaren
    year: boekjaar | año | años | ejercicio | rok | lata | rok obrotowy
    budget: budget | budgets | budgeted | budget amount | budgetiert | budgetwert | budgété | begroting
    budget: gebudgetteerd | presupuesto | presupuestado | presupuestos | budżet | budżety | planowane
    forecast: forecast | forecasts | fcst | outlook | prognose | vorschau | hochrechnung | prognosen | prévision
    forecast: prévisions | prévisionnel | verwachting | prognoses | previsión | pronóstico | proyección
    forecast: previsiones | estimación | prognoza | prognozy | przewidywane
    project code: project code | project no | project number | project id | project nr | projektnummer
    project code: projekt nr | projektcode | projektnr | projekt id | code projet | n projet | numéro de projet
    project code: n de projet | réf projet | projectcode | projectnummer | projectnr | código de proyecto
    project code: cód proyecto | n proyecto | n de proyecto | código proyecto | kod projektu | nr projektu
    project code: numer projektu | id projektu
    city: town | city | municipality | locality | stadt | ort | gemeinde | ortschaft | wohnort | ville | commune
    city: localité | communes | plaats | gemeente | woonplaats | stad | ciudad | municipio | localidad
    city: población | miejscowość | miasto | gmina
    country: country | countries | land | länder | pays | país | países | paese | paesi | kraj | kraje | landen
    province: province | provinces | bundesland | landkreis | kanton | provinz | provincie | provincies
    province: provincia | comunidad autónoma | provincias | województwo | woj | powiat
    capacity: capacity | installed capacity | power | kwp | peak power | installed power | system size
    capacity: leistung kwp | anlagenleistung | nennleistung | installierte leistung | puissance
    capacity: puissance installée | puissance crête | kwc | capacité | vermogen | geïnstalleerd vermogen
    capacity: piekvermogen | wattpiek | potencia | potencia instalada | potencia pico | capacidad | moc
    capacity: moc zainstalowana | moc instalacji | moc szczytowa
    end date: completion date | finish date | date completed | completed on | fertigstellung
    end date: fertigstellungsdatum | abschlussdatum | fertiggestellt am | date d achèvement
    end date: date de fin des travaux | date de réalisation | achèvement | opleverdatum | oplevering
    end date: datum gereed | opleveringsdatum | fecha de finalización | fecha de terminación de obra
    end date: fecha de conclusión | fecha finalización | data ukończenia | data realizacji
    end date: termin realizacji | data odbioru | data zakończenia prac
    installation type: installation type | type of installation | system type | mounting type | anlagentyp
    installation type: anlagenart | installationsart | montageart | type d installation | type de pose
    installation type: type de montage | installatietype | type installatie | soort installatie | montagetype
    installation type: tipo de instalación | tipo instalación | tipo de montaje | typ instalacji
    installation type: rodzaj instalacji | rodzaj montażu
    service: service | services | service line | leistung | leistungen | dienstleistung | dienstleistungen
    service: prestation | prestations | dienst | diensten | dienstverlening | servicio | servicios | usługa
    service: usługi
    rate: rate | rates | tariff | satz | tarif | tarife | tarifs | tarief | tarieven | tarifa | tarifas | stawka
    rate: stawki
    hourly rate: hourly rate | rate per hour | hourly rates | price per hour | stundensatz | stundenlohn
    hourly rate: stundenpreis | stundensätze | preis pro stunde | taux horaire | tarif horaire | prix horaire
    hourly rate: prix de l heure | uurtarief | uurloon | prijs per uur | uurtarieven | tarifa por hora
    hourly rate: precio hora | precio por hora | tarifa horaria | stawka godzinowa | stawka za godzinę
    hourly rate: cena za godzinę | stawka godz
    charging basis: charging basis | billing basis | billing unit | charged per | billing frequency
    charging basis: abrechnungsbasis | abrechnungseinheit | abrechnungsart | verrechnungseinheit
    charging basis: base de facturation | unité de facturation | mode de facturation | facturatiebasis
    charging basis: facturatie eenheid | facturatiewijze | afrekeneenheid | base de facturación
    charging basis: unidad de facturación | modalidad de facturación | podstawa rozliczenia
    charging basis: jednostka rozliczeniowa | sposób rozliczenia
    charge: charge | charges | fee | fees | gebühr | gebühren | entgelt | vergütung | frais | coût | redevance
    charge: honoraires | coûts | vergoeding | cargo | honorarios | coste | cargos | opłata | opłaty | koszt
    charge: wynagrodzenie
    document number: document number | document no | doc no | entry no | booking reference | doc number
    document number: document nr | belegnummer | beleg nr | belegnr | buchungsnummer | dokumentnummer
    document number: dokument nr | numéro de pièce | n pièce | n de pièce | pièce | n document | documentnummer
    document number: boekstuknummer | boekstuk | stuknummer | documentnr | boekstuknr | número de documento
    document number: n documento | n asiento | asiento | n de documento | núm documento | numer dokumentu
    document number: nr dokumentu | nr dowodu | dowód księgowy | nr dowodu księgowego
    document date: document date | doc date | posting date | booking date | belegdatum | buchungsdatum
    document date: dokumentdatum | date de pièce | date du document | date pièce | date comptable
    document date: documentdatum | boekdatum | boekstukdatum | fecha de documento | fecha documento
    document date: fecha del documento | fecha contable | data dokumentu | data księgowania | data dowodu
    days overdue: days overdue | days past due | dpd | overdue days | days late | tage überfällig
    days overdue: überfällige tage | verzugstage | tage verzug | überfälligkeit in tagen | jours de retard
    days overdue: retard jours | nb jours de retard | jours échus | dagen over tijd | dagen vervallen
    days overdue: dagen te laat | achterstand dagen | dagen achterstand | días vencidos | días de retraso
    days overdue: días de atraso | días de demora | dni po terminie | dni zwłoki | liczba dni po terminie
    days overdue: dni opóźnienia | przeterminowanie dni
    open amount: open amount | outstanding | outstanding balance | balance | balance due | outstanding amount
    open amount: open balance | offener betrag | offener posten | restbetrag | saldo | offene posten
    open amount: offener saldo | montant dû | reste à payer | solde | montant restant | solde dû
    open amount: montant ouvert | openstaand bedrag | openstaand | openstaand saldo | importe pendiente
    open amount: saldo pendiente | pendiente de pago | kwota do zapłaty | pozostało do zapłaty | zaległość
    open amount: należność | kwota zaległa | pozostała kwota
"""
