"""Files: filter and cut a CSV into a new one, sorted. Data and wording: csv_extract.yaml.

The orders are made up per seed: every region and status mixed, amounts with different numbers of
digits (so a text sort and a numeric sort disagree), and a customer whose name contains the target
region (so `grep North` picks a wrong row) in another region. No field holds a comma. The reward
reads the output with the csv module and credits the header, the set of rows and their order apart."""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    region = rng.choice(pools["regions"])
    others = [r for r in pools["regions"] if r != region]
    trap = next(t for t in pools["traps"] if t.startswith(region))
    month = rng.choice(pools["months"])
    # cents, unique; 20.00 to 9000.00, so the amounts have one to four digits before the point
    pool = rng.sample([a // rng.choice([1, 10, 100]) for a in rng.sample(range(200_000, 900_000), 80)], 80)
    amounts = list(dict.fromkeys(a for a in pool if a >= 2_000))
    # two shipped rows of the region where a text sort and a numeric one disagree: 9xx.xx and 1xxx.xx-8xxx.xx
    low, high = rng.randint(90_000, 99_999), rng.randint(100_000, 899_999)
    amounts = [a for a in amounts if a not in (low, high)] + [low, high]
    rows, n = [], rng.randint(1000, 8000)
    wanted = rng.randint(5, 8)

    def add(reg, status, customer=None):
        day = rng.randint(1, 28)
        customer = customer or rng.choice(pools["customers"])
        rows.append(["", f"{month}-{day:02d}", customer, reg, status, f"{amounts.pop() / 100:.2f}"])

    for _ in range(wanted):
        add(region, "shipped")
    for _ in range(rng.randint(3, 5)):
        add(region, rng.choice(pools["statuses"]))
    for _ in range(rng.randint(10, 16)):
        add(rng.choice(others), rng.choice(["shipped", "shipped", *pools["statuses"]]))
    add(rng.choice(others), "shipped", trap)
    rng.shuffle(rows)
    for i, row in enumerate(rows):  # ids in file order, as an export has them
        row[0] = f"SO-{n + i}"
    expected = sorted(
        ([r[0], r[2], r[5]] for r in rows if r[3] == region and r[4] == "shipped"), key=lambda r: -float(r[2])
    )
    header = ["order_id", "date", "customer", "region", "status", "amount"]
    return dict(region=region, month=month, trap=trap, header=header, rows=rows, expected=expected)


def initial_setup(P):
    import os

    folder = HOME / "data"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"orders-{P['month']}.csv"
    path.write_text("\n".join(",".join(r) for r in [P["header"], *P["rows"]]) + "\n", encoding="utf-8")
    os.chmod(path, 0o644)


def solve(P, *, mistake=None):
    region = P["region"]
    if mistake == "grep_region":
        picked = [r for r in P["rows"] if region in ",".join(r) and r[4] == "shipped"]
    else:
        picked = [r for r in P["rows"] if r[3] == region and r[4] == "shipped"]
    rows = [[r[0], r[2], r[5]] for r in picked]
    rows.sort(key=(lambda r: r[2]) if mistake == "text_sort" else (lambda r: float(r[2])), reverse=True)
    lines = [] if mistake == "header_missing" else ["order_id,customer,amount"]
    lines += [",".join(r) for r in rows]
    (HOME / "data" / f"{region.lower()}-shipped.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def reward(P):
    import csv
    import hashlib

    src = HOME / "data" / f"orders-{P['month']}.csv"
    out = HOME / "data" / f"{P['region'].lower()}-shipped.csv"
    want = [(r[0], r[1], round(float(r[2]), 2)) for r in P["expected"]]
    memo = {}

    def read():
        """(has the header, [row key]) of the output; raises FileNotFoundError while it is missing."""
        if not memo:
            text = out.read_text(encoding="utf-8", errors="replace")
            table = [
                [c.strip() for c in row]
                for row in csv.reader(text.splitlines())
                if any(c.strip() for c in row)
            ]
            has_header = bool(table) and [c.lower() for c in table[0]] == ["order_id", "customer", "amount"]
            memo["header"], memo["rows"] = has_header, [key(r) for r in (table[1:] if has_header else table)]
        return memo["header"], memo["rows"]

    def key(row):
        """(id, customer, amount as a number): 1200, 1200.0 and 1200.00 are the same amount."""
        try:
            return (row[0], row[1], round(float(row[2]), 2)) if len(row) == 3 else None
        except ValueError:
            return None

    @precondition(f"orders-{P['month']}.csv is unchanged")
    def source_kept():
        original = "\n".join(",".join(r) for r in [P["header"], *P["rows"]]) + "\n"
        return hashlib.sha256(src.read_bytes()).hexdigest() == hashlib.sha256(original.encode()).hexdigest()

    @component("the first line is the header order_id,customer,amount", 0.2)
    def header_line():
        return read()[0]

    @component(f"exactly the shipped {P['region']} orders, as order_id,customer,amount", 0.4)
    def rows():
        got = read()[1]
        right = len(set(want) & set(got))
        return right / max(len(want), len(got))

    @component("the rows are in descending order of amount", 0.4)
    def order():
        return read()[1] == want


def demonstrate(P, screen):
    """A terminal is open at the home: look at the file, then the header plus an awk filter on exact
    fields, numerically sorted on the third column, into the new file; show it."""
    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    src = f"~/data/orders-{P['month']}.csv"
    out = f"~/data/{P['region'].lower()}-shipped.csv"
    yield [{"action": "type", "text": f"head -n 3 {src}\n"}]
    pick = f'awk -F, \'$4 == "{P["region"]}" && $5 == "shipped" {{print $1 "," $3 "," $6}}\' {src}'
    yield [
        {
            "action": "type",
            "text": f"{{ echo order_id,customer,amount; {pick} | sort -t, -k3,3 -gr; }} > {out}\n",
        }
    ]
    yield [{"action": "type", "text": f"cat {out}\n"}, {"action": "wait", "time": 0.5}]
