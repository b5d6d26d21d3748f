# Files sorted into folders: presence in the target *and* absence from the root, per file.
from pathlib import Path

DESKTOP = Path("/home/user/Desktop")
PLAN = {"Invoices": ["inv_0412.pdf", "inv_0413.pdf"], "Photos": ["beach.jpg", "team.png"]}


def moved(folder, name):
    return (DESKTOP / folder / name).is_file() and not (DESKTOP / name).exists()


score = 0.0
for folder, names in PLAN.items():
    score += 0.5 * sum(moved(folder, n) for n in names) / len(names)
extra = [p.name for p in DESKTOP.iterdir() if p.is_file() and p.suffix in {".pdf", ".jpg", ".png"}]
print(f"leftover: {extra}")
print(f"REWARD: {round(score, 4)}")
