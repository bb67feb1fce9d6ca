"""The deployment files: Kubernetes manifests, compose.yml and the Dockerfile.

The Kubernetes objects are checked as they are applied: each overlay rendered by
``kubectl kustomize`` (kustomize built into kubectl; the machine's image has it, and a
machine without it fails here rather than skipping). Offline: the Kubernetes schemas
come from the kubernetes-validate package itself.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from shared.config import load_settings

ROOT = Path(__file__).resolve().parents[3]
K8S = ROOT / "deploy" / "k8s"
BASE = K8S / "base"
OVERLAYS = ("development", "production")
COMPOSE = ROOT / "compose.yml"
DOCKERFILE = ROOT / "Dockerfile"

KUBERNETES_VERSION = "1.30"
NAMESPACE = "deckyard"
SERVICES = ("accounts", "authoring", "challenge", "cards", "battle")
APP_IMAGE = "deckyard"  # the manifests' name; each overlay maps it to a registry and tag
APP_UID = 10001
STATUS_PORT = 8090  # the gateway's internal status port
# Prometheus' namespace, the only one that may reach the metrics ports (monitoring.yaml).
APP_CONFIG = "deckyard-config"  # the applications' settings (the broker has its own)
MONITORING_PEER = {
    "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "monitoring"}}
}
# Environment variables that must only ever come from a Secret.
SECRET_ENV = {
    "DATABASE_URL",
    "AMQP_URI",
    "AUTH0_MGMT_CLIENT_ID",
    "AUTH0_MGMT_CLIENT_SECRET",
    "POSTGRES_PASSWORD",
    "RABBITMQ_DEFAULT_PASS",
}
SECRETS_EXAMPLE = K8S / "secrets.example.yaml"

Doc = dict[str, Any]


def _load(path: Path) -> list[Doc]:
    with path.open() as f:
        return [doc for doc in yaml.safe_load_all(f) if doc is not None]


def _render(overlay: str) -> list[Doc]:
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        raise RuntimeError("kubectl (with kustomize) is needed to render deploy/k8s/overlays")
    rendered = subprocess.run(
        [kubectl, "kustomize", str(K8S / "overlays" / overlay)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    return [doc for doc in yaml.safe_load_all(rendered) if doc is not None]


RENDERED = {overlay: _render(overlay) for overlay in OVERLAYS}
APPLIED = RENDERED["development"]  # the whole stack, its servers included
PRODUCTION = RENDERED["production"]
DOCS = [
    *((f"{overlay}:{doc['kind']}/{doc['metadata']['name']}", doc)
      for overlay, docs in RENDERED.items() for doc in docs),
    *((f"example:Secret/{doc['metadata']['name']}", doc) for doc in _load(SECRETS_EXAMPLE)),
]  # fmt: skip


def _of_kind(kind: str, docs: list[Doc] = APPLIED) -> dict[str, Doc]:
    return {d["metadata"]["name"]: d for d in docs if d["kind"] == kind}


DEPLOYMENTS = _of_kind("Deployment")
WORKLOADS = [*DEPLOYMENTS.values(), *_of_kind("StatefulSet").values(), *_of_kind("Job").values()]
EXAMPLE_SECRETS = _of_kind("Secret", _load(SECRETS_EXAMPLE))


def _pod_spec(workload: Doc) -> Doc:
    return workload["spec"]["template"]["spec"]


def _containers(workload: Doc) -> list[Doc]:
    spec = _pod_spec(workload)
    return [*spec.get("initContainers", []), *spec["containers"]]


def _env(container: Doc) -> dict[str, Doc]:
    return {e["name"]: e for e in container.get("env", [])}


def _is_app(container: Doc) -> bool:
    """Deckyard's own image, as an overlay names it (``registry/deckyard/deckyard:tag``)."""
    return container["image"].rpartition(":")[0].endswith(f"/{APP_IMAGE}")


def _label(doc: Doc) -> str:
    return f"{doc['kind']}/{doc['metadata']['name']}"


# --- Kubernetes -----------------------------------------------------------------------


def test_each_overlay_renders_the_application():
    assert len(APPLIED) >= 30 and len(PRODUCTION) >= 25


@pytest.mark.parametrize("doc", [d for _, d in DOCS], ids=[name for name, _ in DOCS])
def test_manifest_is_valid_against_the_kubernetes_schema(doc):
    assert kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True) == KUBERNETES_VERSION


def _kustomization(directory: Path) -> Doc:
    kustomization = yaml.safe_load((directory / "kustomization.yaml").read_text())
    assert kustomization["apiVersion"] == "kustomize.config.k8s.io/v1beta1"
    assert kustomization["kind"] == "Kustomization"
    assert kustomization["namespace"] == NAMESPACE
    assert len(kustomization["resources"]) == len(set(kustomization["resources"]))
    return kustomization


def _yaml_files(directory: Path) -> set[str]:
    return {p.name for p in directory.glob("*.y*ml")} - {"kustomization.yaml"}


def test_every_manifest_file_is_in_a_kustomization_and_the_secrets_example_in_none():
    base = _kustomization(BASE)
    assert set(base["resources"]) == _yaml_files(BASE)
    development_dir = K8S / "overlays" / "development"
    development = _kustomization(development_dir)
    assert set(development["resources"]) == {"../../base", *_yaml_files(development_dir)}
    production_dir = K8S / "overlays" / "production"
    production = _kustomization(production_dir)
    assert production["resources"] == ["../../base"]
    assert {patch["path"] for patch in production["patches"]} == _yaml_files(production_dir)
    for kustomization in (development, production):
        (image,) = kustomization["images"]
        assert image["name"] == APP_IMAGE and image["newTag"], "an overlay pins the image"


def test_production_runs_no_database_or_broker_and_the_same_application():
    assert not _of_kind("StatefulSet", PRODUCTION)
    assert not _of_kind("PersistentVolumeClaim", PRODUCTION)
    assert set(_of_kind("Deployment", PRODUCTION)) == set(DEPLOYMENTS)
    assert set(_of_kind("Job", PRODUCTION)) == set(_of_kind("Job"))
    assert not {"postgres", "rabbitmq"} & set(_of_kind("Service", PRODUCTION))


def test_production_reaches_its_external_servers_only_by_address_and_port():
    """No egress rule of production selects pods that do not exist there; the servers
    are reached by address on their own ports (PostgreSQL 5432, AMQP 5672/5671)."""
    policies = _of_kind("NetworkPolicy", PRODUCTION)
    reached: dict[str, set[int]] = {}
    for name in ("gateway", "services", "migration"):
        for rule in policies[name]["spec"]["egress"]:
            ports = {port["port"] for port in rule["ports"]}
            for peer in rule["to"]:
                assert "podSelector" not in peer, f"{name}: a pod that production does not run"
            if ports & {5432, 5671, 5672}:
                reached.setdefault(name, set()).update(ports)
    assert reached == {
        "gateway": {5671, 5672},
        "services": {5432, 5671, 5672},
        "migration": {5432},
    }


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_object_of_an_overlay_lives_in_the_deckyard_namespace(overlay):
    docs = RENDERED[overlay]
    assert set(_of_kind("Namespace", docs)) == {NAMESPACE}
    for doc in docs:
        if doc["kind"] != "Namespace":
            assert doc["metadata"].get("namespace") == NAMESPACE, _label(doc)


def test_no_manifest_mentions_the_development_token_issuer():
    for path in K8S.rglob("*"):
        if path.is_file():
            assert "DEV_AUTH" not in path.read_text(), path


def test_no_manifest_turns_the_test_clock_on():
    """CLOCK_CONTROL=1 needs DEV_AUTH=1 (refused at start otherwise), which no manifest
    sets: neither overlay, production least of all, may move the platform's clock."""
    for path in K8S.rglob("*"):
        if path.is_file():
            assert "CLOCK_CONTROL" not in path.read_text(), path
    for overlay, docs in RENDERED.items():
        for doc in docs:
            assert "CLOCK_CONTROL" not in json.dumps(doc), (overlay, _label(doc))


def test_every_service_and_the_gateway_has_a_deployment():
    assert set(DEPLOYMENTS) == {*SERVICES, "gateway"}
    for name, deployment in DEPLOYMENTS.items():
        assert deployment["apiVersion"] == "apps/v1"
        # The HorizontalPodAutoscaler owns the count (test below); a fixed one would be
        # put back by every `kubectl apply`.
        assert "replicas" not in deployment["spec"], name
        (container,) = _pod_spec(deployment)["containers"]
        assert _is_app(container), name
        assert container["command"] == ["deckyard", "run", "--service", name]


def test_workload_selectors_match_their_pod_labels():
    for workload in WORKLOADS:
        if workload["kind"] == "Job":
            continue
        selector = workload["spec"]["selector"]["matchLabels"]
        labels = workload["spec"]["template"]["metadata"]["labels"]
        assert selector, _label(workload)
        assert selector.items() <= labels.items(), _label(workload)


@pytest.mark.parametrize("name", [*SERVICES, "gateway"])
def test_deployment_probes_its_health_endpoints_on_its_first_port(name):
    port = 8000 if name == "gateway" else 8080
    (container,) = _pod_spec(DEPLOYMENTS[name])["containers"]
    ports = [p["containerPort"] for p in container["ports"]]
    assert ports == ([port, STATUS_PORT] if name == "gateway" else [port])
    port_name = container["ports"][0]["name"]
    for probe, path in (("readinessProbe", "/ready"), ("livenessProbe", "/health")):
        http_get = container[probe]["httpGet"]
        assert http_get["path"] == path
        assert http_get["port"] in (port, port_name)


def test_every_container_has_resource_requests_and_limits():
    for workload in WORKLOADS:
        for container in _containers(workload):
            resources = container["resources"]
            for bound in ("requests", "limits"):
                assert {"cpu", "memory"} <= resources[bound].keys(), _label(workload)


def test_every_workload_runs_as_non_root_without_privilege_escalation():
    for workload in WORKLOADS:
        pod = _pod_spec(workload).get("securityContext", {})
        for container in _containers(workload):
            ctx = container.get("securityContext", {})
            assert ctx.get("runAsNonRoot", pod.get("runAsNonRoot")) is True, _label(workload)
            assert ctx.get("runAsUser", pod.get("runAsUser", 0)) != 0, _label(workload)
            assert ctx.get("allowPrivilegeEscalation") is False, _label(workload)
            assert ctx.get("privileged", False) is False, _label(workload)
            assert ctx["capabilities"]["drop"] == ["ALL"], _label(workload)


def test_deckyard_containers_are_locked_down():
    app = [w for w in WORKLOADS if _is_app(_containers(w)[0])]
    assert len(app) == len(SERVICES) + 2  # the services, the gateway and the migration Job
    for workload in app:
        for container in _containers(workload):
            ctx = container["securityContext"]
            assert ctx["runAsNonRoot"] is True
            assert ctx["runAsUser"] == APP_UID
            assert ctx["readOnlyRootFilesystem"] is True
            assert ctx["allowPrivilegeEscalation"] is False
            assert ctx["capabilities"] == {"drop": ["ALL"]}


def test_secrets_come_only_by_secret_key_ref():
    for workload in WORKLOADS:
        for container in _containers(workload):
            for source in container.get("envFrom", []):
                assert "secretRef" not in source, "name each secret key explicitly"
            for name, var in _env(container).items():
                if name in SECRET_ENV:
                    assert "value" not in var, f"{_label(workload)}: {name}"
                    assert "secretKeyRef" in var["valueFrom"], f"{_label(workload)}: {name}"
    for config_map in _of_kind("ConfigMap").values():
        assert not SECRET_ENV & config_map["data"].keys()
        for value in config_map["data"].values():
            assert "://" not in value or "@" not in value, "credentials in a ConfigMap"


def test_every_referenced_secret_key_is_documented_in_the_example():
    referenced = set()
    for workload in WORKLOADS:
        for container in _containers(workload):
            for var in _env(container).values():
                ref = var.get("valueFrom", {}).get("secretKeyRef")
                if ref:
                    referenced.add((ref["name"], ref["key"]))
    assert referenced
    example = {(name, key) for name, s in EXAMPLE_SECRETS.items() for key in s["stringData"]}
    assert referenced <= example
    assert not _of_kind("Secret"), "real Secrets are created outside the kustomization"


def test_example_secrets_hold_only_placeholders():
    for secret in EXAMPLE_SECRETS.values():
        for key, value in secret["stringData"].items():
            if key.endswith(("PASSWORD", "PASS", "SECRET", "URL", "URI", "CLIENT_ID")):
                assert "CHANGE-ME" in value, f"{secret['metadata']['name']}.{key}"


def test_only_accounts_gets_the_auth0_management_credentials():
    for workload in WORKLOADS:
        for container in _containers(workload):
            has_mgmt = {"AUTH0_MGMT_CLIENT_ID", "AUTH0_MGMT_CLIENT_SECRET"} & _env(container).keys()
            if workload["metadata"]["name"] == "accounts":
                assert len(has_mgmt) == 2
            else:
                assert not has_mgmt, _label(workload)


def test_app_containers_read_the_config_map():
    config_maps = set(_of_kind("ConfigMap"))
    for workload in WORKLOADS:
        for container in _containers(workload):
            if not _is_app(container):
                continue
            refs = {s["configMapRef"]["name"] for s in container.get("envFrom", [])}
            assert refs and refs <= config_maps, _label(workload)
            assert "AMQP_URI" in _env(container), _label(workload)


def _database_secret(workload: Doc) -> str | None:
    """The Secret a workload's DATABASE_URL comes from, None without one."""
    (container,) = _pod_spec(workload)["containers"]
    var = _env(container).get("DATABASE_URL")
    return None if var is None else var["valueFrom"]["secretKeyRef"]["name"]


def test_each_service_holds_only_its_own_database_role_and_the_gateway_none():
    for service in SERVICES:
        assert _database_secret(DEPLOYMENTS[service]) == f"deckyard-db-{service}"
    assert _database_secret(DEPLOYMENTS["gateway"]) is None, "the gateway has no database"
    (job,) = _of_kind("Job").values()
    assert _database_secret(job) == "deckyard-db-migrate", "only the Job migrates"
    example = EXAMPLE_SECRETS[f"deckyard-db-{SERVICES[0]}"]["stringData"]["DATABASE_URL"]
    assert example.startswith(f"postgresql://deckyard_{SERVICES[0]}:")  # its role's name


def test_production_mode_is_configured():
    config = _of_kind("ConfigMap")[APP_CONFIG]
    assert config["data"]["DECKYARD_ENV"] == "production"


def test_production_declares_quorum_queues_and_keeps_the_base_configuration():
    # Quorum queues survive a broker node's loss; the in-cluster single-node broker of
    # development keeps classic ones (shared/queues.py, docs/reliability.md).
    production = _of_kind("ConfigMap", PRODUCTION)[APP_CONFIG]
    development = _of_kind("ConfigMap")[APP_CONFIG]
    assert production["data"]["QUORUM_QUEUES"] == "1"
    assert "QUORUM_QUEUES" not in development["data"]
    assert set(development["data"]) <= set(production["data"])


def test_the_gateway_trusts_exactly_the_ingress_as_a_proxy():
    # One Ingress in front of the gateway: one hop. The gateway reads the ConfigMap as its
    # environment, so it must load as settings (with the secrets the pods add).
    config = _of_kind("ConfigMap")[APP_CONFIG]
    (ingress,) = _of_kind("Ingress").values()
    assert ingress["spec"]["rules"]
    secrets = {"DATABASE_URL": "postgresql://u:p@db/postgres", "AMQP_URI": "amqp://u:p@mq/"}
    settings = load_settings({**config["data"], **secrets})
    assert settings.trusted_proxy_hops == 1
    assert settings.trusted_proxy_header == "X-Forwarded-For"
    (container,) = _pod_spec(DEPLOYMENTS["gateway"])["containers"]
    assert {"configMapRef": {"name": config["metadata"]["name"]}} in container["envFrom"]
    assert "TRUSTED_PROXY_HOPS" not in _env(container)  # one value, in the ConfigMap


def test_migrations_run_as_a_job():
    jobs = _of_kind("Job")
    assert len(jobs) == 1
    (job,) = jobs.values()
    assert job["apiVersion"] == "batch/v1"
    (container,) = _pod_spec(job)["containers"]
    # Every install gets the card catalogue (no starter grant works without it), not the demo.
    assert [*container.get("command", []), *container.get("args", [])] == [
        "deckyard",
        "migrate",
        "--seed",
        "catalogue",
    ]
    assert _pod_spec(job)["restartPolicy"] in ("OnFailure", "Never")
    # The next release can apply its Job without anybody deleting this one by hand.
    assert 0 < job["spec"]["ttlSecondsAfterFinished"] <= 3600
    for deployment in DEPLOYMENTS.values():
        for c in _containers(deployment):
            assert "migrate" not in c["command"], "migrations do not run at container start"


def test_the_gateway_is_reachable_through_its_service_and_ingress():
    service = _of_kind("Service")["gateway"]
    pod_labels = DEPLOYMENTS["gateway"]["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= pod_labels.items()
    (port,) = service["spec"]["ports"]
    (container,) = _pod_spec(DEPLOYMENTS["gateway"])["containers"]
    assert port["targetPort"] in (8000, container["ports"][0]["name"])

    (ingress,) = _of_kind("Ingress").values()
    assert ingress["apiVersion"] == "networking.k8s.io/v1"
    backends = [
        path["backend"]["service"]
        for rule in ingress["spec"]["rules"]
        for path in rule["http"]["paths"]
    ]
    assert backends
    for backend in backends:
        assert backend["name"] == "gateway"
        assert backend["port"] in ({"name": port["name"]}, {"number": port["port"]})


def test_the_gateway_status_port_is_configured_and_in_no_service():
    config = _of_kind("ConfigMap")[APP_CONFIG]
    secrets = {"DATABASE_URL": "postgresql://u:p@db/postgres", "AMQP_URI": "amqp://u:p@mq/"}
    assert load_settings({**config["data"], **secrets}).status_port == STATUS_PORT
    (container,) = _pod_spec(DEPLOYMENTS["gateway"])["containers"]
    status = next(p for p in container["ports"] if p["containerPort"] == STATUS_PORT)
    for service in _of_kind("Service").values():
        for port in service["spec"]["ports"]:
            assert port.get("targetPort") not in (STATUS_PORT, status["name"]), _label(service)
            assert port["port"] != STATUS_PORT, _label(service)
    # Nothing may reach it through the network but Prometheus, from its own namespace
    # (GET /metrics, docs/operations.md): the ingress controller reaches the API port only.
    pod = _pod_labels(DEPLOYMENTS["gateway"])
    for policy in _of_kind("NetworkPolicy").values():
        if _selects(policy["spec"]["podSelector"], pod):
            for rule in policy["spec"].get("ingress", []):
                ports = {p["port"] for p in rule.get("ports", [])}
                assert status["name"] not in ports
                if STATUS_PORT in ports:
                    assert rule["from"] == [MONITORING_PEER], policy["metadata"]["name"]


def test_only_the_gateway_is_exposed_outside_the_cluster():
    for service in _of_kind("Service").values():
        assert service["spec"].get("type", "ClusterIP") == "ClusterIP", _label(service)


@pytest.mark.parametrize(
    ("name", "image", "mount"),
    [
        ("postgres", "postgis/postgis:15-3.4", "/var/lib/postgresql/data"),
        ("rabbitmq", "rabbitmq:3.13", "/var/lib/rabbitmq"),
    ],
)
def test_database_and_broker_are_stateful_sets_with_volumes(name, image, mount):
    stateful_set = _of_kind("StatefulSet")[name]
    assert stateful_set["apiVersion"] == "apps/v1"
    assert stateful_set["spec"]["serviceName"] in _of_kind("Service")
    (claim,) = stateful_set["spec"]["volumeClaimTemplates"]
    (container,) = _pod_spec(stateful_set)["containers"]
    assert container["image"] == image
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    assert mounts[claim["metadata"]["name"]] == mount
    assert container["readinessProbe"] and container["livenessProbe"]


# --- compose.yml ----------------------------------------------------------------------

COMPOSE_DOC: Doc = yaml.safe_load(COMPOSE.read_text())
COMPOSE_SERVICES: dict[str, Doc] = COMPOSE_DOC["services"]
ONE_SHOT = {"migrate"}


def test_compose_has_the_whole_stack():
    assert set(COMPOSE_SERVICES) == {"postgres", "rabbitmq", "migrate", *SERVICES, "gateway"}
    assert COMPOSE_SERVICES["postgres"]["image"].startswith("postgis/postgis:")
    assert COMPOSE_SERVICES["rabbitmq"]["image"].startswith("rabbitmq:3.13")
    # compose is for trying the platform: the catalogue and the README's demo events.
    assert COMPOSE_SERVICES["migrate"]["command"] == ["deckyard", "migrate", "--seed", "demo"]
    for name in (*SERVICES, "gateway"):
        assert COMPOSE_SERVICES[name]["command"] == ["deckyard", "run", "--service", name]


def test_every_long_running_compose_service_has_a_healthcheck():
    for name, service in COMPOSE_SERVICES.items():
        if name in ONE_SHOT:
            continue
        healthcheck = service.get("healthcheck", {})
        assert healthcheck.get("test"), name
        assert not healthcheck.get("disable"), name


@pytest.mark.parametrize("name", [*SERVICES, "gateway"])
def test_compose_app_healthchecks_ask_the_ready_endpoint(name):
    port = 8000 if name == "gateway" else 8080
    test = COMPOSE_SERVICES[name]["healthcheck"]["test"]
    assert test[0] == "CMD"
    assert f"http://127.0.0.1:{port}/ready" in " ".join(test)


def test_compose_dependencies_wait_for_health_or_completion():
    for name, service in COMPOSE_SERVICES.items():
        depends_on = service.get("depends_on", {})
        assert isinstance(depends_on, dict), f"{name}: use the long form with a condition"
        for dependency, spec in depends_on.items():
            expected = (
                "service_completed_successfully" if dependency in ONE_SHOT else "service_healthy"
            )
            assert spec["condition"] == expected, f"{name} -> {dependency}"
    for name in SERVICES:
        assert {"postgres", "rabbitmq", "migrate"} <= COMPOSE_SERVICES[name]["depends_on"].keys()
    assert set(SERVICES) <= COMPOSE_SERVICES["gateway"]["depends_on"].keys()
    assert "postgres" in COMPOSE_SERVICES["migrate"]["depends_on"]


def test_compose_publishes_only_the_gateway_on_8000_on_loopback_by_default():
    # Development sign-in is on in compose: anyone who reaches the port mints a token.
    published = {name: s["ports"] for name, s in COMPOSE_SERVICES.items() if s.get("ports")}
    assert published == {"gateway": ["${GATEWAY_BIND:-127.0.0.1}:8000:8000"]}


def test_the_broker_serves_its_prometheus_metrics_in_compose_and_the_cluster():
    enabled = COMPOSE_SERVICES["rabbitmq"]["volumes"]
    assert "./deploy/rabbitmq/enabled_plugins:/etc/rabbitmq/enabled_plugins:ro" in enabled
    assert (ROOT / "deploy/rabbitmq/enabled_plugins").read_text() == "[rabbitmq_prometheus].\n"
    plugins = _of_kind("ConfigMap")["rabbitmq-plugins"]["data"]["enabled_plugins"]
    assert plugins == "[rabbitmq_prometheus].\n"
    broker = _of_kind("StatefulSet")["rabbitmq"]
    [container] = _containers(broker)
    assert {"name": "prometheus", "containerPort": 15692} in container["ports"]
    mount = {"name": "plugins", "mountPath": "/etc/rabbitmq/enabled_plugins"}
    assert any(mount.items() <= m.items() for m in container["volumeMounts"])
    pod = _pod_labels(broker)
    assert any(
        _selects(policy["spec"]["podSelector"], pod)
        and any(
            rule.get("from") == [MONITORING_PEER] and {p["port"] for p in rule["ports"]} == {15692}
            for rule in policy["spec"].get("ingress", [])
        )
        for policy in _of_kind("NetworkPolicy").values()
    )


def test_compose_runs_the_development_issuer_outside_production_mode():
    for name in (*SERVICES, "gateway"):
        assert COMPOSE_SERVICES[name]["environment"]["DEV_AUTH"] == "1"
        assert COMPOSE_SERVICES[name]["environment"].get("DECKYARD_ENV") != "production"


@pytest.mark.parametrize("name", [*SERVICES, "gateway"])
def test_every_deployment_keeps_a_replica_through_a_drain_and_scales_on_cpu(name):
    budget = _of_kind("PodDisruptionBudget")[name]
    assert budget["spec"]["selector"]["matchLabels"] == {"app.kubernetes.io/name": name}
    assert budget["spec"]["minAvailable"] == 1
    scaler = _of_kind("HorizontalPodAutoscaler")[name]
    assert scaler["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": name,
    }
    assert 2 <= scaler["spec"]["minReplicas"] < scaler["spec"]["maxReplicas"]


def _pod_labels(workload: Doc) -> dict[str, str]:
    return workload["spec"]["template"]["metadata"]["labels"]


def _selects(selector: Doc, labels: dict[str, str]) -> bool:
    for key, value in selector.get("matchLabels", {}).items():
        if labels.get(key) != value:
            return False
    for expression in selector.get("matchExpressions", []):
        assert expression["operator"] == "In"
        if labels.get(expression["key"]) not in expression["values"]:
            return False
    return True


def _allowed(direction: str, pod: dict[str, str], peer: dict[str, str], port: int) -> bool:
    """Whether the policies let ``pod`` receive from / send to ``peer`` on ``port``
    (peers in this namespace, selected by pod labels)."""
    rules_key, peers_key = ("ingress", "from") if direction == "in" else ("egress", "to")
    for policy in _of_kind("NetworkPolicy").values():
        if not _selects(policy["spec"]["podSelector"], pod):
            continue
        for rule in policy["spec"].get(rules_key, []):
            ports = {p["port"] for p in rule.get("ports", [])}
            peers = [p["podSelector"] for p in rule.get(peers_key, []) if set(p) == {"podSelector"}]
            if port in ports and any(_selects(sel, peer) for sel in peers):
                return True
    return False


def test_network_policies_refuse_everything_not_allowed():
    deny = _of_kind("NetworkPolicy")["default-deny"]["spec"]
    assert deny["podSelector"] == {} and set(deny["policyTypes"]) == {"Ingress", "Egress"}


def test_each_service_reaches_only_the_database_and_the_broker():
    postgres = _pod_labels(_of_kind("StatefulSet")["postgres"])
    rabbitmq = _pod_labels(_of_kind("StatefulSet")["rabbitmq"])
    gateway = _pod_labels(DEPLOYMENTS["gateway"])
    for name in SERVICES:
        pod = _pod_labels(DEPLOYMENTS[name])
        assert _allowed("out", pod, postgres, 5432) and _allowed("in", postgres, pod, 5432)
        assert _allowed("out", pod, rabbitmq, 5672) and _allowed("in", rabbitmq, pod, 5672)
        assert not _allowed("out", pod, gateway, 8000)
        for other in SERVICES:
            assert not _allowed("in", _pod_labels(DEPLOYMENTS[other]), pod, 8080)


def test_the_gateway_reaches_the_broker_but_no_database():
    gateway = _pod_labels(DEPLOYMENTS["gateway"])
    postgres = _pod_labels(_of_kind("StatefulSet")["postgres"])
    rabbitmq = _pod_labels(_of_kind("StatefulSet")["rabbitmq"])
    assert _allowed("out", gateway, rabbitmq, 5672) and _allowed("in", rabbitmq, gateway, 5672)
    assert not _allowed("out", gateway, postgres, 5432)
    assert not _allowed("in", postgres, gateway, 5432)


def test_only_the_gateway_takes_traffic_from_the_ingress_controller():
    takers = []
    for policy in _of_kind("NetworkPolicy").values():
        for rule in policy["spec"].get("ingress", []):
            if rule.get("from") == [MONITORING_PEER]:  # Prometheus: the metrics ports only
                assert {p["port"] for p in rule["ports"]} in ({8080, STATUS_PORT}, {15692})
            elif any("namespaceSelector" in peer for peer in rule.get("from", [])):
                takers.append(policy["spec"]["podSelector"])
    assert takers == [{"matchLabels": {"app.kubernetes.io/name": "gateway"}}]


def test_every_deckyard_pod_asks_to_be_scraped_on_its_metrics_port():
    for name, deployment in DEPLOYMENTS.items():
        if name not in (*SERVICES, "gateway"):
            continue
        annotations = deployment["spec"]["template"]["metadata"]["annotations"]
        port = STATUS_PORT if name == "gateway" else 8080
        assert annotations == {
            "prometheus.io/scrape": "true",
            "prometheus.io/port": str(port),
            "prometheus.io/path": "/metrics",
        }
        pod = _pod_labels(deployment)
        assert any(
            _selects(policy["spec"]["podSelector"], pod)
            and any(
                rule.get("from") == [MONITORING_PEER] and port in {p["port"] for p in rule["ports"]}
                for rule in policy["spec"].get("ingress", [])
            )
            for policy in _of_kind("NetworkPolicy").values()
        ), name


# --- Dockerfile -----------------------------------------------------------------------


def _dockerfile_instructions() -> list[tuple[str, str]]:
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1])
        for line in lines
        if line and not line.startswith("#")
    ]


def test_the_image_runs_the_gateway_as_a_non_root_user():
    instructions = _dockerfile_instructions()
    bases = [arg for op, arg in instructions if op == "FROM"]
    # Python stages, and the web client's build stage, whose output only is copied.
    assert all(b.startswith(("python:3.11-slim", "node:20-bookworm-slim")) for b in bases)
    assert bases[-1].startswith("python:3.11-slim")
    assert ("COPY", "--from=web /src/web/dist /app/web") in instructions
    users = [arg for op, arg in instructions if op == "USER"]
    assert users and users[-1].split(":")[0] == str(APP_UID)
    assert instructions[-1] == ("CMD", '["deckyard", "run", "--service", "gateway"]')
    copied = " ".join(arg for op, arg in instructions if op == "COPY")
    for needed in ("pyproject.toml", "README.md", "shared", "services", "gateway", "deckyard"):
        assert needed in copied


def test_the_image_copies_every_package_the_project_installs():
    """The games package was added to pyproject.toml and not to the image once."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = [p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]]
    copied = [arg.split()[0] for op, arg in _dockerfile_instructions() if op == "COPY"]
    assert set(packages) <= set(copied)


def test_the_image_installs_the_locked_dependencies_before_the_code():
    instructions = _dockerfile_instructions()
    runs = [i for i, (op, arg) in enumerate(instructions) if op == "RUN"]
    locked = [
        i for i in runs if "--require-hashes -r requirements/runtime.lock" in instructions[i][1]
    ]
    first_code = min(
        i for i, (op, arg) in enumerate(instructions) if op == "COPY" and arg.startswith("games")
    )
    assert locked and locked[0] < first_code  # a code change keeps the dependency layer
    assert any("--no-deps ." in arg for op, arg in instructions if op == "RUN")


def test_the_image_has_a_healthcheck_on_the_health_endpoint():
    checks = [arg for op, arg in _dockerfile_instructions() if op == "HEALTHCHECK"]
    assert checks and "deckyard.healthcheck" in checks[0]
