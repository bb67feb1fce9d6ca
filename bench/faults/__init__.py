"""Faults under load: SIGKILL of cards and of the gateway, RabbitMQ and PostgreSQL restarts.

    python bench/faults [--duration 240] [--workers 8] [--settle 300]   (make faults)

Starts the whole platform as separate processes (``deckyard run --service X``
for accounts, authoring, challenge, cards, battle and the gateway) against a
PostgreSQL cluster and a RabbitMQ node of its own, drives a steady load
through the gateway, and injects four faults while the load runs:

``cards``
    SIGKILL of the cards process (no clean shutdown: unacknowledged messages,
    open transactions and RPCs in flight die with it), ``--downtime`` seconds
    without it, then a new ``deckyard run --service cards``.
``gateway``
    SIGKILL of the gateway while ``--watchers`` players hold WebSockets on
    ``/stream`` (``faults/push.py``), ``--downtime`` seconds without it, then a new
    ``deckyard run --service gateway``. The watchers reconnect with the last message
    id they saw; the restarted gateway reads the push stream back and must send each
    of them what it missed: every ``MatchUpdated`` published for a watcher (10 a
    second throughout the run, as the battle relay publishes) must reach it exactly
    once, without a ``resync``.
``rabbitmq``
    the broker stops (``rabbitmqctl stop``: every connection closes), stays down
    ``--downtime`` seconds, then starts again on the same data directory.
``postgres``
    the database server stops (``pg_ctl stop -m fast``, or ``--pg-stop-mode
    immediate`` for a crash), stays down ``--downtime`` seconds, starts again.

After each fault it waits until every service's ``/ready`` and the gateway's
``/ready`` answer 200 (nobody touches the services), then runs a probe as a
new player: a starter grant, a CPU battle forfeited, an attempt completed;
and it waits until the attempt's reward shows in ``GET /quest/attempts/{id}``
and both progression entries in ``GET /me/progression``: the RPC paths and
the event paths (outbox relay, broker, reliable handlers) work again.

The load: ``--workers`` threads, each a sequence of new players (one
development token each; every thread its own loopback source address, so the
gateway's per-address rate limit sees ordinary clients). A player does one
of: a Quest attempt (start at a published event inserted into the challenge
read model as ``bench/answers.py`` does, then five answers, mostly the right
option so rewards have cards), a starter grant, or a CPU battle (starter,
deck, battle, a few greedy actions or the whole match, forfeit if not over).
Every step is retried while the platform answers 0/429/5xx, as an app would
(each request is idempotent or keyed; a lost reply is retried), for at most
``STEP_TIMEOUT`` seconds.

After the load it waits (at most ``--settle`` seconds) until everything owed
has happened, then checks the databases against each other and prints:

* completed attempts (challenge) against ``reward_grants`` rows and owned
  reward copies (cards: exactly the rolled number of copies per attempt), the
  reward shown back in challenge (``RewardGranted`` consumed) and the attempt's
  progression entry (accounts);
* finished matches (battle) against progression entries (accounts);
* starter grants: one ``starter_grants`` row and exactly 5 copies per player;
* each player's points against the sum of their entries;
* what the clients were told (acknowledged completions, matches, starters)
  against the databases;
* every service's outbox: rows, not yet published, republished;
* every consumer, delay and dead-letter queue's depth;
* the timeline of the faults, and the requests and flows of the load.

Exit status 1 if anything was lost or doubled, an outbox row is unpublished,
a message is parked or stuck in a queue, or a service did not recover by
itself (2 if the run could not be made).

Servers: by default a private PostgreSQL cluster (``initdb`` into a temporary
directory, port ``--pg-port``, run as the ``postgres`` user when this runs as
root) and a private RabbitMQ node (``rabbitmq-server`` with its own node name,
ports ``--amqp-port`` and +1, data directory, Erlang cookie and an empty plugin
list), both stopped and deleted at the end, also on failure and Ctrl-C: the
machine's shared servers are never touched. ``--database-url URL`` and
``--amqp-uri URI`` use existing servers instead (databases
``deckyard_faults_<random>_*``, dropped at the end, and a private vhost);
their restart is then ``--postgres-restart CMD`` / ``--rabbitmq-restart CMD``
(shell commands, e.g. ``'pg_ctlcluster --skip-systemctl-redirect 15 main
restart'``), and a fault without its command is skipped. Logs of every
process: ``bench/results/logs/faults-*.log``.

The package, in the order a run uses it: ``config`` (the numbers), ``servers`` (the
private PostgreSQL and RabbitMQ), ``platform`` (the service processes), ``load`` (the
players and their flows), ``push`` (the push watchers and their events), ``probe``
and ``inject`` (a fault and the recovery after it), ``checks`` (the databases against
each other), ``report`` (the tables), ``main``.
"""
