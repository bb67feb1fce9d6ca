/**
 * The events on a map (Leaflet, bundled; tiles from the configured URL). Markers are
 * circles, so no image is fetched; each has the event's name as its label. The list next
 * to it is the accessible way to the same events; the map is an extra.
 */
import "leaflet/dist/leaflet.css";

import L from "leaflet";
import { useEffect, useRef } from "preact/hooks";

import type { Schemas } from "../../api/client";
import type { LocationClaim } from "../../lib/geo";

export default function EventMap({
  events,
  here,
  tilesUrl,
  attribution,
}: {
  events: Schemas["NearbyEvent"][];
  here: LocationClaim;
  tilesUrl: string;
  attribution: string;
}) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!element.current) return;
    const map = L.map(element.current, { keyboard: true }).setView([here.lat, here.lon], 16);
    L.tileLayer(tilesUrl, { attribution, maxZoom: 19 }).addTo(map);
    L.circleMarker([here.lat, here.lon], { radius: 6 }).bindTooltip("You are here").addTo(map);
    for (const event of events) {
      if (event.lat === undefined || event.lon === undefined) continue;
      L.circle([event.lat, event.lon], { radius: event.radiusM ?? 50 })
        .bindTooltip(event.name ?? "")
        .addTo(map);
    }
    return () => map.remove();
  }, [events, here, tilesUrl, attribution]);
  return <div ref={element} class="map" role="img" aria-label="Map of the events near you (the list below has the same events)" />;
}
