"""Issue 33 item 9: property tests have no deadline a loaded machine can break (the suite's
hypothesis profile, tests/conftest.py), also the ones whose @settings name no deadline."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

from tests.palast import test_messages


def test_the_suite_profile_has_no_deadline_and_no_too_slow_check():
    assert settings().deadline is None
    assert HealthCheck.too_slow in settings().suppress_health_check


def test_a_property_test_without_its_own_deadline_inherits_none():
    inner = test_messages.test_any_value_from_a_server_is_read_or_refused_never_a_crash
    assert inner.hypothesis.inner_test is not None  # a hypothesis test
    assert getattr(inner, "_hypothesis_internal_use_settings", settings()).deadline is None
