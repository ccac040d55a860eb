#!/usr/bin/env python3
"""Adds round 50's folders to fixture/ (run once; the harness copies fixture/ for every run)."""
import json, os, sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
FX = os.path.join(HERE, "fixture")
OUT = os.path.join(HERE, "stub-out")


def w(path, text):
    p = os.path.join(FX, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)


def db(path, script):
    p = os.path.join(FX, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    if os.path.exists(p):
        os.unlink(p)
    c = sqlite3.connect(p)
    c.executescript(script)
    c.commit()
    c.close()


# ---------------------------------------------------------------- veterinary
db("vet/clinic.db", """
create table patients(id integer primary key, name text, species text, breed text, owner text, weight_kg real, born text);
create table visits(id integer primary key, patient_id integer, visit_date text, reason text, vet text);
create table vaccinations(id integer primary key, patient_id integer, vaccine text, given text, due text);
insert into patients values(1041,'Biscuit','canine','Beagle','M. Chen',12.4,'2019-04-02'),
 (1042,'Miso','feline','DSH','A. Okafor',4.1,'2021-08-15'),(1043,'Pepper','canine','Border Collie','R. Silva',18.9,'2016-11-30');
insert into visits values(1,1041,'2024-01-03','annual exam','Dr. Park'),(2,1041,'2024-01-12','ear infection','Dr. Park'),
 (3,1042,'2023-12-20','dental','Dr. Ruiz'),(4,1043,'2024-01-10','limping, right hind','Dr. Ruiz');
insert into vaccinations values(1,1041,'DHPP','2023-02-01','2024-02-01'),(2,1041,'Rabies','2022-02-01','2025-02-01'),
 (3,1042,'FVRCP','2023-01-20','2024-01-20'),(4,1043,'Leptospirosis','2023-01-25','2024-01-25');
""")
w("vet/formulary.csv", "drug,species,mg_per_kg,max_mg,route\n"
  "carprofen,canine,4.4,200,PO\nmeloxicam,canine,0.1,7.5,PO\nmeloxicam,feline,0.05,0.3,PO\n"
  "amoxicillin clavulanate,canine,13.75,875,PO\nbuprenorphine,feline,0.02,0.1,OTM\ngabapentin,feline,10,100,PO\n")
w("vet/labs/LAB-240117.json", json.dumps({"accession": "LAB-240117", "patient_id": 1041, "panel": "CBC",
  "results": [{"analyte": "WBC", "value": 14.2, "unit": "10^9/L", "low": 5.5, "high": 16.9},
              {"analyte": "HCT", "value": 36.0, "unit": "%", "low": 37.3, "high": 61.7}]}, indent=1) + "\n")

# ---------------------------------------------------------------- aviation MRO
w("mro/aircraft/N412RX.yaml", "tail: N412RX\ntype: DHC-8-402\nmsn: 4412\nhours: 28411.5\ncycles: 30122\n"
  "inspections:\n  - {name: A-check, due_hours: 28500}\n  - {name: C-check, due_hours: 30000}\n")
w("mro/aircraft/N418RX.yaml", "tail: N418RX\ntype: DHC-8-402\nmsn: 4418\nhours: 26102.0\ncycles: 27750\n"
  "inspections:\n  - {name: A-check, due_hours: 26150}\n  - {name: C-check, due_hours: 27000}\n")
w("mro/ad-list.csv", "ad,type,subject,status_N412RX,status_N418RX\n"
  "2023-14-07,DHC-8-402,Main landing gear retraction actuator,complied,open\n"
  "2023-22-11,DHC-8-402,Propeller blade inspection,open,open\n2022-09-03,ATR 72,Elevator trim,n/a,n/a\n")
w("mro/logbook/N412RX.csv", "date,station,entry\n2024-01-09,YVR,Replaced #2 hydraulic pump P/N 5012-331\n"
  "2024-01-12,SEA,Cabin pressure controller fault reset; ops check good\n")
w("mro/logbook/N418RX.csv", "date,station,entry\n2024-01-11,PDX,Tire change NLG left; torque per AMM 32-45\n")
w("mro/tools/hours.py", '''import argparse, pathlib, sys
import yaml
p = argparse.ArgumentParser()
p.add_argument("--tail", required=True)
a = p.parse_args()
f = pathlib.Path("mro/aircraft") / (a.tail + ".yaml")
if not f.is_file():
    sys.exit("no such aircraft: " + a.tail)
d = yaml.safe_load(f.read_text())
print(f"{d['tail']} {d['type']}: {d['hours']} h, {d['cycles']} cycles")
for i in d.get("inspections", []):
    print(f"  {i['name']}: due at {i['due_hours']} h ({i['due_hours'] - d['hours']:.1f} h left)")
''')

# ---------------------------------------------------------------- port / maritime
w("port/berths.csv", "berth,vessel,date,eta,etd,imo\nB1,MAERSK KOLKATA,2024-01-15,06:00,22:00,9778791\n"
  "B2,CMA CGM TAGE,2024-01-15,09:30,2024-01-16 04:00,9702132\nB1,EVER GIVEN,2024-01-16,07:00,23:30,9811000\n")
w("port/ais/2024-01-15.jsonl", "".join(json.dumps(r) + "\n" for r in [
    {"mmsi": 219018271, "ts": "2024-01-15T06:01:00Z", "lat": 55.7, "lon": 12.6, "sog": 0.1},
    {"mmsi": 219018271, "ts": "2024-01-15T06:11:00Z", "lat": 55.7, "lon": 12.6, "sog": 0.0},
    {"mmsi": 228339600, "ts": "2024-01-15T09:20:00Z", "lat": 55.68, "lon": 12.62, "sog": 4.2}]))
w("port/shifts/cranes.csv", "crane,date,moves\nSTS1,2024-01-15,412\nSTS2,2024-01-15,388\n")

# ---------------------------------------------------------------- ticketing
w("tix/events.json", json.dumps([
    {"id": "EV2041", "name": "City Symphony: Mahler 5", "venue": "Main Hall", "capacity": 2100, "date": "2024-02-03"},
    {"id": "EV2042", "name": "Comedy Night", "venue": "Studio", "capacity": 320, "date": "2024-02-04"}], indent=1) + "\n")
w("tix/sales.csv", "event,tier,qty,amount\nEV2041,stalls,812,48720.00\nEV2041,circle,402,18090.00\n"
  "EV2041,box,24,3600.00\nEV2042,ga,290,8700.00\n")
db("tix/boxoffice.db", """
create table promo_codes(code text primary key, event text, discount_pct integer, uses integer, max_uses integer, expires text);
insert into promo_codes values('SPRING24','EV2041',15,120,200,'2024-03-01'),('STAFF','EV2042',100,4,20,'2024-12-31');
""")
w("tix/tools/scan_rate.py", '''import argparse, csv, pathlib
p = argparse.ArgumentParser()
p.add_argument("--gate", required=True)
p.add_argument("--minutes", type=int, default=15)
a = p.parse_args()
rows = list(csv.DictReader(open(pathlib.Path("tix/scans.csv"))))
n = sum(1 for r in rows if r["gate"] == a.gate)
print(f"gate {a.gate}: {n} scans in the log, {n / max(a.minutes, 1):.1f} per minute over {a.minutes} min")
''')
w("tix/scans.csv", "gate,ts,result\nnorth,19:01:02,ok\nnorth,19:01:09,ok\nsouth,19:01:11,dup\nnorth,19:02:40,ok\n")

# ---------------------------------------------------------------- newsroom
w("news/articles/council-budget-vote.md", "---\ntitle: Council passes 2024 budget after late-night vote\n"
  "author: J. Moreau\ndesk: metro\nembargo: 2024-01-16T06:00:00Z\nstatus: draft\n---\n"
  "The city council voted 7-4 early Tuesday to pass a budget that very clearly raises transit spending.\n"
  "Critics said the plan was literally unaffordable.\n\nThe mayor is expected to sign it this week.\n")
w("news/articles/harbour-dredging.md", "---\ntitle: Harbour dredging to start in March\nauthor: L. Ng\n"
  "desk: business\nembargo: 2024-01-15T12:00:00Z\nstatus: ready\n---\nDredging of the east channel begins in March.\n")
w("news/style/banned.txt", "very\nliterally\nunprecedented\n")

# ---------------------------------------------------------------- mining
w("mine/drillholes/collars.csv", "hole,east,north,rl,azimuth,dip,depth\nDH-101,512340.2,6891220.5,412.3,90,-60,250.0\n"
  "DH-102,512410.0,6891180.0,410.8,90,-55,310.5\n")
w("mine/drillholes/assays.csv", "hole,from,to,Au,Cu,Ag\nDH-101,10,12,0.12,0.03,1.1\nDH-101,12,14,2.84,0.41,6.5\n"
  "DH-101,14,16.5,5.10,0.62,9.0\nDH-102,40,42,0.55,0.08,2.0\nDH-102,42,45,1.90,0.22,4.4\n")
w("mine/shifts/2024-01-15.csv", "shift,pit,loads,tonnes\nday,north,122,26840\nnight,north,98,21560\nday,south,64,14080\n")

# ---------------------------------------------------------------- survey research
w("survey/responses/S-101.csv", "rid,Q1,Q2,Q3,region,open_end\n1,yes,4,18-34,north,Loved the new bus routes\n"
  "2,no,2,35-54,south,Too expensive to park downtown\n3,yes,5,55+,north,More bike lanes please\n"
  "4,yes,3,18-34,east,Parking is fine\n5,no,1,35-54,south,Buses are late\n")
w("survey/targets.yaml", "S-101:\n  region: {north: 0.40, south: 0.35, east: 0.25}\n")

# ---------------------------------------------------------------- fire / EMS dispatch
w("cad/incidents.jsonl", "".join(json.dumps(r) + "\n" for r in [
    {"incident": "2024-000117", "ts": "2024-01-15T02:14:05Z", "event": "call_received", "type": "STRUCTURE FIRE", "district": "D3"},
    {"incident": "2024-000117", "ts": "2024-01-15T02:15:10Z", "event": "dispatched", "unit": "E12"},
    {"incident": "2024-000117", "ts": "2024-01-15T02:19:40Z", "event": "on_scene", "unit": "E12"},
    {"incident": "2024-000118", "ts": "2024-01-15T03:02:00Z", "event": "call_received", "type": "MEDICAL", "district": "D1"},
    {"incident": "2024-000118", "ts": "2024-01-15T03:03:00Z", "event": "dispatched", "unit": "M4"},
    {"incident": "2024-000118", "ts": "2024-01-15T03:10:30Z", "event": "on_scene", "unit": "M4"}]))
w("cad/units.csv", "unit,station,type,status,updated\nE12,St 12,engine,available,2024-01-15T03:30:00Z\n"
  "L3,St 3,ladder,out of service,2024-01-14T18:00:00Z\nM4,St 4,medic,transporting,2024-01-15T03:25:00Z\n")
w("cad/hydrants.csv", "id,lat,lon,flow_gpm\nH-0091,47.6101,-122.3421,1500\nH-0092,47.6120,-122.3380,1000\nH-0093,47.6055,-122.3300,750\n")
w("cad/radio/2024-01-15.log", "02:15:12 E12 responding\n02:19:41 E12 on scene, smoke showing\n03:10:31 M4 on scene\n")

# ---------------------------------------------------------------- pharmacy
w("pharm/inventory.csv", "ndc,name,lot,expires,on_hand,par,schedule\n00093-0058-01,amoxicillin 500mg cap,L2301,2024-03-31,140,300,none\n"
  "00591-0405-01,oxycodone 5mg tab,K9912,2025-06-30,220,200,CII\n00378-0208-01,lisinopril 10mg tab,P4410,2024-02-10,60,250,none\n")
w("pharm/interactions.csv", "a,b,severity,note\nlisinopril,spironolactone,major,hyperkalemia risk\n"
  "warfarin,amoxicillin,moderate,INR may increase\nsertraline,tramadol,major,serotonin syndrome\n")

# ---------------------------------------------------------------- gym / fitness
db("gym/members.db", """
create table members(id integer primary key, name text, plan text, status text, joined text, last_visit text);
create table visits(member_id integer, ts text);
insert into members values(5001,'Dana Kim','monthly','active','2022-03-01','2024-01-14'),
 (5002,'Luis Ortega','annual','frozen','2021-06-10','2023-11-02'),(5003,'Ava Brooks','monthly','cancelled','2023-01-05','2023-09-30');
insert into visits values(5001,'2024-01-10T07:01'),(5001,'2024-01-12T07:05'),(5001,'2024-01-14T18:30');
""")
w("gym/classes.csv", "date,time,class,room,capacity,booked,trainer\n2024-01-15,07:00,Spin,Studio A,20,19,Maya\n"
  "2024-01-15,18:00,HIIT,Studio B,16,16,Tom\n2024-01-16,09:00,Yoga,Studio A,25,11,Maya\n")
w("gym/equipment.csv", "id,name,zone,status\nTR-01,treadmill,cardio,ok\nTR-02,treadmill,cardio,out of order\nRK-03,squat rack,free weights,ok\n")

# canned answers of the stand-ins
for name, text in {
    "seatwatch.out": "EV2041 circle row F seat 12: 95.00 (face 45.00)\n",
    "bmstat.out": "bench 380 zone west: 1.24 Mt @ 1.62 g/t Au\n",
    "mysql.out": "crane\tmoves\nSTS1\t412\nSTS2\t388\n",
    "lblprint.out": "queued 1 label\n",
    "rclone.cat.out": "ts,door,member_id,result\n2024-01-14T18:29:55,front,5001,granted\n",
}.items():
    open(os.path.join(OUT, name), "w").write(text)
