// The notification-controller event (fluxcd/pkg apis/event v1beta1 Event), validated.
import { z } from "zod";

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
  timestamp: z.iso.datetime({ offset: true }).optional(),
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
