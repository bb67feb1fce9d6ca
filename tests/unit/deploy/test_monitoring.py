"""The Grafana dashboard and the Prometheus alert rules (deploy/monitoring/): they parse,
and every expression asks for metrics and labels that the processes really serve (the
names from a scrape of the registry; promtool is not needed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from prometheus_client import REGISTRY, generate_latest
from prometheus_client.metrics import MetricWrapperBase
from prometheus_client.parser import text_string_to_metric_families

import gateway.metrics
import services.battle.metrics
import shared.metrics
from gateway.push.hub import PushHub

ROOT = Path(__file__).resolve().parents[3]
MONITORING = ROOT / "deploy" / "monitoring"
OPERATIONS = ROOT / "docs" / "operations.md"
# Labels Prometheus adds to every series of a target (deploy/monitoring/prometheus.yml).
TARGET_LABELS = {"instance", "job", "namespace", "pod", "app"}
PROMETHEUS_SERIES = {"up"}  # made by Prometheus itself, for every target
# RabbitMQ's plugin, the two families the rabbitmq job asks for (prometheus.yml).
BROKER_SERIES = {
    f"rabbitmq_detailed_queue_{name}": {"queue", "vhost"}
    for name in ("messages_ready", "messages_unacked", "messages", "consumers")
}
BROKER_FAMILIES = ["queue_coarse_metrics", "queue_consumer_count"]
FUNCTIONS = {
    "sum", "max", "min", "avg", "count", "topk", "bottomk", "rate", "irate", "increase",
    "delta", "histogram_quantile", "time", "abs", "clamp_min", "clamp_max", "vector",
}  # fmt: skip
KEYWORDS = {"and", "or", "unless", "bool", "offset"}
GROUPING = r"\b(by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)"
AGGREGATIONS = r"\b(sum|max|min|avg|count|topk|bottomk)\b"
SEVERITIES = {"info", "warning", "critical"}

SAMPLE_SUFFIXES = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum")}


def _served() -> dict[str, set[str]]:
    """Every series name a scrape of this process's registry can hold -> its label names."""
    gateway.metrics.GATEWAY_STATE.attach(PushHub(), lambda: True)
    families = text_string_to_metric_families(generate_latest(REGISTRY).decode())
    names: dict[str, set[str]] = {}
    for family in families:
        for suffix in SAMPLE_SUFFIXES.get(family.type, ("",)):
            names[family.name + suffix] = set()
    for module in (shared.metrics, gateway.metrics, services.battle.metrics):
        for metric in vars(module).values():
            if isinstance(metric, MetricWrapperBase):
                labels = set(metric._labelnames)
                for suffix in SAMPLE_SUFFIXES.get(metric._type, ("",)):
                    extra = {"le"} if suffix == "_bucket" else set()
                    names[metric._name + suffix] = labels | extra
    return names


SERVED = {**_served(), **BROKER_SERIES}


def _dashboard() -> dict:
    return json.loads((MONITORING / "grafana-dashboard.json").read_text())


def _rules() -> list[dict]:
    document = yaml.safe_load((MONITORING / "alerts.yml").read_text())
    return [rule for group in document["groups"] for rule in group["rules"]]


def _targets(panels: list[dict]) -> list[dict]:
    found = []
    for panel in panels:
        found.extend(panel.get("targets", []))
        found.extend(_targets(panel.get("panels", [])))
    return found


def _expressions() -> list[tuple[str, str]]:
    dashboard = [(f"panel {t['refId']}", t["expr"]) for t in _targets(_dashboard()["panels"])]
    return dashboard + [(rule["alert"], rule["expr"]) for rule in _rules()]


def references(expr: str) -> tuple[dict[str, set[str]], set[str]]:
    """The series an expression selects (-> the label names it matches them on) and the
    label names it groups by."""
    expr = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)  # string literals
    expr = re.sub(r"\[[^\]]*\]", "", expr)  # ranges ([5m], [$__rate_interval])
    grouped = {label.strip() for m in re.finditer(GROUPING, expr) for label in m[2].split(",")}
    expr = re.sub(GROUPING, " ", expr)
    selected: dict[str, set[str]] = {}
    for match in re.finditer(r"([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{[^}]*\})?\s*(\()?", expr):
        name, matchers, call = match.groups()
        if name in KEYWORDS or (call and name in FUNCTIONS):
            continue
        assert not call, f"unknown function {name}"
        labels = set(re.findall(r"([a-zA-Z_][a-zA-Z0-9_]*)\s*[=!]~?", matchers or ""))
        selected.setdefault(name, set()).update(labels)
    return selected, grouped - {""}


EXPRESSIONS = _expressions()


def test_the_dashboard_is_grafana_json_with_unique_panels():
    dashboard = _dashboard()
    assert dashboard["uid"] == "deckyard-overview" and dashboard["title"]
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    assert len(_targets(dashboard["panels"])) >= 20


def test_the_alert_rules_name_a_severity_and_say_what_they_mean():
    rules = _rules()
    names = [rule["alert"] for rule in rules]
    assert len(names) == len(set(names))
    documented = OPERATIONS.read_text()
    for rule in rules:
        assert rule["labels"]["severity"] in SEVERITIES, rule["alert"]
        assert rule["annotations"]["summary"] and rule["annotations"]["description"]
        assert f"`{rule['alert']}`" in documented, f"{rule['alert']} not in docs/operations.md"


@pytest.mark.parametrize(("where", "expr"), EXPRESSIONS, ids=[w for w, _ in EXPRESSIONS])
def test_every_expression_selects_served_metrics_by_their_labels(where, expr):
    selected, grouped = references(expr)
    assert selected, f"{where}: selects nothing"
    labels = set(TARGET_LABELS)
    for name, matched in selected.items():
        if name in PROMETHEUS_SERIES:
            continue
        assert name in SERVED, f"{where}: {name} is not served"
        assert matched <= SERVED[name] | TARGET_LABELS, f"{where}: {name}{{{matched}}}"
        labels |= SERVED[name]
    assert grouped <= labels, f"{where}: grouped by {grouped - labels}"


def test_an_alert_names_only_labels_its_expression_keeps():
    for rule in _rules():
        selected, kept = references(rule["expr"])
        if not re.search(AGGREGATIONS, rule["expr"]):  # every label of its series stays
            kept = TARGET_LABELS.union(*(SERVED.get(name, set()) for name in selected))
        text = " ".join(rule["annotations"].values())
        for label in re.findall(r"\$labels\.([a-zA-Z_]+)", text):
            assert label in kept, f"{rule['alert']}: {label} is aggregated away"


def test_the_reference_parser_sees_series_labels_and_groups():
    selected, grouped = references(
        'sum by (service, le) (rate(x_bucket{outcome=~"a|b", service!="c"}[$__rate_interval]))'
        " / on (service) y"
    )
    assert selected == {"x_bucket": {"outcome", "service"}, "y": set()}
    assert grouped == {"service", "le"}


def test_every_metric_the_code_defines_is_documented():
    documented = OPERATIONS.read_text()
    for module in (shared.metrics, gateway.metrics, services.battle.metrics):
        for metric in vars(module).values():
            if isinstance(metric, MetricWrapperBase):
                assert f"`{metric._name}" in documented, metric._name


def test_prometheus_scrapes_the_broker_families_the_rules_read():
    config = yaml.safe_load((MONITORING / "prometheus.yml").read_text())
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    broker = jobs["rabbitmq"]
    assert broker["metrics_path"] == "/metrics/detailed"
    assert broker["params"] == {"family": BROKER_FAMILIES}
    kept = [rule["regex"] for rule in broker["relabel_configs"] if rule.get("action") == "keep"]
    assert kept == ["rabbitmq;prometheus"]  # the broker's container port named prometheus
