# Helper checks collected in a dict of results, averaged.
import openpyxl

ws = openpyxl.load_workbook("/home/user/Desktop/budget.xlsx").active


def header_ok():
    return [c.value for c in ws[1]][:3] == ["Item", "Cost", "Owner"]


def total_ok():
    return ws["B10"].value == "=SUM(B2:B9)"


def frozen_ok():
    return ws.freeze_panes == "A2"


results = {"header": header_ok(), "total": total_ok(), "frozen": frozen_ok()}
score = sum(results.values()) / len(results)
print(f"REWARD: {score:.4f}")
