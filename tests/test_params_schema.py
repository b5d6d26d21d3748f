"""`apps` is part of the deployments' parameter schema (issue "What operators and analysts hit",
item 7): an unknown app is refused when the run is asked for — in the UI (Prefect validates a custom
run against the schema), in prefect.yaml and on the command line — not when sampling starts."""

from __future__ import annotations

import pytest
import yaml
from click.testing import CliRunner
from prefect.utilities.callables import parameter_schema
from prefect.utilities.schema_tools import validate
from prefect.utilities.schema_tools.validation import ValidationError as SchemaError
from pydantic import ValidationError

from flows.cli import main
from flows.retry import retry_flow
from flows.synthesis import synthesis_flow
from infra.settings import PROJECT_ROOT
from tasks.models import KNOWN_APPS, RetryParams, SynthParams


def _deployment_params(name: str) -> dict:
    spec = yaml.safe_load((PROJECT_ROOT / "prefect.yaml").read_text())
    return next(d for d in spec["deployments"] if d["name"] == name)["parameters"]["params"]


def _schema(flow) -> dict:
    return parameter_schema(flow.fn).model_dump_for_openapi()


def test_the_known_apps_are_the_skills_catalogue():
    assert set(KNOWN_APPS) == {p.parent.name for p in (PROJECT_ROOT / "skills").glob("*/taxonomy.yaml")}
    assert {"calc", "writer", "chat"} <= set(KNOWN_APPS)


def test_the_synth_deployments_schema_refuses_an_unknown_app():
    schema = _schema(synthesis_flow)
    params = _deployment_params("nightly-synthesis")
    validate({"params": params | {"apps": ["calc", "writer"]}}, schema, raise_on_error=True)
    with pytest.raises(SchemaError, match="calcc"):
        validate({"params": params | {"apps": ["calcc"]}}, schema, raise_on_error=True)
    with pytest.raises(ValidationError, match="calcc"):
        SynthParams.model_validate(params | {"apps": ["calcc"]})


def test_the_retry_deployments_schema_refuses_an_unknown_app():
    schema = _schema(retry_flow)
    params = _deployment_params("retry")
    validate({"params": params | {"app": "files"}}, schema, raise_on_error=True)
    with pytest.raises(SchemaError, match="spreadsheet"):
        validate({"params": params | {"app": "spreadsheet"}}, schema, raise_on_error=True)
    with pytest.raises(ValidationError):
        RetryParams.model_validate(params | {"app": "spreadsheet"})


@pytest.mark.parametrize(
    "args", [["synth", "--apps", "calc,nope", "--count", "1"], ["retry", "--app", "nope"]]
)
def test_the_cli_names_the_unknown_app_and_the_known_ones(args, isolated_settings):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    assert "unknown app(s) ['nope']" in result.output and "calc, chat" in result.output
    assert not isolated_settings.warehouse_path.exists()  # refused before a run started
