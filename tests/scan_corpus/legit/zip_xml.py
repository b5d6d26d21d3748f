# Reads the docx XML straight from the zip; a flag computed from content, not asserted.
import zipfile, re
from pathlib import Path
doc = Path("/home/user/Documents/thesis.docx")
score = 0
with zipfile.ZipFile(doc) as z:
    xml = z.read("word/document.xml").decode()
orient_ok = 'w:orient="landscape"' in xml
margins = re.findall(r'w:left="(\d+)"', xml)
if orient_ok:
    score += 0.5
if margins and all(int(m) == 1134 for m in margins):
    score += 0.5
print("REWARD: " + str(score))
