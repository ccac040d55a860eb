#!/usr/bin/env python3
"""Adds round 51's folders to fixture/ (run once; the harness copies fixture/ for every run)."""
import json, os, sqlite3, struct

HERE = os.path.dirname(os.path.abspath(__file__))
FX = os.path.join(HERE, "fixture")
OUT = os.path.join(HERE, "stub-out")


def w(path, text, base=FX):
    p = os.path.join(base, path)
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


# ---------------------------------------------------------------- water treatment
rows = ["time,CFE,F1,F2,F3,F4"]
for d in range(1, 32):
    for h in (0, 6, 12, 18):
        v = 0.05 + ((d * 7 + h) % 13) / 100
        if (d, h) == (17, 12):
            v = 0.41
        rows.append(f"2024-01-{d:02d}T{h:02d}:00,{v:.3f},{v + 0.01:.3f},{v - 0.01:.3f},{v + 0.02:.3f},{v:.3f}")
w("water/scada/turbidity-2024-01.csv", "\n".join(rows) + "\n")
db("water/lims.db", """
create table samples(id integer primary key, point text, collected_at text, collector text);
create table results(sample_id integer, analyte text, value real, unit text, method text);
create table limits(analyte text primary key, mcl real);
insert into samples values(240115,'EP-1 entry point','2024-01-15T08:10','J. Ortiz'),(240116,'NW-014','2024-01-15T09:02','J. Ortiz');
insert into results values(240115,'nitrate',4.2,'mg/L','EPA 300.0'),(240115,'TTHM',0.085,'mg/L','EPA 524.2'),
 (240115,'HAA5',0.041,'mg/L','EPA 552.3'),(240115,'fluoride',0.7,'mg/L','SM 4500-F C'),(240116,'total coliform',0,'P/A','SM 9223 B');
insert into limits values('nitrate',10),('TTHM',0.080),('HAA5',0.060),('fluoride',4.0);
""")
res = []
for i, d in enumerate(range(1, 16)):
    res.append({"site": "NW-014", "date": f"2024-01-{d:02d}", "free_cl2": round(0.15 + (i % 5) * 0.1, 2), "total_cl2": round(0.5 + (i % 5) * 0.1, 2)})
    res.append({"site": "SE-002", "date": f"2024-01-{d:02d}", "free_cl2": 1.1, "total_cl2": 1.4})
w("water/distribution/residuals.json", json.dumps(res, indent=1) + "\n")
w("water/chemicals.csv", "chemical,strength,lb_per_gal\nsodium_hypochlorite,0.125,10.0\nalum,0.485,11.1\n"
  "caustic_soda,0.25,10.7\nfluorosilicic_acid,0.23,10.1\n")
eff = ["date,outfall,parameter,value"]
for d in range(2, 30, 4):
    eff.append(f"2024-01-{d:02d},001,BOD5,{8 + d % 5}")
    eff.append(f"2024-01-{d:02d},001,TSS,{10 + d % 7}")
    eff.append(f"2024-01-{d:02d},001,ammonia,{1.2 + (d % 3) * 0.9:.1f}")
    eff.append(f"2024-01-{d:02d},002,TSS,{20 + d % 9}")
w("water/effluent/2024-01.csv", "\n".join(eff) + "\n")
w("water/permits/npdes.yaml", """permit: WA0012345
outfalls:
  "001":
    BOD5: {monthly_avg: 30, daily_max: 45, unit: mg/L}
    TSS: {monthly_avg: 30, daily_max: 45, unit: mg/L}
    ammonia: {monthly_avg: 2.0, daily_max: 3.0, unit: mg/L}
  "002":
    TSS: {monthly_avg: 25, daily_max: 40, unit: mg/L}
""")
for z in ("north", "south"):
    w(f"water/flushing/{z}/2023-10-crew-a.md", f"# Unidirectional flushing, {z} zone, October 2023\n\n- H-1021 to H-1030: 45 min, clear\n")
w("water/tools/tanks.py", '''import argparse
import csv

p = argparse.ArgumentParser(description="tank levels of a pressure zone")
p.add_argument("--zone", required=True)
p.add_argument("--hours", type=int, default=24)
a = p.parse_args()
rows = [r for r in csv.DictReader(open("water/scada/tanks.csv")) if r["zone"] == a.zone]
tanks = {}
for r in rows[-a.hours * 4:]:
    tanks.setdefault(r["tank"], []).append(float(r["level_ft"]))
if not tanks:
    print(f"no tanks in zone {a.zone}")
for t, lv in sorted(tanks.items()):
    print(f"{t:<14} now {lv[-1]:5.1f} ft  min {min(lv):5.1f} ft  max {max(lv):5.1f} ft  swing {max(lv) - min(lv):4.1f} ft")
''')
tk = ["time,tank,zone,level_ft"]
for h in range(48):
    tk.append(f"2024-01-15T{h % 24:02d}:00,Hilltop-1,north-high,{30 - (h % 12) * 0.8:.1f}")
    tk.append(f"2024-01-15T{h % 24:02d}:00,Ridge-2,north-high,{25 - (h % 8) * 0.5:.1f}")
    tk.append(f"2024-01-15T{h % 24:02d}:00,Valley,south,{18 - (h % 6) * 0.4:.1f}")
w("water/scada/tanks.csv", "\n".join(tk) + "\n")
w("water/assets/main-breaks.csv", "date,street,material,diameter,installed\n2012-02-03,Alder St,cast iron,8,1948\n"
  "2019-12-20,Alder St,cast iron,12,1951\n2024-01-13,Alder Ct,ductile iron,6,1978\n2021-07-07,MLK Jr Way,AC,10,1962\n")
w("water/ops-log/2024-01-14.md", "# Ops log 2024-01-14\n\n- 06:10 Filter 3 backwash, headloss 8.2 ft\n- 11:45 CL-2 analyzer reads 0.3 low vs grab\n- 19:00 Raw turbidity 14 NTU after rain\n")
al = ["time,tag,priority"]
for i, (t, p) in enumerate([("FLT3_HL_HI", "high"), ("CL2_DEV", "high"), ("RAW_TURB_HI", "critical"), ("FLT3_HL_HI", "high"), ("PMP2_FAIL", "critical")]):
    al.append(f"2024-01-14T{6 + i * 3:02d}:00,{t},{p}")
w("water/scada/alarms.csv", "\n".join(al) + "\n")

# ---------------------------------------------------------------- semiconductor fab
db("fab/mes.db", """
create table lots(lot text primary key, product text, route text, step text, step_desc text, wafers integer, priority integer, hold_code text);
create table lot_history(lot text, ts text, step text, tool text, event text);
create table defects(layer text, defect_class text, inspected_at text, lot text);
insert into lots values('FA240113.01','X7-MCU','R45LP-3','5120','POLY gate etch',25,2,null),('FA240112.04','X7-MCU','R45LP-3','6010','M1 CMP',24,3,'QA-HOLD');
insert into lot_history values('FA240113.01','2024-01-13T02:00','4010','LITH02','TrackOut'),('FA240113.01','2024-01-13T08:30','5100','ETCH04','TrackIn'),
 ('FA240113.01','2024-01-13T09:10','5100','ETCH04','TrackOut'),('FA240113.01','2024-01-14T01:00','5120','CVD07','TrackIn');
insert into defects values('POLY','residue','2024-01-10','FA240110.02'),('POLY','residue','2024-01-12','FA240113.01'),('POLY','particle','2024-01-13','FA240113.01'),
 ('POLY','bridge','2024-01-14','FA240113.01'),('M1','scratch','2024-01-14','FA240112.04'),('POLY','residue','2023-11-01','FA231101.01');
""")
w("fab/spc/specs.csv", "parameter,lsl,usl,unit\ncd_gate,42,48,nm\nox_thickness,18,22,A\noverlay_x,-5,5,nm\noverlay_y,-5,5,nm\nsheet_res,95,105,ohm/sq\n")
sp = ["time,value,lot,tool"]
for i in range(60):
    sp.append(f"2024-01-{1 + i // 4:02d}T{(i % 4) * 6:02d}:00,{44.5 + (i % 7) * 0.3 + (3.2 if i == 57 else 0):.2f},FA2401{10 + i % 5:02d}.01,ETCH0{4 + i % 2}")
w("fab/spc/cd_gate.csv", "\n".join(sp) + "\n")
w("fab/spc/overlay_x.csv", "time,value,lot,tool\n" + "".join(f"2024-01-{d:02d}T00:00,{(d % 5) - 2.5:.1f},FA2401{d:02d}.01,LITH02\n" for d in range(1, 16)))
w("fab/equipment/states.json", json.dumps({"tools": [
    {"id": "ETCH04", "bay": "BAY07", "state": "PRD", "since": "2024-01-14T22:00", "reason": None},
    {"id": "ETCH05", "bay": "BAY07", "state": "UDT", "since": "2024-01-15T03:40", "reason": "RF match fault"},
    {"id": "CVD07", "bay": "BAY07", "state": "SDT", "since": "2024-01-15T06:00", "reason": "PM 2000 RF hours"},
    {"id": "LITH02", "bay": "BAY03", "state": "PRD", "since": "2024-01-10T08:00", "reason": None}]}, indent=1) + "\n")
w("fab/recipes/etch/POLY_ME_45.rcp", "[recipe]\nname = POLY_ME_45\nstep1 = BT 10s 50W\nstep2 = ME 45s 350W HBr/Cl2\nstep3 = OE 20s 150W\n")
dies = [{"x": x, "y": y, "bin": (1 if (x * 7 + y * 3) % 11 else (7 if x % 2 else 3))} for x in range(12) for y in range(12)]
w("fab/wafermaps/FA240113.01/w03.json", json.dumps({"lot": "FA240113.01", "wafer": 3, "dies": dies}) + "\n")
w("fab/equipment/pm-schedule.yaml", """tools:
  - id: ETCH04
    area: etch
    pms:
      - {name: wet clean, last_done: "2023-12-20", interval_days: 30}
      - {name: RF generator check, last_done: "2023-10-01", interval_days: 180}
  - id: ETCH05
    area: etch
    pms:
      - {name: wet clean, last_done: "2024-01-05", interval_days: 30}
  - id: CMP02
    area: cmp
    pms:
      - {name: pad change, last_done: "2024-01-12", interval_days: 7}
""")
w("fab/mes-events.log", "2024-01-13T02:00 FA240113.01 4010 LITH02 TrackOut\n2024-01-13T08:30 FA240113.01 5100 ETCH04 TrackIn\n"
  "2024-01-13T09:10 FA240113.01 5100 ETCH04 TrackOut\n2024-01-13T09:12 FA240112.04 6010 CMP02 TrackIn\n")

# ---------------------------------------------------------------- ISP / broadband NOC
w("isp/subscribers.json", json.dumps([
    {"account": "10442871", "name": "J. Doe", "plan": "Fiber 500", "down_mbps": 500, "up_mbps": 500, "access": "GPON",
     "device_serial": "ALCL12345678", "olt": "olt-sea03", "port": "1/3/7", "open_tickets": ["NOC-8812"]},
    {"account": "10442872", "name": "K. Lee", "plan": "Fiber 1000", "down_mbps": 1000, "up_mbps": 1000, "access": "XGS-PON",
     "device_serial": "HWTC8765432", "olt": "olt-sea03", "port": "1/3/8", "open_tickets": []}], indent=1) + "\n")
ra = []
for i in range(6):
    ra.append(f"2024-01-{10 + i:02d}T0{i}:00:00|jdoe42@fiber.example.net|Stop|bng1-sea|{3600 * (i + 1)}|100.64.{i}.7|{(i + 1) * 52428800}|{(i + 1) * 10485760}|{'User-Request' if i % 2 else 'Lost-Carrier'}")
    ra.append(f"2024-01-{10 + i:02d}T0{i}:05:00|klee@fiber.example.net|Stop|bng1-sea|600|100.64.9.{i}|1048576|1048576|Idle-Timeout")
w("isp/radius/acct.log", "\n".join(ra) + "\n")
w("isp/outages.csv", "region,node,start,customers,minutes\nmetro,node-ballard-2,2024-01-03T04:10,420,35\nmetro,node-fremont-1,2024-01-09T13:00,180,120\n"
  "metro,node-ballard-2,2024-01-12T06:12,420,95\nnorth,node-everett-4,2024-01-05T22:00,900,15\nmetro,node-udist-3,2023-12-28T10:00,300,60\n")
w("isp/bgp/rib.tsv", "router\tprefix\tnext_hop\tas_path\tlocal_pref\tcommunities\tbest\n"
  "edge1-sea\t203.0.113.0/24\t198.51.100.1\t64500 64510\t200\t64500:100\t*\n"
  "edge2-sea\t203.0.113.0/24\t198.51.100.9\t64501 64510\t100\t64501:200\t\n"
  "edge1-pdx\t192.0.2.0/24\t198.51.100.17\t64502\t150\t\t*\n")
w("isp/bgp/snapshot-time.txt", "2024-01-15T06:00:00Z\n")
cfg = "hostname agg2-sea03\ninterface xe-0/0/1\n description uplink core1\n mtu 9192\n"
w("isp/configs/archive/agg2-sea03.cfg", cfg + "snmp community ro-noc\n")
w("isp/configs/running/agg2-sea03.cfg", cfg + "snmp community ro-noc\nntp server 192.0.2.123\n")
w("isp/configs/archive/core1-sea.cfg", "hostname core1-sea\n")
w("isp/configs/running/core1-sea.cfg", "hostname core1-sea\n")
w("isp/capacity/links.csv", "link,region,capacity_gbps,p95_gbps\ncore1-agg2-sea03,metro,100,71.5\nagg2-sea03-olt-sea03,metro,40,31.2\n"
  "core1-core2,metro,400,120\ncore1-evt,north,100,88\n")
w("isp/alarms/current.log", "2024-01-15T06:12:01|agg2-sea03|critical|router|LINK DOWN xe-0/0/3\n"
  "2024-01-15T06:12:03|olt-sea03|major|olt|PON 1/3/7 LOS (32 ONTs)\n2024-01-15T06:12:04|olt-sea03|major|olt|PON 1/3/8 LOS (28 ONTs)\n"
  "2024-01-15T06:13:00|node-ballard-2|minor|node|power on battery\n")

# ---------------------------------------------------------------- commercial kitchen
w("kitchen/haccp/units.csv", "unit,lo,hi\nwalk-in,33,41\nreach-in-1,33,41\nreach-in-2,33,41\nfreezer,-10,0\nhot-well,135,180\n")
w("kitchen/haccp/temps-2024-01-14.csv", "time,unit,temp,initials\n06:00,walk-in,37.5,AR\n10:00,walk-in,39.0,AR\n14:00,walk-in,43.2,JM\n"
  "18:00,walk-in,38.1,JM\n11:00,hot-well,142,JM\n13:00,hot-well,131,JM\n")
w("kitchen/recipes/short-rib.yaml", "name: Braised short rib\nyield: 20\nmenu_price: 34\ningredients:\n"
  "  - {item: beef short rib, qty: 18}\n  - {item: red wine, qty: 2}\n  - {item: mirepoix, qty: 3}\n  - {item: veal stock, qty: 1.5}\n")
w("kitchen/prices.csv", "item,price,unit\nbeef short rib,7.85,lb\nred wine,9.50,btl\nmirepoix,1.20,lb\nveal stock,6.00,gal\nsalmon,11.40,lb\n")
w("kitchen/menu.yaml", "items:\n  - {name: Cedar plank salmon, allergens: [fish]}\n  - {name: Salmon crudo, allergens: [fish, sesame]}\n"
  "  - {name: Braised short rib, allergens: [milk, wheat]}\n  - {name: Beet salad, allergens: [tree nuts, milk]}\n  - {name: Fries, allergens: []}\n")
db("kitchen/inventory.db", """
create table suppliers(id integer primary key, name text);
create table items(item text, station text, on_hand real, par real, unit text, supplier_id integer);
insert into suppliers values(1,'Freshline'),(2,'Harbor Meats');
insert into items values('short rib','grill',12,40,'lb',2),('ribeye','grill',30,24,'lb',2),('lemons','bar',10,36,'ea',1),('shallots','grill',2,5,'lb',1);
""")
w("kitchen/pos/sales-2024-01-13.json", json.dumps({"covers": 212, "net_sales": 9840.5, "lines": [
    {"item": "Braised short rib", "qty": 38, "price": 34}, {"item": "Cedar plank salmon", "qty": 44, "price": 31},
    {"item": "Fries", "qty": 90, "price": 8}, {"item": "Beet salad", "qty": 30, "price": 14}, {"item": "Salmon crudo", "qty": 25, "price": 18}]}) + "\n")
w("kitchen/schedule/2024-W03.csv", "name,role,day,start,end\nAna R,line-cook,Mon,14:00,23:00\nAna R,line-cook,Tue,14:00,23:00\n"
  "Ana R,line-cook,Wed,14:00,23:00\nAna R,line-cook,Thu,14:00,23:00\nAna R,line-cook,Fri,14:00,23:30\nJon M,line-cook,Fri,16:00,22:00\nLi P,prep-cook,Mon,07:00,15:00\n")
w("kitchen/waste.csv", "date,station,item,reason,cost\n2024-01-02,grill,short rib,overproduction,31.40\n2024-01-05,saute,cream,spoiled,6.20\n"
  "2024-01-07,grill,ribeye,dropped,24.00\n2024-01-09,pastry,tart shells,overproduction,12.00\n2023-12-30,grill,salmon,spoiled,40.00\n")
w("kitchen/tools/inspections.py", '''import argparse
import csv

p = argparse.ArgumentParser()
p.add_argument("--site", required=True)
p.add_argument("--year", type=int, required=True)
a = p.parse_args()
n = 0
for r in csv.DictReader(open("kitchen/inspections.csv")):
    if r["site"] == a.site and r["date"].startswith(str(a.year)):
        n += 1
        print(f"{r['date']}  score {r['score']}  {r['violation'] or 'no violations'}{'  (corrected on site)' if r['cos'] == 'Y' else ''}")
print(f"{n} inspection record(s) for {a.site} in {a.year}")
''')
w("kitchen/inspections.csv", "site,date,score,violation,cos\ndowntown,2023-03-14,94,handwash sink blocked,Y\ndowntown,2023-09-02,98,,N\nharbor,2023-05-20,88,cold holding 45F,N\n")
w("kitchen/catering.yaml", "staff_rate: 32.0\nbar_per_guest: 18.0\nservice_charge: 0.2\ntax_rate: 0.101\nweekend_uplift: 1.1\ntiers:\n"
  "  breakfast: {per_guest: 19.0, guests_per_server: 25, hours: 4}\n  lunch-buffet: {per_guest: 28.0, guests_per_server: 25, hours: 5}\n"
  "  plated-dinner: {per_guest: 62.0, guests_per_server: 12, hours: 6}\n  reception: {per_guest: 38.0, guests_per_server: 20, hours: 5}\n")

# ---------------------------------------------------------------- clinical trials
for st in ("CT-207", "CT-101"):
    w(f"trials/{st}/targets.csv", "site,target\n104,12\n117,8\n")
    w(f"trials/{st}/enrollment.csv", "subject,site,status\n104-0007,104,randomized\n104-0008,104,screen-fail\n104-0009,104,screening\n117-0001,117,randomized\n")
w("trials/CT-207/ae.csv", "subject,term,grade,onset,serious,related,outcome\n104-0007,Nausea,1,2024-01-05,N,possibly,resolved\n"
  "104-0007,Pneumonia,3,2024-01-11,Y,unlikely,recovering\n117-0001,Fatigue,2,2024-01-08,N,probably,ongoing\n")
w("trials/CT-207/schedule.yaml", "visits:\n  - {name: C1D1, day: 0, window: 0}\n  - {name: C1D8, day: 7, window: 1}\n  - {name: C2D1, day: 21, window: 3}\n  - {name: C3D1, day: 42, window: 3}\n")
w("trials/CT-207/subjects.csv", "subject,randomized_on\n104-0007,2023-12-18\n117-0001,2024-01-02\n")
w("trials/CT-207/visits.csv", "subject,visit,date\n104-0007,C1D1,2023-12-18\n104-0007,C1D8,2023-12-26\n104-0007,C2D1,2024-01-12\n117-0001,C1D1,2024-01-02\n")
w("trials/CT-207/protocol.md", "# CT-207 protocol (excerpt)\n\n## 8.2 Visit windows\nC1D8 +/- 1 day; later visits +/- 3 days.\n\n## 9.1 Informed consent\nRe-consent after amendment 3.\n")
db("trials/edc.db", """
create table queries(id integer primary key, site integer, subject text, form text, field text, opened_on text, status text, text text);
insert into queries values(1,104,'104-0007','VS','SYSBP','2024-01-02','open','Value 210 out of range, please confirm'),
 (2,104,'104-0007','AE','AESTDTC','2024-01-12','open','Onset before consent date?'),(3,117,'117-0001','CM','CMDOSE','2024-01-10','closed','Units missing');
""")
w("trials/deviations/PD-0012.md", "# PD-0012 site 104\nSubject 104-0008 signed an outdated informed consent version (v2.0).\n")
w("trials/deviations/PD-0015.md", "# PD-0015 site 117\nC1D8 visit out of window by 2 days.\n")
w("trials/ctm/kits.json", json.dumps({"as_of": "2024-01-15", "kits": [
    {"kit": "K-20071", "site": "S104", "lot": "L2301", "status": "dispensed", "expiry": "2024-06-30"},
    {"kit": "K-20072", "site": "S104", "lot": "L2301", "status": "available", "expiry": "2024-02-05"},
    {"kit": "K-20073", "site": "S104", "lot": "L2302", "status": "available", "expiry": "2024-09-30"},
    {"kit": "K-20090", "site": "S117", "lot": "L2302", "status": "available", "expiry": "2024-09-30"}]}, indent=1) + "\n")
w("trials/sites.csv", "site,name,pi,coordinator,pharmacy,phone\n104,Lakeside Oncology,Dr. A. Alba,R. Singh,Lakeside IDS,+1-206-555-0104\n117,Mercy Cancer Center,Dr. T. Wu,M. Grant,Mercy Pharmacy,+1-503-555-0117\n")

# ---------------------------------------------------------------- city permits and 311
w("city/permits/permits.json", json.dumps([
    {"number": "B24-00117", "type": "residential-alteration", "address": "1418 Alder St", "valuation": 85000, "status": "in review",
     "reviews": [{"discipline": "zoning", "state": "approved", "reviewer": "mlopez"}, {"discipline": "structural", "state": "corrections", "reviewer": "rkhan"}],
     "inspections": []},
    {"number": "B23-04410", "type": "commercial-ti", "address": "200 Main St", "valuation": 410000, "status": "issued",
     "reviews": [{"discipline": "building", "state": "approved", "reviewer": None}],
     "inspections": [{"kind": "framing", "date": "2024-01-09", "result": "pass"}]}], indent=1) + "\n")
w("city/311/sla.csv", "type,days\npothole,5\ngraffiti,7\nstreetlight,10\nmissed-pickup,2\nillegal-dumping,5\n")
w("city/311/requests.csv", "id,type,ward,opened,status,age_days\n2024011501,pothole,4,2024-01-15,open,0\n2024010302,pothole,4,2024-01-03,open,12\n"
  "2024010803,graffiti,4,2024-01-08,open,7\n2024010904,streetlight,2,2024-01-09,open,6\n2023122005,illegal-dumping,4,2023-12-20,closed,26\n")
w("city/gis/parcels.csv", "apn,address,owner,lot_sqft,zone,flood_zone\n012-345-678,1418 Alder St,Chen Family Trust,6250,R-1,X\n012-345-690,200 Main St,Main Street LLC,12000,C-2,AE\n")
w("city/gis/zoning.yaml", """R-1: {name: Single-family residential, max_height_ft: 30, max_lot_coverage: 0.4, front_setback_ft: 20, rear_setback_ft: 5, min_lot_sqft: 5000}
R-2: {name: Two-family residential, max_height_ft: 30, max_lot_coverage: 0.45, front_setback_ft: 15}
RM-3: {name: Multifamily, max_height_ft: 45}
C-1: {name: Neighborhood commercial, max_height_ft: 40}
C-2: {name: General commercial, max_height_ft: 65, front_setback_ft: 0}
MU-4: {name: Mixed use, max_height_ft: 85}
""")
w("city/inspections/schedule.yaml", """inspections:
  - {date: "2024-01-16", inspector: rkhan, route_order: 2, time: "10:30", permit: B23-04410, kind: insulation, address: 200 Main St}
  - {date: "2024-01-16", inspector: rkhan, route_order: 1, time: "08:30", permit: B24-00098, kind: footing, address: 77 Pine Ave}
  - {date: "2024-01-16", inspector: mlopez, route_order: 1, time: "09:00", permit: B24-00102, kind: final, address: 3 Bay Rd}
  - {date: "2024-01-17", inspector: jnguyen, route_order: 1, time: "09:00", permit: B24-00111, kind: rough electrical, address: 9 Elm St}
""")
w("city/agendas/council/2024-01-09.md", "# City Council, 2024-01-09\n\n1. Main Street streetscape contract award\n2. Parks levy renewal\n")
w("city/agendas/council/2023-12-12.md", "# City Council, 2023-12-12\n\n1. Budget adoption\n2. Main Street parking study\n")
w("city/agendas/planning-commission/2024-01-04.md", "# Planning Commission, 2024-01-04\n\n1. ADU code amendments\n")
w("city/agendas/parks-board/2024-01-11.md", "# Parks Board\n\n1. Alder Park playground\n")
w("city/fees/schedule.yaml", """brackets:
  - {from: 0, base: 75, per_1000: 0}
  - {from: 2000, base: 75, per_1000: 14.5}
  - {from: 25000, base: 408.5, per_1000: 10.5}
  - {from: 100000, base: 1196, per_1000: 8.1}
  - {from: 500000, base: 4436, per_1000: 6.9}
type_factor: {residential-new: 1.0, residential-alteration: 0.85, commercial-new: 1.2, commercial-ti: 1.0, demolition: 0.5}
plan_review_pct: 65
state_surcharge: 6.5
""")
w("city/311/streetlights.geojson", json.dumps({"type": "FeatureCollection", "features": [
    {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-122.33, 47.61]},
     "properties": {"pole": "SL-40211", "ward": 4, "status": "reported", "street": "Alder St & 14th", "reported_on": "2024-01-08", "lamp": "LED"}},
    {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-122.34, 47.62]},
     "properties": {"pole": "SL-40230", "ward": 4, "status": "reported", "street": "Main St & 2nd", "reported_on": "2024-01-02", "lamp": "HPS"}},
    {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-122.30, 47.60]},
     "properties": {"pole": "SL-10001", "ward": 2, "status": "assigned", "street": "Bay Rd", "reported_on": "2024-01-05", "lamp": "LED"}}]}) + "\n")
w("city/permits/docs/B24-00117/plans-rev1.txt", "site plan, floor plans, elevations (rev 1)\n")
w("city/permits/docs/B24-00117/structural-calcs.txt", "beam sizing for kitchen wall removal\n")
w("city/permits/docs/B24-00117/correspondence/2024-01-11-corrections.txt", "Structural corrections: provide post base detail.\n")
w("city/code/zoning-code.md", "# Zoning code (excerpt)\n\n17.20.040 Accessory dwelling units: max height 20 ft; rear setback 5 ft; max 800 sq ft.\n"
  "17.20.050 Lot coverage includes accessory dwelling units.\n")

# ---------------------------------------------------------------- construction project
w("construction/rfis.json", json.dumps({"as_of": "2024-01-15", "rfis": [
    {"number": "RFI-041", "trade": "mechanical", "status": "open", "asked_on": "2024-01-02", "subject": "Duct clash with beam at grid C/4"},
    {"number": "RFI-042", "trade": "electrical", "status": "answered", "asked_on": "2024-01-04", "subject": "Panel LP-3 location"},
    {"number": "RFI-044", "trade": "mechanical", "status": "open", "asked_on": "2024-01-11", "subject": "VAV box access panel size"}]}, indent=1) + "\n")
w("construction/submittals.yaml", """as_of: "2024-01-15"
submittals:
  - {spec: 23 36 00, title: VAV terminal units, state: in-review, required_by: "2024-01-29"}
  - {spec: 08 71 00, title: Door hardware, state: not-submitted, required_by: "2024-02-05"}
  - {spec: 09 29 00, title: Gypsum board, state: revise-resubmit, required_by: "2024-01-22"}
  - {spec: 26 24 16, title: Panelboards, state: in-review, required_by: "2024-04-01"}
""")
w("construction/daily/2024-01-12.md", "# Daily report 2024-01-12 (Harbor Tower)\n\nWeather: rain, 41-47 F, wind 18 mph\n\n"
  "Crews: concrete 12, rebar 8, electrical 6\n\nWork: poured L5 deck P-014 (142 cy)\n\nIssues: pump truck late 40 min\n")
w("construction/daily/2024-01-11.md", "# Daily report 2024-01-11\n\nWeather: cloudy\n")
w("construction/qa/cylinders.csv", "pour,date,fc,age,psi\nP-014,2024-01-19,5000,7,3650\nP-014,2024-02-09,5000,28,5420\nP-014,2024-02-09,5000,28,5180\nP-013,2024-01-12,4000,28,4380\n")
w("construction/change-orders.csv", "number,cost_code,status,amount\nCO-007,23 05 00,approved,12450.00\nCO-008,26 05 00,approved,3800.00\n"
  "CO-009,23 05 00,pending,7200.00\nCO-010,03 30 00,approved,-1500.00\n")
w("construction/drawings/M-101.txt", "M-101 Level 1 mechanical plan\nRev 3, 2024-01-10: revised duct routing at grid C/4 (RFI-041)\nRev 2, 2023-11-02\n")
w("construction/safety/incidents.csv", "date,kind,contractor,description\n2024-01-04,near-miss,Apex Steel,unsecured load swung near walkway\n"
  "2024-01-09,first-aid,Coast Electric,laceration on left hand\n2024-01-12,recordable,Ridge Concrete,back strain lifting form\n2023-12-18,near-miss,Apex Steel,dropped bolt from L4\n")

# ---------------------------------------------------------------- VFX / animation
w("vfx/shots.json", json.dumps({"shots": [
    {"shot": "SHT010_0010", "sequence": "SHT010", "status": "approved", "artist": "jsmith", "versions": [{"v": 7, "published": True}], "client_note": "final"},
    {"shot": "SHT010_0020", "sequence": "SHT010", "status": "pending-review", "artist": "apatel",
     "versions": [{"v": 11, "published": True}, {"v": 12, "published": True}, {"v": 13, "published": False}], "client_note": "sky too warm"},
    {"shot": "SHT020_0010", "sequence": "SHT020", "status": "wip", "artist": "jsmith", "versions": [{"v": 2, "published": False}], "client_note": None}]}, indent=1) + "\n")


def exr(path, frame):
    def attr(name, typ, data):
        return name.encode() + b"\0" + typ.encode() + b"\0" + struct.pack("<i", len(data)) + data
    ch = b"".join(c.encode() + b"\0" + struct.pack("<iB3xii", 1, 0, 1, 1) for c in ("A", "B", "G", "R")) + b"\0"
    hdr = struct.pack("<ii", 20000630, 2)
    hdr += attr("channels", "chlist", ch)
    hdr += attr("compression", "compression", bytes([3]))
    hdr += attr("dataWindow", "box2i", struct.pack("<iiii", 0, 0, 2047, 857))
    hdr += attr("displayWindow", "box2i", struct.pack("<iiii", 0, 0, 2047, 857))
    hdr += attr("lineOrder", "lineOrder", bytes([0]))
    hdr += attr("pixelAspectRatio", "float", struct.pack("<f", 1.0))
    hdr += attr("renderer", "string", b"Karma XPU 20.0")
    hdr += b"\0"
    p = os.path.join(FX, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "wb").write(hdr + b"\0" * 64)


for fr in range(1001, 1013):
    if fr in (1005, 1006, 1009):
        continue
    exr(f"vfx/renders/SHT010_0020/beauty/SHT010_0020_beauty.{fr}.exr", fr)
w("vfx/tools/exrhead.py", '''import struct
import sys

COMP = ["none", "rle", "zips", "zip", "piz", "pxr24", "b44", "b44a", "dwaa", "dwab"]
path = sys.argv[1]
with open(path, "rb") as fh:
    data = fh.read(65536)
magic, version = struct.unpack_from("<ii", data, 0)
if magic != 20000630:
    sys.exit(f"{path}: not an OpenEXR file")
print(f"{path}: OpenEXR version {version & 0xff}")
pos = 8
while data[pos] != 0:
    end = data.index(b"\\0", pos)
    name = data[pos:end].decode()
    tend = data.index(b"\\0", end + 1)
    typ = data[end + 1:tend].decode()
    (size,) = struct.unpack_from("<i", data, tend + 1)
    val = data[tend + 5:tend + 5 + size]
    pos = tend + 5 + size
    if typ == "box2i":
        x0, y0, x1, y1 = struct.unpack("<iiii", val)
        text = f"({x0},{y0})-({x1},{y1}) = {x1 - x0 + 1}x{y1 - y0 + 1}"
    elif typ == "compression":
        text = COMP[val[0]] if val[0] < len(COMP) else str(val[0])
    elif typ == "chlist":
        names, i = [], 0
        while val[i] != 0:
            j = val.index(b"\\0", i)
            names.append(val[i:j].decode())
            i = j + 1 + 16
        text = " ".join(names)
    elif typ == "float":
        text = f"{struct.unpack('<f', val)[0]:g}"
    elif typ == "string":
        text = val.decode(errors="replace")
    else:
        text = f"<{typ}, {size} bytes>"
    print(f"  {name:<18} {typ:<12} {text}")
''')
db("vfx/assets.db", """
create table assets(id integer primary key, name text, kind text);
create table versions(asset_id integer, version integer, published_at text, artist text, comment text);
create table usages(asset_id integer, version integer, shot text);
insert into assets values(2201,'kestrel_hero_rig','rig');
insert into versions values(2201,14,'2024-01-12','mbauer','wing feather sim fix'),(2201,13,'2024-01-03','mbauer','facial blendshapes');
insert into usages values(2201,14,'SHT010_0020'),(2201,13,'SHT010_0010'),(2201,14,'SHT020_0010');
""")
us = ["date,show,department,core_hours"]
for d in range(1, 29, 3):
    us += [f"2024-01-{d:02d},KESTREL,lighting,{1200 + d * 10}", f"2024-01-{d:02d},KESTREL,fx,{2400 + d * 5}", f"2024-01-{d:02d},NIGHTFALL,comp,{300 + d}"]
w("vfx/farm/usage-2024-01.csv", "\n".join(us) + "\n")
w("vfx/farm/rates.yaml", "core_hour_rate: 0.021\n")
w("vfx/publish/KESTREL/SHT010_0020-lighting-v012.yaml", "shot: SHT010_0020\ntask: lighting\nversion: 12\n")
w("vfx/publish/SHT010_0020/v012/SHT010_0020_comp_v012.mov", "stub movie\n")
w("vfx/publish/SHT010_0020/v012/SHT010_0020_comp_v012.cdl", "<ColorDecisionList/>\n")
for sub, n in (("renders", 3), ("publish", 1), ("comp", 2)):
    for i in range(n):
        w(f"vfx/shows/KESTREL/{sub}/file{i}.bin", "x" * (4096 * (i + 1)))

# ---------------------------------------------------------------- satellite ground station
w("gs/passes.csv", "satellite,aos,los,max_el,antenna\nAURORA-1,2024-01-15T01:12:30Z,2024-01-15T01:24:10Z,62.4,svb-01\n"
  "AURORA-2,2024-01-15T02:40:00Z,2024-01-15T02:49:20Z,8.1,svb-02\nTERN-3,2024-01-15T05:05:00Z,2024-01-15T05:16:40Z,33.0,pa-01\n"
  "AURORA-1,2024-01-16T00:50:00Z,2024-01-16T01:02:00Z,45.0,svb-01\n")
w("gs/tle/current.tle", "AURORA-1\n1 58001U 23190A   24014.50000000  .00001234  00000-0  56789-4 0  9991\n"
  "2 58001  97.4500 123.4567 0012345  90.0000 270.0000 15.20000000 12345\n"
  "TERN-3\n1 58010U 23195C   24010.25000000  .00000800  00000-0  40000-4 0  9995\n"
  "2 58010  53.0000  10.0000 0001000   0.0000 360.0000 15.05000000  9999\n")
w("gs/telemetry/AURORA-1-latest.json", json.dumps({"time": "2024-01-15T01:20:00Z", "points": {
    "EPS_BATT_V": 7.1, "EPS_BATT_T": 31.0, "ADCS_RATE_X": 0.02, "TCS_PANEL_T": -48.0, "COMMS_TX_T": 52.0}}) + "\n")
w("gs/limits.yaml", """AURORA-1:
  EPS_BATT_V: {subsystem: EPS, unit: V, yellow: [7.2, 8.4], red: [6.8, 8.6]}
  EPS_BATT_T: {subsystem: EPS, unit: C, yellow: [0, 35], red: [-5, 45]}
  ADCS_RATE_X: {subsystem: ADCS, unit: deg/s, yellow: [-0.5, 0.5], red: [-2, 2]}
  TCS_PANEL_T: {subsystem: TCS, unit: C, yellow: [-40, 80], red: [-60, 100]}
  COMMS_TX_T: {subsystem: COMMS, unit: C, yellow: [-10, 50], red: [-20, 60]}
  OBC_TEMP: {subsystem: OBC, unit: C, yellow: [-10, 50], red: [-20, 70]}
AURORA-2: {}
TERN-3: {}
""")
db("gs/contacts.db", """
create table contacts(station text, satellite text, aos text, result text, mbytes real);
insert into contacts values('svalbard','AURORA-1','2024-01-14 01:12:00','ok',812.5),('svalbard','AURORA-2','2024-01-14 02:40:00','partial',120.0),
 ('punta-arenas','TERN-3','2024-01-15 05:05:00','ok',640.0),('svalbard','AURORA-1','2024-01-15 01:12:00','missed',0),('svalbard','AURORA-1','2023-12-01 00:00:00','ok',1.0);
""")
dm = []
for i in range(200):
    st = "CRC_ERR" if i % 37 == 0 else ("RS_CORR" if i % 9 == 0 else "OK")
    dm.append(f"01:{12 + i // 60:02d}:{i % 60:02d} AURORA-1-0115a FRAME {st}")
for i in range(120):
    st = "CRC_ERR" if i % 10 == 0 else "OK"
    dm.append(f"05:{5 + i // 60:02d}:{i % 60:02d} TERN-3-0115a FRAME {st}")
w("gs/logs/demod-2024-01-15.log", "\n".join(dm) + "\n")
w("gs/tools/predict.py", '''import argparse
import csv

p = argparse.ArgumentParser(description="predicted passes (from the pass table the scheduler publishes)")
p.add_argument("--sat", required=True)
p.add_argument("--station", required=True)
p.add_argument("--hours", type=int, default=24)
a = p.parse_args()
site = {"svalbard": "svb", "punta-arenas": "pa", "hartebeesthoek": "hbk"}[a.station]
n = 0
for r in csv.DictReader(open("gs/passes.csv")):
    if r["satellite"] == a.sat and r["antenna"].startswith(site):
        n += 1
        print(f"{r['aos']} -> {r['los']}  max el {r['max_el']}  {r['antenna']}")
print(f"{n} pass(es) of {a.sat} over {a.station} in the next {a.hours} h (from the published table)")
''')

# ---------------------------------------------------------------- brewery
w("brew/batches.json", json.dumps({"batches": [
    {"id": "B1187", "recipe": "Harbor IPA", "brewed_on": "2024-01-02", "tank": "FV-4", "og": 1.062, "current_sg": 1.012, "stage": "conditioning", "package_on": "2024-01-18"},
    {"id": "B1190", "recipe": "Pier Pilsner", "brewed_on": "2024-01-09", "tank": "FV-2", "og": 1.048, "current_sg": 1.020, "stage": "fermenting", "package_on": None}]}, indent=1) + "\n")
w("brew/ferm/B1187.csv", "time,sg,temp_c\n2024-01-02T18:00,1.062,18.0\n2024-01-03T18:00,1.050,19.5\n2024-01-04T18:00,1.030,20.0\n"
  "2024-01-06T18:00,1.014,21.0\n2024-01-08T18:00,1.012,21.0\n")
db("brew/cellar.db", """
create table meta(as_of text);
create table tanks(name text primary key, kind text, bbl integer);
create table occupancy(tank text, batch_id text, leaves_on text);
insert into meta values('2024-01-15');
insert into tanks values('FV-1','fermenter',15),('FV-2','fermenter',30),('FV-4','fermenter',30),('BT-1','brite',30),('FV-5','fermenter',7);
insert into occupancy values('FV-2','B1190','2024-01-30'),('FV-4','B1187','2024-01-18');
""")
w("brew/production-log.csv", "date,kind,bbl\n2024-01-02,brewed,30\n2024-01-09,brewed,30\n2024-01-10,keg,12.5\n2024-01-10,can,14.0\n"
  "2024-01-12,removed,20.2\n2024-01-12,loss,0.8\n2023-12-20,brewed,15\n")
w("brew/recipes/harbor-ipa.yaml", "name: Harbor IPA\nbatch_bbl: 15\ngrain:\n  - {name: 2-row, lb: 420}\n  - {name: Munich 10L, lb: 35}\n"
  "  - {name: C-40, lb: 20}\nhops:\n  - {name: Columbus, oz: 48, time: 60 min}\n  - {name: Citra, oz: 96, time: whirlpool}\n  - {name: Mosaic, oz: 120, time: dry hop day 5}\n")
w("brew/lab/micro.csv", "sample,batch,date,test,count,result\nMS-20431,B1187,2024-01-08,HLP (lacto/pedio),3,positive\n"
  "MS-20432,B1187,2024-01-08,wild yeast (LCSM),0,negative\nMS-20440,B1190,2024-01-12,aerobic plate,0,negative\n")
w("brew/sensory/2024-01-10-panel.md", "# Panel 2024-01-10\n\n- B1187 keg: slight diacetyl (2 of 6 tasters), hop aroma good\n- B1183 cans: clean\n")
w("brew/sensory/2024-01-03-panel.md", "# Panel 2024-01-03\n\n- B1180: oxidized notes in aged can\n")

# ---------------------------------------------------------------- stand-in answers for round 51's in-house tools
w("pctrend.out", "date,size_um,adders\n2024-01-09,0.045,12\n2024-01-10,0.045,9\n2024-01-11,0.045,31\n2024-01-12,0.045,14\n", OUT)
w("oltctl.out", json.dumps({"olt": "olt-sea03", "port": "1/3/7", "onts": [
    {"ont_id": 1, "serial": "ALCL12345678", "state": "up", "rx_dbm": -19.2},
    {"ont_id": 2, "serial": "ALCL12345999", "state": "los", "rx_dbm": -40.0}]}) + "\n", OUT)
w("windlog.out", "time\tsustained_mph\tgust_mph\n2024-01-15T06:00\t18\t27\n2024-01-15T07:00\t24\t46\n2024-01-15T08:00\t21\t33\n", OUT)
w("rqctl.out", json.dumps({"jobs": [
    {"id": 88121, "name": "SHT010_0020_lgt_v013", "state": "running", "done": 40, "frames": 120, "failed": 2, "max_frame_min": 41},
    {"id": 88102, "name": "SHT020_0010_fx_v002", "state": "failed", "done": 10, "frames": 96, "failed": 86, "max_frame_min": 12}]}) + "\n", OUT)
w("antctl.out", json.dumps({"antenna": "svb-01", "mode": "tracking", "az_deg": 212.4, "el_deg": 31.0, "lna_temp_c": 22.5,
    "feed_temp_c": -3.1, "faults": [], "next_pass": {"satellite": "AURORA-1", "aos": "2024-01-16T00:50:00Z"}}) + "\n", OUT)
w("kegtrack.out", "time,event,where\n2023-11-02,filled,B1172\n2023-11-04,shipped,The Anchor Tap\n2023-12-15,returned,dock\n2024-01-08,filled,B1187\n", OUT)
print("fixture r51 written")
