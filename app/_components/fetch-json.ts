// Reads one of our own JSON routes from a client component. The route handler returns the type named
// here (both import it from lib/db/queries), so the body is taken as that type.
export async function fetchJson<T>(url: string, what: string): Promise<T> {
  const res = await fetch(url, { cache: "no-store" });
  if (!res.ok) throw new Error(`${what}: HTTP ${res.status}`);
  return (await res.json()) as T;
}
