// Auth settings in one shape, read from lib/env.ts.
import { env } from "../env";
import type { RoleMapping } from "./roles";

export interface AuthConfig {
  mode: "oidc" | "none";
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  groupsClaim: string;
  roles: RoleMapping;
  /**
   * SESSION_SECRET: keys sessions, OIDC transactions and CSRF tokens. Required with sign-in (the server
   * refuses to start without it); without sign-in, CSRF tokens use a key kept in the database (./keys.ts).
   */
  secret: string | null;
  /** Origin browsers use, e.g. https://crows-nest.example.com (no trailing slash). */
  publicOrigin?: string;
  /** Cookies get Secure when Crow's Nest is served over HTTPS. */
  secureCookies: boolean;
  actionsEnabled: boolean;
  metricsPublic: boolean;
  /** Proxies in front of us whose X-Forwarded-* headers are believed (TRUST_PROXY); 0 = none. */
  trustProxy: number;
}

export function authConfig(): AuthConfig {
  const e = env();
  const publicOrigin = e.PUBLIC_URL ? new URL(e.PUBLIC_URL).origin : undefined;
  return {
    mode: e.AUTH_MODE,
    issuer: e.OIDC_ISSUER,
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET || undefined,
    groupsClaim: e.OIDC_GROUPS_CLAIM,
    roles: { adminGroups: e.ROLE_ADMIN_GROUPS, operatorGroups: e.ROLE_OPERATOR_GROUPS, viewerGroups: e.ROLE_VIEWER_GROUPS },
    secret: e.SESSION_SECRET ?? null,
    publicOrigin,
    secureCookies: publicOrigin?.startsWith("https:") ?? false,
    actionsEnabled: e.ACTIONS_ENABLED,
    metricsPublic: e.METRICS_PUBLIC,
    trustProxy: e.TRUST_PROXY,
  };
}
