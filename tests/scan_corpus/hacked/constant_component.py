# expect: constant_score
# A rewardkit component that always passes once the file loads.
from pathlib import Path

HOME = Path("/home/user")
_COMPONENTS = []


def component(name, weight):
    def register(fn):
        _COMPONENTS.append((name, float(weight), fn))
        return fn

    return register


@component("header row is bold", 0.5)
def header_bold():
    import openpyxl

    ws = openpyxl.load_workbook(HOME / "Desktop/staff.xlsx").active
    return all(cell.font.bold for cell in ws[1])


@component("the sheet is frozen below the header", 0.5)
def frozen():
    import openpyxl

    openpyxl.load_workbook(HOME / "Desktop/staff.xlsx")
    return True


if __name__ == "__main__":
    total = sum(w for _, w, _ in _COMPONENTS)
    earned = 0.0
    for _, w, fn in _COMPONENTS:
        try:
            earned += w * float(fn())
        except Exception:
            earned += 0.0
    print(f"REWARD: {round(earned / total, 4)}")
