# A check table of (weight, function) pairs; score = weighted sum / total weight.
import zipfile

from pptx import Presentation

DECK = "/home/user/Desktop/launch.pptx"


def slide_count():
    return len(Presentation(DECK).slides) == 5


def titles():
    wanted = ["Launch", "Market", "Plan", "Budget", "Timeline"]
    got = [s.shapes.title.text if s.shapes.title else "" for s in Presentation(DECK).slides]
    return sum(a == b for a, b in zip(got, wanted)) / len(wanted)


def has_notes():
    with zipfile.ZipFile(DECK) as z:
        return any(n.startswith("ppt/notesSlides/") for n in z.namelist())


RUBRIC = [(0.4, slide_count), (0.4, titles), (0.2, has_notes)]
score = 0.0
for weight, check in RUBRIC:
    try:
        score += weight * float(check())
    except Exception:
        score += 0.0
print(f"REWARD: {score:.4f}")
