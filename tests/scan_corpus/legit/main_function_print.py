# The REWARD line is printed once, at the end of main(), or in one of two branches; diagnostics go to stderr.
import sys


def main():
    try:
        text = open("/home/user/Documents/f.txt").read()
    except FileNotFoundError:
        print("no output yet", file=sys.stderr)
        print("REWARD: 0.0")
        return 0
    score = 0.0
    if text.startswith("F"):
        score += 0.5
    if "fin" in text:
        score += 0.5
    if score >= 1.0:
        print("REWARD: 1.0")
    else:
        print(f"REWARD: {score}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
