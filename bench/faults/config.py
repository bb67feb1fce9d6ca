"""The run's numbers: what it starts, how long it waits, how the load behaves."""

from __future__ import annotations

SERVICES = ("accounts", "authoring", "challenge", "cards", "battle")
PROCESSES = (*SERVICES, "gateway")
FAULTS = ("cards", "gateway", "rabbitmq", "postgres")
FAULT_AT = {"cards": 0.15, "gateway": 0.35, "rabbitmq": 0.55, "postgres": 0.75}  # of --duration
DATABASE_PREFIX = "deckyard_faults"
RPC_EXCHANGE = "deckyard-faults-rpc"
VHOST_PREFIX = "deckyard-faults"
SEED = "services/authoring/seed/quest_cards.json"
AFFINITIES = ("Wit", "Grit", "Spark")  # the starter affinities the seed offers
STARTER_COPIES = 5  # 3 Creatures + 2 Power cards (docs/quest-collection.md)
FLOW_WEIGHTS = {"attempt": 3, "starter": 1, "battle": 2}
PLAY_OUT_SHARE = 0.3  # battles played to the end; the others forfeit after a few moves
MAX_ACTIONS = 40  # a played-out battle forfeits after this many actions
RIGHT_ANSWER_SHARE = 0.7  # so most attempts score 3+ and win cards

HTTP_TIMEOUT = 15.0  # the gateway answers 503 after RPC_TIMEOUT_SECONDS (5 s) anyway
STEP_TIMEOUT = 120.0  # seconds a flow retries one step before it gives up
THINK = (0.05, 0.25)  # seconds a player waits between two requests
RETRY_STATUSES = frozenset({0, 429, 500, 502, 503, 504})
READY_TIMEOUT = 180.0  # seconds for every /ready to answer 200 after a fault
PROBE_TIMEOUT = 120.0  # seconds for a probe's effects to show
SERVER_TIMEOUT = 120.0  # seconds for a private server to start or stop
START_TIMEOUT = 90.0  # seconds for the services to answer after start
CATALOGUE_TIMEOUT = 120.0  # seconds for the seed to reach cards' read model
MIN_GAP = 20.0  # seconds of plain load between a recovery and the next fault
PROGRESS_EVERY = 15.0
LOAD_STOP_TIMEOUT = STEP_TIMEOUT + 30.0


def log(message: str) -> None:
    print(f"  {message}", flush=True)
