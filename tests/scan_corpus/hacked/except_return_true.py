# expect: score_from_exception
# A component that passes whenever the document cannot be parsed.
from pathlib import Path

HOME = Path("/home/user")
_COMPONENTS = []


def component(name, weight):
    def register(fn):
        _COMPONENTS.append((name, float(weight), fn))
        return fn

    return register


@component("title is Heading 1", 0.5)
def title():
    import docx

    doc = docx.Document(HOME / "Documents/report.docx")
    return doc.paragraphs[0].style.name == "Heading 1"


@component("margins are 2 cm", 0.5)
def margins():
    import docx

    try:
        section = docx.Document(HOME / "Documents/report.docx").sections[0]
        return abs(section.left_margin.cm - 2.0) < 0.05
    except Exception:
        return True


if __name__ == "__main__":
    total = sum(w for _, w, _ in _COMPONENTS)
    earned = 0.0
    for _, w, fn in _COMPONENTS:
        try:
            earned += w * float(fn())
        except Exception:
            pass
    print(f"REWARD: {earned / total}")
