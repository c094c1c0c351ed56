// The key CSRF tokens are derived from: SESSION_SECRET when set, else one generated once per deployment
// and kept in the database. A key made per process would differ between web replicas, and between the
// copies of this module the Next.js bundle holds (the page that renders a token and the route that
// checks it would disagree).
import { getOrCreateSecret } from "../db/secrets";
import type { AuthConfig } from "./config";

let stored: Promise<string> | undefined;

export function csrfKey(cfg: AuthConfig): Promise<string> {
  if (cfg.secret) return Promise.resolve(cfg.secret);
  stored ??= getOrCreateSecret("csrf").catch((err: unknown) => {
    stored = undefined; // try again on the next request (the database may be back)
    throw err;
  });
  return stored;
}
