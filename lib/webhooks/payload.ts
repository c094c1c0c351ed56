// The notification-controller event (fluxcd/pkg apis/event v1beta1 Event), validated.
import { z } from "zod";

/** Event times outside this window are nonsense (year 0, a clock years off) and would be stored as such. */
const EARLIEST_EVENT_MS = Date.UTC(2000, 0, 1);
const MAX_AHEAD_MS = 24 * 3600 * 1000;

export const fluxEventSchema = z.object({
  involvedObject: z.object({
    kind: z.string().min(1).max(100),
    namespace: z.string().max(253).default(""),
    name: z.string().min(1).max(253),
    uid: z.string().max(100).optional(),
    apiVersion: z.string().max(200).optional(),
    resourceVersion: z.string().max(100).optional(),
    fieldPath: z.string().max(500).optional(),
  }),
  severity: z.string().min(1).max(20),
  timestamp: z.iso
    .datetime({ offset: true })
    .refine((t) => {
      const ms = Date.parse(t);
      return ms >= EARLIEST_EVENT_MS && ms <= Date.now() + MAX_AHEAD_MS;
    }, "must be a time between 2000-01-01 and a day from now")
    .optional(),
  message: z.string().max(39_000),
  reason: z.string().max(300).default(""),
  metadata: z.record(z.string(), z.string()).optional(),
  reportingController: z.string().max(200).optional(),
  reportingInstance: z.string().max(300).optional(),
});
export type FluxEvent = z.infer<typeof fluxEventSchema>;

/**
 * The revision an event is about. notification-controller v1.9 strips the `<group>/` prefix from
 * controller metadata ("revision"); older controllers and the docs show the prefixed form.
 */
export function revisionOf(event: FluxEvent): string | null {
  const meta = event.metadata ?? {};
  if (meta.revision) return meta.revision;
  const prefixed = Object.keys(meta).find((k) => k.endsWith("/revision"));
  return prefixed ? meta[prefixed] : null;
}

const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * True when any string or key in a parsed JSON body holds what PostgreSQL cannot store: NUL (text and
 * jsonb) or a lone surrogate (jsonb). JSON allows both (`\u0000`, `\ud800`).
 */
export function hasUnstorableText(value: unknown): boolean {
  if (typeof value === "string") return UNSTORABLE.test(value);
  if (Array.isArray(value)) return value.some(hasUnstorableText);
  if (value && typeof value === "object") return Object.entries(value).some(([k, v]) => UNSTORABLE.test(k) || hasUnstorableText(v));
  return false;
}
