// The churn knob: the fleet changes objects at a steady rate (changes per real second), spread over the
// clusters, each change one a person cares about and the collector must record as one history row:
//
//   Kustomization, visit by visit: a failure on a new revision (Ready False HealthCheckFailed, new
//   lastAttemptedRevision) → the recovery on another new revision (Ready True, applied) → a new revision.
//   HelmRelease: an upgrade to the next chart patch version (Ready True UpgradeSucceeded, history[0]) →
//   a failed upgrade to the one after (Ready False UpgradeFailed, new lastAttemptedRevision).
//
// Change n goes to the next reachable cluster in a seed-shuffled round robin and, within it, to the next
// Kustomization or HelmRelease in key order (suspended ones skipped), so an object changes again only
// after every other one of its cluster has. What each change writes derives from the seed, n and the
// simulated time: the same seed and the same steps give the same changes. Each change is kept as a mark
// on the object that the store applies over whatever the model says (see ClusterStore.churn); the model's
// own Ready condition and revisions of a churned object are hidden behind it from then on.
import { hash32, hex } from "../fleet/random";
import type { KubeObject } from "../contract";
import type { ClusterStore } from "./store";

export type ChurnKind = "failed" | "recovered" | "revision" | "chart";

/** The absolute fields one churn change sets: applied over any base it gives the same object, so re-renders keep it. */
export interface ChurnMark {
  seq: number;
  visit: number;
  change: ChurnKind;
  ready: { status: "True" | "False"; reason: string; message: string; lastTransitionTime: string };
  lastAttemptedRevision: string;
  lastAppliedRevision?: string;
  /** HelmRelease: history[0] after the change. */
  release?: { chartVersion: string; version: number; lastDeployed: string };
}

export interface ChurnChange {
  /** 1, 2, 3… over the whole fleet. */
  seq: number;
  /** Real time the change was made (epoch ms): compare with when a consumer saw it. */
  at: number;
  /** Simulated time written into the object. */
  simTime: string;
  cluster: string;
  kind: "Kustomization" | "HelmRelease";
  namespace: string;
  name: string;
  change: ChurnKind;
  resourceVersion: string;
}

type Status = Record<string, unknown>;
const CHURN_KINDS = new Set(["Kustomization", "HelmRelease"]);

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

function bumpPatch(version: string, by: number): string {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match ? `${match[1]}.${match[2]}.${Number(match[3]) + by}` : `${version}-churn.${by}`;
}

/** What the next churn change of `object` (as served now, `previous` its last churn mark) writes. */
export function churnMark(object: KubeObject, seq: number, previous: ChurnMark | undefined, seed: number, simNow: number): ChurnMark {
  const visit = previous ? previous.visit + 1 : 0;
  const status = (object.status ?? {}) as Status;
  const readyNow = (Array.isArray(status.conditions) ? (status.conditions as Status[]) : []).find((c) => c.type === "Ready");
  // Like Flux's conditions: the transition time moves only when the status flips.
  const transition = (to: "True" | "False") =>
    readyNow?.status === to && typeof readyNow.lastTransitionTime === "string" ? readyNow.lastTransitionTime : isoSeconds(simNow);
  const at = isoSeconds(simNow);
  const revision = (label: string) => `main@sha1:${hex(`${seed}:churn:${seq}:${label}`, 40)}`;
  const { namespace = "", name } = object.metadata;
  if (object.kind === "HelmRelease") {
    const history = Array.isArray(status.history) ? (status.history as Status[]) : [];
    const current = history[0] ?? {};
    const chart = String(current.chartName ?? (object.spec as { chart?: { spec?: { chart?: string } } })?.chart?.spec?.chart ?? name);
    const deployed = String(current.chartVersion ?? status.lastAttemptedRevision ?? "1.0.0");
    const release = `${String(current.namespace ?? namespace)}/${String(current.name ?? name)}`;
    if (visit % 2 === 0) {
      const next = bumpPatch(deployed, 1);
      const version = Number(current.version ?? 1) + 1;
      return {
        seq,
        visit,
        change: "chart",
        ready: {
          status: "True",
          reason: "UpgradeSucceeded",
          message: `Helm upgrade succeeded for release ${release}.v${version} with chart ${chart}@${next}`,
          lastTransitionTime: transition("True"),
        },
        lastAttemptedRevision: next,
        release: { chartVersion: next, version, lastDeployed: at },
      };
    }
    const attempted = bumpPatch(deployed, 1);
    return {
      seq,
      visit,
      change: "failed",
      ready: {
        status: "False",
        reason: "UpgradeFailed",
        message: `Helm upgrade failed for release ${release} with chart ${chart}@${attempted}: context deadline exceeded`,
        lastTransitionTime: transition("False"),
      },
      lastAttemptedRevision: attempted,
      // the deployed release stays what the last upgrade left
      release: previous?.release,
    };
  }
  const step = visit % 3;
  if (step === 0) {
    const attempted = revision("attempted");
    return {
      seq,
      visit,
      change: "failed",
      ready: {
        status: "False",
        reason: "HealthCheckFailed",
        message: `health check failed after 2m0.0${String(seq % 1000).padStart(3, "0")}s: timeout waiting for: [Deployment/${namespace}/${name} status: 'InProgress']`,
        lastTransitionTime: transition("False"),
      },
      lastAttemptedRevision: attempted,
      lastAppliedRevision: previous?.lastAppliedRevision,
    };
  }
  const applied = revision("applied");
  return {
    seq,
    visit,
    change: step === 1 ? "recovered" : "revision",
    ready: {
      status: "True",
      reason: "ReconciliationSucceeded",
      message: `Applied revision: ${applied}`,
      lastTransitionTime: transition("True"),
    },
    lastAttemptedRevision: applied,
    lastAppliedRevision: applied,
  };
}

/** The object's status with a churn mark applied. */
export function applyChurnMark(object: KubeObject, mark: ChurnMark): Status {
  const status: Status = { ...((object.status as Status | undefined) ?? {}) };
  const conditions = Array.isArray(status.conditions) ? (status.conditions as Status[]) : [];
  const before = conditions.find((condition) => condition.type === "Ready");
  const ready: Status = { ...(before ?? {}), type: "Ready", ...mark.ready };
  status.conditions = before ? conditions.map((condition) => (condition === before ? ready : condition)) : [ready, ...conditions];
  status.lastAttemptedRevision = mark.lastAttemptedRevision;
  if (mark.lastAppliedRevision) status.lastAppliedRevision = mark.lastAppliedRevision;
  if (mark.release && Array.isArray(status.history) && status.history.length > 0) {
    const [first, ...rest] = status.history as Status[];
    status.history = [{ ...first, ...mark.release, status: "deployed" }, ...rest];
  }
  return status;
}

export interface ChurnCluster {
  name: string;
  store: ClusterStore;
  /** Changes go to reachable clusters only (nobody could see them on the others). */
  reachable(): boolean;
  /** Loads the cluster from the model if it has not been yet. */
  load(): void;
}

export interface ChurnState {
  rate: number;
  total: number;
  perCluster: Record<string, { count: number; lastAt: number }>;
  changes: ChurnChange[];
}

const LOG_LIMIT = 200_000;

export class FleetChurn {
  private rate = 0;
  private made = 0;
  private startedAt = 0;
  private madeAtStart = 0;
  private cursor = 0;
  private readonly order: ChurnCluster[];
  private readonly visits = new Map<string, number>();
  private readonly perCluster = new Map<string, { count: number; lastAt: number }>();
  private log: ChurnChange[] = [];

  constructor(
    clusters: ChurnCluster[],
    private readonly seed: number,
    private readonly simNow: () => number,
    private readonly realNow: () => number = Date.now,
  ) {
    this.order = [...clusters].sort(
      (a, b) => hash32(`${seed}:churn:${a.name}`) - hash32(`${seed}:churn:${b.name}`) || (a.name < b.name ? -1 : 1),
    );
  }

  /** Changes per real second from now on (0 stops). */
  setRate(rate: number): void {
    if (!Number.isFinite(rate) || rate < 0) throw new Error("the churn rate is a non-negative number of changes per second");
    this.rate = rate;
    this.startedAt = this.realNow();
    this.madeAtStart = this.made;
  }

  get changesPerSecond(): number {
    return this.rate;
  }

  /** Makes the changes due by now at the current rate; returns how many were made. */
  step(): number {
    if (this.rate <= 0) return 0;
    const due = Math.floor((this.rate * (this.realNow() - this.startedAt)) / 1000) - (this.made - this.madeAtStart);
    // After a long stall, catch up at most two seconds' worth: a steady rate, not a burst.
    const count = Math.min(due, Math.ceil(this.rate * 2));
    if (due > count) this.madeAtStart += due - count;
    let made = 0;
    for (let i = 0; i < count; i++) if (this.changeOne()) made++;
    return made;
  }

  /** One change to the next object in line; null when no cluster has anything to change. */
  changeOne(): ChurnChange | null {
    for (let tries = 0; tries < this.order.length; tries++) {
      const cluster = this.order[this.cursor++ % this.order.length];
      if (!cluster.reachable()) continue;
      cluster.load();
      const change = this.changeIn(cluster);
      if (change) return change;
    }
    return null;
  }

  /**
   * The next change of one named object, out of the round robin (a benchmark that watches one object on a
   * page makes its change this way). Recorded in the log like any other; null when no such object is served.
   */
  changeObject(clusterName: string, kind: string, namespace: string, name: string): ChurnChange | null {
    const cluster = this.order.find((c) => c.name === clusterName);
    if (!cluster || !cluster.reachable()) return null;
    cluster.load();
    const found = cluster.store
      .versionsOfKinds(CHURN_KINDS)
      .find(({ version }) => version.object.kind === kind && (version.namespace ?? "") === namespace && version.name === name);
    return found ? this.change(cluster, found.type, found.version) : null;
  }

  private changeIn(cluster: ChurnCluster): ChurnChange | null {
    const candidates = cluster.store.versionsOfKinds(CHURN_KINDS);
    if (candidates.length === 0) return null;
    const start = this.visits.get(cluster.name) ?? hash32(`${this.seed}:churn-offset:${cluster.name}`);
    for (let offset = 0; offset < candidates.length; offset++) {
      const { type, version } = candidates[(start + offset) % candidates.length];
      const object = version.object;
      if ((object.spec as { suspend?: boolean } | undefined)?.suspend === true) continue;
      this.visits.set(cluster.name, start + offset + 1);
      return this.change(cluster, type, version);
    }
    return null;
  }

  private change(
    cluster: ChurnCluster,
    type: ReturnType<ClusterStore["versionsOfKinds"]>[number]["type"],
    version: ReturnType<ClusterStore["versionsOfKinds"]>[number]["version"],
  ): ChurnChange {
    const object = version.object;
    const seq = this.made + 1;
    const simNow = this.simNow();
    const result = cluster.store.churn(type, version.namespace, version.name, (previous) =>
      churnMark(object, seq, previous, this.seed, simNow),
    );
    this.made = seq;
    const change: ChurnChange = {
      seq,
      at: this.realNow(),
      simTime: isoSeconds(simNow),
      cluster: cluster.name,
      kind: object.kind as ChurnChange["kind"],
      namespace: version.namespace ?? "",
      name: version.name,
      change: result.mark.change,
      resourceVersion: String(result.version.rv),
    };
    this.record(change);
    return change;
  }

  private record(change: ChurnChange): void {
    this.log.push(change);
    if (this.log.length > LOG_LIMIT) this.log = this.log.slice(-LOG_LIMIT / 2);
    const counts = this.perCluster.get(change.cluster) ?? { count: 0, lastAt: 0 };
    counts.count++;
    counts.lastAt = change.at;
    this.perCluster.set(change.cluster, counts);
  }

  /** The rate, the totals and the changes after `since` (a seq), at most `limit` of them. */
  state(since = 0, limit = 10_000): ChurnState {
    const changes: ChurnChange[] = [];
    // seq is dense and the log is a tail of it, so the first wanted entry is found by arithmetic.
    const first = this.log[0]?.seq ?? 1;
    for (let i = Math.max(0, since + 1 - first); i < this.log.length && changes.length < limit; i++) changes.push(this.log[i]);
    return { rate: this.rate, total: this.made, perCluster: Object.fromEntries(this.perCluster), changes };
  }
}
