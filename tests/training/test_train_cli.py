"""`cuagym train sft`: a config file plus --set overrides runs the training flow, which trains the
tiny policy, saves a reloadable checkpoint and records the steps; bad flags fail with a hint."""

from __future__ import annotations

from click.testing import CliRunner
from transformers import Qwen2VLForConditionalGeneration

from flows.cli import main
from warehouse.query import run_query

from .test_data import write_dataset


def test_train_sft_runs_the_flow_from_a_file_and_overrides(prefect_harness, isolated_settings, tmp_path):
    write_dataset(tmp_path / "ds", n_steps=6)
    config = tmp_path / "sft.yaml"
    config.write_text(
        f"kind: sft\nmodel: tiny:qwen2-vl\nfamily: qwen2.5-vl\ndatasets: [{tmp_path / 'ds'}]\n"
        f"output_dir: {tmp_path / 'out'}\nepochs: 5\n"
    )
    args = ["train", "sft", "--config", str(config), "--set", "epochs=2", "--set", "learning_rate=1e-3"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "sft-" in result.output and "training_curves" in result.output
    Qwen2VLForConditionalGeneration.from_pretrained(tmp_path / "out")  # the final save reloads
    rows = run_query(isolated_settings.warehouse_path, "SELECT step, learning_rate FROM training_curves").rows
    assert [r[0] for r in rows] == [1, 2]  # one sample, epochs=2 from --set (not the file's 5)
    assert rows[0][1] == 1e-3


def test_bad_overrides_fail_with_a_hint(tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["train", "sft", "--set", "epochs"])
    assert result.exit_code == 1 and "is not key=value" in result.output and "hint" in result.output
    result = runner.invoke(
        main, ["train", "sft", "--set", "model=x", "--set", "datasets=[d]", "--set", "epoch=2"]
    )
    assert result.exit_code == 1 and "did you mean epochs?" in result.output, result.output
