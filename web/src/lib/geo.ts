/** The browser's position as a location claim: what the phone reports, checked by the server. */

export interface LocationClaim {
  lat: number;
  lon: number;
  accuracyM: number;
  acquiredAt: string;
}

export function claimFrom(position: GeolocationPosition): LocationClaim {
  return {
    lat: position.coords.latitude,
    lon: position.coords.longitude,
    accuracyM: Math.max(0, Math.round(position.coords.accuracy)),
    acquiredAt: new Date(position.timestamp).toISOString(),
  };
}

const GEO_ERRORS: Record<number, string> = {
  1: "Location permission was refused. Allow location for this site to find events near you.",
  2: "Your position is not available right now.",
  3: "Finding your position took too long. Try again.",
};

export function locate(geo: Geolocation | undefined = navigator.geolocation): Promise<LocationClaim> {
  return new Promise((resolve, reject) => {
    if (!geo) {
      reject(new Error("This browser cannot tell its position."));
      return;
    }
    geo.getCurrentPosition(
      (position) => resolve(claimFrom(position)),
      (error) => reject(new Error(GEO_ERRORS[error.code] ?? error.message)),
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 0 },
    );
  });
}

export function formatDistance(metres: number): string {
  return metres < 1000 ? `${Math.round(metres)} m` : `${(metres / 1000).toFixed(1)} km`;
}
