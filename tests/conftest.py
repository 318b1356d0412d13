"""Shared test set-up: deterministic, deadline-free hypothesis profiles."""

import os

from hypothesis import HealthCheck, settings

# Shared, noisy machines: no per-example deadlines. "ci" keeps the suite short.
settings.register_profile(
    "default", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("thorough", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
