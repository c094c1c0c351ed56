// A Helm repository's index.yaml over HTTP, fetched conditionally with the ETag from the last fetch.
import { parse } from "yaml";
import { oneLine } from "../../errors";

export type IndexResult = { status: "not-modified" } | { status: "ok"; etag: string | null; charts: Map<string, string[]> };

export class UpstreamError extends Error {
  override name = "UpstreamError";
}

/** `${url}/index.yaml`, as source-controller builds it. */
export function indexUrl(repositoryUrl: string): string {
  return `${repositoryUrl.replace(/\/+$/, "")}/index.yaml`;
}

export async function fetchHelmIndex(
  repositoryUrl: string,
  options: { etag?: string | null; timeoutMs: number; maxBytes?: number },
): Promise<IndexResult> {
  const url = indexUrl(repositoryUrl);
  const headers: Record<string, string> = { accept: "application/x-yaml, text/yaml, */*" };
  if (options.etag) headers["if-none-match"] = options.etag;
  let res: Response;
  try {
    res = await fetch(url, { headers, signal: AbortSignal.timeout(options.timeoutMs), redirect: "follow" });
  } catch (err) {
    throw new UpstreamError(`GET ${url}: ${describeFetchError(err)}`);
  }
  if (res.status === 304) return { status: "not-modified" };
  if (!res.ok) {
    await res.body?.cancel();
    throw new UpstreamError(`GET ${url}: HTTP ${res.status}`);
  }
  const text = await res.text();
  if (options.maxBytes && text.length > options.maxBytes)
    throw new UpstreamError(`GET ${url}: index larger than ${options.maxBytes} bytes`);
  return { status: "ok", etag: res.headers.get("etag"), charts: parseHelmIndex(text, url) };
}

/** entries: { <chart>: [{ version, ... }] } → chart → versions. */
export function parseHelmIndex(text: string, where = "index.yaml"): Map<string, string[]> {
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 10_000 });
  } catch (err) {
    throw new UpstreamError(`${where}: not valid YAML (${oneLine(err)})`);
  }
  const entries = (doc as { entries?: unknown } | null)?.entries;
  if (!entries || typeof entries !== "object") throw new UpstreamError(`${where}: no entries`);
  const charts = new Map<string, string[]>();
  for (const [chart, list] of Object.entries(entries as Record<string, unknown>)) {
    if (!Array.isArray(list)) continue;
    charts.set(
      chart,
      list
        .map((e) => (e && typeof e === "object" ? (e as { version?: unknown }).version : undefined))
        .filter((v): v is string => typeof v === "string"),
    );
  }
  return charts;
}

export function describeFetchError(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return "timed out";
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
}
