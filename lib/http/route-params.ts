// The one reader of dynamic route segments, for pages and route handlers alike. Next.js hands params
// percent-decoded once (a malformed sequence such as %FF never gets this far: proxy.ts answers 400), so
// nothing is decoded again here (a literal "%" in a name stays one). What no cluster or object can be
// named (NUL, which PostgreSQL cannot even compare, other control characters, lone surrogates, empty
// or overlong values) is a 404, never a database error.
import { notFound } from "next/navigation";
import { NotFoundError } from "../errors";

/** Longer than any Kubernetes name (253) or EKS cluster ARN. */
const MAX_LENGTH = 512;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function routeParam(value: string | string[] | undefined): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LENGTH) return null;
  if (CONTROL.test(value) || LONE_SURROGATE.test(value)) return null;
  return value;
}

/** Every param of a route, checked; a NotFoundError (404) when one is not a possible name. */
export async function readRouteParams<K extends string>(
  params: Promise<Record<K, string | string[] | undefined>>,
): Promise<Record<K, string>> {
  const raw = await params;
  const out = {} as Record<K, string>;
  for (const key of Object.keys(raw) as K[]) {
    const value = routeParam(raw[key]);
    if (value === null) throw new NotFoundError(`no such ${key}`);
    out[key] = value;
  }
  return out;
}

/** For pages: every param of the route, checked; the not-found page when one is not a possible name. */
export async function readPageParams<K extends string>(
  params: Promise<Record<K, string | string[] | undefined>>,
): Promise<Record<K, string>> {
  try {
    return await readRouteParams(params);
  } catch (err) {
    if (err instanceof NotFoundError) notFound();
    throw err;
  }
}

/**
 * True when a raw URL path has a percent sequence that is not UTF-8 (`%FF`, `%C0%AF`, `%E2%82`, `%`,
 * `%zz`). Next.js fails on these with a bare 500 before any route code runs; proxy.ts answers 400 first.
 */
export function hasMalformedEncoding(rawPath: string): boolean {
  for (const segment of rawPath.split("/")) {
    if (!segment.includes("%")) continue;
    try {
      decodeURIComponent(segment);
    } catch {
      return true;
    }
  }
  return false;
}
