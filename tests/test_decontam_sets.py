"""Benchmark sets for decontamination: OSWorld's layout and JSONL load with their targets, and every
malformed set fails with its path and what is wrong (tasks/decontam/sets.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tasks.decontam.config import load_config
from tasks.decontam.sets import BenchmarkSetError, load_set, load_sets
from tasks.decontam.stage import check_sets
from tasks.decontam.targets import spec_targets, word_ngrams

DATA = Path(__file__).parent / "data" / "decontam"
OSWORLD = DATA / "osworld"
CALC_ID = "7b802dad-6e0f-4204-9815-d4e3f57627d8"


def test_osworld_layout_loads_each_listed_task_once_with_its_checked_targets():
    tasks = {t.task_id: t for t in load_set(OSWORLD)}
    # test_all.json and test_small.json both list the calc task: one task, not two
    assert sorted(tasks) == [CALC_ID, "bb5e4c0d-f964-439c-97b6-bdb9747de3f4"]
    calc = tasks[CALC_ID]
    assert calc.benchmark == "osworld" and calc.domain == "libreoffice_calc"
    # the evaluator's result and expected files, from their paths and dests
    assert {"file:branch_officers.xlsx", "file:branch_officers_gold.xlsx"} <= calc.targets
    # getter/metric names are not targets; OSWorld's file-host URLs in config are not either
    assert not any(t in calc.targets for t in ("value:compare_table", "value:vm_file", "value:cloud_file"))
    assert not any(t.startswith("url:drive.usercontent") for t in calc.targets)
    chrome = tasks["bb5e4c0d-f964-439c-97b6-bdb9747de3f4"]
    assert {"value:microsoft bing", "value:bing"} <= chrome.targets  # rules' expected values


def test_the_evaluation_examples_folder_itself_is_accepted():
    assert len(load_set(OSWORLD / "evaluation_examples")) == 2


def test_jsonl_set_loads_ids_instructions_and_targets(tmp_path):
    path = tmp_path / "webbench.jsonl"
    rows = [
        {
            "id": "w1",
            "instruction": "Open https://shop.example.com/cart/ and buy two mugs",
            "targets": ["42.50"],
        },
        {"id": 7, "instruction": "Rename notes.txt to todo.txt"},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n")
    tasks = load_set(path)
    assert [t.task_id for t in tasks] == ["w1", "7"] and {t.benchmark for t in tasks} == {"webbench"}
    assert {"url:shop.example.com/cart", "value:42.5"} <= tasks[0].targets
    assert {"file:notes.txt", "file:todo.txt"} <= tasks[1].targets


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"id": "a", "instruction": "x"}\nnot json\n', r"line 2 is not JSON"),
        ('["a list"]\n', r"line 1 is not a JSON object"),
        ('{"instruction": "do it"}\n', r"line 1 has no `id`"),
        ('{"id": "a", "instruction": "  "}\n', r"line 1 has no `instruction`"),
        ('{"id": "a", "instruction": "x", "targets": "a.xlsx"}\n', r"`targets` must be a list"),
        ('{"id": "a", "instruction": "x"}\n{"id": "a", "instruction": "y"}\n', r"line 2: id 'a' repeats"),
        ("\n\n", r"holds no task"),
    ],
)
def test_malformed_jsonl_names_the_file_and_line(tmp_path, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    with pytest.raises(BenchmarkSetError, match=message) as err:
        load_set(path)
    assert str(path) in str(err.value) and err.value.hint


def test_missing_set_is_an_error_naming_it(tmp_path):
    with pytest.raises(BenchmarkSetError, match=r"nowhere.jsonl does not exist"):
        load_sets([tmp_path / "nowhere.jsonl"])


def _osworld_copy(tmp_path: Path) -> Path:
    root = tmp_path / "OSWorld"
    shutil.copytree(OSWORLD, root)
    return root / "evaluation_examples"


def test_folder_without_the_osworld_layout_is_an_error(tmp_path):
    (tmp_path / "examples").mkdir()
    with pytest.raises(BenchmarkSetError, match=r"is not an OSWorld evaluation_examples folder"):
        load_set(tmp_path)


def test_listed_task_without_its_example_file_is_an_error(tmp_path):
    root = _osworld_copy(tmp_path)
    (root / "examples" / "chrome" / "bb5e4c0d-f964-439c-97b6-bdb9747de3f4.json").unlink()
    with pytest.raises(
        BenchmarkSetError, match=r"is missing: the test lists task bb5e4c0d.* of domain chrome"
    ):
        load_set(root)


def test_test_file_that_is_not_a_domain_mapping_is_an_error(tmp_path):
    root = _osworld_copy(tmp_path)
    (root / "test_all.json").write_text('["7b802dad"]')
    with pytest.raises(BenchmarkSetError, match=r"test_all.json must map each domain to a list of task ids"):
        load_set(root)


def test_example_that_is_not_json_or_has_no_instruction_is_an_error(tmp_path):
    root = _osworld_copy(tmp_path)
    example = root / "examples" / "libreoffice_calc" / f"{CALC_ID}.json"
    example.write_text("{broken")
    with pytest.raises(BenchmarkSetError, match=rf"cannot read .*{CALC_ID}.json"):
        load_set(root)
    example.write_text(json.dumps({"id": CALC_ID, "evaluator": {}}))
    with pytest.raises(BenchmarkSetError, match=r"has no instruction"):
        load_set(root)


def test_config_rejects_unknown_keys_and_falls_back_to_its_sets(tmp_path):
    bad = tmp_path / "d.yaml"
    bad.write_text("thresholds:\n  ngramm: 0.3\n")
    with pytest.raises(Exception, match=r"cannot read the decontamination config"):
        load_config(bad)
    good = tmp_path / "g.yaml"
    good.write_text(f"sets: [{OSWORLD}]\n")
    assert len(check_sets([], good)) == 2  # no --decontaminate: the config's list
    assert check_sets([], _empty(tmp_path)) == []


def _empty(tmp_path: Path) -> Path:
    path = tmp_path / "empty.yaml"
    path.write_text("sets: []\n")
    return path


def test_targets_and_ngrams_normalise_paths_cells_values_and_case():
    targets = spec_targets(
        'Fill D11 in ~/Documents/Costs_38.xlsx with the SUM; label it "Grand total".',
        {
            "xlsx": "Documents/Costs_38.xlsx",
            "total": 114479.57,
            "rows": 9,
            "world": {"a": {"b": {"c": {"d": {"e": "deep"}}}}},
        },
        "wb = load('/home/user/Documents/Costs_38.xlsx'); ws['D11'].value; print('component ok')",
    )
    assert {"file:costs_38.xlsx", "cell:d11", "value:grand total", "value:114479.57"} <= targets
    assert "value:9" not in targets  # small counts say nothing about a task
    assert "value:deep" not in targets  # nested state beyond MAX_DEPTH is the world, not a check
    assert "value:component ok" not in targets  # reward messages are not targets
    assert word_ngrams("Open  the FILE now") == ["open the file", "the file now"]


def test_synth_fails_on_a_bad_set_before_any_work(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a"}\n')
    env_var = tmp_path / "var"
    out = subprocess.run(
        [str(Path(sys.executable).with_name("cuagym")), "synth", "--count", "1", "--decontaminate", str(bad)],
        env={
            **os.environ,
            "CUAGYM_VAR_DIR": str(env_var),
            "CUAGYM_OUTPUT_DIR": str(tmp_path / "o"),
        },
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode != 0
    said = "".join((out.stdout + out.stderr).split())  # rich folds long lines, mid-word too
    assert "".join(f"{bad}, line 1 has no `instruction`".split()) in said
    assert not (env_var / "warehouse.duckdb").exists()  # no run was started


def test_prime_embeds_a_batch_in_one_call_and_checks_agree_with_unprimed_ones():
    from tasks.decontam.config import Thresholds
    from tasks.decontam.index import BenchmarkIndex
    from tasks.decontam.stage import Decontaminator
    from tasks.dedupe import load_embedder
    from tasks.models import TaskSpec

    model = load_embedder()
    calls: list[int] = []

    def counted(texts):
        calls.append(len(texts))
        return model(texts)

    index = BenchmarkIndex(load_set(DATA / "benchmark.jsonl"), counted)
    specs = [
        # the check reads a spec's id, instruction and params only
        TaskSpec.model_construct(id=f"t{i}", instruction=text, params={})
        for i, text in enumerate(
            ["Rename report.txt to final.txt", "Sort the budget sheet by column B", "Bold the header row"]
        )
    ]
    primed, plain = Decontaminator(index, Thresholds()), Decontaminator(index, Thresholds())
    calls.clear()
    primed.prime([s.instruction for s in specs] + [specs[0].instruction])  # a repeat is embedded once
    assert calls == [3]
    verdicts = [primed.check(s) for s in specs]
    assert calls == [3]  # checking a primed instruction embeds nothing more
    for spec, verdict in zip(specs, verdicts, strict=True):
        alone = plain.check(spec)
        assert (verdict.decision, verdict.task_id) == (alone.decision, alone.task_id)
        assert verdict.embedding == pytest.approx(alone.embedding, abs=1e-4)
    assert calls == [3, 1, 1, 1]  # unprimed: one call per instruction
