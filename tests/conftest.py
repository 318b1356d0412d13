"""Shared test set-up: deterministic, deadline-free hypothesis profiles, and
no test ever touches the real user's games or settings."""

import os

import pytest
from hypothesis import HealthCheck, settings

# Shared, noisy machines: no per-example deadlines. "ci" keeps the suite short.
settings.register_profile(
    "default", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("thorough", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch):
    """XDG_DATA_HOME, XDG_CONFIG_HOME and HOME inside the test's temporary
    directory, for this process and every child it starts."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return tmp_path
