"""Shared test set-up: Hypothesis profiles, chosen by HYPOTHESIS_PROFILE (ci when CI is set)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci",
    max_examples=60,
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# .ci/mutants.py: the ci examples, but no shrinking (a mutant only needs to turn red).
settings.register_profile(
    "mutants",
    parent=settings.get_profile("ci"),
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    print_blob=False,
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)
