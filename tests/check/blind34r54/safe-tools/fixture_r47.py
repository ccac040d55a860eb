#!/usr/bin/env python3
"""Adds round 47's folders to fixture/ (run once; the harness copies fixture/ for every run)."""
import base64, io, json, math, os, sqlite3, struct, subprocess, sys, tempfile, wave, zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
FX = os.path.join(HERE, "fixture")
OUT = os.path.join(HERE, "stub-out")


def w(path, text, mode="w"):
    p = os.path.join(FX, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, mode) as f:
        f.write(text)


def db(path, script, rows=()):
    p = os.path.join(FX, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    if os.path.exists(p):
        os.unlink(p)
    c = sqlite3.connect(p)
    c.executescript(script)
    for sql, data in rows:
        c.executemany(sql, data)
    c.commit()
    c.close()


def stub(name, text):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)


# ---------------------------------------------------------------- legal
w("legal/matters/M-2024-017/custodians.csv",
  "name,email,department,hold_sent\n"
  "Jane Doe,j.doe@acme-corp.example,Sales,2024-01-08\n"
  "Raj Patel,r.patel@acme-corp.example,Pricing,2024-01-08\n"
  "Lena Fischer,l.fischer@acme-corp.example,Legal,2024-01-09\n")
w("legal/matters/M-2024-017/privilege-log.csv",
  "entry,date,author,recipients,basis,subject\n"
  "1,2023-02-03,Lena Fischer,Jane Doe,AC,Advice from outside counsel on distributor terms\n"
  "2,2023-02-10,Raj Patel,Lena Fischer,WP,Draft price memo for outside counsel review\n"
  "3,2023-03-01,Lena Fischer,Board,AC,Litigation risk summary\n")
opt = []
for i, n in enumerate(list(range(1, 21)) + [23, 24, 24]):
    opt.append(f"ACME{n:06d},PROD001,IMAGES\\001\\ACME{n:06d}.tif,{'Y' if i % 5 == 0 else ''},,,\n")
w("legal/productions/PROD001/PROD001.opt", "".join(opt))
w("legal/collections/acme-2024/email-0001.txt", "From: Jane Doe\nTo: Distributor A\nSubject: 2023 price increase\n\nThe price increase takes effect in April.\n")
w("legal/collections/acme-2024/email-0002.txt", "From: Raj Patel\nTo: Jane Doe\nSubject: Re: margins\n\nMargins are fine.\n")
w("legal/collections/acme-2024/copies/email-0001-copy.txt", "From: Jane Doe\nTo: Distributor A\nSubject: 2023 price increase\n\nThe price increase takes effect in April.\n")
w("legal/collections/acme-2024/memo.txt", "Internal memo on pricing strategy.\n")
w("legal/docket.ics",
  "BEGIN:VCALENDAR\nVERSION:2.0\n"
  "BEGIN:VEVENT\nDTSTART;VALUE=DATE:20990115\nSUMMARY:Opposition brief due\nCATEGORIES:sdny\nEND:VEVENT\n"
  "BEGIN:VEVENT\nDTSTART;VALUE=DATE:20990301\nSUMMARY:Status conference\nCATEGORIES:edny\nEND:VEVENT\n"
  "END:VCALENDAR\n")
w("legal/tools/deadlines.py", '''#!/usr/bin/env python3
"""Deadlines of one court on the docket calendar within the next days."""
import argparse
import datetime

p = argparse.ArgumentParser()
p.add_argument("--court", required=True)
p.add_argument("--days", type=int, default=30)
p.add_argument("--calendar", required=True)
a = p.parse_args()
today = datetime.date.today()
end = today + datetime.timedelta(days=a.days)
events, cur = [], None
for line in open(a.calendar):
    line = line.strip()
    if line == "BEGIN:VEVENT":
        cur = {}
    elif line == "END:VEVENT" and cur is not None:
        events.append(cur)
        cur = None
    elif cur is not None and ":" in line:
        k, v = line.split(":", 1)
        cur[k.split(";")[0]] = v
n = 0
for e in events:
    if e.get("CATEGORIES") != a.court:
        continue
    d = datetime.datetime.strptime(e["DTSTART"][:8], "%Y%m%d").date()
    if today <= d <= end:
        print(d.isoformat(), e.get("SUMMARY", ""))
        n += 1
print(f"{n} deadlines for {a.court} in the next {a.days} days")
''')

# ---------------------------------------------------------------- hotel
w("hotel/properties.csv", "property,rooms\nharbor-view,120\nold-town,64\nairport,210\n")
res = ["id,property,room_type,status,arrival,departure,rate,channel,room,tier"]
import random
rnd = random.Random(47)
codes = ["K7Q2M9XA"] + ["".join(rnd.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(8)) for _ in range(59)]
for i, c in enumerate(codes):
    prop = ["harbor-view", "old-town", "airport"][i % 3]
    arr = 8 + i % 6
    res.append(f"{c},{prop},{['king','queen','double','suite'][i % 4]},{'cancelled' if i % 11 == 5 else 'confirmed'},2024-05-{arr:02d},2024-05-{arr + 1 + i % 3:02d},{149 + i % 5 * 20},{['direct','booking','expedia'][i % 3]},{300 + i % 20 + (112 if i == 0 else 0)},{['gold','standard','platinum'][i % 3]}")
w("hotel/reservations.csv", "\n".join(res) + "\n")
rates = lambda off: {"rates": [{"room": r, "date": f"2024-05-{d:02d}", "amount": 150 + 30 * k + off + d % 3} for k, r in enumerate(["king", "queen", "double", "suite"]) for d in range(8, 16)]}
w("hotel/rates/direct.json", json.dumps(rates(0), indent=1))
w("hotel/rates/ota-booking.json", json.dumps(rates(-5), indent=1))
w("hotel/rates/ota-expedia.json", json.dumps(rates(4), indent=1))
db("hotel/housekeeping.db", "create table rooms(room integer, floor integer, status text, attendant text, updated_at text);",
   [("insert into rooms values(?,?,?,?,?)", [(f * 100 + r, f, ["dirty", "clean", "inspected", "out-of-order"][r % 4], ["Ana", "Ben", "Chen"][r % 3], "2024-05-10T09:00") for f in range(1, 6) for r in range(1, 13)])])
w("hotel/groups.json", json.dumps([{"code": "GRP00412", "name": "Northwind sales kickoff", "cutoff": "2024-04-20",
                                     "nights": [{"date": "2024-05-12", "held": 40, "picked_up": 31}, {"date": "2024-05-13", "held": 40, "picked_up": 36}]}], indent=1))
w("hotel/maintenance.csv", "date,room,issue,status\n2024-05-09,412,AC unit rattling,open\n2024-05-02,305,Shower drain slow,closed\n")
w("hotel/comp-policy.yaml", "tiers:\n  standard: {points: 1000, amenity: fruit plate, night_refund: manager only}\n  gold: {points: 5000, amenity: wine, night_refund: manager only}\n  platinum: {points: 10000, amenity: wine and dinner, night_refund: front desk manager}\n")
stub("gcloud.storage.cat.out", "posting_id,department,amount\n1,rooms,14520.00\n2,food,3210.50\n3,rooms,980.00\n4,spa,640.00\n")

# ---------------------------------------------------------------- scada
lines = ["ts,tag,value,quality"]
for m in range(0, 24 * 60, 15):
    ts = f"2024-03-04T{m // 60:02d}:{m % 60:02d}:00Z"
    lines.append(f"{ts},FT101.PV,{42 + 5 * math.sin(m / 120):.3f},{'GOOD' if m % 300 else 'BAD'}")
    lines.append(f"{ts},BRK52.STATE,{0 if 600 <= m < 690 else 1},GOOD")
w("scada/historian/north-sub/2024-03-04.csv", "\n".join(lines) + "\n")
al = []
for i in range(40):
    al.append(json.dumps({"ts": f"2024-03-04T10:{14 + i // 4:02d}:{(i * 7) % 60:02d}Z", "site": "north-sub", "area": ["SUB-A", "SUB-B", "FEEDERS"][i % 3],
                          "priority": ["critical", "high", "medium", "low"][i % 4], "tag": ["BRK52.STATE", "FT101.PV", "VT12.PV"][i % 3], "message": "alarm " + str(i)}))
w("scada/alarms.jsonl", "\n".join(al) + "\n")
db("scada/feeders.db", "create table load(feeder text, ts text, mw real);",
   [("insert into load values(?,?,?)", [(f, f"2024-03-{d:02d}T{h:02d}:00:00", 5 + (h % 12) * 0.7 + d * 0.1) for f in ("F101", "F102") for d in range(1, 11) for h in range(24)])])
w("scada/relays/feeder-f101.set", "[51P]\npickup = 600\ntime_dial = 3.0\ncurve = U3\n")
w("scada/relays/feeder-f102.set", "[51P]\npickup = 480\ntime_dial = 2.5\ncurve = U3\n")

# ---------------------------------------------------------------- claims
w("claims/reserves.csv", "date,claim,adjuster,type,amount\n2024-03-02,CLM-00412345,mkhan,indemnity,5000\n2024-03-09,CLM-00412345,mkhan,indemnity,-1200\n2024-03-11,CLM-00412399,mkhan,expense,750\n2024-02-20,CLM-00412001,jlee,indemnity,3000\n")
w("claims/scores/2024-03-10.json", json.dumps([{"claim": "CLM-00412345", "line": "property", "score": 0.31, "reasons": ["new policy"]},
                                             {"claim": "CLM-00412399", "line": "auto", "score": 0.86, "reasons": ["late report", "prior claims"]}]))
w("claims/scores/2024-03-11.json", json.dumps([{"claim": "CLM-00412450", "line": "property", "score": 0.74, "reasons": ["round amount"]}]))
w("claims/policies.csv", "policy,line,zip,tiv\nP123456789,homeowners,33101,450000\nP123456790,homeowners,33139,820000\nP123456791,auto,33101,35000\nP123456792,renters,33480,40000\n")
w("claims/policies/homeowners.md", "# Homeowners wording\n\nWe cover sudden and accidental discharge of water from a plumbing system.\nWe do not cover continuous or repeated seepage over 14 days or more.\n")
w("claims/policies/auto.md", "# Auto wording\n\nCollision coverage applies to direct and accidental loss.\n")
w("claims/policies/renters.md", "# Renters wording\n\nPersonal property is covered for named perils.\n")
w("claims/history.csv", "date,policy,type,paid,status\n2021-07-02,P123456789,wind,3200,closed\n2019-01-15,P123456790,theft,900,closed\n")

# ---------------------------------------------------------------- library
w("library/marc/catalog.mrc", "00000nam  2200000   4500\x1e000123457\x1e\x1d")
stub("yaz-marcdump.out",
     "00714cam a2200205 a 4500\n001 000123456\n245 10 $a Structure and interpretation of computer programs\n\n"
     "00652cam a2200193 a 4500\n001 000123457\n020    $a 9780262033848\n100 1  $a Cormen, Thomas H.\n245 10 $a Introduction to algorithms\n\n")
db("library/circ.db", """
create table patrons(id integer primary key, cardnumber text, surname text, categorycode text, dateexpiry text);
create table biblio(id integer primary key, title text);
create table items(id integer primary key, biblio_id integer, barcode text, branch text);
create table loans(id integer primary key, patron_id integer, item_id integer, date_due text, returned text);
insert into patrons values(1,'21003000123454','Nguyen','ADULT','2026-01-31'),(2,'21003000123462','Okafor','CHILD','2025-06-30');
insert into biblio values(1,'Introduction to algorithms'),(2,'The art of computer programming');
insert into items values(1,1,'31003000000017','MAIN'),(2,2,'31003000000025','MAIN'),(3,2,'31003000000033','EAST');
insert into loans values(1,1,1,'2024-02-01',null),(2,2,3,'2024-03-01',null),(3,1,2,'2024-01-10','2024-01-09');
""")
w("library/items.tsv", "barcode\tbranch\tcallnumber\ttitle\n31003000000017\tMAIN\tQA76.6 .C662 2009\tIntroduction to algorithms\n"
  "31003000000025\tMAIN\tQA76.6 .K64 1997\tThe art of computer programming\n31003000000041\tMAIN\tQA76.73.P98 L8 2013\tLearning Python\n31003000000033\tEAST\tQA76.6 .K64 1997\tThe art of computer programming\n")

# ---------------------------------------------------------------- museum
w("museum/scans/B00231/obj-1998-112-3_001.tif", "II*\x00fake tiff master 1\n")
w("museum/scans/B00231/obj-1998-112-3_001.jpg", "fake access copy 1\n")
w("museum/scans/B00231/obj-1998-112-3_002.tif", "II*\x00fake tiff master 2\n")
bag = "museum/bags/accession-2024-031"
w(bag + "/bagit.txt", "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n")
w(bag + "/data/letter-01.txt", "Dear Sir, ...\n")
w(bag + "/data/letter-02.txt", "Madam, ...\n")
import hashlib
man = "".join(f"{hashlib.sha256(open(os.path.join(FX, bag, 'data', n), 'rb').read()).hexdigest()}  data/{n}\n" for n in ("letter-01.txt", "letter-02.txt"))
w(bag + "/manifest-sha256.txt", man)
w(bag + "/bag-info.txt", "Payload-Oxum: 25.2\nSource-Organization: City Museum\n")
stub("exiftool.-ImageWidth.-ImageHeight.out", json.dumps([{"SourceFile": "museum/scans/B00231/obj-1998-112-3_001.tif", "ImageWidth": 8256, "ImageHeight": 5504, "XResolution": 600, "YResolution": 600, "BitsPerSample": "16 16 16", "Make": "Phase One", "Model": "IQ4 150MP", "DateTimeOriginal": "2024:02:11 10:22:03"}]) + "\n")
stub("tesseract.out", "CITY MUSEUM\nAccession register, 1998\nItem 112.3: letter, ink on paper\n")

# ---------------------------------------------------------------- sports
hdr = "player,team,apps,minutes,goals,assists,shots,xg,passes_pct"
w("sports/stats/2023-24.csv", hdr + "\np10423,Rovers,31,2604,14,6,88,12.7,81.2\np10501,United,28,2310,3,9,35,4.1,88.0\n")
w("sports/stats/2022-23.csv", hdr + "\np10423,Rovers,29,2388,9,4,70,8.9,79.5\n")
w("sports/matches/4401123.json", json.dumps({"events": [
    {"minute": 12, "team": "Rovers", "type": "shot", "player": "p10423"}, {"minute": 33, "team": "Rovers", "type": "goal", "player": "p10423"},
    {"minute": 58, "team": "United", "type": "card", "player": "p10501"}, {"minute": 70, "team": "United", "type": "substitution"}]}))
sh = ["match,team,player,minute,x,y,header,goal"]
for i in range(14):
    sh.append(f"{4401123 + i // 5},{['Rovers', 'United'][i % 2]},p1042{i % 3},{5 + 6 * i},{88 + i % 12},{25 + i % 18},{1 if i % 4 == 0 else 0},{1 if i % 6 == 0 else 0}")
w("sports/shots.csv", "\n".join(sh) + "\n")
db("sports/medical.db", "create table injuries(player text, team text, injury text, status text, since text, expected_return text);"
   "insert into injuries values('p10501','first-team','hamstring strain','out','2024-03-01','2024-03-29'),('p10777','first-team','ankle knock','doubtful','2024-03-10','2024-03-16');")
w("sports/video/4401123-tactical.mp4", "fake mp4\n")
w("sports/standings.json", json.dumps({"table": [{"position": 1, "team": "Rovers", "played": 30, "won": 20, "drawn": 6, "lost": 4, "gd": 31, "points": 66},
                                                {"position": 2, "team": "United", "played": 30, "won": 19, "drawn": 5, "lost": 6, "gd": 22, "points": 62}]}))

# ---------------------------------------------------------------- realty
w("realty/sales.csv", "id,zip,address,beds,sqft,sold_date,price\nS1,62704,12 Elm St,3,1790,2023-08-14,312000\nS2,62704,40 Oak Ave,3,1960,2024-01-22,338500\nS3,62704,7 Pine Ct,4,2400,2023-11-02,410000\nS4,62711,3 Lake Rd,3,1800,2023-09-30,299000\n")
for i in range(4):
    w(f"realty/photos/L2024117/photo-{i + 1:02d}.jpg", "x" * (200000 if i else 1000))
w("realty/listings/L2024117.yaml", "id: L2024117\naddress: 12 Maple Dr\nprice: 499000\nstatus: Active\n")
w("realty/feeds/zillow.xml", "<Listings>\n<Listing><ListingId>L2024117</ListingId><Price>499000</Price><Status>Active</Status><Photos><Photo>a.jpg</Photo></Photos></Listing>\n"
  "<Listing><ListingId>L2024120</ListingId><Price>0</Price><Status>Sold</Status><Photos/></Listing>\n</Listings>\n")
w("realty/feeds/realtor.xml", "<Listings><Listing><ListingId>L2024117</ListingId><Price>499000</Price><Status>Active</Status><Photos><Photo>a.jpg</Photo></Photos></Listing></Listings>\n")
w("realty/feeds/homes.xml", "<Listings/>\n")

# ---------------------------------------------------------------- agri
w("agri/sensors/latest.json", json.dumps({"readings": [
    {"field": f, "probe": f"{f}-p{k}", "depth_cm": d, "vwc_pct": 18 + k * 3 + d // 10, "ts": "2024-06-14T06:00:00Z"}
    for f in ("north-40", "south-40", "creek", "orchard") for k in (1, 2) for d in (10, 30, 60)]}, indent=1))
w("agri/irrigation.yaml", "zones:\n  - id: Z07\n    crop: apples\n    valve: V-7\n    schedule:\n      - {days: [mon, thu], start: \"05:00\", minutes: 45}\n      - {days: [sat], start: \"04:30\", minutes: 30}\n  - id: Z08\n    crop: pears\n    valve: V-8\n    schedule: []\n")
wx = ["date,tmax,tmin,rain_mm"]
for d in range(91):
    import datetime
    day = datetime.date(2024, 4, 1) + datetime.timedelta(days=d)
    wx.append(f"{day},{18 + 12 * math.sin(d / 30):.1f},{6 + 6 * math.sin(d / 30):.1f},{d % 7 * 0.8:.1f}")
w("agri/weather/farm-hq.csv", "\n".join(wx) + "\n")
w("agri/telemetry/2024-06-13.jsonl", "\n".join(json.dumps({"device": f"soil-{k:02d}", "ts": "2024-06-13T22:00:00Z", "battery_pct": 10 + k * 9, "field": "orchard"}) for k in range(1, 8)) + "\n")
w("agri/telemetry/2024-06-14.jsonl", "\n".join(json.dumps({"device": f"soil-{k:02d}", "ts": "2024-06-14T06:00:00Z", "battery_pct": 9 + k * 9, "field": "orchard"}) for k in range(1, 5)) + "\n")
w("agri/ndvi/orchard-20240612.tif", "II*\x00fake ndvi\n")
w("agri/labels.yaml", "products:\n  glyphosate-480: {max_rate_l_ha: 3.0}\n  copper-hydroxide: {max_rate_l_ha: 4.0}\n  spinosad: {max_rate_l_ha: 0.6}\n")

# ---------------------------------------------------------------- customs
w("customs/hts.csv", "code,description,general_rate,unit\n8471,Automatic data processing machines,0,\n8471.30,Portable machines weighing not more than 10 kg,0,No.\n"
  "8471.30.01,Portable digital automatic data processing machines,0,No.\n8471.41.01,Other machines comprising a CPU and input and output unit,0,No.\n6403.99.60,Footwear with outer soles of rubber,8.5,prs.\n")
w("customs/section301.csv", "prefix,origin,rate\n8471,CN,25\n6403,CN,7.5\n")
w("customs/shipments/SH20240311/invoice.json", json.dumps({"total": 1240.0, "lines": [
    {"sku": "KB-100", "qty": 20, "unit_price": 32.0, "hs_code": "8471.60.20", "origin": "CN"},
    {"sku": "MS-200", "qty": 40, "unit_price": 15.0, "hs_code": "8471.60.90", "origin": "VN"}]}, indent=1))
w("customs/shipments/SH20240311/packing-list.json", json.dumps({"cartons": [{"id": 1, "items": [{"sku": "KB-100", "qty": 20}]}, {"id": 2, "items": [{"sku": "MS-200", "qty": 38}]}]}, indent=1))
w("customs/updates/tariff-20240301.csv", "code,rate\n8471.30.01,0\n6403.99.60,8.5\n")
g = tempfile.mkdtemp(prefix="r47gpg-")
genv = {**os.environ, "GNUPGHOME": g}
subprocess.run(["gpg", "--batch", "--quiet", "--passphrase", "", "--quick-gen-key", "Tariff Publisher <tariffs@customs.example.gov>", "ed25519", "sign", "never"], env=genv, check=True)
pub = subprocess.run(["gpg", "--batch", "--armor", "--export", "tariffs@customs.example.gov"], env=genv, check=True, capture_output=True).stdout.decode()
w("customs/keys/tariff-publisher.asc", pub)
subprocess.run(["gpg", "--batch", "--yes", "--detach-sign", "-o", os.path.join(FX, "customs/updates/tariff-20240301.csv.sig"), os.path.join(FX, "customs/updates/tariff-20240301.csv")], env=genv, check=True)
subprocess.run(["gpgconf", "--kill", "all"], env=genv)
import shutil
shutil.rmtree(g, ignore_errors=True)

# ---------------------------------------------------------------- donors
gifts = ["id,date,campaign,amount,reference,deposit_date,donor_id"]
for i in range(1, 41):
    d = datetime.date(2022, 9, 1) + datetime.timedelta(days=19 * i)
    dep = "2024-03-15" if i in (30, 31) else (d + datetime.timedelta(days=3)).isoformat()
    gifts.append(f"G{1000 + i + (2 if i == 40 else 0):07d},{d},{['SPR24', 'GALA23', 'EOY23', 'SPR23'][i % 4]},{25 * (1 + i % 6)}.00,REF{5000 + i},{dep},D{400 + i % 25:06d}")
w("donors/gifts.csv", "\n".join(gifts) + "\n")
w("donors/contacts.csv", "id,salutation,first_name,last_name,postcode,city\nD000417,Ms.,Maria,Lopez,SW1A 1AA,London\nD000418,Mr.,Tom,Baker,SW1A1AA,London\n"
  "D000419,Ms.,Maria,Lopes,SW1A 1AA,London\nD000420,Dr.,Ade,Okoye,M1 2AB,Manchester\n")
w("donors/bank/deposits-2024-03-15.csv", "date,reference,amount\n2024-03-15,REF5030,175.00\n2024-03-15,REF5031,50.00\n2024-03-15,REF5099,20.00\n")
db("donors/volunteers.db", "create table volunteers(id integer primary key, name text); create table shifts(volunteer_id integer, program text, day text, hours real);"
   "insert into volunteers values(1,'Sam'),(2,'Ira'),(3,'Noor');"
   "insert into shifts values(1,'food-bank','2024-03-02',3),(1,'food-bank','2024-03-09',4),(2,'food-bank','2024-03-09',2.5),(3,'tutoring','2024-03-04',2);")
w("donors/campaigns.yaml", "SPR24: Spring appeal 2024, funded the after-school reading program\nGALA23: Annual gala 2023, funded the food bank's new cold room\nEOY23: Year-end appeal 2023, general operations\n")

# ---------------------------------------------------------------- callqa
ev = []
for i in range(12):
    ev.append({"agent": ["jlopez", "mchen", "akim"][i % 3], "call": f"{0x3f9a0c12 + i:08x}", "score": 70 + i * 2, "autofail": i == 7,
               "sections": {"greeting": 8 + i % 3, "verification": 9, "resolution": 6 + i % 4}})
w("callqa/scores/2024-03.json", json.dumps(ev, indent=1))
w("callqa/transcripts/retention/3f9a0c12.txt", "AGENT: Thanks for calling.\nCUSTOMER: I want to cancel my account today.\nAGENT: I can help with that.\n")
w("callqa/transcripts/support/7d21be04.txt", "CUSTOMER: My router keeps rebooting.\n")
w("callqa/transcripts/billing/0a0a0a0a.txt", "CUSTOMER: Why was I charged twice?\n")
buf = io.BytesIO()
with wave.open(buf, "wb") as wv:
    wv.setnchannels(1)
    wv.setsampwidth(2)
    wv.setframerate(8000)
    frames = b"".join(struct.pack("<h", int((3000 if (t // 4000) % 3 else 0) * math.sin(t / 5))) for t in range(8000 * 6))
    wv.writeframes(frames)
w("callqa/recordings/3f9a0c12.wav", buf.getvalue(), "wb")
calls = ["id,start,queue,agent,seconds"]
for i in range(20):
    calls.append(f"{0x3f9a0c12 + i * 0x11 if i else 0x3f9a0c12:08x},2024-03-12T{8 + i % 9:02d}:{i * 3 % 60:02d}:00,{['support', 'billing', 'retention'][i % 3]},{['jlopez', 'mchen', 'akim'][i % 3]},{40 + i * 23}")
calls.append("7d21be04,2024-03-12T11:00:00,support,mchen,300")
w("callqa/calls.csv", "\n".join(calls) + "\n")
sent = ["week,queue,score"]
for wk in range(1, 11):
    for q in ("billing", "support", "retention"):
        for k in range(3):
            sent.append(f"2024-W{wk:02d},{q},{0.1 * ((wk + k) % 7) - 0.2:.2f}")
w("callqa/sentiment.csv", "\n".join(sent) + "\n")
stub("ffprobe.-show_entries.format=duration:stream=codec_name,sample_rate,channels.out",
     json.dumps({"streams": [{"codec_name": "pcm_s16le", "sample_rate": "8000", "channels": 1}], "format": {"duration": "6.000000"}}) + "\n")

# ---------------------------------------------------------------- transit
w("transit/gtfs/routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type\nR10,TA,10,Harbor - University,3\nR22,TA,22,Crosstown,3\n")
trips = ["route_id,service_id,trip_id,trip_headsign,direction_id,shape_id"]
st = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
for k in range(8):
    t = f"T10-{k}"
    trips.append(f"R10,WK,{t},University,0,SH10A")
    base = 6 * 3600 + 25 * 60 + k * (12 + (k % 3) * 3) * 60
    for s, stop in enumerate(["S1000", "S1001", "S1002"]):
        tt = base + s * 240
        st.append(f"{t},{tt // 3600:02d}:{tt % 3600 // 60:02d}:00,{tt // 3600:02d}:{tt % 3600 // 60:02d}:00,{stop},{s + 1}")
trips.append("R22,WK,T22-0,Crosstown East,1,SH22A")
st.append("T22-0,07:30:00,07:30:00,S1001,1")
w("transit/gtfs/trips.txt", "\n".join(trips) + "\n")
w("transit/gtfs/stop_times.txt", "\n".join(st) + "\n")
w("transit/gtfs/shapes.txt", "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\n" + "".join(f"SH10A,{47.60 + i * 0.004:.4f},{-122.33 + i * 0.003:.4f},{i + 1}\n" for i in range(10)))
zb = io.BytesIO()
with zipfile.ZipFile(zb, "w") as z:
    for n in ("routes.txt", "trips.txt", "stop_times.txt", "shapes.txt"):
        z.write(os.path.join(FX, "transit/gtfs", n), n)
    z.writestr("agency.txt", "agency_id,agency_name,agency_url,agency_timezone\nTA,Transit Authority,https://transit.example.gov,America/Los_Angeles\n")
    z.writestr("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS1000,Harbor,47.6,-122.33\n")
    z.writestr("calendar.txt", "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20240301,20240630\n")
w("transit/feeds/gtfs-20240301.zip", zb.getvalue(), "wb")

# ---------------------------------------------------------------- mes
ms = ["ts,characteristic,value"]
for i in range(40):
    ms.append(f"2024-03-11T{6 + i // 10:02d}:{i % 10 * 6:02d}:00,BORE-01,{12.000 + 0.004 * math.sin(i) + (0.02 if i == 33 else 0):.4f}")
w("mes/measurements/L2.csv", "\n".join(ms) + "\n")
db("mes/mes.db", "create table lots(lot text primary key, part text, supplier text); create table consumption(parent_lot text, child_lot text);"
   "insert into lots values('LOT-240311','HSG-220 housing',null),('LOT-240201','casting A380','Foundry North'),('LOT-240150','insert 12mm','Fastenal'),('LOT-231120','ingot A380','AluCo');"
   "insert into consumption values('LOT-240201','LOT-240311'),('LOT-240150','LOT-240311'),('LOT-231120','LOT-240201');")
w("mes/ncr.json", json.dumps([{"id": "NCR-1042", "status": "open", "severity": "major", "opened": "2024-01-10T08:00:00Z", "part": "HSG-220", "title": "Bore oversize"},
                             {"id": "NCR-1050", "status": "closed", "severity": "minor", "opened": "2024-02-01T08:00:00Z", "part": "BRK-100", "title": "Burr"},
                             {"id": "NCR-1061", "status": "containment", "severity": "critical", "opened": "2024-03-05T08:00:00Z", "part": "SHAFT-31", "title": "Crack at keyway"}], indent=1))
for part in ("BRK-100", "HSG-220", "SHAFT-31"):
    w(f"mes/specs/{part}.yaml", "features:\n  BORE-1: {plus: 0.010, minus: 0.000}\n  BORE-2: {plus: 0.010, minus: 0.000}\n  FLAT-1: {plus: 0.020, minus: 0.0}\n  LEN-1: {plus: 0.05, minus: 0.05}\n")
w("mes/downtime.csv", "date,line,shift,reason,minutes\n2024-03-11,L1,A,changeover,25\n2024-03-11,L1,A,jam,12\n2024-03-11,L2,B,maintenance,40\n")
w("mes/production.csv", "date,line,shift,planned_min,ideal_cycle_s,total,good\n2024-03-11,L1,A,450,30,760,742\n2024-03-11,L2,B,450,45,500,488\n")
print("fixture written")
