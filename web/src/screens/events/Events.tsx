/**
 * Events near you: the browser's position, the events whose area is near, and starting
 * an event's challenge with that position as the claim (the server checks it).
 */
import { lazy, Suspense } from "preact/compat";
import { useState } from "preact/hooks";

import { api, listed, type Schemas, unwrap } from "../../api/client";
import { config } from "../../config";
import { formatDistance, locate, type LocationClaim } from "../../lib/geo";
import { navigate } from "../../lib/router";
import { ProblemBox, Screen } from "../../ui/components";
import { useAction } from "../../ui/resource";

const EventMap = lazy(() => import("./EventMap"));

function when(iso: string | undefined): string {
  return iso ? new Date(iso).toLocaleString() : "";
}

export function Events() {
  const [here, setHere] = useState<LocationClaim | null>(null);
  const [events, setEvents] = useState<Schemas["NearbyEvent"][] | null>(null);
  const [geoError, setGeoError] = useState<string | null>(null);
  const finding = useAction();
  const starting = useAction();
  const cfg = config();

  const find = () =>
    finding.run(async () => {
      setGeoError(null);
      let claim: LocationClaim;
      try {
        claim = await locate();
      } catch (error) {
        setGeoError((error as Error).message);
        return;
      }
      setHere(claim);
      setEvents(await listed(api.GET("/quest/events", { params: { query: { lat: claim.lat, lon: claim.lon } } })));
    });

  const start = (event: Schemas["NearbyEvent"]) =>
    starting.run(async () => {
      // A fresh position for the claim: the server wants a recent one.
      const claim = await locate().catch(() => here);
      if (!claim) return;
      const attempt = await unwrap(
        api.POST("/quest/events/{event_id}/attempt", {
          params: { path: { event_id: event.id ?? "" } },
          body: { location: claim },
        }),
      );
      navigate({ name: "attempt", id: attempt.id ?? "" });
    });

  return (
    <Screen title="Events near you">
      <p>
        <button type="button" onClick={() => void find()} disabled={finding.busy}>
          {here ? "Look again from here" : "Find events near me"}
        </button>
      </p>
      {finding.busy && <p role="status">Finding your position…</p>}
      {geoError && <p role="alert">{geoError}</p>}
      <ProblemBox problem={finding.problem} />
      {here && (
        <p class="note">
          Your position: {here.lat.toFixed(5)}, {here.lon.toFixed(5)} (within {here.accuracyM} m).
        </p>
      )}
      {here && events && cfg.tilesUrl && (
        <Suspense fallback={<p>Loading the map…</p>}>
          <EventMap events={events} here={here} tilesUrl={cfg.tilesUrl} attribution={cfg.tilesAttribution} />
        </Suspense>
      )}
      {events && events.length === 0 && <p>No events near here right now.</p>}
      {events && events.length > 0 && (
        <ul class="events" aria-label="Events near you">
          {events.map((event) => {
            const inside = (event.distanceM ?? Infinity) <= (event.radiusM ?? 0);
            return (
              <li key={event.id}>
                <h2>{event.name}</h2>
                <p>{event.description}</p>
                <p>
                  {formatDistance(event.distanceM ?? 0)} away; its area reaches {event.radiusM} m from its centre.{" "}
                  <strong>{inside ? "You are inside the area." : "You are outside the area."}</strong>
                </p>
                <p class="note">Open {when(event.startsAt)} to {when(event.endsAt)}.</p>
                <button type="button" disabled={starting.busy} onClick={() => void start(event)}>
                  Start the challenge at {event.name}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <ProblemBox problem={starting.problem} title="The challenge did not start:" />
    </Screen>
  );
}
