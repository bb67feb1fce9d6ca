"""The alert rules fire when they should: deploy/monitoring/alerts.test.yml gives every
alert series it must fire on and series it must stay quiet on, and promtool (Debian's
package prometheus; `make deploy-machine` installs it) checks and runs them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

MONITORING = Path(__file__).resolve().parents[3] / "deploy" / "monitoring"
PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(
    PROMTOOL is None, reason="promtool is not installed (apt-get install prometheus)"
)


def _promtool(*args: str) -> subprocess.CompletedProcess[str]:
    assert PROMTOOL is not None
    return subprocess.run(
        [PROMTOOL, *args], cwd=MONITORING, capture_output=True, text=True, timeout=60
    )


def test_every_alert_has_a_case_where_it_fires():
    rules = yaml.safe_load((MONITORING / "alerts.yml").read_text())
    alerts = {rule["alert"] for group in rules["groups"] for rule in group["rules"]}
    tests = yaml.safe_load((MONITORING / "alerts.test.yml").read_text())
    fired = {
        case["alertname"]
        for test in tests["tests"]
        for case in test.get("alert_rule_test", [])
        if case["exp_alerts"]
    }
    assert alerts == fired


@needs_promtool
def test_the_rules_pass_promtool_check():
    checked = _promtool("check", "rules", "alerts.yml")
    assert checked.returncode == 0, checked.stdout + checked.stderr


@needs_promtool
def test_each_alert_fires_and_stays_quiet_as_its_unit_tests_say():
    tested = _promtool("test", "rules", "alerts.test.yml")
    assert tested.returncode == 0, tested.stdout + tested.stderr
