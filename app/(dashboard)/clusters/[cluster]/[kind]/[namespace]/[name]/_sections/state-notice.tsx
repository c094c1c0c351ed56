// What the health alone does not say, in words: an object no controller picked up (and which controller
// that is), a new one still waiting, drift on a ready release, a static OCI HelmRepository, and a ready
// consumer of a source in trouble.
import Link from "next/link";
import type { ReactNode } from "react";
import { FailingFor } from "@/app/_components/failing-for.client";
import { HealthBadge } from "@/app/_components/health-badge";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { link } from "@/app/_components/triage-section";
import type { ObjectDetail } from "@/lib/db/queries/objects";

const CONTROLLER: Record<string, string> = {
  Kustomization: "kustomize-controller",
  HelmRelease: "helm-controller",
};

const box = {
  problem: "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200",
  note: "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200",
  info: "border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-200",
  ok: "border-green-300 bg-green-50 text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-200",
};

function Notice({ tone, testId, children }: { tone: keyof typeof box; testId: string; children: ReactNode }) {
  return (
    <div role="note" data-testid={testId} className={`mt-4 rounded-lg border p-4 text-sm ${box[tone]}`}>
      {children}
    </div>
  );
}

export function StateNotice({ d }: { d: ObjectDetail }) {
  const o = d.object;
  const controller = CONTROLLER[d.ref.kind] ?? "source-controller";
  return (
    <>
      {o.health === "unclaimed" ? (
        <Notice tone="problem" testId="notice-unclaimed">
          <p className="font-semibold">
            {o.waitingForSeconds != null ? (
              <FailingFor since={o.creationTimestamp} seconds={o.waitingForSeconds} prefix="Not picked up by its controller for" />
            ) : (
              "Not picked up by its controller"
            )}
            : no status written since it was created.
          </p>
          <p className="mt-1">
            It still reads <code className="font-mono">status: {"{observedGeneration: -1}"}</code>, the default the API server gives an
            object no controller has written to. Is {controller} running, and does it watch this namespace (sharding labels,
            --watch-all-namespaces)?
          </p>
        </Notice>
      ) : null}
      {o.health === "new" ? (
        <Notice tone="info" testId="notice-new">
          New: created <RelativeTime value={o.creationTimestamp} />; {controller} has not reconciled it yet.
        </Notice>
      ) : null}
      {o.drift ? (
        <Notice tone="note" testId="notice-drift">
          <p className="font-semibold">
            Drifted since <RelativeTime value={o.drift.since} />: ready, but the cluster differs from the release. Not counted as failing.
          </p>
          <p className="mt-1 whitespace-pre-wrap break-words font-mono text-xs">{o.drift.message}</p>
        </Notice>
      ) : null}
      {o.healthDetail === "static" ? (
        <Notice tone="ok" testId="notice-static">
          Static OCI HelmRepository: source-controller stores nothing for it and writes no status (
          <code className="font-mono">status: {"{}"}</code>, no conditions). It is ready to use as it is; the HelmCharts that pull from it
          say whether pulling works.
        </Notice>
      ) : null}
      {o.healthDetail === "reconciling" ? (
        <Notice tone="ok" testId="notice-reconciling">
          Reconciling the revision it applied: kustomize-controller does this every interval, with Ready Unknown until it ends. It still
          runs what it ran; not a change, and no history entry.
        </Notice>
      ) : null}
      {o.healthDetail === "retrying" ? (
        <Notice tone="note" testId="notice-retrying">
          Retrying the revision that failed: Ready reads Unknown until the retry ends. The failure below is the last one; it still counts as
          failing.
        </Notice>
      ) : null}
      {d.chainTrouble ? (
        <Notice tone="note" testId="notice-source-trouble">
          <p className="flex flex-wrap items-center gap-2 font-semibold">
            Ready, but its source{" "}
            <Link href={d.chainTrouble.url} className={link}>
              {d.chainTrouble.kind} {d.chainTrouble.namespace}/{d.chainTrouble.name}
            </Link>{" "}
            is <HealthBadge health={d.chainTrouble.health} />
          </p>
          {d.chainTrouble.message ? (
            <p className="mt-1 whitespace-pre-wrap break-words font-mono text-xs">{d.chainTrouble.message}</p>
          ) : null}
          <p className="mt-1">It runs on the last artifact that source gave: a new revision will not arrive until the source recovers.</p>
        </Notice>
      ) : null}
    </>
  );
}
