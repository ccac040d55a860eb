#!/usr/bin/env python3
"""Adds round 54's folders to fixture/ (run once; the harness copies fixture/ for every run):
reg/, shelter/, golf/, bees/, hall/, camp/, pest/, herb/, and canned answers for round 54's
in-house programs in stub-out/. COMMITS (read by harness.py) are the fixture repository's
extra commits for round 54's git-inspection exports."""
import json, os, random, sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
FX = os.path.join(HERE, "fixture")
OUT = os.path.join(HERE, "stub-out")

COMMITS = [
    ("reg/catalog.yaml", "  CHEM210: {title: Organic Chemistry I, credits: 4, prereq: [CHEM110]}\n",
     "catalog: add CHEM210 (senate 2024-02)", "Registrar Office", "registrar@uni.example", "2024-02-10T10:00:00Z", "a"),
    ("shelter/kennels.yaml", "  K-20: {ward: isolation, species: cat, capacity: 1}\n",
     "kennels: K-20 isolation for ringworm cases", "Shelter Ops", "ops@shelter.example", "2024-02-11T10:00:00Z", "a"),
    ("golf/course.yaml", "slope: 131\nrating: 72.4\n", "course: new slope/rating after re-rating", "Pro Shop", "pro@golfclub.example", "2024-02-12T10:00:00Z", "a"),
    ("bees/hives.yaml", "  H-019: {yard: orchard, queen_year: 2024, source: split of H-004}\n",
     "hives: H-019 split from H-004", "Apiarist", "bees@apiary.example", "2024-02-13T10:00:00Z", "a"),
    ("hall/players.yaml", "  - {id: P-061, name: Ines Duarte, section: viola, chair: 4}\n",
     "players: Ines Duarte joins violas", "Orchestra Manager", "om@hall.example", "2024-02-14T10:00:00Z", "a"),
    ("camp/rates.yaml", "  premium_rv: {night: 68, weekend: 82}\n", "rates: premium RV sites", "Camp Office", "office@camp.example", "2024-02-15T10:00:00Z", "a"),
    ("pest/chemicals.yaml", "  bifenthrin-7.9: {epa_reg: 279-3206, rei_hours: 12, max_oz_per_gal: 1.0}\n",
     "chemicals: add bifenthrin 7.9%", "Compliance", "compliance@pest.example", "2024-02-16T10:00:00Z", "a"),
    ("herb/protocols/germination.yaml", "pretreat:\n  Lupinus: scarify\n  Penstemon: cold-stratify-60d\n",
     "protocols: pretreatments for lupine and penstemon", "Seed Lab", "lab@seedbank.example", "2024-02-17T10:00:00Z", "w"),
]


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


def main():
    R = random.Random(54)
    # ------------------------------------------------------------ registrar
    courses = [("BIO101", "A"), ("BIO101", "B"), ("CHEM110", "A"), ("CHEM110", "B"), ("MATH151", "A"), ("MATH151", "B"),
               ("HIST200", "A"), ("CS120", "A"), ("CS120", "B"), ("ENGL101", "A")]
    inst = ["Okafor", "Lindqvist", "Moreau", "Tanaka", "Ruiz"]
    lines = ["course,section,term,cap,enrolled,waitlist,instructor,room"]
    for c, s in courses:
        cap = R.choice([24, 30, 40, 120])
        en = min(cap, R.randint(cap // 2, cap + 5))
        lines.append(f"{c},{s},2024SP,{cap},{en},{R.randint(0, 12) if en == cap else 0},{R.choice(inst)},{R.choice(['SCI-101', 'SCI-204', 'HUM-12', 'ENG-3'])}")
    w("reg/sections.csv", "\n".join(lines) + "\n")
    w("reg/catalog.yaml", "courses:\n  BIO101: {title: Intro Biology, credits: 4, prereq: []}\n  CHEM110: {title: General Chemistry, credits: 4, prereq: []}\n"
      "  MATH151: {title: Calculus I, credits: 4, prereq: []}\n  HIST200: {title: Modern World History, credits: 3, prereq: []}\n"
      "  CS120: {title: Programming I, credits: 3, prereq: [MATH151]}\n  ENGL101: {title: Composition, credits: 3, prereq: []}\n")
    stu = [(f"S{2024000 + i}", R.choice(["Ana", "Ben", "Chidi", "Dana", "Eli", "Fatima", "Gus", "Hana"]) + " " + R.choice(["Park", "Reyes", "Novak", "Olsen", "Mbeki"]),
            R.choice(["BIO", "CHEM", "CS", "HIST", "UND"]), R.choice(["FR", "SO", "JR", "SR"])) for i in range(1, 31)]
    enr, grades = [], []
    for s in stu:
        for c, sec in R.sample(courses, 3):
            enr.append((s[0], c, sec, "2024SP", R.choice(["enrolled", "enrolled", "enrolled", "dropped", "waitlisted"])))
        for c in R.sample(["BIO101", "CHEM110", "MATH151", "ENGL101"], 2):
            grades.append((s[0], c, "2023FA", R.choice(["A", "A-", "B+", "B", "C", "D", "F", "W"]), R.choice([3, 4])))
    db("reg/registrar.db", """
    create table students(id text primary key, name text, major text, level text);
    create table enrollments(student_id text, course text, section text, term text, status text);
    create table grades(student_id text, course text, term text, grade text, credits integer);
    create table holds(student_id text, kind text, placed text, cleared text);
    """, [("insert into students values(?,?,?,?)", stu), ("insert into enrollments values(?,?,?,?,?)", enr),
          ("insert into grades values(?,?,?,?,?)", grades),
          ("insert into holds values(?,?,?,?)", [("S2024003", "bursar", "2024-01-10", None), ("S2024007", "advising", "2024-01-12", None),
                                                  ("S2024011", "library", "2023-12-01", "2024-01-05")])])
    w("reg/terms/2024SP/waitlist.jsonl", "".join(json.dumps({"student": f"S{2024000 + R.randint(1, 30)}", "course": c, "section": s, "pos": i + 1,
                                                              "added": f"2024-01-{R.randint(2, 20):02d}"}) + "\n"
                                                  for c, s in courses[:4] for i in range(3)))
    w("reg/transcripts/requests.csv", "id,student,kind,requested,status\nTR-1001,S2024003,official,2024-01-15,held\nTR-1002,S2024005,unofficial,2024-01-16,sent\nTR-1003,S2024012,official,2024-01-18,queued\n")
    w("sisctl.out", "section BIO101-A term=2024SP cap=30 enrolled=30 waitlist=4 sync=OK last_push=2024-01-15T08:00Z\n", base=OUT)
    # ------------------------------------------------------------ shelter
    sp = ["dog", "cat", "rabbit"]
    ids = [f"A{24000 + i}" for i in range(1, 41)]
    rows, animals = [], []
    for i, a in enumerate(ids):
        s = R.choice(sp)
        d = f"2024-01-{R.randint(1, 28):02d}"
        k = f"K-{R.randint(1, 19):02d}"
        src = R.choice(["stray", "owner surrender", "transfer", "confiscation"])
        rows.append(f"{a},{d},{s},{R.choice(['mixed', 'lab mix', 'pit mix', 'DSH', 'DMH', 'lop'])},{src},{k}")
        animals.append({"id": a, "name": R.choice(["Biscuit", "Luna", "Milo", "Pepper", "Rosie", "Toby", "Ziggy"]), "species": s,
                        "intake": d, "kennel": k, "status": R.choice(["available", "available", "hold", "medical", "adopted"]),
                        "age_months": R.randint(2, 140), "weight_kg": round(R.uniform(1, 40), 1)})
    w("shelter/intake/2024-01.csv", "id,date,species,breed,source,kennel\n" + "\n".join(rows) + "\n")
    w("shelter/animals.jsonl", "".join(json.dumps(a) + "\n" for a in animals))
    w("shelter/kennels.yaml", "kennels:\n" + "".join(f"  K-{i:02d}: {{ward: {'dogs' if i < 11 else 'cats' if i < 17 else 'small'}, species: {'dog' if i < 11 else 'cat' if i < 17 else 'rabbit'}, capacity: {2 if i < 11 else 3}}}\n" for i in range(1, 20)))
    db("shelter/shelter.db", """
    create table animals(id text primary key, name text, species text, intake text, status text);
    create table medical(animal_id text, day text, kind text, drug text, dose_mg real, vet text);
    create table adoptions(animal_id text, day text, adopter text, fee integer, returned text);
    """, [("insert into animals values(?,?,?,?,?)", [(a["id"], a["name"], a["species"], a["intake"], a["status"]) for a in animals]),
          ("insert into medical values(?,?,?,?,?,?)", [(R.choice(ids), f"2024-01-{R.randint(2, 28):02d}", R.choice(["vaccine", "deworm", "spay-neuter", "exam"]),
                                                       R.choice(["DHPP", "FVRCP", "pyrantel", "none"]), round(R.uniform(0, 50), 1), R.choice(["Dr. Ames", "Dr. Cho"])) for _ in range(60)]),
          ("insert into adoptions values(?,?,?,?,?)", [(a["id"], f"2024-01-{R.randint(10, 31):02d}", R.choice(["J. Smith", "K. Lee", "M. Brown"]), R.choice([50, 75, 150]),
                                                        None) for a in animals if a["status"] == "adopted"])])
    w("kennelctl.out", "kennel K-04 temp_c=19.5 humidity=48 door=closed feed=08:00,17:00 camera=online\n", base=OUT)
    # ------------------------------------------------------------ golf
    w("golf/course.yaml", "name: Harbor Links\npar: 72\nholes:\n" + "".join(f"  - {{hole: {h}, par: {p}, yards: {y}, hcp: {c}}}\n" for h, p, y, c in
                                                                         [(i + 1, [4, 5, 3, 4, 4, 3, 5, 4, 4, 4, 4, 3, 5, 4, 4, 3, 5, 4][i], R.randint(150, 560), (i * 7) % 18 + 1) for i in range(18)]))
    tt = ["time,tee,member,players,carts,status"]
    for h in range(7, 16):
        for m in ("00", "10", "20", "30", "40", "50"):
            if R.random() < 0.7:
                tt.append(f"{h:02d}:{m},{R.choice([1, 10])},M{R.randint(100, 160)},{R.randint(1, 4)},{R.randint(0, 2)},{R.choice(['booked', 'booked', 'checked-in', 'no-show'])}")
    w("golf/teetimes/2024-05-04.csv", "\n".join(tt) + "\n")
    w("golf/teetimes/2024-05-05.csv", "\n".join(tt[:20]) + "\n")
    mem = [(f"M{i}", R.choice(["A. Grant", "B. Chu", "C. Diaz", "D. Evans", "E. Fox"]) + f" {i}", R.choice(["full", "weekday", "junior", "senior"]), round(R.uniform(2, 30), 1)) for i in range(100, 161)]
    rnd = [(R.choice(mem)[0], f"2024-04-{R.randint(1, 30):02d}", R.randint(70, 110), R.choice(["white", "blue", "red"])) for _ in range(200)]
    db("golf/golf.db", """
    create table members(id text primary key, name text, category text, handicap real);
    create table rounds(member_id text, day text, gross integer, tees text);
    create table dues(member_id text, period text, amount real, paid text);
    """, [("insert into members values(?,?,?,?)", mem), ("insert into rounds values(?,?,?,?)", rnd),
          ("insert into dues values(?,?,?,?)", [(m[0], "2024Q2", 900.0, R.choice(["2024-04-02", None])) for m in mem])])
    w("golf/maintenance.log", "".join(f"2024-05-0{R.randint(1, 5)}T0{R.randint(5, 9)}:{R.randint(10, 59)} hole={R.randint(1, 18)} task={R.choice(['mow-greens', 'aerate', 'irrigate', 'bunker-rake', 'cup-change'])} crew={R.choice(['north', 'south'])} minutes={R.randint(10, 90)}\n" for _ in range(60)))
    w("teectl.out", "sheet 2024-05-04 slots=54 booked=38 blocked=4 shotgun=no weather_hold=no sync=OK\n", base=OUT)
    # ------------------------------------------------------------ bees
    hives = [f"H-{i:03d}" for i in range(1, 19)]
    w("bees/hives.yaml", "hives:\n" + "".join(f"  {h}: {{yard: {R.choice(['orchard', 'ridge', 'meadow'])}, queen_year: {R.choice([2022, 2023])}, source: package}}\n" for h in hives))
    ins = ["date,hive,yard,frames_brood,frames_bees,queen_seen,mites_per_300,temper,notes"]
    for h in hives:
        for d in (5, 19):
            ins.append(f"2024-05-{d:02d},{h},{R.choice(['orchard', 'ridge', 'meadow'])},{R.randint(2, 9)},{R.randint(4, 20)},{R.choice(['yes', 'no'])},{R.randint(0, 15)},{R.choice(['calm', 'runny', 'defensive'])},{R.choice(['ok', 'swarm cells', 'supersedure', 'chalkbrood', 'ok'])}")
    w("bees/inspections/2024-05.csv", "\n".join(ins) + "\n")
    for h in hives[:4]:
        wt = 42.0
        s = ["time,kg,temp_c"]
        for d in range(1, 15):
            wt += R.uniform(-0.6, 1.4)
            s.append(f"2024-05-{d:02d}T06:00,{wt:.2f},{R.uniform(8, 20):.1f}")
        w(f"bees/scales/{h}.csv", "\n".join(s) + "\n")
    db("bees/apiary.db", """
    create table harvests(hive text, day text, supers integer, kg real, moisture_pct real);
    create table treatments(hive text, day text, product text, dose text, withdrawal_days integer);
    create table queens(hive text, marked text, year integer, origin text);
    """, [("insert into harvests values(?,?,?,?,?)", [(R.choice(hives), f"2023-{R.randint(6, 9):02d}-{R.randint(1, 28):02d}", R.randint(1, 3), round(R.uniform(8, 40), 1), round(R.uniform(16, 19.5), 1)) for _ in range(40)]),
          ("insert into treatments values(?,?,?,?,?)", [(R.choice(hives), f"2024-0{R.randint(3, 5)}-{R.randint(1, 28):02d}", R.choice(["oxalic", "formic", "thymol"]), "1 strip", R.choice([0, 14, 30])) for _ in range(20)]),
          ("insert into queens values(?,?,?,?)", [(h, R.choice(["blue", "yellow", "none"]), R.choice([2022, 2023]), R.choice(["package", "split", "swarm"])) for h in hives])])
    w("hivectl.out", "hive H-004 weight_kg=47.81 temp_in_c=34.9 humidity=61 sound_hz=245 lid=closed battery=88\n", base=OUT)
    # ------------------------------------------------------------ concert hall
    evs = [{"id": f"EV-{i:03d}", "title": R.choice(["Brahms 2", "Mahler 5", "Family Matinee", "Jazz Night", "Messiah"]), "date": f"2024-03-{R.randint(1, 30):02d}",
            "hall": R.choice(["main", "recital"]), "capacity": 1800 if i % 2 else 420, "status": R.choice(["on_sale", "on_sale", "sold_out", "cancelled"])} for i in range(1, 13)]
    w("hall/events.json", json.dumps(evs, indent=1) + "\n")
    w("hall/sales/2024-03-09.jsonl", "".join(json.dumps({"order": f"O-{9000 + i}", "event": R.choice(evs)["id"], "tier": R.choice(["orchestra", "balcony", "box", "student"]),
                                                          "seats": R.randint(1, 6), "price": R.choice([35, 55, 85, 120]), "channel": R.choice(["web", "box_office", "phone"])}) + "\n" for i in range(80)))
    w("hall/library.csv", "score_id,composer,work,parts,owned,rental_due,condition\n" + "".join(
        f"SC-{i:04d},{R.choice(['Brahms', 'Mahler', 'Handel', 'Dvorak', 'Ravel'])},{R.choice(['Symphony 2', 'Symphony 5', 'Messiah', 'Bolero', 'New World'])},{R.randint(20, 80)},{R.choice(['yes', 'no'])},{R.choice(['', '2024-04-01', '2024-03-20'])},{R.choice(['good', 'worn', 'repair'])}\n" for i in range(1, 25)))
    w("hall/players.yaml", "players:\n" + "".join(f"  - {{id: P-{i:03d}, name: Player {i}, section: {R.choice(['violin1', 'violin2', 'viola', 'cello', 'bass', 'winds', 'brass', 'percussion'])}, chair: {R.randint(1, 8)}}}\n" for i in range(1, 61)))
    db("hall/hall.db", """
    create table services(event_id text, player_id text, kind text, hours real, day text);
    create table subs(event_id text, section text, player text, fee integer);
    """, [("insert into services values(?,?,?,?,?)", [(R.choice(evs)["id"], f"P-{R.randint(1, 60):03d}", R.choice(["rehearsal", "concert", "sectional"]), R.choice([2.5, 3.0, 2.0]), f"2024-03-{R.randint(1, 30):02d}") for _ in range(300)]),
          ("insert into subs values(?,?,?,?)", [(R.choice(evs)["id"], R.choice(["viola", "horn", "bass"]), R.choice(["K. Wu", "L. Berg"]), R.choice([220, 260])) for _ in range(10)])])
    w("stagectl.out", "stage main rigging=LOCKED shell=IN risers=3 lights_cue=12 fly_lines_moving=0 fire_curtain=UP\n", base=OUT)
    # ------------------------------------------------------------ campground
    loops = ["A", "B", "C"]
    sites = [(f"{l}{n:02d}", l, R.choice(["tent", "rv", "cabin"]), R.choice([20, 30, 50, 0]), R.randint(2, 8)) for l in loops for n in range(1, 13)]
    w("camp/sites.csv", "site,loop,kind,amps,max_people,ada\n" + "".join(f"{s},{l},{k},{a},{m},{R.choice(['yes', 'no'])}\n" for s, l, k, a, m in sites))
    res = ["conf,site,arrive,depart,guests,party,status,paid"]
    for i in range(60):
        d = R.randint(1, 28)
        res.append(f"CR-{5000 + i},{R.choice(sites)[0]},2024-07-{d:02d},2024-07-{d + R.randint(1, 3):02d},{R.randint(1, 6)},{R.choice(['Nguyen', 'Schmidt', 'Okoro', 'Haddad'])},{R.choice(['confirmed', 'confirmed', 'cancelled', 'checked-in'])},{R.choice([0, 40, 120, 165])}")
    w("camp/reservations/2024-07.csv", "\n".join(res) + "\n")
    w("camp/rates.yaml", "rates:\n  tent: {night: 28, weekend: 35}\n  rv: {night: 48, weekend: 58}\n  cabin: {night: 95, weekend: 120}\n")
    w("camp/meters/2024-07-04.log", "".join(f"2024-07-04T{h:02d}:00 site={s[0]} kwh={R.uniform(0, 3):.2f} breaker={R.choice(['ok', 'ok', 'ok', 'tripped'])}\n" for h in range(0, 24, 3) for s in sites if s[3]))
    db("camp/camp.db", """
    create table guests(conf text, name text, email text, vehicles integer, pets integer);
    create table incidents(day text, site text, kind text, note text, ranger text);
    """, [("insert into guests values(?,?,?,?,?)", [(f"CR-{5000 + i}", R.choice(['Nguyen', 'Schmidt', 'Okoro', 'Haddad']), f"g{i}@mail.example", R.randint(1, 2), R.randint(0, 2)) for i in range(60)]),
          ("insert into incidents values(?,?,?,?,?)", [(f"2024-07-{R.randint(1, 28):02d}", R.choice(sites)[0], R.choice(["noise", "fire", "wildlife", "medical"]), "logged", R.choice(["Kim", "Ortiz"])) for _ in range(25)])])
    w("campctl.out", "gate main state=CLOSED code_rotation=2024-07-04 last_open=2024-07-04T21:58Z count_in=212 count_out=190\n", base=OUT)
    # ------------------------------------------------------------ pest control
    techs = ["T-07", "T-12", "T-19"]
    jobs = ["job,date,customer,tech,service,target,minutes,product,oz,status"]
    for i in range(70):
        jobs.append(f"J-{7000 + i},2024-04-{R.randint(1, 30):02d},C-{R.randint(300, 340)},{R.choice(techs)},{R.choice(['general', 'termite', 'rodent', 'mosquito', 'bedbug'])},{R.choice(['ants', 'roaches', 'mice', 'termites', 'mosquitoes'])},{R.randint(20, 120)},{R.choice(['bifenthrin-7.9', 'fipronil-9.1', 'bait-block', 'none'])},{R.choice([0, 0.5, 1, 2.5])},{R.choice(['done', 'done', 'callback', 'missed'])}")
    w("pest/jobs/2024-04.csv", "\n".join(jobs) + "\n")
    w("pest/chemicals.yaml", "products:\n  fipronil-9.1: {epa_reg: 432-1332, rei_hours: 0, max_oz_per_gal: 0.8}\n  bait-block: {epa_reg: 12455-79, rei_hours: 0, max_oz_per_gal: 0}\n  none: {epa_reg: '-', rei_hours: 0, max_oz_per_gal: 0}\n")
    for st in ("ST-0041", "ST-0042"):
        w(f"pest/traps/{st}.jsonl", "".join(json.dumps({"trap": f"{st}-{n}", "day": f"2024-04-{d:02d}", "catches": R.randint(0, 4), "bait": R.choice(["ok", "eaten", "moldy"])}) + "\n" for n in range(1, 6) for d in (3, 10, 17, 24)))
    db("pest/pest.db", """
    create table customers(id text primary key, name text, address text, plan text, since text);
    create table applications(job text, day text, customer text, product text, oz real, area_sqft integer, tech text);
    """, [("insert into customers values(?,?,?,?,?)", [(f"C-{i}", R.choice(["Oak Diner", "Maple Apts", "K. Rossi", "Green School"]), f"{R.randint(1, 999)} Main St", R.choice(["quarterly", "monthly", "one-off"]), "2022-05-01") for i in range(300, 341)]),
          ("insert into applications values(?,?,?,?,?,?,?)", [(f"J-{7000 + i}", f"2024-04-{R.randint(1, 30):02d}", f"C-{R.randint(300, 340)}", R.choice(["bifenthrin-7.9", "fipronil-9.1"]), R.choice([0.5, 1, 2.5]), R.randint(200, 3000), R.choice(techs)) for i in range(50)])])
    w("trapctl.out", "station ST-0041 traps=5 online=5 triggered=2 battery_min=71 last_report=2024-04-24T05:10Z\n", base=OUT)
    # ------------------------------------------------------------ seed bank
    gen = ["Lupinus", "Penstemon", "Carex", "Quercus", "Salvia", "Eriogonum"]
    acc = ["accession,genus,species,collected,site,seeds,vault,viability_pct,last_test"]
    accs = []
    for i in range(1, 41):
        g = R.choice(gen)
        a = f"SB-{2020 + i % 4}-{i:04d}"
        accs.append(a)
        acc.append(f"{a},{g},{R.choice(['alba', 'parryi', 'nudus', 'agrifolia', 'mellifera'])},{2020 + i % 4}-0{R.randint(5, 9)}-{R.randint(10, 28)},{R.choice(['Ridge 3', 'Creek Mouth', 'Burn Plot 7'])},{R.randint(200, 20000)},{R.choice(['V1', 'V2'])},{R.randint(40, 98)},{2021 + i % 3}-0{R.randint(1, 9)}-15")
    w("herb/accessions.csv", "\n".join(acc) + "\n")
    db("herb/germination.db", """
    create table tests(accession text, day text, sown integer, germinated integer, days integer, pretreat text);
    create table withdrawals(accession text, day text, seeds integer, requester text, purpose text);
    """, [("insert into tests values(?,?,?,?,?,?)", [(R.choice(accs), f"202{R.randint(1, 3)}-0{R.randint(1, 9)}-15", 50, R.randint(10, 50), R.randint(7, 40), R.choice(["none", "scarify", "cold"])) for _ in range(80)]),
          ("insert into withdrawals values(?,?,?,?,?)", [(R.choice(accs), f"2023-{R.randint(1, 12):02d}-01", R.randint(20, 400), R.choice(["Restoration Trust", "Univ Lab"]), R.choice(["restoration", "research"])) for _ in range(20)])])
    w("herb/vault.log", "".join(f"2024-02-{d:02d}T{h:02d}:00 vault={v} temp_c={R.uniform(-19.5, -16.5) if not (d == 9 and h == 12) else -12.4:.1f} rh={R.randint(12, 18)}\n" for d in range(1, 15) for h in (0, 6, 12, 18) for v in ("V1", "V2")))
    for a in accs[:6]:
        w(f"herb/specimens/{a}.json", json.dumps({"accession": a, "voucher": f"HB-{R.randint(10000, 99999)}", "collector": R.choice(["R. Patel", "S. Moon"]),
                                                  "lat": round(R.uniform(34, 38), 4), "lon": round(R.uniform(-122, -118), 4), "images": R.randint(1, 4)}, indent=1) + "\n")
    w("herb/protocols/germination.yaml", "pretreat:\n  Lupinus: scarify\n")
    w("seedctl.out", "vault V1 setpoint_c=-18.0 temp_c=-18.2 rh=14 compressor=RUNNING door=CLOSED alarms=0\n", base=OUT)


if __name__ == "__main__":
    main()
