// One poll of one cluster's Kubernetes API: every collected kind (Flux's, Argo CD's) at its served version (paginated), the server
// version, node kubelet versions and the FluxReport when the Flux Operator is present. A failed LIST of one
// kind fails the poll but keeps what the others gave. Events are read after the objects are compared
// (events.ts), since which ones to keep depends on what changed.
import type { KubeReader } from "../kube/client";
import { kubeletVersions, serverVersion, toFluxReport } from "../kube/cluster-info";
import { preferredVersions, servedVersion } from "../kube/crossplane";
import { ClusterRequestError } from "../kube/errors";
import { COLLECTED_KINDS } from "../kube/kinds";
import { listAll } from "../kube/list";
import { toNodeRecords } from "../kube/nodes";
import { configMapData, kustomizationName, substitutionNeeds, substitutionSources, type SubstitutionNeeds } from "../kube/substitutions";
import type { CollectedKind, FluxObjectRecord, FluxReportSummary, NodeRecord } from "../kube/types";

export interface KubePoll {
  records: FluxObjectRecord[];
  /** Kinds whose LIST succeeded (or that the cluster does not serve). */
  listedKinds: Set<CollectedKind>;
  kubernetesVersion: string | null;
  kubeletVersions: Record<string, number> | null;
  /** Every node (null when the nodes were not read this time). */
  nodes: NodeRecord[] | null;
  fluxReport: FluxReportSummary | null;
  /** `app.kubernetes.io/version` of the namespace Flux was installed into (flux install / bootstrap label it). */
  fluxNamespaceVersion: string | null;
  /** cluster-info style variables the Kustomizations substitute ("ConfigMap ns/name" → values); null when not read. */
  substitutions: Record<string, Record<string, string>> | null;
  /** The first error of a Flux LIST, when any failed. */
  error: ClusterRequestError | null;
  warnings: string[];
}

const DISCOVERY_TTL_MS = 10 * 60_000;

/** GET /apis per cluster, cached: the served Flux versions rarely change. */
export class ServedVersionsCache {
  private readonly entries = new Map<string, { at: number; served: Map<string, string[]> }>();

  async get(cluster: string, client: KubeReader, now = Date.now()): Promise<Map<string, string[]>> {
    const hit = this.entries.get(cluster);
    if (hit && now - hit.at < DISCOVERY_TTL_MS) return hit.served;
    const served = preferredVersions(await client.getJson(`/apis`));
    this.entries.set(cluster, { at: now, served });
    return served;
  }

  forget(cluster: string): void {
    this.entries.delete(cluster);
  }
}

const asRequestError = (err: unknown) =>
  err instanceof ClusterRequestError ? err : new ClusterRequestError(err instanceof Error ? err.message : String(err), "other");

export interface PollOptions {
  pageSize?: number;
  /** Also read /version, nodes and the FluxReport (they change on upgrades only, so not every cycle). */
  clusterFacts?: boolean;
  /**
   * A watch session already holds the Flux objects and nodes: read only the facts (/version, FluxReport,
   * Flux's namespace, substitution ConfigMaps of these Kustomizations).
   */
  factsOnly?: { substitutions: Iterable<readonly [string, SubstitutionNeeds]> };
}

export async function pollKube(
  cluster: string,
  client: KubeReader,
  versions: ServedVersionsCache,
  options: PollOptions = {},
): Promise<KubePoll> {
  const facts = options.clusterFacts !== false;
  const served = await versions.get(cluster, client);
  const warnings: string[] = [];
  const listedKinds = new Set<CollectedKind>();
  const records: FluxObjectRecord[] = [];
  let error: ClusterRequestError | null = null;
  let substitutions: Iterable<readonly [string, SubstitutionNeeds | null]> = [];

  const factsOnly = options.factsOnly;
  if (factsOnly) substitutions = factsOnly.substitutions;
  const fluxLists = (factsOnly ? [] : COLLECTED_KINDS).map(async (kind) => {
    const version = servedVersion(served, kind.group, kind.versions);
    if (!version) {
      // Not installed: nothing of this kind exists, so what we stored is gone.
      listedKinds.add(kind.kind);
      return;
    }
    try {
      const items = await listAll(client, `/apis/${kind.group}/${version}/${kind.plural}`, { limit: options.pageSize ?? 500 });
      for (const item of items) records.push(kind.toRecord(item));
      if (kind.kind === "Kustomization") substitutions = items.map((item) => [kustomizationName(item), substitutionNeeds(item)] as const);
      listedKinds.add(kind.kind);
    } catch (err) {
      if (asRequestError(err).status === 404) {
        versions.forget(cluster);
        listedKinds.add(kind.kind);
        return;
      }
      error ??= asRequestError(err);
    }
  });
  const skip = Promise.resolve(null);
  const versionCall = !facts
    ? skip
    : client.getJson(`/version`).then(serverVersion, (err) => {
        warnings.push(`version: ${asRequestError(err).message}`);
        return null;
      });
  const nodesCall =
    !facts || factsOnly
      ? skip
      : listAll(client, `/api/v1/nodes`, { limit: 500 }).then(
          (items) => ({ kubelets: kubeletVersions(items), nodes: toNodeRecords(items) }),
          (err) => {
            warnings.push(`nodes: ${asRequestError(err).message}`);
            return null;
          },
        );
  const fluxNamespaceCall = !facts
    ? skip
    : listAll(client, `/api/v1/namespaces`, { labelSelector: "app.kubernetes.io/part-of=flux" }).then(fluxNamespaceVersion, (err) => {
        warnings.push(`namespaces: ${asRequestError(err).message}`);
        return null;
      });
  const reportVersion = servedVersion(served, "fluxcd.controlplane.io", ["v1"]);
  const reportCall =
    facts && reportVersion
      ? listAll(client, `/apis/fluxcd.controlplane.io/${reportVersion}/fluxreports`).then(
          (items) => (items[0] ? toFluxReport(items[0]) : null),
          (err) => {
            warnings.push(`fluxreport: ${asRequestError(err).message}`);
            return null;
          },
        )
      : Promise.resolve(null);

  await Promise.all(fluxLists);
  if (error && records.length === 0 && listedKinds.size === 0) {
    // Nothing answered: the rest would only fail the same way.
    await Promise.allSettled([versionCall, nodesCall, reportCall, fluxNamespaceCall]);
    throw error;
  }
  const [kubernetesVersion, nodeList, fluxReport, fluxNamespace] = await Promise.all([
    versionCall,
    nodesCall,
    reportCall,
    fluxNamespaceCall,
  ]);
  const substitutionValues =
    facts && (factsOnly || listedKinds.has("Kustomization")) ? await readSubstitutions(client, substitutions, warnings) : null;
  return {
    records,
    listedKinds,
    kubernetesVersion,
    kubeletVersions: nodeList?.kubelets ?? null,
    nodes: nodeList?.nodes ?? null,
    fluxReport,
    fluxNamespaceVersion: fluxNamespace,
    substitutions: substitutionValues,
    error,
    warnings,
  };
}

/** The ConfigMaps the Kustomizations substitute from (one GET each) plus their inline values. */
async function readSubstitutions(
  client: KubeReader,
  needs: Iterable<readonly [string, SubstitutionNeeds | null]>,
  warnings: string[],
): Promise<Record<string, Record<string, string>>> {
  const sources = substitutionSources(needs);
  const out: Record<string, Record<string, string>> = { ...sources.inline };
  await Promise.all(
    sources.configMaps.map(async (ref) => {
      const [namespace, name] = ref.split("/");
      try {
        out[`ConfigMap ${ref}`] = configMapData(await client.getJson(`/api/v1/namespaces/${namespace}/configmaps/${name}`));
      } catch (err) {
        // Optional references may name a ConfigMap that does not exist; a missing one is no poll failure.
        warnings.push(`configmap ${ref}: ${asRequestError(err).message}`);
      }
    }),
  );
  return out;
}

/** Flux version: the Flux Operator's distribution version, else the label on Flux's namespace. */
export function fluxVersionOf(report: FluxReportSummary | null, namespaceVersion: string | null = null): string | null {
  return report?.distribution?.version ?? namespaceVersion;
}

/** The version label of the (first) namespace labelled part-of=flux. */
export function fluxNamespaceVersion(namespaces: unknown[]): string | null {
  for (const ns of namespaces) {
    const labels = (ns as { metadata?: { labels?: Record<string, unknown> } })?.metadata?.labels ?? {};
    const version = labels["app.kubernetes.io/version"];
    if (typeof version === "string" && version !== "") return version;
  }
  return null;
}
