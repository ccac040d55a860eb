#!/usr/bin/env python3
"""Adds round 52's folders to fixture/ (run once; the harness copies fixture/ for every run):
dental/, ski/, rental/, bloodbank/, elections/, cinema/, parking/, waste/, zoo/, rail/,
and canned answers for round 52's in-house programs in stub-out/."""
import json, os, sqlite3

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


# ---------------------------------------------------------------- dental clinic
w("dental/schedule/2024-01-15.csv", """time,chair,provider,patient_id,cdt,minutes
08:00,1,DrPatel,100231,D0120,30
08:30,1,DrPatel,100245,D2740,90
08:00,2,HygKim,100198,D1110,60
09:00,2,HygKim,100231,D0274,15
10:00,3,DrOkafor,100302,D3330,120
10:00,1,DrPatel,100177,D2391,45
11:00,2,HygKim,100245,D4341,60
13:00,3,DrOkafor,100198,D7140,30
""")
w("dental/schedule/2024-01-16.csv", """time,chair,provider,patient_id,cdt,minutes
08:00,1,DrPatel,100302,D0150,45
09:00,2,HygKim,100177,D1110,60
""")
db("dental/practice.db", """
create table patients(id integer primary key, name text, dob text, insurer text, last_recall text, balance real);
create table claims(id integer primary key, patient_id integer, cdt text, fee real, status text, submitted text, payer text);
create table plans(patient_id integer, tooth text, cdt text, status text, fee real);
insert into patients values(100177,'R. Alvarez','1984-03-02','Delta','2023-06-10',0),(100198,'M. Chen','1990-11-21','Cigna','2023-12-01',85.5),
 (100231,'J. Novak','1975-07-14','Delta','2023-05-30',0),(100245,'A. Diallo','2001-01-09','MetLife','2023-07-15',240),(100302,'S. Berg','1962-09-27','self','2022-11-02',1200);
insert into claims values(9001,100245,'D2740',1150,'submitted','2023-12-20','MetLife'),(9002,100198,'D1110',110,'paid','2023-12-01','Cigna'),
 (9003,100231,'D0274',75,'denied','2023-11-15','Delta'),(9004,100177,'D2391',210,'submitted','2024-01-02','Delta'),(9005,100245,'D4341',260,'pending-info','2023-12-28','MetLife');
insert into plans values(100245,'19','D2740','planned',1150),(100245,'UR','D4341','done',260),(100302,'30','D3330','planned',980),(100302,'30','D2950','planned',310),(100177,'14','D2391','scheduled',210);
""")
w("dental/fees.yaml", """schedule: 2024
codes:
  D0120: {desc: periodic oral evaluation, ucr: 65, delta: 52, cigna: 48, metlife: 50}
  D0150: {desc: comprehensive oral evaluation, ucr: 110, delta: 88, cigna: 80, metlife: 85}
  D0274: {desc: bitewings four films, ucr: 75, delta: 60, cigna: 55, metlife: 58}
  D1110: {desc: prophylaxis adult, ucr: 110, delta: 90, cigna: 84, metlife: 86}
  D2391: {desc: resin composite one surface posterior, ucr: 210, delta: 160, cigna: 150, metlife: 155}
  D2740: {desc: crown porcelain ceramic, ucr: 1150, delta: 890, cigna: 840, metlife: 860}
  D3330: {desc: endodontic therapy molar, ucr: 980, delta: 760, cigna: 720, metlife: 735}
  D4341: {desc: periodontal scaling and root planing 4+ teeth, ucr: 260, delta: 205, cigna: 190, metlife: 198}
  D7140: {desc: extraction erupted tooth, ucr: 180, delta: 140, cigna: 130, metlife: 135}
""")
w("dental/sterilization/autoclave-A.csv", """date,cycle,temp_c,pressure_kpa,minutes,result,spore_test
2024-01-08,1201,134,216,4,pass,pass
2024-01-09,1202,134,215,4,pass,
2024-01-10,1203,132,205,4,fail,
2024-01-10,1204,134,216,4,pass,
2024-01-15,1210,134,217,4,pass,pass
""")
w("dental/sterilization/autoclave-B.csv", """date,cycle,temp_c,pressure_kpa,minutes,result,spore_test
2024-01-08,801,121,103,30,pass,pass
2024-01-15,809,121,104,30,pass,
""")
for f in ("100245/2024-01-02-bitewing.dcm", "100245/2023-07-15-pano.dcm", "100302/2024-01-16-pa-30.dcm"):
    w("dental/imaging/" + f, "DICM stub image\n")
w("dental/notes/100245.md", """# A. Diallo (100245)
2023-07-15 Generalized 5-6mm pockets UR/LR; SRP planned. Pt reports bleeding when brushing.
2023-12-20 #19 fractured cusp, crown recommended; claim sent to MetLife.
2023-12-28 SRP UR done; MetLife asked for perio charting.
""")
w("dental/notes/100302.md", """# S. Berg (100302)
2022-11-02 Last recall. Pt self-pay, prefers phased treatment.
2024-01-16 #30 irreversible pulpitis, RCT then crown. Pt anxious, nitrous requested.
""")

# ---------------------------------------------------------------- ski resort
w("ski/lifts.json", json.dumps([
    {"lift": "Summit Express", "type": "hsq", "status": "open", "wait_min": 12, "riders_hr": 2400},
    {"lift": "Bear Cub", "type": "carpet", "status": "open", "wait_min": 2, "riders_hr": 600},
    {"lift": "North Ridge", "type": "double", "status": "wind-hold", "wait_min": 0, "riders_hr": 1000},
    {"lift": "Gondola", "type": "gondola", "status": "open", "wait_min": 20, "riders_hr": 3000},
    {"lift": "Backside T-Bar", "type": "tbar", "status": "closed", "wait_min": 0, "riders_hr": 800},
], indent=1) + "\n")
snow = ["date,station,new_cm,base_cm,temp_c,wind_kmh"]
for d in range(1, 21):
    for st, off in (("base", 0), ("mid", 25), ("summit", 60)):
        snow.append(f"2024-01-{d:02d},{st},{(d * 7 + off) % 23 if d % 3 else 0},{90 + d * 2 + off},{-3 - off / 10 - d % 4:.1f},{10 + (d * 11 + off) % 60}")
w("ski/snow/2024-01.csv", "\n".join(snow) + "\n")
db("ski/passes.db", """
create table passes(id integer primary key, holder text, kind text, valid_from text, valid_to text, blocked integer);
create table scans(pass_id integer, lift text, ts text, gate text);
insert into passes values(500101,'T. Rossi','season','2023-11-20','2024-04-15',0),(500102,'L. Meyer','day','2024-01-15','2024-01-15',0),
 (500103,'K. Sato','4-day','2024-01-13','2024-01-16',0),(500104,'P. Dubois','season','2023-11-20','2024-04-15',1);
insert into scans values(500101,'Gondola','2024-01-15T08:31','G1'),(500101,'Summit Express','2024-01-15T09:05','S2'),(500101,'Summit Express','2024-01-15T09:40','S1'),
 (500102,'Bear Cub','2024-01-15T10:02','B1'),(500103,'Gondola','2024-01-15T08:45','G2'),(500103,'North Ridge','2024-01-14T13:10','N1'),(500101,'Gondola','2024-01-14T08:20','G1');
""")
w("ski/patrol/incidents.csv", """date,time,run,type,severity,patroller
2024-01-06,10:12,Upper Chute,fall,minor,Jensen
2024-01-06,14:40,Bunny Hill,collision,moderate,Ortega
2024-01-13,11:05,Upper Chute,fall,serious,Jensen
2024-01-14,09:55,Glade 4,tree well,serious,Nakamura
2024-01-15,13:20,Lower Meadow,fall,minor,Ortega
""")
w("ski/snowmaking/guns.yaml", """guns:
  - {id: G01, trail: Lower Meadow, kind: fan, kw: 18}
  - {id: G02, trail: Lower Meadow, kind: fan, kw: 18}
  - {id: G07, trail: Bunny Hill, kind: lance, kw: 4}
  - {id: G12, trail: Upper Chute, kind: fan, kw: 22}
wet_bulb_max_c: -2.5
""")
w("ski/avalanche/2024-01-15.yaml", """date: 2024-01-15
forecaster: M. Hale
danger: {above_treeline: 3, near_treeline: 3, below_treeline: 2}
problems: [wind slab, persistent slab]
closures: [Backside Bowl, North Face]
""")
w("ski/avalanche/2024-01-14.yaml", """date: 2024-01-14
forecaster: M. Hale
danger: {above_treeline: 2, near_treeline: 2, below_treeline: 1}
problems: [wind slab]
closures: []
""")
w("ski/patrol/log-2024-01-15.md", """08:05 Sweep complete, all runs open except Backside Bowl.
09:55 Control work North Face, 2 shots, size 1.5 result.
11:30 Wind gusts 70 km/h at summit, North Ridge on wind hold.
13:20 Minor fall Lower Meadow, guest walked down.
""")

# ---------------------------------------------------------------- car rental fleet
w("rental/fleet.csv", """plate,vin,class,branch,odometer_km,status,next_service_km,fuel_pct
KA123BC,1HGCM82633A004352,compact,AIRPORT,48210,available,50000,100
KA456DE,2T1BURHE0JC074521,midsize,AIRPORT,61877,rented,60000,40
KB789FG,5YJ3E1EA7KF317000,ev,DOWNTOWN,22004,charging,30000,35
KB321HI,1FTEW1EP5JFA12345,truck,DOWNTOWN,90150,maintenance,90000,75
KC654JK,JTDKN3DU0A0123456,compact,DOWNTOWN,15320,available,20000,90
KC987LM,3VWFE21C04M000001,midsize,AIRPORT,30010,available,30000,20
""")
w("rental/reservations.json", json.dumps([
    {"id": "R240115-001", "customer": "C10021", "class": "compact", "branch": "AIRPORT", "pickup": "2024-01-15T09:00", "return": "2024-01-18T09:00", "status": "open"},
    {"id": "R240115-002", "customer": "C10458", "class": "ev", "branch": "DOWNTOWN", "pickup": "2024-01-15T12:00", "return": "2024-01-16T12:00", "status": "open"},
    {"id": "R240116-001", "customer": "C10021", "class": "truck", "branch": "DOWNTOWN", "pickup": "2024-01-16T08:00", "return": "2024-01-16T18:00", "status": "open"},
    {"id": "R240114-007", "customer": "C10999", "class": "midsize", "branch": "AIRPORT", "pickup": "2024-01-14T10:00", "return": "2024-01-15T10:00", "status": "returned"},
], indent=1) + "\n")
for plate, base in (("KA456DE", 61800), ("KB789FG", 21950)):
    rows = ["ts,lat,lon,speed_kmh,odometer_km,event"]
    for i in range(12):
        ev = "harsh_brake" if i == 5 else ("speeding" if i in (7, 8) else "")
        rows.append(f"2024-01-15T{8 + i // 2:02d}:{(i % 2) * 30:02d},{52.37 + i * 0.01:.4f},{4.89 + i * 0.012:.4f},{60 + i * 7 if i in (7, 8) else 45},{base + i * 6},{ev}")
    w(f"rental/telematics/{plate}.csv", "\n".join(rows) + "\n")
w("rental/rates.yaml", """currency: EUR
classes:
  compact: {day: 39, week: 210, km_included: 250, extra_km: 0.25}
  midsize: {day: 49, week: 270, km_included: 250, extra_km: 0.30}
  ev: {day: 59, week: 320, km_included: 300, extra_km: 0.20}
  truck: {day: 89, week: 480, km_included: 150, extra_km: 0.45}
extras:
  gps: 8
  child_seat: 10
  young_driver: 15
""")
w("rental/damage/claims.json", json.dumps([
    {"claim": "DMG-2024-0007", "plate": "KA456DE", "date": "2024-01-10", "part": "rear bumper", "estimate": 640, "status": "open"},
    {"claim": "DMG-2024-0009", "plate": "KB321HI", "date": "2024-01-12", "part": "windscreen", "estimate": 420, "status": "repair"},
    {"claim": "DMG-2023-0311", "plate": "KA123BC", "date": "2023-12-02", "part": "door", "estimate": 900, "status": "closed"},
], indent=1) + "\n")
w("rental/checkin/R240114-007.txt", """Check-in R240114-007 KC987LM
Fuel 20% (out 100%). Odometer 30010 (out 29720).
Scratch front left wing ~5cm, not on check-out sheet.
Customer signed.
""")

# ---------------------------------------------------------------- blood bank
db("bloodbank/inventory.db", """
create table units(unit_id text primary key, abo text, rh text, component text, collected text, expires text, status text, location text);
insert into units values
 ('W123624000101','O','neg','RBC','2024-01-02','2024-02-13','available','FR-1'),
 ('W123624000102','O','pos','RBC','2024-01-03','2024-02-14','available','FR-1'),
 ('W123624000103','A','pos','RBC','2023-12-10','2024-01-21','available','FR-2'),
 ('W123624000104','A','pos','PLT','2024-01-12','2024-01-17','available','AG-1'),
 ('W123624000105','B','neg','FFP','2023-11-01','2024-11-01','available','FZ-1'),
 ('W123624000106','AB','pos','PLT','2024-01-11','2024-01-16','quarantine','AG-1'),
 ('W123624000107','O','neg','RBC','2023-12-05','2024-01-16','crossmatched','FR-2'),
 ('W123624000108','A','neg','RBC','2024-01-08','2024-02-19','available','FR-1');
create table transfusions(unit_id text, patient_mrn text, ward text, started text, reaction text);
insert into transfusions values('W123623009901','MRN448812','ICU','2024-01-10T14:02','none'),('W123623009902','MRN448812','ICU','2024-01-11T09:30','febrile'),('W123623009950','MRN300155','ONC','2024-01-12T11:00','none');
""")
w("bloodbank/donors.csv", """donor_id,name,abo,rh,last_donation,deferral_until,phone_ok
D-004512,E. Fischer,O,neg,2023-10-20,,yes
D-004513,G. Romano,A,pos,2024-01-02,,yes
D-004514,H. Larsen,B,neg,2023-09-01,2024-03-01,no
D-004515,I. Kowalski,O,pos,2023-11-28,,yes
D-004516,J. Moreau,AB,neg,2023-08-15,,yes
""")
temps = ["ts,temp_c"]
for h in range(0, 72):
    t = 4.0 + ((h * 13) % 7) / 10
    if h == 40:
        t = 6.4
    temps.append(f"2024-01-{13 + h // 24:02d}T{h % 24:02d}:00,{t:.1f}")
w("bloodbank/temps/FR-1-2024-01.csv", "\n".join(temps) + "\n")
w("bloodbank/temps/FR-2-2024-01.csv", "\n".join(["ts,temp_c"] + [f"2024-01-13T{h:02d}:00,{3.8 + h % 3 / 10:.1f}" for h in range(24)]) + "\n")
w("bloodbank/compat.yaml", """# recipient ABO -> donor RBC ABO groups that are compatible
rbc:
  O: [O]
  A: [A, O]
  B: [B, O]
  AB: [AB, A, B, O]
plasma:
  O: [O, A, B, AB]
  A: [A, AB]
  B: [B, AB]
  AB: [AB]
""")
w("bloodbank/drives.json", json.dumps([
    {"drive": "DR-2024-011", "date": "2024-01-20", "site": "City Hall", "slots": 60, "booked": 41},
    {"drive": "DR-2024-012", "date": "2024-01-27", "site": "Tech Campus", "slots": 80, "booked": 77},
], indent=1) + "\n")
w("bloodbank/reactions/MRN448812.md", """2024-01-11 09:30 unit W123623009902 started; 09:55 temp 38.6 (baseline 37.0), chills.
Transfusion stopped 09:57. DAT negative. Clerical check OK. Likely FNHTR.
""")

# ---------------------------------------------------------------- elections
pre = ["precinct,ward,registered,polling_place,accessible"]
for i in range(1, 13):
    pre.append(f"P-{i:03d},{(i - 1) // 4 + 1},{1200 + i * 137},{['Lincoln Elementary', 'Fire Station 3', 'Public Library', 'Senior Center'][i % 4]},{'yes' if i % 5 else 'no'}")
w("elections/precincts.csv", "\n".join(pre) + "\n")
res = ["precinct,contest,candidate,votes"]
for i in range(1, 13):
    res.append(f"P-{i:03d},mayor,Garcia,{300 + i * 17}")
    res.append(f"P-{i:03d},mayor,Whitfield,{280 + (i * 29) % 90}")
    res.append(f"P-{i:03d},measure-a,yes,{350 + i * 5}")
    res.append(f"P-{i:03d},measure-a,no,{240 + (i * 31) % 70}")
w("elections/results/2024-primary.csv", "\n".join(res) + "\n")
ck = ["time,precinct,voter_id,method"]
for i in range(60):
    ck.append(f"{7 + i // 8:02d}:{(i * 7) % 60:02d},P-{1 + i % 12:03d},V{100000 + i * 37},{'regular' if i % 9 else 'provisional'}")
w("elections/pollbook/checkins-2024-03-05.csv", "\n".join(ck) + "\n")
w("elections/ballots/styles.yaml", """election: 2024-primary
styles:
  BS-01: {precincts: [P-001, P-002, P-003, P-004], contests: [mayor, measure-a, council-1]}
  BS-02: {precincts: [P-005, P-006, P-007, P-008], contests: [mayor, measure-a, council-2]}
  BS-03: {precincts: [P-009, P-010, P-011, P-012], contests: [mayor, measure-a, council-3, school-board]}
""")
w("elections/equipment/tabulators.json", json.dumps([
    {"serial": "DS200-00417", "precinct": "P-001", "firmware": "5.17.1", "lat_test": "2024-02-20", "seal": "A-88123"},
    {"serial": "DS200-00418", "precinct": "P-002", "firmware": "5.17.1", "lat_test": "2024-02-20", "seal": "A-88124"},
    {"serial": "DS200-00422", "precinct": "P-005", "firmware": "5.15.0", "lat_test": None, "seal": "A-88130"},
], indent=1) + "\n")
db("elections/canvass.db", """
create table provisionals(envelope integer primary key, precinct text, reason text, status text, reviewed_by text);
insert into provisionals values(2024001,'P-003','not in pollbook','accepted','cw1'),(2024002,'P-003','id required','pending',null),
 (2024003,'P-007','wrong precinct','partial','cw2'),(2024004,'P-011','not in pollbook','rejected','cw1'),(2024005,'P-011','id required','pending',null);
""")
w("elections/incidents/2024-03-05.md", """07:02 P-005 tabulator DS200-00422 jammed on first ballot; tech dispatched.
07:40 P-005 tabulator cleared, seal A-88130 intact, logged.
11:15 P-009 pollbook sync lag 6 min.
16:30 P-003 line 45 minutes, extra judge sent.
""")

# ---------------------------------------------------------------- cinema
w("cinema/showtimes/2024-01-19.csv", """screen,start,title,format,sold,capacity
1,13:00,Dune Part Two,IMAX,182,310
1,16:30,Dune Part Two,IMAX,290,310
1,20:00,Dune Part Two,IMAX,310,310
2,14:00,Wonka,2D,64,180
2,17:15,Wonka,2D,121,180
3,15:00,Mean Girls,2D,40,120
3,19:30,Mean Girls,2D,98,120
4,18:00,Argylle,DOLBY,77,150
""")
w("cinema/films.yaml", """films:
  DUNE2: {title: Dune Part Two, runtime: 166, rating: PG-13, distributor: WB, split_pct: 60}
  WONKA: {title: Wonka, runtime: 116, rating: PG, distributor: WB, split_pct: 55}
  MEANG: {title: Mean Girls, runtime: 112, rating: PG-13, distributor: PAR, split_pct: 55}
  ARGYL: {title: Argylle, runtime: 139, rating: PG-13, distributor: UNI, split_pct: 55}
""")
for cpl, nb, na, screen in (("DUNE2_FTR_S_EN-XX_US-13_51_4K", "2024-01-15T00:00:00", "2024-02-12T23:59:00", "1"),
                            ("WONKA_FTR_S_EN-XX_US-PG_51_2K", "2023-12-10T00:00:00", "2024-01-21T23:59:00", "2"),
                            ("ARGYL_FTR_S_EN-XX_US-13_71_4K", "2024-01-18T00:00:00", "2024-01-19T10:00:00", "4")):
    w(f"cinema/kdm/{cpl}_screen{screen}.xml", f"""<?xml version="1.0" encoding="UTF-8"?>
<DCinemaSecurityMessage>
  <AuthenticatedPublic>
    <RequiredExtensions>
      <KDMRequiredExtensions>
        <CompositionPlaylistId>urn:uuid:0000-{screen}</CompositionPlaylistId>
        <ContentTitleText>{cpl}</ContentTitleText>
        <ContentKeysNotValidBefore>{nb}+00:00</ContentKeysNotValidBefore>
        <ContentKeysNotValidAfter>{na}+00:00</ContentKeysNotValidAfter>
        <Recipient><X509SubjectName>CN=SM.IMB-screen{screen}</X509SubjectName></Recipient>
      </KDMRequiredExtensions>
    </RequiredExtensions>
  </AuthenticatedPublic>
</DCinemaSecurityMessage>
""")
w("cinema/concessions/2024-01-19.csv", """time,register,item,qty,price
13:05,R1,popcorn-large,12,9.50
13:06,R2,soda-large,10,6.00
16:10,R1,popcorn-large,30,9.50
16:12,R2,nachos,8,7.25
16:15,R3,soda-large,25,6.00
19:40,R1,popcorn-small,18,6.50
19:45,R3,candy,22,4.50
""")
for s, lines in (("1", ["2024-01-19T12:40 lamp hours 1822", "2024-01-19T16:20 warning: lamp hours above 1800", "2024-01-19T19:55 show start DUNE2 OK"]),
                 ("4", ["2024-01-19T17:50 error: KDM not valid for ARGYL_FTR_S_EN-XX_US-13_71_4K", "2024-01-19T17:58 show start ARGYL FAILED"])):
    w(f"cinema/projectors/screen{s}.log", "\n".join(lines) + "\n")
w("cinema/notes/2024-01-19.md", """Screen 4 KDM expired before the 18:00 show; distributor emailed 17:55.
Screen 1 lamp above 1800 h; order placed.
Two guests complained about sound level in screen 2 at 17:15.
""")

# ---------------------------------------------------------------- parking
occ = ["time,garage,level,occupied,capacity"]
for h in range(6, 22):
    for g, cap in (("CIVIC", 420), ("HARBOR", 600), ("MARKET", 250)):
        for lvl in (1, 2, 3):
            o = min(cap // 3, int(cap // 3 * (0.2 + 0.8 * (1 - abs(h - 13) / 9)) + lvl * 3))
            occ.append(f"{h:02d}:00,{g},{lvl},{o},{cap // 3}")
w("parking/occupancy/2024-01-15.csv", "\n".join(occ) + "\n")
db("parking/citations.db", """
create table citations(id integer primary key, plate text, state text, violation text, fine real, issued text, status text, zone text, officer text);
insert into citations values(880001,'7ABC123','CA','expired meter',45,'2024-01-10T10:15','unpaid','Z3','PEO-12'),
 (880002,'7ABC123','CA','no permit',95,'2024-01-12T14:02','appealed','Z5','PEO-07'),(880003,'8XYZ900','CA','red zone',110,'2024-01-12T09:40','paid','Z1','PEO-12'),
 (880004,'KLM4821','NV','expired meter',45,'2024-01-14T16:20','unpaid','Z3','PEO-03'),(880005,'7ABC123','CA','expired meter',45,'2024-01-15T08:55','unpaid','Z3','PEO-12'),
 (880006,'5DEF456','CA','blocking driveway',80,'2024-01-15T11:30','unpaid','Z2','PEO-07');
""")
w("parking/permits.csv", """permit,plate,zone,holder,valid_to,kind
RP-1021,8XYZ900,Z5,Unit 4B Harbor Lofts,2024-06-30,residential
RP-1022,7ABC123,Z4,Unit 2A Elm St,2023-12-31,residential
EP-3310,5DEF456,Z1,City Works,2024-12-31,employee
""")
w("parking/meters.json", json.dumps([
    {"meter": "M-3001", "zone": "Z3", "street": "Main St", "status": "ok", "last_collection": "2024-01-12", "coins": 41.25},
    {"meter": "M-3002", "zone": "Z3", "street": "Main St", "status": "jammed", "last_collection": "2024-01-05", "coins": 88.0},
    {"meter": "M-5010", "zone": "Z5", "street": "O'Farrell St", "status": "ok", "last_collection": "2024-01-14", "coins": 12.5},
    {"meter": "M-1007", "zone": "Z1", "street": "Bay St", "status": "no-comm", "last_collection": "2023-12-28", "coins": 103.75},
], indent=1) + "\n")
w("parking/lpr/reads-2024-01-15.csv", """ts,camera,plate,confidence
2024-01-15T08:01,CIVIC-IN,7ABC123,0.97
2024-01-15T08:03,CIVIC-IN,KLM4821,0.88
2024-01-15T09:10,HARBOR-IN,8XYZ900,0.99
2024-01-15T11:45,CIVIC-OUT,7ABC123,0.95
2024-01-15T12:00,HARBOR-IN,5DEF4S6,0.61
""")
w("parking/appeals/880002.txt", """Appeal for citation 880002 (plate 7ABC123).
I renewed my residential permit online on 2024-01-03 but the sticker had not arrived.
Receipt number WEB-55812 attached.
""")

# ---------------------------------------------------------------- waste collection
w("waste/routes.yaml", """routes:
  R12: {truck: T-31, driver: Okoro, day: MON, stops: 612, kind: refuse}
  R14: {truck: T-33, driver: Lindqvist, day: MON, stops: 580, kind: recycling}
  R21: {truck: T-31, driver: Okoro, day: TUE, stops: 640, kind: refuse}
  R22: {truck: T-40, driver: Haddad, day: TUE, stops: 300, kind: organics}
""")
w("waste/scale/2024-01-15.csv", """ticket,truck,route,material,gross_kg,tare_kg,time
S-77101,T-31,R12,refuse,24310,14200,10:42
S-77102,T-33,R14,recycling,19880,13950,11:05
S-77108,T-31,R12,refuse,22940,14200,14:15
S-77110,T-33,R14,recycling,17210,13950,14:50
S-77111,T-40,R22,organics,20120,12800,15:20
""")
w("waste/missed.json", json.dumps([
    {"id": 5501, "address": "14 Oak Ave", "route": "R12", "date": "2024-01-15", "reason": "car blocking", "status": "open"},
    {"id": 5502, "address": "200 Pine St", "route": "R14", "date": "2024-01-15", "reason": "not out", "status": "closed"},
    {"id": 5503, "address": "9 O'Neil Ct", "route": "R12", "date": "2024-01-15", "reason": "missed", "status": "open"},
], indent=1) + "\n")
tel = ["ts,truck,lat,lon,rpm,fuel_l,event"]
for i in range(16):
    tel.append(f"2024-01-15T{6 + i // 2:02d}:{(i % 2) * 30:02d},T-31,{40.71 + i * 0.002:.4f},{-74.0 + i * 0.003:.4f},{900 + (i * 97) % 900},{210 - i * 6},{'idle' if i in (3, 4, 9) else ''}")
w("waste/telemetry/T-31-2024-01-15.csv", "\n".join(tel) + "\n")
w("waste/contamination.csv", """date,route,address,item,tagged_by
2024-01-08,R14,31 Elm St,plastic bags,Lindqvist
2024-01-08,R14,45 Elm St,food waste,Lindqvist
2024-01-15,R14,31 Elm St,plastic bags,Lindqvist
2024-01-15,R14,77 Birch Rd,propane tank,Lindqvist
""")
w("waste/driver-notes/2024-01-15-R12.md", """Okoro R12 2024-01-15
Hydraulic leak noticed at stop ~300, minor. Reported to shop.
14 Oak Ave blocked by parked car twice this month.
""")

# ---------------------------------------------------------------- zoo
w("zoo/animals.json", json.dumps([
    {"id": "ZA-0112", "name": "Kibo", "species": "Panthera leo", "common": "lion", "enclosure": "E-07", "keeper": "Harper", "dob": "2015-04-02", "weight_kg": 190},
    {"id": "ZA-0113", "name": "Nala", "species": "Panthera leo", "common": "lion", "enclosure": "E-07", "keeper": "Harper", "dob": "2016-06-10", "weight_kg": 128},
    {"id": "ZA-0240", "name": "Pip", "species": "Spheniscus humboldti", "common": "penguin", "enclosure": "E-12", "keeper": "Moreno", "dob": "2019-02-14", "weight_kg": 4.1},
    {"id": "ZA-0301", "name": "Tembo", "species": "Loxodonta africana", "common": "elephant", "enclosure": "E-02", "keeper": "Osei", "dob": "1998-09-30", "weight_kg": 5400},
    {"id": "ZA-0415", "name": "Rango", "species": "Chamaeleo calyptratus", "common": "veiled chameleon", "enclosure": "R-03", "keeper": "Moreno", "dob": "2022-05-01", "weight_kg": 0.15},
], indent=1) + "\n")
w("zoo/diets.yaml", """diets:
  lion: {items: {beef: 8.0, rabbit: 1.5}, fast_days: [SUN], unit: kg}
  penguin: {items: {capelin: 0.6, herring: 0.3}, supplements: [thiamine], unit: kg}
  elephant: {items: {hay: 70, browse: 20, produce: 10}, unit: kg}
  veiled chameleon: {items: {crickets: 0.01}, supplements: [calcium], unit: kg}
""")
for enc, base in (("E-12", 8.0), ("R-03", 27.0)):
    rows = ["ts,temp_c,humidity_pct"]
    for h in range(48):
        t = base + ((h * 5) % 9) / 10 - (4.5 if (enc == "R-03" and h == 30) else 0)
        rows.append(f"2024-01-{14 + h // 24:02d}T{h % 24:02d}:00,{t:.1f},{60 + h % 15}")
    w(f"zoo/enclosures/{enc}.csv", "\n".join(rows) + "\n")
w("zoo/enclosures/limits.yaml", """E-12: {temp_min: 4, temp_max: 12}
R-03: {temp_min: 24, temp_max: 32}
E-07: {temp_min: -5, temp_max: 35}
""")
db("zoo/vet.db", """
create table treatments(animal_id text, date text, drug text, dose_mg real, route text, vet text, note text);
insert into treatments values('ZA-0112','2024-01-03','meloxicam',19,'PO','Dr. Vance','left forelimb lameness'),
 ('ZA-0112','2024-01-10','meloxicam',19,'PO','Dr. Vance','improving'),('ZA-0240','2024-01-08','itraconazole',20,'PO','Dr. Ruiz','aspergillosis prophylaxis'),
 ('ZA-0301','2023-12-20','phenylbutazone',4000,'PO','Dr. Vance','foot abscess'),('ZA-0415','2024-01-12','calcium gluconate',15,'PO','Dr. Ruiz','low calcium');
create table weights(animal_id text, date text, kg real);
insert into weights values('ZA-0240','2023-12-01',4.3),('ZA-0240','2024-01-01',4.1),('ZA-0240','2024-01-15',3.9),('ZA-0112','2024-01-02',191),('ZA-0112','2024-01-15',190);
""")
w("zoo/keeper-logs/2024-01-15.md", """E-07 Kibo slight limp left fore, ate all beef. Nala normal.
E-12 Pip ate 0.4 kg of 0.6 kg capelin; weight trending down.
R-03 Rango basking lamp replaced 09:10 after overnight temperature dip.
E-02 Tembo foot soak done, abscess healing.
""")
w("zoo/keeper-logs/2024-01-14.md", """E-12 Pip ate 0.5 kg capelin, sluggish.
R-03 Night temperature alarm 06:00, lamp flickering.
""")

# ---------------------------------------------------------------- freight rail
w("rail/cars.csv", """car,type,status,yard,track,load,commodity,last_move
TTGX 962314,flat,loaded,NORTH,T4,L,autos,2024-01-15T06:10
GATX 205511,tank,bad-order,NORTH,RIP1,E,,2024-01-12T14:00
BNSF 471120,hopper,loaded,SOUTH,T2,L,grain,2024-01-15T03:40
UTLX 640021,tank,loaded,SOUTH,T2,L,ethanol,2024-01-14T22:15
CSXT 130877,boxcar,empty,NORTH,T7,E,,2024-01-13T11:00
TTGX 962399,flat,empty,NORTH,T4,E,,2024-01-15T06:10
""")
w("rail/trains/M-NSX-15.json", json.dumps({
    "train": "M-NSX-15", "origin": "NORTH", "destination": "SOUTH", "departs": "2024-01-15T18:00",
    "consist": [
        {"seq": 1, "car": "BNSF 5530", "type": "loco", "tons": 195},
        {"seq": 2, "car": "TTGX 962314", "type": "flat", "tons": 68, "hazmat": False},
        {"seq": 3, "car": "UTLX 640021", "type": "tank", "tons": 120, "hazmat": True, "un": "UN1170"},
        {"seq": 4, "car": "BNSF 471120", "type": "hopper", "tons": 130, "hazmat": False},
    ]}, indent=1) + "\n")
db("rail/yard.db", """
create table moves(id integer primary key, car text, from_track text, to_track text, ts text, crew text);
insert into moves values(1,'TTGX 962314','T1','T4','2024-01-15T06:10','Y-2'),(2,'TTGX 962399','T1','T4','2024-01-15T06:10','Y-2'),
 (3,'GATX 205511','T3','RIP1','2024-01-12T14:00','Y-1'),(4,'UTLX 640021','T9','T2','2024-01-14T22:15','Y-3'),(5,'BNSF 471120','T9','T2','2024-01-15T03:40','Y-3');
create table dwell(yard text, day text, cars integer, avg_hours real);
insert into dwell values('NORTH','2024-01-13',210,26.5),('NORTH','2024-01-14',198,24.1),('NORTH','2024-01-15',205,22.8),('SOUTH','2024-01-14',120,31.0),('SOUTH','2024-01-15',131,29.4);
""")
w("rail/detectors/2024-01-15.csv", """ts,detector,milepost,train,axle,side,temp_c,alarm
2024-01-15T02:10,HBD-114,114.2,M-SNX-14,37,L,41,
2024-01-15T02:10,HBD-114,114.2,M-SNX-14,52,R,96,warm
2024-01-15T05:44,HBD-131,131.0,G-GRN-02,12,L,38,
2024-01-15T09:03,DED-120,120.5,M-SNX-14,0,,0,dragging
""")
w("rail/crew.csv", """crew,name,craft,on_duty,hours_today
Y-1,A. Brooks,conductor,2024-01-15T06:00,9.5
Y-2,C. Delgado,engineer,2024-01-15T05:00,10.8
Y-3,E. Walsh,conductor,2024-01-14T22:00,11.9
""")
w("rail/hazmat/UN1170.yaml", """un: UN1170
name: Ethanol
class: 3
placard: FLAMMABLE
erg_guide: 127
""")
w("rail/inspections/GATX-205511.md", """GATX 205511 bad-ordered 2024-01-12: cracked center sill weld, B-end.
Repair in track RIP1; parts ETA 2024-01-17.
""")

# ---------------------------------------------------------------- stand-in answers for round 52's in-house programs
w("liftctl.out", """LIFT            STATE      SPEED_MS  WIND_KMH  CARRIERS
Summit Express  running    5.0       32        142
North Ridge     wind-hold  0.0       71        98
Gondola         running    6.0       28        60
""", base=OUT)
w("tmsctl.out", """SCREEN  SHOW                           STATE     NEXT
1       DUNE2_FTR_S_EN-XX_US-13_51_4K  playing   20:00
2       WONKA_FTR_S_EN-XX_US-PG_51_2K  idle      17:15
4       ARGYL_FTR_S_EN-XX_US-13_71_4K  kdm-error 18:00
""", base=OUT)
w("scalectl.out", """ticket S-77101 truck T-31 gross 24310 tare 14200 net 10110 kg
""", base=OUT)
w("yardctl.out", """TRACK  CARS  LENGTH_FT  CAPACITY_FT
T2     2     120        1800
T4     2     178        1500
RIP1   1     60         300
""", base=OUT)
w("keybox.out", """slot 07 KA123BC key present
slot 12 KC654JK key present
""", base=OUT)
w("zimsctl.out", """record ZA-0240 Pip Spheniscus humboldti E-12 status: under observation
""", base=OUT)
print("round 52 fixture written")

# ---------------------------------------------------------------- additions (written with bundle 3)
w("cinema/projectors/screen2.log", "2024-01-19T13:50 show start WONKA OK\n2024-01-19T17:10 show start WONKA OK\n")
w("cinema/projectors/screen3.log", "2024-01-19T14:55 show start MEANG OK\n2024-01-19T19:25 warning: audio processor fan speed low\n")
w("elections/tools/canvass_summary.py", '''"""Summarise the unofficial results of a contest (the canvass board's script)."""
import argparse, csv, json

ap = argparse.ArgumentParser()
ap.add_argument("--contest", required=True, choices=["mayor", "measure-a"])
ap.add_argument("--format", default="text", choices=["text", "json"])
ap.add_argument("--results", default="elections/results/2024-primary.csv")
a = ap.parse_args()
tot = {}
with open(a.results, newline="") as f:
    for r in csv.DictReader(f):
        if r["contest"] == a.contest:
            tot[r["candidate"]] = tot.get(r["candidate"], 0) + int(r["votes"])
all_votes = sum(tot.values()) or 1
if a.format == "json":
    print(json.dumps({"contest": a.contest, "totals": tot}))
else:
    for c, v in sorted(tot.items(), key=lambda kv: -kv[1]):
        print(f"{c:<12} {v:>7} {100 * v / all_votes:5.1f}%")
''')
print("round 52 fixture additions written")
