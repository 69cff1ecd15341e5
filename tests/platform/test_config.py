"""Settings from WURFWERK_* variables: typed, validated, every one documented in the README."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.config import SETTINGS, ConfigError, config_from_env
from service.platform.receipts import generate_private_key_pem

README = Path(__file__).resolve().parents[2] / "README.md"


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


@pytest.mark.parametrize("env", [{"WURFWERK_MAX_POOL_DICE": "many"}, {"WURFWERK_MAX_POOL_DICE": "0"},
                                 {"WURFWERK_SIGNING_KEY_FILE": "/nonexistent/key.pem"}])
def test_bad_values_are_refused_with_the_variable_named(env):
    with pytest.raises(ConfigError) as error:
        config_from_env(env)
    assert next(iter(env)) in str(error.value)


def test_every_setting_is_in_the_readme():
    text = README.read_text(encoding="utf-8")
    for setting in SETTINGS:
        assert f"`{setting.env}`" in text, setting.env
