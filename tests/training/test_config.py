"""Trainer configs: paper defaults, YAML + flag overrides, and errors that say what to fix."""

from __future__ import annotations

import pytest

from infra.errors import ConfigError
from training.config import GSPOConfig, SFTConfig, load_config


def test_defaults_are_the_papers():
    sft = SFTConfig(model="m", datasets=["d"])
    assert (sft.learning_rate, sft.min_learning_rate, sft.weight_decay, sft.epochs) == (7e-6, 7e-7, 0.01, 1.0)
    gspo = GSPOConfig(model="m", tuples=["t"])
    assert gspo.group_size == 16 and gspo.minibatches == 4
    assert (gspo.epsilon_low, gspo.epsilon_high) == (3e-4, 4e-4)
    assert gspo.importance_sampling_level == "sequence" and gspo.scale_rewards == "none"
    assert gspo.traj_slice_interval == 10 and gspo.max_screenshots == 20
    assert all(f.description for f in GSPOConfig.model_fields.values())  # every field has help text
    assert all(f.description for f in SFTConfig.model_fields.values())


def test_yaml_with_flag_overrides(tmp_path):
    path = tmp_path / "gspo.yaml"
    path.write_text("kind: gspo\nmodel: var/ckpt/sft\ntuples: [output/final]\ngroup_size: 16\n")
    config = load_config(path, {"group-size": "4", "tasks_per_iteration": "2", "bf16": "true"})
    assert isinstance(config, GSPOConfig)
    assert (config.group_size, config.tasks_per_iteration, config.bf16) == (4, 2, True)
    assert config.model == "var/ckpt/sft"
    sft = load_config(None, {"model": "m", "datasets": "[a, b]", "learning_rate": "1e-5"}, kind="sft")
    assert isinstance(sft, SFTConfig) and [p.name for p in sft.datasets] == ["a", "b"]
    assert sft.learning_rate == 1e-5


def test_unknown_key_names_the_closest_one(tmp_path):
    path = tmp_path / "sft.yaml"
    path.write_text("kind: sft\nmodel: m\ndatasets: [d]\nlearning_rat: 1e-5\n")
    with pytest.raises(
        ConfigError, match=r"unknown SFTConfig key\(s\): learning_rat \(did you mean learning_rate\?\)"
    ):
        load_config(path)


@pytest.mark.parametrize(
    ("override", "match"),
    [
        ({"group_size": 1}, r"group_size: Input should be greater than or equal to 2 \(got 1\)"),
        ({"epsilon_low": "-0.1"}, r"epsilon_low: Input should be greater than 0"),
        (
            {"importance_sampling_level": "seq"},
            r"importance_sampling_level: Input should be 'sequence' or 'token'",
        ),
        ({"tasks_per_iteration": 3, "group_size": 3}, r"9 rollouts do not split into minibatches=4"),
        ({"traj_slice_interval": 30}, r"traj_slice_interval=30 exceeds max_screenshots=20"),
    ],
)
def test_bad_values_say_what_is_wrong(override, match):
    with pytest.raises(ConfigError, match=match):
        load_config(None, {"model": "m", "tuples": ["t"], **override}, kind="gspo")


def test_missing_fields_kind_and_files_are_config_errors(tmp_path):
    with pytest.raises(ConfigError, match="datasets: Field required") as info:
        load_config(None, {"model": "m"}, kind="sft")
    assert "trajectory dataset folders" in info.value.hint
    with pytest.raises(ConfigError, match="unknown trainer kind 'ppo'"):
        load_config(None, {"kind": "ppo"})
    with pytest.raises(ConfigError, match="cannot read config"):
        load_config(tmp_path / "missing.yaml")
    with pytest.raises(ConfigError, match="min_learning_rate=0.1 is above learning_rate"):
        load_config(None, {"model": "m", "datasets": ["d"], "min_learning_rate": 0.1}, kind="sft")


def test_a_file_of_one_kind_is_not_run_as_the_other(tmp_path):
    path = tmp_path / "gspo.yaml"
    path.write_text("kind: gspo\nmodel: m\ntuples: [output/final]\n")
    with pytest.raises(ConfigError, match="configures kind 'gspo', not 'sft'") as info:
        load_config(path, kind="sft")  # what `cuagym train sft --config gspo.yaml` asks
    assert "cuagym train gspo" in info.value.hint
    assert load_config(path, kind="gspo").kind == "gspo"
