// Reads the recorded API responses in lib/kube/fixtures (raw headers + blank line + body) for tests.
import { readFileSync } from "node:fs";
import path from "node:path";

export function readFixture(name: string): { status: number; body: Record<string, unknown> } {
  const text = readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8").replace(/\r\n/g, "\n");
  const split = text.indexOf("\n\n");
  const status = Number(/^HTTP\/[\d.]+ (\d+)/.exec(text)?.[1] ?? 0);
  return { status, body: JSON.parse(text.slice(split + 2)) as Record<string, unknown> };
}

export function fixtureItems(name: string): Record<string, unknown>[] {
  return (readFixture(name).body.items ?? []) as Record<string, unknown>[];
}
