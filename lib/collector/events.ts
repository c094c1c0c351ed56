// Which Kubernetes Events the collector keeps, and the few LISTs that find them. Events live about an hour
// in a cluster; these are the ones people look for afterwards:
// - every Warning of a Flux object, ready or not (DriftDetected on a Ready HelmRelease in warn mode);
// - every Event of a Flux object that is not ready, and of one that was deleted (its page answers from
//   history, with the Events its controller wrote while finalising it);
// - Node Events about readiness, scheduling and pressure (NodeNotReady is type Normal, from node-controller);
// - on the hub, the Events of the Crossplane resources that provision spokes.
// Requests per poll: one LIST per Flux controller whose kinds the cluster holds (`source=<controller>`, so at
// most three), one for Nodes on the facts cadence, and on the hub one per kind of provisioning resource.
import type { KubeReader } from "../kube/client";
import { toKubeEvent } from "../kube/cluster-info";
import { objectKey } from "../kube/flux";
import { listAll } from "../kube/list";
import type { KubeEventRecord } from "../kube/types";

/** Events kept per object and poll (newest first); older repeats of one object add nothing to read. */
export const MAX_EVENTS_PER_OBJECT = 20;

/** The controller that writes each Flux kind's Events (their `source.component`). */
export const EVENT_CONTROLLERS: ReadonlyArray<{ controller: string; kinds: readonly string[] }> = [
  { controller: "kustomize-controller", kinds: ["Kustomization"] },
  { controller: "helm-controller", kinds: ["HelmRelease"] },
  { controller: "source-controller", kinds: ["GitRepository", "OCIRepository", "HelmRepository", "HelmChart"] },
];

/**
 * Node Events worth keeping besides Warnings: readiness, schedulability, pressure, reboots, removal. The
 * kubelet's start-up chatter (Starting, NodeHasSufficientMemory, RegisteredNode …) is left out.
 */
export const NODE_EVENT_REASONS: ReadonlySet<string> = new Set([
  "NodeNotReady",
  "NodeReady",
  "NodeNotSchedulable",
  "NodeSchedulable",
  "NodeHasDiskPressure",
  "NodeHasInsufficientMemory",
  "NodeHasInsufficientPID",
  "Rebooted",
  "RemovingNode",
  "NodeShutdown",
]);

/** What the collector knows of a Flux object when it decides about its Events (a KnownObject fits). */
export interface KnownForEvents {
  kind: string;
  deleted: boolean;
  cared: { health: string };
}

/** Whether an Event of a Flux object is kept. Objects we never stored have no page to show it on. */
export function keepFluxEvent(e: Pick<KubeEventRecord, "type">, object: KnownForEvents | undefined): boolean {
  if (!object) return false;
  if (object.deleted || e.type === "Warning") return true;
  return object.cared.health !== "ready" && object.cared.health !== "suspended";
}

export function keepNodeEvent(e: Pick<KubeEventRecord, "type" | "reason">): boolean {
  return e.type === "Warning" || NODE_EVENT_REASONS.has(e.reason);
}

export interface ProvisionerRef {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

const groupOf = (apiVersion: string | null | undefined) =>
  apiVersion?.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : (apiVersion ?? "");

/** Whether an Event is about one of the provisioning resources (same group, kind, namespace and name). */
export function aboutProvisioner(e: KubeEventRecord, provisioners: readonly ProvisionerRef[]): boolean {
  return provisioners.some(
    (p) =>
      p.kind === e.involvedKind &&
      p.name === e.involvedName &&
      (p.namespace ?? "") === e.involvedNamespace &&
      groupOf(p.apiVersion) === groupOf(e.involvedApiVersion),
  );
}

/** The newest `max` Events of each involved object. */
export function newestPerObject(events: KubeEventRecord[], max = MAX_EVENTS_PER_OBJECT): KubeEventRecord[] {
  const byObject = new Map<string, KubeEventRecord[]>();
  for (const e of events) {
    const key = `${e.involvedKind}\u0000${e.involvedNamespace}\u0000${e.involvedName}`;
    const list = byObject.get(key) ?? [];
    list.push(e);
    byObject.set(key, list);
  }
  const out: KubeEventRecord[] = [];
  for (const list of byObject.values()) {
    list.sort((a, b) => b.lastTimestamp.localeCompare(a.lastTimestamp));
    out.push(...list.slice(0, max));
  }
  return out;
}

export interface EventScope {
  /** Flux objects stored for the cluster (live and deleted), by kind/namespace/name. */
  known: ReadonlyMap<string, KnownForEvents>;
  /** Also read Node Events (they change with nodes: read on the facts cadence). */
  nodes: boolean;
  /** On the hub: the Crossplane resources that provision spokes. */
  provisioners: readonly ProvisionerRef[];
}

const list = (client: KubeReader, fieldSelector: string) => listAll(client, `/api/v1/events`, { fieldSelector, limit: 500 });

/** The Events to keep from one cluster, a warning per LIST that failed (the others still count), and how many LISTs it took. */
export async function pollEvents(
  client: KubeReader,
  scope: EventScope,
): Promise<{ events: KubeEventRecord[]; warnings: string[]; lists: number }> {
  const kindsHeld = new Set([...scope.known.values()].map((k) => k.kind));
  const warnings: string[] = [];
  const read = async (what: string, fieldSelector: string, keep: (e: KubeEventRecord) => boolean) => {
    try {
      const items = await list(client, fieldSelector);
      return items.flatMap((item) => {
        const e = toKubeEvent(item);
        return e && keep(e) ? [e] : [];
      });
    } catch (err) {
      warnings.push(`events (${what}): ${err instanceof Error ? err.message : String(err)}`);
      return [];
    }
  };
  const lists: Array<Promise<KubeEventRecord[]>> = [];
  for (const { controller, kinds } of EVENT_CONTROLLERS) {
    if (!kinds.some((k) => kindsHeld.has(k))) continue;
    lists.push(
      read(controller, `source=${controller}`, (e) =>
        keepFluxEvent(e, scope.known.get(objectKey({ kind: e.involvedKind, namespace: e.involvedNamespace, name: e.involvedName }))),
      ),
    );
  }
  if (scope.nodes) lists.push(read("nodes", "involvedObject.kind=Node", keepNodeEvent));
  for (const kind of new Set(scope.provisioners.map((p) => p.kind))) {
    lists.push(read(kind, `involvedObject.kind=${kind}`, (e) => aboutProvisioner(e, scope.provisioners)));
  }
  const events = (await Promise.all(lists)).flat();
  return { events: newestPerObject(events), warnings, lists: lists.length };
}
