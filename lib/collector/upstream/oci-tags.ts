// Chart versions in an OCI registry: the tags of the chart's repository, through the registry v2 API
// (GET /v2/<repo>/tags/list). Public registries answer 401 with a Bearer challenge first; an anonymous
// token from the realm it names opens the read. Helm stores "+" in versions as "_" in tags.
import { describeFetchError, UpstreamError } from "./helm-index";

export interface OciTarget {
  registry: string;
  repository: string;
  /** Plain HTTP (spec.insecure on the Flux source). */
  insecure: boolean;
}

const MAX_PAGES = 20;

/** Parses `Bearer realm="…",service="…",scope="…"`. */
export function parseBearerChallenge(header: string | null): { realm: string; params: Record<string, string> } | null {
  if (!header || !/^bearer\s/i.test(header)) return null;
  const params: Record<string, string> = {};
  for (const m of header.slice(7).matchAll(/([a-zA-Z_]+)="([^"]*)"/g)) params[m[1].toLowerCase()] = m[2];
  if (!params.realm) return null;
  const { realm, ...rest } = params;
  return { realm, params: rest };
}

async function anonymousToken(
  challenge: { realm: string; params: Record<string, string> },
  repository: string,
  timeoutMs: number,
): Promise<string> {
  const url = new URL(challenge.realm);
  if (challenge.params.service) url.searchParams.set("service", challenge.params.service);
  url.searchParams.set("scope", challenge.params.scope ?? `repository:${repository}:pull`);
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new UpstreamError(`token ${url.origin}${url.pathname}: ${describeFetchError(err)}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new UpstreamError(`token ${url.origin}${url.pathname}: HTTP ${res.status} (anonymous pull refused)`);
  }
  const body = (await res.json().catch(() => ({}))) as { token?: string; access_token?: string };
  const token = body.token ?? body.access_token;
  if (!token) throw new UpstreamError(`token ${url.origin}${url.pathname}: no token in response`);
  return token;
}

function nextLink(header: string | null, base: string): string | null {
  const m = header ? /<([^>]+)>\s*;\s*rel="?next"?/i.exec(header) : null;
  return m ? new URL(m[1], base).toString() : null;
}

export async function listOciTags(target: OciTarget, options: { timeoutMs: number }): Promise<string[]> {
  const origin = `${target.insecure ? "http" : "https"}://${target.registry}`;
  let url: string | null = `${origin}/v2/${target.repository}/tags/list`;
  let token: string | null = null;
  const tags: string[] = [];
  for (let page = 0; url && page < MAX_PAGES; page++) {
    let res: Response = await get(url, token, options.timeoutMs);
    if (res.status === 401 && !token) {
      const challenge = parseBearerChallenge(res.headers.get("www-authenticate"));
      await res.body?.cancel();
      if (!challenge) throw new UpstreamError(`GET ${url}: registry requires credentials`);
      token = await anonymousToken(challenge, target.repository, options.timeoutMs);
      res = await get(url, token, options.timeoutMs);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new UpstreamError(`GET ${url}: HTTP ${res.status}`);
    }
    const body = (await res.json().catch(() => null)) as { tags?: unknown } | null;
    if (!body || (body.tags !== null && !Array.isArray(body.tags))) throw new UpstreamError(`GET ${url}: not a tag list`);
    for (const t of (body.tags as unknown[] | null) ?? []) if (typeof t === "string") tags.push(t);
    url = nextLink(res.headers.get("link"), url);
  }
  return tags;
}

async function get(url: string, token: string | null, timeoutMs: number): Promise<Response> {
  try {
    return await fetch(url, {
      headers: { accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    throw new UpstreamError(`GET ${url}: ${describeFetchError(err)}`);
  }
}

/** Tags that are chart versions ("1.8.1", "v1.19.1", "1.2.3_abc" → "1.2.3+abc"); "latest", digests skipped. */
export function chartVersionsFromTags(tags: readonly string[]): string[] {
  return tags.map((t) => t.replace(/_/g, "+")).filter((t) => /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.test(t));
}
