# Early REWARD: 0.0 when the output is missing, then content checks with partial credit.
import os
import sys

from pypdf import PdfReader

PDF = os.path.expanduser("~/Desktop/deck.pdf")


def main():
    if not os.path.isfile(PDF):
        print("REWARD: 0.0")
        return 0
    reader = PdfReader(PDF)
    score = 0.0
    if len(reader.pages) == 5:
        score += 0.5
    first = reader.pages[0].extract_text() or ""
    if "Q2 Roadmap" in first:
        score += 0.25
    if all((page.extract_text() or "").strip() for page in reader.pages):
        score += 0.25
    print(f"REWARD: {score}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
