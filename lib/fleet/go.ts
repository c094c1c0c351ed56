// /go: alert labels → the canonical URL. Labels come from kube-state-metrics (gotk_resource_info:
// customresource_kind, exported_namespace, name), from controller metrics (kind, namespace, name), from
// Flux events (involvedObject.*), from Argo CD notifications (app, app_namespace: an Application) and from
// Prometheus external labels (cluster). Pure: the caller looks up candidates in the database and this
// module decides.
import { parseEksArn } from "./eks-arn";
import { resolveKind, type ObjectKind } from "./kinds";
import { clusterPath, objectPath } from "./urls";

export interface GoLabels {
  cluster: string | null;
  /** The kind as given (for messages) and as resolved (null when absent or unknown). */
  kindText: string | null;
  kind: ObjectKind | null;
  /** Namespaces to try, most specific first (exported_namespace before namespace). */
  namespaces: string[];
  name: string | null;
}

type ParamSource = URLSearchParams | Record<string, string | string[] | undefined>;

function entries(params: ParamSource): Array<[string, string]> {
  if (params instanceof URLSearchParams) return [...params.entries()];
  return Object.entries(params).flatMap(([k, v]) =>
    v === undefined ? [] : Array.isArray(v) ? v.map((x) => [k, x] as [string, string]) : [[k, v] as [string, string]],
  );
}

/** Fields an Argo CD notification template fills from `.app.metadata` (see the README's recipe). */
const ARGO_NAME_KEYS = ["app", "application", "app_name", "argocd_app"];
const ARGO_NAMESPACE_KEYS = ["app_namespace", "application_namespace", "argocd_app_namespace"];

/** Reads labels in any key case; the first non-empty value of each wins. */
export function parseGoLabels(params: ParamSource): GoLabels {
  const values = new Map<string, string>();
  for (const [k, v] of entries(params)) {
    const key = k.trim().toLowerCase();
    const value = v.trim();
    if (value && !values.has(key)) values.set(key, value.slice(0, 253));
  }
  const first = (...keys: string[]) => keys.map((k) => values.get(k)).find((v) => v) ?? null;
  const kindTexts = ["customresource_kind", "kind", "involvedobject.kind", "resource"]
    .map((k) => values.get(k))
    .filter((v): v is string => !!v);
  // Argo CD notifications and its metrics name the Application itself (`app`, `app_namespace`, …).
  const argoName = first(...ARGO_NAME_KEYS);
  const kind = kindTexts.map((t) => resolveKind(t)).find((k) => k) ?? (argoName && !kindTexts.length ? "Application" : null);
  const namespaces = [
    ...new Set(
      [...ARGO_NAMESPACE_KEYS, "exported_namespace", "involvedobject.namespace", "namespace", "object_namespace"]
        .map((k) => values.get(k))
        .filter((v): v is string => !!v),
    ),
  ];
  return {
    cluster: first("cluster", "cluster_name", "clustername", "k8s_cluster"),
    kindText: kindTexts[0] ?? null,
    kind,
    namespaces,
    name: argoName ?? first("name", "involvedobject.name", "object_name", "exported_name"),
  };
}

const NOT_IN_ANY_NAME = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The first label holding a character no cluster, namespace or object name can contain (NUL, other
 * control characters, broken Unicode): such labels match nothing, and are not worth a database query.
 */
export function unnameableLabel(labels: GoLabels): string | null {
  const named: Array<[string, string | null]> = [
    ["cluster", labels.cluster],
    ["kind", labels.kindText],
    ["name", labels.name],
    ...labels.namespaces.map((n): [string, string] => ["namespace", n]),
  ];
  return named.find(([, v]) => v !== null && NOT_IN_ANY_NAME.test(v))?.[0] ?? null;
}

export interface GoCandidate {
  cluster: string;
  kind: string;
  namespace: string;
  name: string;
  deleted: boolean;
}

export type GoDecision =
  | { type: "redirect"; url: string }
  | { type: "choose"; candidates: Array<GoCandidate & { url: string }> }
  | { type: "not-found"; problem: string; nearest: Array<GoCandidate & { url: string }>; nearestClusters: string[] };

/** Edit distance, for "did you mean". */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** Candidates that match every label that was given (namespaces: the first that matches anything). */
export function matchCandidates(labels: GoLabels, pool: GoCandidate[]): GoCandidate[] {
  const base = pool.filter(
    (c) =>
      (!labels.cluster || c.cluster === labels.cluster) &&
      (!labels.kind || c.kind === labels.kind) &&
      (!labels.name || c.name === labels.name),
  );
  if (!labels.namespaces.length) return base;
  for (const ns of labels.namespaces) {
    const hit = base.filter((c) => c.namespace === ns);
    if (hit.length) return hit;
  }
  return [];
}

/** How far a candidate is from the labels: smaller is nearer. */
function distance(labels: GoLabels, c: GoCandidate): number {
  const lower = (s: string) => s.toLowerCase();
  let d = labels.name ? levenshtein(lower(labels.name), lower(c.name)) : 0;
  if (labels.name && lower(c.name).includes(lower(labels.name))) d = Math.min(d, 1);
  if (labels.cluster && c.cluster !== labels.cluster) d += Math.min(3, levenshtein(lower(labels.cluster), lower(c.cluster)));
  if (labels.kind && c.kind !== labels.kind) d += 1;
  if (labels.namespaces.length && !labels.namespaces.includes(c.namespace)) d += 1;
  return d;
}

export function nearestCandidates(labels: GoLabels, pool: GoCandidate[], limit = 8): GoCandidate[] {
  const maxDistance = Math.max(3, Math.ceil((labels.name?.length ?? 8) / 2));
  return pool
    .map((c) => ({ c, d: distance(labels, c) }))
    .filter((x) => x.d <= maxDistance)
    .sort(
      (a, b) =>
        a.d - b.d ||
        Number(a.c.deleted) - Number(b.c.deleted) ||
        a.c.cluster.localeCompare(b.c.cluster) ||
        a.c.name.localeCompare(b.c.name),
    )
    .slice(0, limit)
    .map((x) => x.c);
}

export function nearestNames(text: string, names: string[], limit = 5): string[] {
  const t = text.toLowerCase();
  return names
    .map((n) => ({ n, d: n.toLowerCase().includes(t) || t.includes(n.toLowerCase()) ? 0 : levenshtein(t, n.toLowerCase()) }))
    .filter((x) => x.d <= Math.max(3, Math.ceil(t.length / 3)))
    .sort((a, b) => a.d - b.d || a.n.localeCompare(b.n))
    .slice(0, limit)
    .map((x) => x.n);
}

const withUrl = (c: GoCandidate) => ({ ...c, url: objectPath(c) });

export interface GoCluster {
  name: string;
  eksArn: string | null;
  eksName: string | null;
  region: string | null;
  /** Never polled successfully: why, and since when (first seen). */
  neverReached?: { error: string | null; since: string | null } | null;
  /** Crossplane is still creating it (or failed to), since when. */
  provisioning?: { state: "creating" | "failed"; since: string | null } | null;
}

/**
 * The cluster a `cluster` label names: our name, the same in another case, or an EKS cluster ARN (the label
 * many Prometheus setups carry) matched by ARN, else by EKS name and region. Null when none or several.
 */
export function resolveClusterLabel(label: string, clusters: GoCluster[]): string | null {
  if (clusters.some((c) => c.name === label)) return label;
  const arn = parseEksArn(label);
  if (arn) {
    const byArn = clusters.filter((c) => c.eksArn === arn.arn);
    if (byArn.length === 1) return byArn[0].name;
    const byName = clusters.filter((c) => (c.eksName ?? c.name) === arn.name && (!c.region || c.region === arn.region));
    if (byName.length === 1) return byName[0].name;
    return null;
  }
  const folded = clusters.filter((c) => c.name.toLowerCase() === label.toLowerCase());
  return folded.length === 1 ? folded[0].name : null;
}

/** Why a known cluster has no objects to land on yet, in one line; null when it has been read. */
export function clusterNotReadYet(c: GoCluster | undefined): string | null {
  if (!c) return null;
  if (c.provisioning) {
    const since = c.provisioning.since ? ` since ${c.provisioning.since}` : "";
    return c.provisioning.state === "failed"
      ? `Cluster ${c.name} was never created: Crossplane failed to create it${since}.`
      : `Cluster ${c.name} is still being created by Crossplane${since}: it has no objects yet.`;
  }
  if (c.neverReached) {
    const error = c.neverReached.error?.split("\n")[0]?.trim() || "no answer";
    return `Cluster ${c.name} was never reached: ${error}${c.neverReached.since ? ` since ${c.neverReached.since}` : ""}. Its objects are not known yet.`;
  }
  return null;
}

/**
 * Decides where /go sends the reader. `pool` holds the objects the labels could mean (at least those
 * of the named cluster, or those with a similar name fleet-wide); `clusterNames` every known cluster;
 * `clusters` what is known of them (why one was never read).
 */
export function decideGo(labels: GoLabels, pool: GoCandidate[], clusterNames: string[], clusters: GoCluster[] = []): GoDecision {
  const clusterKnown = !labels.cluster || clusterNames.includes(labels.cluster);
  if (!clusterKnown) {
    return {
      type: "not-found",
      problem: `No cluster named "${labels.cluster}".`,
      nearest: labels.name ? nearestCandidates({ ...labels, cluster: null }, pool).map(withUrl) : [],
      nearestClusters: nearestNames(labels.cluster!, clusterNames),
    };
  }
  if (!labels.name) {
    if (labels.cluster) return { type: "redirect", url: clusterPath(labels.cluster) };
    return { type: "not-found", problem: "The link names neither a cluster nor an object.", nearest: [], nearestClusters: [] };
  }
  if (labels.kindText && !labels.kind) {
    return {
      type: "not-found",
      problem: `"${labels.kindText}" is not a kind Crow's Nest knows (Flux or Argo CD).`,
      nearest: nearestCandidates({ ...labels }, pool).map(withUrl),
      nearestClusters: [],
    };
  }
  const matches = matchCandidates(labels, pool);
  const live = matches.filter((c) => !c.deleted);
  if (matches.length === 1) return { type: "redirect", url: objectPath(matches[0]) };
  // A deleted object and its live namesake: the live one is what the alert is about.
  if (live.length === 1) return { type: "redirect", url: objectPath(live[0]) };
  if (matches.length > 1) return { type: "choose", candidates: matches.map(withUrl) };
  const what = [labels.kind ?? "object", [labels.namespaces[0], labels.name].filter(Boolean).join("/")].join(" ");
  const notRead = labels.cluster ? clusterNotReadYet(clusters.find((c) => c.name === labels.cluster)) : null;
  return {
    type: "not-found",
    problem: notRead ?? `No ${what}${labels.cluster ? ` in cluster ${labels.cluster}` : ""}.`,
    nearest: nearestCandidates(labels, pool).map(withUrl),
    nearestClusters: [],
  };
}
