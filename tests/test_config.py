"""Settings from WURFWERK_* variables: typed, validated, every one documented in the README."""

from __future__ import annotations

import re
import typing
from dataclasses import fields
from importlib.metadata import version
from pathlib import Path

import pytest

import service
from service.config import SETTINGS, Config, ConfigError, Limits, config_from_env, env_example, with_readme_table
from service.platform.dice.receipts import generate_private_key_pem
from service.platform.http.limits import LIMIT_VARIABLES

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def test_defaults():
    config = config_from_env({})
    assert config.limits.pool_dice == 100 and config.limits.batch_items == 500
    assert config.cors_origins == ("*",) and config.api_keys == ()


def test_values_and_files(tmp_path):
    key = generate_private_key_pem()
    key_file = tmp_path / "key.pem"
    key_file.write_text(key)
    config = config_from_env({"WURFWERK_SIGNING_KEY_FILE": str(key_file), "WURFWERK_API_KEYS": "a, b",
                              "WURFWERK_MAX_POOL_DICE": "40"})
    assert config.signing_key_pem == key and config.api_keys == ("a", "b")
    assert config.limits.pool_dice == 40


def test_an_empty_variable_means_unset():
    config = config_from_env({"WURFWERK_MAX_POOL_DICE": "", "WURFWERK_CORS_ORIGINS": "", "WURFWERK_LOG_LEVEL": ""})
    assert config.limits.pool_dice == 100 and config.cors_origins == ("*",) and config.log_level == "INFO"


@pytest.mark.parametrize("env", [{"WURFWERK_MAX_POOL_DICE": "many"}, {"WURFWERK_MAX_POOL_DICE": "0"},
                                 {"WURFWERK_SIGNING_KEY_FILE": "/nonexistent/key.pem"},
                                 {"WURFWERK_LOG_LEVEL": "chatty"}])
def test_bad_values_are_refused_with_the_variable_named(env):
    with pytest.raises(ConfigError) as error:
        config_from_env(env)
    assert next(iter(env)) in str(error.value)


def test_each_setting_fills_one_attribute():
    """Config and Limits are made from SETTINGS: every declared attribute exists, and nothing else."""
    declared = {setting.attribute for setting in SETTINGS}
    assert declared == {f.name for f in fields(Config)} - {"limits"} | {f.name for f in fields(Limits)}
    assert LIMIT_VARIABLES["pool_dice"] == "WURFWERK_MAX_POOL_DICE"
    assert len({setting.env for setting in SETTINGS}) == len(SETTINGS)


def test_readme_table_and_env_example_are_written_from_the_settings():
    """`make generate` rewrites both; this fails when a setting changed without it."""
    readme = README.read_text(encoding="utf-8")
    assert readme == with_readme_table(readme), "README's settings table is stale: run `make generate`"
    assert (ROOT / ".env.example").read_text(encoding="utf-8") == env_example(), \
        ".env.example is stale: run `make generate`"
    for setting in SETTINGS:
        assert f"`{setting.env}`" in readme and f"\n{setting.env}={setting.default}\n" in env_example()


def test_the_env_example_loads_as_the_defaults():
    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    env = dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))
    assert config_from_env(env) == config_from_env({})


def test_the_version_is_the_package_version():
    assert service.__version__ == version("wurfwerk-service")
    assert re.search(r'^version = "(.+)"$', (ROOT / "pyproject.toml").read_text(), re.M)[1] == service.__version__


def test_every_setting_is_a_typed_field_of_its_kind():
    """Config and Limits are plain frozen dataclasses: each field's annotation is its kind's type."""
    hints = {**typing.get_type_hints(Config), **typing.get_type_hints(Limits)}
    assert {setting.attribute: hints[setting.attribute] for setting in SETTINGS} == {
        setting.attribute: setting.kind.type for setting in SETTINGS}
    assert hints["limits"] is Limits
