// Every kind the collector lists in every cluster, Flux's and Argo CD's, with the mapper from a listed object
// to the record we store. The poll loop and the watch sessions both read this list, so whichever runs
// collects the same kinds.
import { ARGO_KINDS, toArgoApplication, toArgoApplicationSet } from "./argocd/application";
import { FLUX_KINDS, toFluxObject } from "./flux";
import type { Raw } from "./raw";
import type { CollectedKind, FluxObjectRecord } from "./types";

export interface CollectedKindInfo {
  kind: CollectedKind;
  group: string;
  plural: string;
  /** Versions we understand, newest first; the served one is chosen through discovery. */
  versions: string[];
  engine: "flux" | "argocd";
  toRecord(raw: Raw): FluxObjectRecord;
}

/** An Argo CD record with its specifics in `details`, the column they are stored in. */
function argoRecord(raw: Raw, kind: "Application" | "ApplicationSet"): FluxObjectRecord {
  if (kind === "Application") {
    const { argo, ...record } = toArgoApplication(raw);
    return { ...record, details: { ...argo } };
  }
  const { appSet, ...record } = toArgoApplicationSet(raw);
  return { ...record, details: { ...appSet } };
}

export const COLLECTED_KINDS: readonly CollectedKindInfo[] = [
  ...FLUX_KINDS.map((k) => ({ ...k, engine: "flux" as const, toRecord: (raw: Raw) => toFluxObject(k.kind, raw) })),
  ...ARGO_KINDS.map((k) => ({
    kind: k.kind,
    group: k.group,
    plural: k.plural,
    versions: [k.version],
    engine: "argocd" as const,
    toRecord: (raw: Raw) => argoRecord(raw, k.kind),
  })),
];
