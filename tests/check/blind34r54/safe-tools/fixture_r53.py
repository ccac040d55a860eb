#!/usr/bin/env python3
"""Adds round 53's folders to fixture/ (run once; the harness copies fixture/ for every run):
winery/, bikeshare/, park/, dialysis/, obs/, crew/, fish/, roast/, lifts/, casino/,
and canned answers for round 53's in-house programs in stub-out/."""
import json, os, random, sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
FX = os.path.join(HERE, "fixture")
OUT = os.path.join(HERE, "stub-out")
R = random.Random(53)


def w(path, text, base=FX):
    p = os.path.join(base, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)


def db(path, script, rows=()):
    p = os.path.join(FX, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    if os.path.exists(p):
        os.unlink(p)
    c = sqlite3.connect(p)
    c.executescript(script)
    for sql, vals in rows:
        c.executemany(sql, vals)
    c.commit()
    c.close()


# ---------------------------------------------------------------- winery
w("winery/tanks.csv", """tank,capacity_l,variety,vintage,volume_l,status
T01,12000,chardonnay,2023,11200,aging
T02,12000,chardonnay,2023,6400,aging
T05,8000,pinot_noir,2023,7900,fermenting
T07,8000,pinot_noir,2023,7600,fermenting
T09,5000,syrah,2023,0,empty
T11,20000,cabernet,2022,18800,aging
T12,20000,cabernet,2023,19500,fermenting
""")
for tank, start, stuck in (("T05", 24.0, False), ("T07", 23.5, True), ("T12", 25.2, False)):
    rows, b = ["time,brix,temp_c"], start
    for h in range(0, 13 * 12, 12):
        d, hh = 10 + h // 24, h % 24
        drop = 0.1 if (stuck and h > 96) else R.uniform(1.2, 2.2)
        b = max(-1.5, b - drop)
        rows.append(f"2024-01-{d:02d}T{hh:02d}:00,{b:.1f},{R.uniform(22, 29):.1f}")
    w(f"winery/ferment/{tank}.csv", "\n".join(rows) + "\n")
an = []
for lot in ("23CH01", "23CH02", "23PN05", "23PN07", "22CS11", "23CS12"):
    for i, d in enumerate(("2023-11-02", "2023-12-04", "2024-01-08")):
        an.append((lot, d, round(R.uniform(3.3, 3.8), 2), round(R.uniform(5.2, 7.4), 1), R.randint(18, 38), R.randint(60, 120),
                   round(R.uniform(0.3, 0.9), 2), round(R.uniform(12.5, 14.8), 1)))
db("winery/lab.db", "create table analyses(lot text, date text, ph real, ta real, so2_free integer, so2_total integer, va real, alcohol real);",
   [("insert into analyses values(?,?,?,?,?,?,?,?)", an)])
w("winery/barrels.json", json.dumps([
    {"id": "B-1001", "cooperage": "Seguin Moreau", "toast": "medium", "fill_date": "2023-03-14", "lot": "22CS11", "topped": "2024-01-10"},
    {"id": "B-1002", "cooperage": "Seguin Moreau", "toast": "medium plus", "fill_date": "2023-03-14", "lot": "22CS11", "topped": "2023-12-20"},
    {"id": "B-1107", "cooperage": "Francois Freres", "toast": "medium", "fill_date": "2023-10-28", "lot": "23CH01", "topped": "2024-01-12"},
    {"id": "B-1108", "cooperage": "Francois Freres", "toast": "light", "fill_date": "2023-10-28", "lot": "23CH01", "topped": "2024-01-12"},
    {"id": "B-1210", "cooperage": "Tonnellerie Radoux", "toast": "heavy", "fill_date": "2022-11-05", "lot": "22CS11", "topped": "2024-01-02"},
], indent=1) + "\n")
w("winery/harvest/2023.csv", """block,variety,date,tons,brix
A1,chardonnay,2023-09-12,6.4,22.8
A2,chardonnay,2023-09-14,5.1,23.1
B3,pinot_noir,2023-09-18,4.2,24.0
B4,pinot_noir,2023-09-20,3.9,23.6
C1,cabernet,2023-10-09,8.7,25.4
C2,cabernet,2023-10-11,9.3,25.9
D1,syrah,2023-10-02,2.8,24.7
""")
w("winery/harvest/2022.csv", """block,variety,date,tons,brix
A1,chardonnay,2022-09-10,5.9,23.0
C1,cabernet,2022-10-07,7.8,25.1
C2,cabernet,2022-10-12,8.1,25.6
""")
w("winery/blends/reserve-red.yaml", "name: reserve-red\nvintage: 2022\ncomponents:\n  22CS11: 78\n  23PN05: 12\n  23CS12: 10\n")
w("winery/blends/estate-white.yaml", "name: estate-white\nvintage: 2023\ncomponents:\n  23CH01: 85\n  23CH02: 15\n")
w("winery/compliance/ttb-bonded.yaml", "bond: BW-CA-21044\nplant: Harbor Hill Winery\n")

# ---------------------------------------------------------------- bike-share
stations = [
    {"id": "BS-101", "name": "Harbor & 1st", "capacity": 19, "zone": "downtown"},
    {"id": "BS-102", "name": "City Hall", "capacity": 23, "zone": "downtown"},
    {"id": "BS-117", "name": "Market Square", "capacity": 15, "zone": "downtown"},
    {"id": "BS-204", "name": "University North", "capacity": 27, "zone": "campus"},
    {"id": "BS-205", "name": "Library Lawn", "capacity": 11, "zone": "campus"},
    {"id": "BS-310", "name": "Riverside Park", "capacity": 17, "zone": "waterfront"},
    {"id": "BS-311", "name": "Ferry Terminal", "capacity": 21, "zone": "waterfront"},
]
w("bikeshare/stations.json", json.dumps(stations, indent=1) + "\n")
snap = []
for hh in ("07:00", "08:00", "09:00"):
    for s in stations:
        b = R.randint(0, s["capacity"])
        if s["id"] in ("BS-117", "BS-205") and hh == "09:00":
            b = 0
        snap.append(json.dumps({"ts": f"2024-01-15T{hh}:00", "station": s["id"], "bikes": b, "ebikes": min(b, R.randint(0, 4)), "docks": s["capacity"] - b}))
w("bikeshare/status/2024-01-15.jsonl", "\n".join(snap) + "\n")
trips = ["trip_id,start_station,end_station,start,end,duration_s,member_type,bike_id"]
ids = [s["id"] for s in stations]
for i in range(160):
    a, b = R.choice(ids), R.choice(ids)
    h = R.choice([7, 8, 8, 8, 9, 12, 13, 17, 17, 18, 18, 19, 22])
    dur = R.randint(180, 2400)
    trips.append(f"T{50000 + i},{a},{b},2024-01-{R.randint(1, 28):02d}T{h:02d}:{R.randint(0, 59):02d},,{dur},{R.choice(['member', 'member', 'casual'])},B{R.randint(10001, 10012)}")
w("bikeshare/trips/2024-01.csv", "\n".join(trips) + "\n")
bikes = [(f"B{10000 + i}", R.choice(["classic", "ebike-g2", "ebike-g3"]), R.randint(3, 100), f"2023-{R.randint(6, 12):02d}-{R.randint(1, 28):02d}", R.choice(["in_service", "in_service", "in_service", "workshop"])) for i in range(1, 13)]
rep = [(i, f"B{10000 + R.randint(1, 12)}", f"2023-{R.randint(7, 12):02d}-{R.randint(1, 28):02d}", R.choice(["flat tyre", "brake pads", "chain", "battery swap", "display fault", "lock jam"]), round(R.uniform(8, 140), 2)) for i in range(1, 31)]
db("bikeshare/bikes.db", "create table bikes(id text primary key, model text, battery integer, last_service text, status text);"
   "create table repairs(id integer primary key, bike_id text, date text, issue text, cost real);",
   [("insert into bikes values(?,?,?,?,?)", bikes), ("insert into repairs values(?,?,?,?,?)", rep)])
os.makedirs(os.path.join(FX, "bikeshare/plans"), exist_ok=True)
w("bikeshare/plans/README.md", "Rebalancing plans written by the ops tool (one CSV per zone and day).\n")

# ---------------------------------------------------------------- theme park
w("park/rides.yaml", """rides:
  - {id: TC01, name: Thunder Canyon, zone: frontier, capacity_per_hour: 1400, min_height_cm: 122, status: open}
  - {id: SK02, name: Sky Swings, zone: boardwalk, capacity_per_hour: 900, min_height_cm: 107, status: open}
  - {id: LR03, name: Log Run, zone: frontier, capacity_per_hour: 1100, min_height_cm: 117, status: open}
  - {id: DK04, name: Dragon Kiddie Coaster, zone: fantasy, capacity_per_hour: 600, min_height_cm: 92, status: open}
  - {id: HT05, name: Haunted Tram, zone: fantasy, capacity_per_hour: 1600, min_height_cm: 0, status: closed}
""")
waits = ["time,ride,wait_min"]
for hh in range(10, 20):
    for r, base in (("TC01", 45), ("SK02", 15), ("LR03", 30), ("DK04", 10)):
        waits.append(f"{hh:02d}:00,{r},{max(5, base + R.randint(-10, 35))}")
w("park/waits/2024-01-15.csv", "\n".join(waits) + "\n")
ev = [(1, "TC01", "2024-01-02T11:05", "2024-01-02T11:50", "sensor", 45), (2, "LR03", "2024-01-05T14:10", "2024-01-05T16:00", "mechanical", 110),
      (3, "TC01", "2024-01-09T10:00", "2024-01-09T10:20", "weather", 20), (4, "SK02", "2024-01-12T15:30", "2024-01-12T15:45", "guest", 15),
      (5, "TC01", "2024-01-14T13:00", "2024-01-14T14:30", "mechanical", 90), (6, "DK04", "2024-01-15T12:00", "2024-01-15T12:10", "sensor", 10)]
db("park/downtime.db", "create table events(id integer primary key, ride text, start text, end text, cause text, minutes integer);",
   [("insert into events values(?,?,?,?,?,?)", ev)])
w("park/inspections/TC01-2024-01-15.md", "# Thunder Canyon daily inspection 2024-01-15\n\nInspector: J. Ruiz\n\n- Restraints: PASS\n- Lap bar sensors: PASS\n- Chain lift dog: FAIL (worn, replaced 07:40)\n- Test cycles: 3 empty, 1 weighted: PASS\n\nResult: OPEN after repair\n")
w("park/inspections/LR03-2024-01-15.md", "# Log Run daily inspection 2024-01-15\n\nInspector: A. Kowal\n\n- Flume water level: PASS\n- Boat hulls: PASS\n\nResult: OPEN\n")
att = ["date,gate,entries"]
for d in range(1, 16):
    for g in ("main", "east", "hotel"):
        att.append(f"2024-01-{d:02d},{g},{R.randint(800, 4200) if g == 'main' else R.randint(100, 1400)}")
w("park/attendance.csv", "\n".join(att) + "\n")
pos = []
for i in range(60):
    st = R.choice(["frontier-grill", "boardwalk-sweets", "fantasy-cafe"])
    it = R.choice(["burger", "fries", "soda", "churro", "ice cream", "coffee"])
    q = R.randint(1, 4)
    pos.append(json.dumps({"stand": st, "item": it, "qty": q, "amount": round(q * R.uniform(3, 12), 2)}))
w("park/pos/2024-01-15.jsonl", "\n".join(pos) + "\n")

# ---------------------------------------------------------------- dialysis
sch = ["shift,chair,patient_id,machine,start,duration_min"]
for shift, t in (("am", "06:00"), ("mid", "11:00"), ("pm", "16:00")):
    for ch in range(1, 7):
        sch.append(f"{shift},{ch},P{R.randint(1001, 1040)},M-{R.choice(['03', '05', '07', '09', '11', '12'])},{t},{R.choice([180, 210, 240])}")
w("dialysis/schedule/2024-01-15.csv", "\n".join(sch) + "\n")
tr, labs = [], []
k = 1
for p in ("P1004", "P1017", "P1022", "P1031"):
    for d in range(1, 16, 2):
        pre = round(R.uniform(68, 92), 1)
        uf = R.randint(1500, 3500)
        tr.append((k, p, f"2024-01-{d:02d}", pre, round(pre - uf / 1000 - R.uniform(-0.3, 0.4), 1), uf + R.randint(-200, 200), uf, round(R.uniform(1.0, 1.6), 2),
                   f"{R.randint(120, 170)}/{R.randint(70, 95)}", f"{R.randint(105, 150)}/{R.randint(60, 85)}", R.choice(["M-03", "M-05", "M-07"])))
        k += 1
    for t, lo, hi in (("potassium", 3.5, 6.2), ("phosphorus", 3.0, 7.5), ("hemoglobin", 8.5, 12.5), ("albumin", 3.0, 4.4)):
        for d in ("2024-01-02", "2024-01-16"):
            labs.append((p, d, t, round(R.uniform(lo, hi), 1)))
db("dialysis/treatments.db", "create table treatments(id integer primary key, patient_id text, date text, pre_weight real, post_weight real, uf_goal_ml integer, uf_ml integer, ktv real, bp_pre text, bp_post text, machine text);"
   "create table labs(patient_id text, date text, test text, value real);",
   [("insert into treatments values(?,?,?,?,?,?,?,?,?,?,?)", tr), ("insert into labs values(?,?,?,?)", labs)])
wq = ["date,loop,chlorine_ppm,conductivity_us,endotoxin_eu,bacteria_cfu"]
for d in range(2, 31, 2):
    for lp in ("A", "B"):
        wq.append(f"2024-01-{d:02d},{lp},{R.choice([0.02, 0.04, 0.05, 0.12]) if lp == 'B' and d == 12 else 0.02},{R.randint(2, 9)},{round(R.uniform(0.01, 0.6), 2)},{R.randint(1, 60)}")
w("dialysis/water/2024-01.csv", "\n".join(wq) + "\n")
w("dialysis/machines.json", json.dumps([
    {"id": "M-03", "model": "5008S", "hours": 21450, "last_pm_hours": 20100, "status": "in_service"},
    {"id": "M-05", "model": "5008S", "hours": 18230, "last_pm_hours": 16250, "status": "in_service"},
    {"id": "M-07", "model": "2008T", "hours": 30110, "last_pm_hours": 29800, "status": "in_service"},
    {"id": "M-09", "model": "2008T", "hours": 27760, "last_pm_hours": 25600, "status": "out_of_service"},
], indent=1) + "\n")
codes = ["ART-PRESS-LOW", "VEN-PRESS-HIGH", "AIR-DETECT", "BLOOD-LEAK", "TMP-HIGH", "CONDUCTIVITY"]
for m in ("M-03", "M-05", "M-07"):
    w(f"dialysis/alarms/{m}.log", "".join(f"2024-01-{R.randint(1, 15):02d}T{R.randint(6, 20):02d}:{R.randint(0, 59):02d} {m} {R.choice(codes[:4] if m != 'M-07' else codes)} ack\n" for _ in range(25)))

# ---------------------------------------------------------------- observatory
w("obs/nights/2024-01-15.log", """# night 2024-01-15 observer: L. Ortega telescope: 1.2m
19:02 NGC2392 B 120 1.4
19:06 NGC2392 V 90 1.3
19:10 NGC2392 R 60 1.3
19:40 M42 Ha 300 1.6
19:47 M42 OIII 300 1.7
20:30 SN2024abc V 180 1.5
20:35 SN2024abc R 180 1.5
21:10 HD 36486 V 5 2.1
22:45 SN2024abc B 240 1.9
""")
w("obs/targets.csv", """name,ra_deg,dec_deg,mag,priority,program
NGC2392,112.295,20.912,9.1,2,PN-survey
M42,83.822,-5.391,4.0,3,outreach
SN2024abc,150.120,2.205,15.8,1,transients
HD 36486,83.002,-0.299,2.2,4,standards
NGC253,11.888,-25.288,7.1,2,galaxies
""")
wx = ["time,temp_c,humidity,wind_kmh,cloud_pct,seeing"]
for i in range(24):
    hh, mm = 18 + (i * 30) // 60, (i * 30) % 60
    hh %= 24
    wx.append(f"{hh:02d}:{mm:02d},{R.randint(2, 9)},{R.randint(35, 95)},{R.randint(3, 45)},{R.choice([0, 0, 5, 10, 40, 80])},{round(R.uniform(1.0, 2.6), 1)}")
w("obs/weather/2024-01-15.csv", "\n".join(wx) + "\n")


def card(k, v):
    return (f"{k:<8}= {v:>20}").ljust(80)


for name, tgt, filt, exp in (("2024-01-15-0012.hdr", "NGC2392", "B", 120), ("2024-01-15-0021.hdr", "M42", "Ha", 300), ("2024-01-15-0030.hdr", "SN2024abc", "V", 180)):
    hdr = "".join([card("SIMPLE", "T"), card("BITPIX", "16"), card("NAXIS", "2"), card("OBJECT", f"'{tgt}'"), card("FILTER", f"'{filt}'"),
                   card("EXPTIME", str(exp)), card("AIRMASS", "1.23"), card("DATE-OBS", "'2024-01-15T19:02:11'"), "END".ljust(80)])
    w("obs/fits/" + name, hdr)
fr = []
k = 1
for tgt, filt, exp in (("NGC2392", "B", 120), ("NGC2392", "V", 90), ("M42", "Ha", 300), ("SN2024abc", "V", 180), ("SN2024abc", "R", 180), ("SN2024abc", "B", 240)):
    for n in range(3):
        fr.append((k, f"2024-01-{13 + n:02d}", tgt, filt, exp, round(R.uniform(1.0, 2.2), 2), round(R.uniform(1.1, 2.8), 2), R.choice(["ok", "ok", "ok", "rejected"])))
        k += 1
db("obs/archive.db", "create table frames(id integer primary key, night text, target text, filter text, exptime integer, airmass real, fwhm real, status text);",
   [("insert into frames values(?,?,?,?,?,?,?,?)", fr)])
w("obs/calib/pipeline.yaml", "bias_frames: 11\nflat_frames: 7\ndark_scale: true\ngain_e_per_adu: 1.42\n")

# ---------------------------------------------------------------- airline crew
crew = [("C10001", "A. Moreau", "SEA", "CPT"), ("C10002", "B. Tanaka", "SEA", "FO"), ("C10003", "C. Osei", "PDX", "CPT"),
        ("C10004", "D. Lindqvist", "PDX", "FO"), ("C10005", "E. Ruiz", "SEA", "FA"), ("C10006", "F. Nakamura", "SEA", "FA")]
ros = ["crew_id,name,base,rank,date,pairing,duty_start,duty_end,block_min"]
for cid, nm, base, rk in crew:
    for d in range(1, 29):
        if R.random() < 0.55:
            p = R.choice(["P4411", "P4412", "P5120", "P5121"])
            s = R.randint(5, 13)
            ros.append(f"{cid},{nm},{base},{rk},2024-01-{d:02d},{p},{s:02d}:00,{min(s + R.randint(7, 12), 23):02d}:30,{R.randint(180, 520)}")
w("crew/roster/2024-01.csv", "\n".join(ros) + "\n")
w("crew/pairings.json", json.dumps([
    {"id": "P4411", "base": "SEA", "legs": [{"flight": "HB211", "from": "SEA", "to": "SFO", "dep": "06:10", "arr": "08:20", "block": 130}, {"flight": "HB214", "from": "SFO", "to": "SEA", "dep": "09:15", "arr": "11:25", "block": 130}]},
    {"id": "P4412", "base": "SEA", "legs": [{"flight": "HB301", "from": "SEA", "to": "ANC", "dep": "07:00", "arr": "10:25", "block": 205}, {"flight": "HB302", "from": "ANC", "to": "SEA", "dep": "11:30", "arr": "15:45", "block": 195}]},
    {"id": "P5120", "base": "PDX", "legs": [{"flight": "HB520", "from": "PDX", "to": "LAX", "dep": "12:00", "arr": "14:20", "block": 140}]},
    {"id": "P5121", "base": "PDX", "legs": [{"flight": "HB521", "from": "LAX", "to": "PDX", "dep": "15:10", "arr": "17:35", "block": 145}]},
], indent=1) + "\n")
quals = [(c[0], q, f"2024-{R.randint(1, 6):02d}-{R.randint(1, 28):02d}") for c in crew for q in ("medical", "recurrent", "line-check" if c[3] != "FA" else "first-aid")]
db("crew/quals.db", "create table crew(id text primary key, name text, base text, rank text, type_rating text);"
   "create table quals(crew_id text, qual text, expires text);",
   [("insert into crew values(?,?,?,?,?)", [(c[0], c[1], c[2], c[3], "B737" if c[3] != "FA" else "") for c in crew]),
    ("insert into quals values(?,?,?)", quals)])
w("crew/fdp_limits.yaml", "max_block_min_28d: 6000\nmax_duty_days_7d: 6\nmin_rest_hours: 10\nmax_fdp_hours: 13\n")

# ---------------------------------------------------------------- fishing fleet / auction
vessels = [{"id": "FV-204", "name": "Northern Star", "length_m": 18.4, "gear": "trawl", "home_port": "Kodiak"},
           {"id": "FV-311", "name": "Sea Wren", "length_m": 12.1, "gear": "longline", "home_port": "Homer"},
           {"id": "FV-415", "name": "Halibut Queen", "length_m": 22.8, "gear": "longline", "home_port": "Kodiak"}]
w("fish/vessels.json", json.dumps(vessels, indent=1) + "\n")
land = ["date,vessel,species,kg,port,grade"]
lrows = []
for i in range(50):
    v, sp = R.choice(vessels)["id"], R.choice(["pollock", "cod", "halibut", "sablefish"])
    kg = R.randint(300, 9000)
    d = f"2024-01-{R.randint(1, 28):02d}"
    port = R.choice(["Kodiak", "Homer"])
    land.append(f"{d},{v},{sp},{kg},{port},{R.choice('AAB')}")
    lrows.append((d, v, sp, kg))
w("fish/landings/2024-01.csv", "\n".join(land) + "\n")
db("fish/quota.db", "create table quota(vessel text, species text, year integer, allocated_kg integer);"
   "create table landings(date text, vessel text, species text, kg integer);",
   [("insert into quota values(?,?,?,?)", [(v["id"], sp, 2024, R.randint(40000, 120000)) for v in vessels for sp in ("pollock", "cod", "halibut", "sablefish")]),
    ("insert into landings values(?,?,?,?)", lrows)])
auc = []
for i in range(40):
    sp = R.choice(["cod", "halibut", "sablefish"])
    auc.append(json.dumps({"lot": f"L{7000 + i}", "vessel": R.choice(vessels)["id"], "species": sp, "kg": R.randint(40, 900),
                           "price_per_kg": round({"cod": 3.1, "halibut": 12.5, "sablefish": 9.8}[sp] * R.uniform(0.8, 1.25), 2),
                           "buyer": R.choice(["BUY-017", "BUY-022", "BUY-040"])}))
w("fish/auction/2024-01-15.jsonl", "\n".join(auc) + "\n")
for v in vessels:
    rows = ["ts,lat,lon,speed_kn,heading"]
    lat, lon = 57.5, -152.5
    for i in range(48):
        lat += R.uniform(-0.03, 0.05)
        lon += R.uniform(-0.05, 0.04)
        rows.append(f"2024-01-15T{i // 2:02d}:{(i % 2) * 30:02d},{lat:.4f},{lon:.4f},{R.choice([0.2, 3.1, 3.6, 4.2, 9.5, 10.1])},{R.randint(0, 359)}")
    w(f"fish/vms/{v['id']}.csv", "\n".join(rows) + "\n")
w("fish/closures.yaml", """closures:
  - {name: Chiniak Gully, species: [cod, pollock], lat_min: 57.55, lat_max: 57.80, lon_min: -152.45, lon_max: -152.10}
  - {name: Marmot Flats, species: [halibut], lat_min: 57.90, lat_max: 58.20, lon_min: -152.90, lon_max: -152.40}
""")

# ---------------------------------------------------------------- coffee roastery
for batch, charge in (("R-1042", 200), ("R-1043", 205), ("R-1044", 198)):
    rows, bt, et = ["time_s,bean_temp,env_temp,ror"], float(charge), 230.0
    bt = 90.0
    for t in range(0, 661, 30):
        ror = max(4.0, 22 - t / 40 + R.uniform(-1, 1))
        bt = bt + ror / 2 if t else 90.0
        rows.append(f"{t},{bt:.1f},{et + R.uniform(-4, 4):.1f},{ror:.1f}")
    w(f"roast/profiles/{batch}.csv", "\n".join(rows) + "\n")
bat = [("R-1040", "2024-01-12", "ethiopia", 12.0, 10.2, "Probat-12", "light-filter", 204, 88), ("R-1041", "2024-01-12", "colombia", 15.0, 12.6, "Probat-12", "medium-espresso", 212, 105),
       ("R-1042", "2024-01-15", "ethiopia", 12.0, 10.3, "Probat-12", "light-filter", 205, 92), ("R-1043", "2024-01-15", "brazil", 15.0, 12.5, "Giesen-15", "medium-espresso", 214, 110),
       ("R-1044", "2024-01-15", "colombia", 15.0, 12.7, "Giesen-15", "medium-espresso", 211, 101)]
cup = [("R-1040", 86.5, "jasmine, bergamot"), ("R-1041", 84.0, "caramel, red apple"), ("R-1042", 87.25, "peach, black tea"), ("R-1043", 82.5, "cocoa, roasted nut, slightly flat"), ("R-1044", 85.0, "brown sugar, cherry")]
db("roast/batches.db", "create table batches(id text primary key, date text, origin text, green_kg real, roasted_kg real, roaster text, profile text, drop_temp integer, dev_time_s integer);"
   "create table cupping(batch_id text, score real, notes text);",
   [("insert into batches values(?,?,?,?,?,?,?,?,?)", bat), ("insert into cupping values(?,?,?)", cup)])
w("roast/green.json", json.dumps([
    {"lot": "G-ETH-2311", "origin": "ethiopia", "process": "washed", "kg": 240, "arrival": "2023-11-20", "moisture": 10.8},
    {"lot": "G-COL-2310", "origin": "colombia", "process": "washed", "kg": 95, "arrival": "2023-10-05", "moisture": 11.2},
    {"lot": "G-BRA-2309", "origin": "brazil", "process": "natural", "kg": 410, "arrival": "2023-09-14", "moisture": 11.6},
    {"lot": "G-KEN-2401", "origin": "kenya", "process": "washed", "kg": 60, "arrival": "2024-01-08", "moisture": 10.4},
], indent=1) + "\n")
orders = ["order_id,customer,sku,kg,ship_date,status"]
for i in range(30):
    orders.append(f"O-{8800 + i},{R.choice(['CAFE-ALMA', 'CAFE-NORTE', 'HOTEL-BAY', 'GROCER-12'])},{R.choice(['ETH-LF', 'COL-ME', 'BRA-ME'])},{R.choice([2, 5, 5, 10, 20])},2024-01-{R.randint(2, 29):02d},{R.choice(['open', 'open', 'shipped'])}")
w("roast/orders/2024-01.csv", "\n".join(orders) + "\n")
w("roast/recipes.yaml", """profiles:
  light-filter: {charge_c: 200, first_crack_c: 196, drop_c: 205, dev_ratio_pct: 18}
  medium-espresso: {charge_c: 210, first_crack_c: 198, drop_c: 212, dev_ratio_pct: 22}
""")
w("roast/inventory.csv", "sku,roasted_kg\nETH-LF,18\nCOL-ME,40\nBRA-ME,22\n")

# ---------------------------------------------------------------- elevator service
w("lifts/units.csv", """unit_id,building,address,type,floors,installed,contract_end,technician
EL-0412,Harbor Tower,100 Harbor St,traction,24,1998-06-01,2024-03-31,tkim
EL-0413,Harbor Tower,100 Harbor St,traction,24,1998-06-01,2024-03-31,tkim
EL-0520,Maple Medical,12 Maple Dr,hydraulic,4,2009-02-15,2025-01-31,jsosa
EL-0601,Civic Garage,5 Civic Pl,hydraulic,6,1987-11-20,2024-02-29,jsosa
EL-0733,Riverside Lofts,88 River Rd,mrl,9,2016-09-01,2026-08-31,tkim
""")
cb = []
for i in range(1, 41):
    u = R.choice(["EL-0412", "EL-0412", "EL-0413", "EL-0520", "EL-0601", "EL-0601", "EL-0733"])
    d = f"2023-{R.randint(10, 12):02d}-{R.randint(1, 28):02d}" if i < 25 else f"2024-01-{R.randint(1, 15):02d}"
    cb.append((i, u, d, d, R.choice(["F34", "F12", "F07", "E21", "F34"]), 1 if R.random() < 0.15 else 0, R.choice(["tkim", "jsosa"])))
db("lifts/callbacks.db", "create table callbacks(id integer primary key, unit_id text, opened text, closed text, fault_code text, entrapment integer, tech text);",
   [("insert into callbacks values(?,?,?,?,?,?,?)", cb)])
for u in ("EL-0412", "EL-0601"):
    w(f"lifts/faults/{u}.log", "".join(f"2024-01-{R.randint(1, 15):02d}T{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:00 {R.choice(['F34', 'F34', 'F12', 'F07', 'E21'])} {R.choice(['door reopen', 'leveling', 'overspeed trip', 'safety chain open'])} floor={R.randint(1, 24)}\n" for _ in range(30)))
w("lifts/fault_codes.yaml", """codes:
  F07: {desc: leveling out of tolerance, severity: medium}
  F12: {desc: overspeed governor trip, severity: high}
  F34: {desc: door reopen limit exceeded, severity: low}
  E21: {desc: safety chain open, severity: high}
""")
w("lifts/inspections/2024/EL-0412.md", "# Annual inspection EL-0412 (2024)\nInspector: State Elevator Unit, #4471\nDate: 2024-01-09\nResult: PASS with notes\n- Governor tested at 118% rated speed: PASS\n- Buffers: PASS\n- Door restrictor: NOTE (adjust)\nCertificate: 2024-EL-0412-A\n")
w("lifts/inspections/2024/EL-0601.md", "# Annual inspection EL-0601 (2024)\nInspector: State Elevator Unit, #4471\nDate: 2024-01-11\nResult: FAIL\n- Hydraulic jack leak: FAIL\n- Pit ladder: PASS\nCertificate: withheld\n")
w("lifts/parts.json", json.dumps([
    {"part": "DOOR-ROLLER-45", "desc": "door roller 45mm", "on_hand": 6, "min": 10, "supplier": "KONE"},
    {"part": "GOV-ROPE-8", "desc": "governor rope 8mm (m)", "on_hand": 120, "min": 50, "supplier": "Otis"},
    {"part": "RELAY-24V", "desc": "safety relay 24V", "on_hand": 2, "min": 5, "supplier": "Schindler"},
    {"part": "HYD-SEAL-KIT", "desc": "jack seal kit", "on_hand": 0, "min": 2, "supplier": "Blain"},
], indent=1) + "\n")

# ---------------------------------------------------------------- casino floor
slots = ["machine_id,bank,denom,game,manufacturer,theoretical_hold"]
mach = []
for bank, n in (("A", 4), ("B", 4), ("C", 3)):
    for i in range(1, n + 1):
        m = f"SL-{bank}{i:02d}"
        mach.append(m)
        slots.append(f"{m},{bank},{R.choice(['0.01', '0.25', '1.00'])},{R.choice(['Buffalo Gold', 'Lightning Link', 'Dragon Cash'])},{R.choice(['Aristocrat', 'IGT', 'LnW'])},{R.choice([6.5, 8.0, 10.2, 12.0])}")
w("casino/slots.csv", "\n".join(slots) + "\n")
met = ["machine_id,coin_in,coin_out,jackpots,games"]
for m in mach:
    ci = R.randint(20000, 90000)
    met.append(f"{m},{ci},{int(ci * R.uniform(0.82, 0.97))},{R.choice([0, 0, 1200, 2500])},{R.randint(3000, 20000)}")
w("casino/meters/2024-01-15.csv", "\n".join(met) + "\n")
w("casino/meters/2024-01-14.csv", "\n".join(met[:6]) + "\n")
tr = [(i, f"PL{R.randint(20001, 20009)}", f"TB-{R.choice(['BJ1', 'BJ2', 'RL1', 'BC1'])}", None, f"2024-01-{R.randint(10, 15):02d}", R.choice([25, 50, 100, 500]), round(R.uniform(0.5, 5), 1)) for i in range(1, 41)]
tr = [(a, b, c, {"BJ": "blackjack", "RL": "roulette", "BC": "baccarat"}[c[3:5]], d, e, f) for a, b, c, _, d, e, f in tr]
drops = [(t, f"2024-01-{d:02d}", R.randint(8000, 60000), R.randint(-5000, 15000)) for t in ("TB-BJ1", "TB-BJ2", "TB-RL1", "TB-BC1") for d in range(10, 16)]
db("casino/tables.db", "create table table_ratings(id integer primary key, player_id text, table_id text, game text, date text, avg_bet integer, hours real);"
   "create table drops(table_id text, date text, drop_amount integer, win integer);",
   [("insert into table_ratings values(?,?,?,?,?,?,?)", tr), ("insert into drops values(?,?,?,?)", drops)])
evs = []
for i in range(80):
    evs.append(f"{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:{R.randint(0, 59):02d} {R.choice(mach)} {R.choice(['DOOR_OPEN', 'DOOR_CLOSE', 'BILL_JAM', 'HANDPAY', 'TILT', 'DOOR_OPEN'])} {R.choice(['main', 'belly', 'drop', 'cashbox'])}")
w("casino/events/2024-01-15.log", "\n".join(sorted(evs)) + "\n")
ctr = []
for i in range(50):
    ctr.append(json.dumps({"player": f"PL{R.randint(20001, 20009)}", "date": f"2024-01-{R.randint(10, 15):02d}", "amount": R.choice([2000, 3000, 4500, 9000, 9500, 3000]), "type": R.choice(["cash_in", "cash_in", "cash_out"])}))
w("casino/ctr/2024-01.jsonl", "\n".join(ctr) + "\n")
w("casino/paytables/buffalo-gold.yaml", "game: Buffalo Gold\nrtp_pct: 92.0\nversion: 3\n")
w("casino/paytables/dragon-cash.yaml", "game: Dragon Cash\nrtp_pct: 90.5\nversion: 7\n")
w("casino/house_edge.yaml", "games:\n  blackjack: {edge_pct: 0.6, decisions_per_hour: 70}\n  roulette: {edge_pct: 5.26, decisions_per_hour: 38}\n  baccarat: {edge_pct: 1.06, decisions_per_hour: 72}\n")

# ---------------------------------------------------------------- stand-in answers for the in-house programs
w("cellarctl.out", "tank  probe  temp_c  setpoint_c  valve\nT07   top    27.9    26.0        open\nT07   bottom 26.4    26.0        open\nT05   top    24.1    26.0        closed\n", base=OUT)
w("dockctl.out", "station BS-117 docks=15 locked=15 faulty=1 firmware=4.2.1 last_seen=2024-01-15T09:02Z\n", base=OUT)
w("ridectl.out", "ride TC01 state=RUNNING dispatches=212 estop=0 block_faults=1 last_fault=BLOCK3-TIMEOUT\n", base=OUT)
w("dlxctl.out", "time,arterial_mmhg,venous_mmhg,tmp_mmhg,qb_ml_min,conductivity\n10:00,-180,140,60,350,14.0\n10:05,-190,150,65,350,14.0\n10:10,-230,210,90,350,14.1\n", base=OUT)
w("domectl.out", "site north dome=CLOSED shutter=CLOSED rain=0 wind_kmh=31 humidity=81 last_move=2024-01-15T22:51Z\n", base=OUT)
w("rosterctl.out", "crew C10002 2024-01-07 published=P4411 planned=P4412 change=reassigned\ncrew C10005 2024-01-12 published=- planned=P5120 change=added\n", base=OUT)
w("quotactl.out", "transfer FV-311 -> FV-204 species=cod kg=2000 status=validated remaining_from=51234 remaining_to=40122\n", base=OUT)
w("roasterctl.out", "roaster Giesen-15 state=IDLE drum_c=181 burner_pct=0 airflow_pct=40 last_batch=R-1044 afterburner=OK\n", base=OUT)
w("elvmon.out", "2024-01-15T07:02:11 EL-0412 F34 door reopen\n2024-01-15T07:40:55 EL-0412 F34 door reopen\n2024-01-15T09:13:02 EL-0412 F07 leveling\n", base=OUT)
w("slotctl.out", "machine SL-A02 state=TILT door=closed credits=0 last_event=BILL_JAM denom=0.25 comm=online\n", base=OUT)
print("round 53 fixture written")
