# Errors give nothing: flags start False, handlers return 0.0 or continue, finally only closes.
import json
import zipfile

score = 0.0
valid = False
try:
    valid = json.load(open("/home/user/Documents/manifest.json"))["version"] == 2
except (OSError, ValueError, KeyError):
    pass
count = 0
for name in ("a.txt", "b.txt"):
    try:
        with open(f"/home/user/Documents/{name}") as fh:
            if fh.read().strip() == name[0]:
                count += 1
    except OSError:
        continue
archive = None
try:
    archive = zipfile.ZipFile("/home/user/Documents/bundle.zip")
    names = archive.namelist()
except (OSError, zipfile.BadZipFile):
    names = []
finally:
    if archive is not None:
        archive.close()
if valid:
    score += 0.4
if count == 2:
    score += 0.3
if sorted(names) == ["a.txt", "b.txt"]:
    score += 0.3
print(f"REWARD: {score}")
