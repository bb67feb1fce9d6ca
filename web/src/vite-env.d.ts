/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_API_ORIGIN?: string;
  readonly VITE_TILES_URL?: string;
  readonly VITE_TILES_ATTRIBUTION?: string;
  readonly VITE_AUTH0_DOMAIN?: string;
  readonly VITE_AUTH0_CLIENT_ID?: string;
  readonly VITE_AUTH0_AUDIENCE?: string;
  readonly VITE_AUTH0_ROLES_CLAIM?: string;
  readonly VITE_DEV_AUTH?: string;
}
