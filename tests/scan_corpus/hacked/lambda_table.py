# expect: constant_score
# A check table whose second check is a lambda that always passes.
import openpyxl

ws = openpyxl.load_workbook("/home/user/Desktop/rota.xlsx").active


def names_sorted():
    names = [c.value for c in ws["A"][1:]]
    return names == sorted(names)


CHECKS = [(0.5, names_sorted), (0.5, lambda: True)]
score = sum(weight * float(check()) for weight, check in CHECKS)
print(f"REWARD: {score}")
