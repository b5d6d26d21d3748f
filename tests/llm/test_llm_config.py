"""Role/model resolution: flags beat env vars beat the config file; per-role beats global within one."""

from __future__ import annotations

import pytest

from infra.errors import ConfigError
from infra.llm_config import resolve_llm_settings


def _file(tmp_path, text: str):
    path = tmp_path / "llm.yaml"
    path.write_text(text)
    return path


def test_precedence_flag_over_env_over_file_and_role_over_global(tmp_path):
    config = _file(
        tmp_path,
        """
model: file/global
timeout_s: 30
roles:
  generator: {model: file/generator, temperature: 0.2}
  critic: {model: file/critic, max_retries: 7}
""",
    )
    env = {
        "CUAGYM_LLM_MODEL": "env/global",
        "CUAGYM_LLM_CRITIC_MODEL": "env/critic",
        "CUAGYM_LLM_TIMEOUT_S": "45",
    }
    flags = {"model": None, "discriminator_model": "flag/discriminator"}
    s = resolve_llm_settings(flags=flags, env=env, config_path=config)
    assert s.role("discriminator").model == "flag/discriminator"  # a flag beats everything
    assert s.role("critic").model == "env/critic"  # env per-role beats env global and the file
    assert s.role("generator").model == "env/global"  # env global beats the file's per-role model
    assert s.role("generator").temperature == 0.2  # …but fields the env does not set still come from the file
    assert s.role("critic").max_retries == 7 and s.role("critic").timeout_s == 45.0
    flags["model"] = "flag/global"
    s = resolve_llm_settings(flags=flags, env=env, config_path=config)
    assert s.models() == {
        "task_writer": "flag/global",
        "generator": "flag/global",
        "discriminator": "flag/discriminator",
        "critic": "flag/global",
        "judge": "flag/global",
        "app_writer": "flag/global",
        "app_reviewer": "flag/global",
    }


def test_file_only_and_api_base_per_role(tmp_path):
    config = _file(
        tmp_path,
        """
model: anthropic/claude-sonnet-4-5
roles:
  generator: {model: hosted_vllm/qwen, api_base: "http://gpu:8000/v1"}
""",
    )
    s = resolve_llm_settings(env={"CUAGYM_LLM_CONFIG": str(config)})
    assert s.role("generator").api_base == "http://gpu:8000/v1" and s.role("critic").api_base is None
    assert s.role("critic").model == "anthropic/claude-sonnet-4-5"


def test_missing_model_names_every_way_to_set_it():
    s = resolve_llm_settings(flags={"generator_model": "x/y"}, env={})
    with pytest.raises(ConfigError, match="no model configured for the critic role") as info:
        s.role("critic")
    assert "--critic-model" in info.value.hint and "CUAGYM_LLM_CRITIC_MODEL" in info.value.hint


def test_bad_file_and_bad_env_values_are_config_errors(tmp_path):
    with pytest.raises(ConfigError, match=r"unknown key\(s\) \['modle', 'roles.generator.temp'\]"):
        resolve_llm_settings(
            env={}, config_path=_file(tmp_path, "modle: x\nroles:\n  generator: {temp: 1}\n")
        )
    with pytest.raises(ConfigError, match="CUAGYM_LLM_TIMEOUT_S='soon' is not a float"):
        resolve_llm_settings(env={"CUAGYM_LLM_MODEL": "a/b", "CUAGYM_LLM_TIMEOUT_S": "soon"})
    with pytest.raises(ConfigError, match="invalid LLM settings for the task_writer role"):
        resolve_llm_settings(env={"CUAGYM_LLM_MODEL": "a/b", "CUAGYM_LLM_MAX_RETRIES": "-1"})


def test_cache_is_one_folder_per_role_and_the_flag_wins(tmp_path):
    env = {"CUAGYM_LLM_MODEL": "a/b", "CUAGYM_LLM_CACHE": "1"}
    s = resolve_llm_settings(env=env, default_cache_dir=tmp_path)
    assert s.role("generator").cache_dir == str(tmp_path / "generator")
    assert s.role("discriminator").cache_dir == str(tmp_path / "discriminator")  # never a shared folder
    shared = resolve_llm_settings(env={"CUAGYM_LLM_MODEL": "a/b", "CUAGYM_LLM_CACHE_DIR": "/c"})
    assert shared.role("discriminator").cache_dir == "/c/discriminator"
    off = resolve_llm_settings(env=env, default_cache_dir=tmp_path, cache=False)
    assert off.role("generator").cache_dir is None
