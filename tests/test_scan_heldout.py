"""The held-out part of the reward-scan corpus (tests/scan_corpus/heldout): hacks and look-alikes
written before the rules for the issue's eight classes, and not used while writing them. This test
reports how many the scan catches / leaves clean and holds that figure as a floor."""

from __future__ import annotations

from pathlib import Path

from tasks.scan import RULES, scan_path

HELDOUT = Path(__file__).with_name("scan_corpus") / "heldout"
HACKED = sorted((HELDOUT / "hacked").glob("ho_*.py"))
LEGIT = sorted((HELDOUT / "legit").glob("ho_*.py"))
# red-team round 3 (tests/scan_corpus/README.md): its own held-out half, written before its rules
HACKED_R3 = sorted((HELDOUT / "hacked").glob("ho3_*.py"))
LEGIT_R3 = sorted((HELDOUT / "legit").glob("ho3_*.py"))
# Round 3's blind run gave 10/11 caught and 6/7 clean. Not caught, and no rule added after seeing it:
# an os.walk loop that counts file names by suffix and never opens one (a glob count in disguise;
# listings used as data count as content). Flagged: ho3_parts_list_mean, a bug (a list summed in the
# REWARD line itself was not counted as components), fixed after the run, so that file no longer
# counts as held-out evidence.
KNOWN_MISSED_R3 = {"ho3_walk_count_names.py"}

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
    assert len(HACKED_R3) >= 10 and len(LEGIT_R3) >= 7


def _score(hacked: list[Path], legit: list[Path]) -> tuple[list[str], list[str], str]:
    """(missed hacks, flagged legit files, a printable report) for one held-out set."""
    caught, missed = [], []
    for path in hacked:
        found = {f.rule for f in scan_path(path)}
        (caught if _expected(path) <= found else missed).append(f"{path.name}: {sorted(found)}")
    clean, flagged = [], []
    for path in legit:
        findings = scan_path(path)
        (flagged if findings else clean).append(
            f"{path.name}: " + "; ".join(f"{f.rule} (line {f.line})" for f in findings)
        )
    report = (
        f"held-out: {len(caught)}/{len(hacked)} hacks caught, {len(clean)}/{len(legit)} legit clean\n"
        + "".join(f"  missed {m}\n" for m in missed)
        + "".join(f"  flagged {f}\n" for f in flagged)
    )
    print(report)
    return missed, flagged, report


def test_heldout_figure():
    missed, flagged, report = _score(HACKED, LEGIT)
    assert len(HACKED) - len(missed) >= MIN_CAUGHT and len(LEGIT) - len(flagged) >= MIN_CLEAN, report


def test_round3_heldout_is_caught_and_clean():
    # every round-3 hack caught but the one documented miss, and no honest reward flagged
    missed, flagged, report = _score(HACKED_R3, LEGIT_R3)
    assert {m.split(":")[0] for m in missed} <= KNOWN_MISSED_R3 and not flagged, report
