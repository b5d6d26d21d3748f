# Files sorted into folders, checked by listing the target and the root (one credit per folder).
import os
root = "/home/user/Desktop"
expected = {"Docs": {"a.docx", "b.odt"}, "Sheets": {"c.xlsx"}}
score = 0.0
for folder, names in expected.items():
    d = os.path.join(root, folder)
    present = set(os.listdir(d)) if os.path.isdir(d) else set()
    if names <= present and not (names & set(os.listdir(root))):
        score += 0.5
print(f"REWARD: {score}")
