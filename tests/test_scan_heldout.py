"""The held-out part of the reward-scan corpus (tests/scan_corpus/heldout): hacks and look-alikes
written before the rules for the issue's eight classes, and not used while writing them. This test
reports how many the scan catches / leaves clean and holds that figure as a floor."""

from __future__ import annotations

from pathlib import Path

from tasks.scan import RULES, scan_path

HELDOUT = Path(__file__).with_name("scan_corpus") / "heldout"
HACKED = sorted((HELDOUT / "hacked").glob("*.py"))
LEGIT = sorted((HELDOUT / "legit").glob("*.py"))

# The figures at the end of development (tests/scan_corpus/README.md). The one blind run gave 15/17
# caught and 9/10 clean; it exposed a bug (REWARD text inside a constant tuple was not checked), fixed
# afterwards, which catches ho_timer_reward too. Not caught: ho_yaml_unsafe (yaml.load with the full
# Loader is not a rule). Flagged: ho_copy_compare, whose "original stays in place" component only
# compares existence and sizes (existence_only, by that rule's definition).
MIN_CAUGHT = 16
MIN_CLEAN = 9


def _expected(path: Path) -> set[str]:
    first = path.read_text().splitlines()[0]
    assert first.startswith("# expect:"), f"{path.name} must start with '# expect: <rule>[, <rule>...]'"
    rules = {rule.strip() for rule in first.removeprefix("# expect:").split(",")}
    assert rules <= set(RULES), f"{path.name}: unknown rule ids {rules - set(RULES)}"
    return rules


def test_heldout_set_is_big_enough():
    assert len(HACKED) >= 12 and len(LEGIT) >= 8


def test_heldout_figure():
    caught, missed = [], []
    for path in HACKED:
        found = {f.rule for f in scan_path(path)}
        (caught if _expected(path) <= found else missed).append(f"{path.name}: {sorted(found)}")
    clean, flagged = [], []
    for path in LEGIT:
        findings = scan_path(path)
        (flagged if findings else clean).append(
            f"{path.name}: " + "; ".join(f"{f.rule} (line {f.line})" for f in findings)
        )
    report = (
        f"held-out: {len(caught)}/{len(HACKED)} hacks caught, {len(clean)}/{len(LEGIT)} legit clean\n"
        + "".join(f"  missed {m}\n" for m in missed)
        + "".join(f"  flagged {f}\n" for f in flagged)
    )
    print(report)
    assert len(caught) >= MIN_CAUGHT and len(clean) >= MIN_CLEAN, report
