// One Flux object: conditions and message, how long it has been failing, source and commit, last good
// revision, dependencies with their health, inventory, Helm chart and history, kept Events, a timeline
// of transitions and webhook events, and audit entries. Answers from history for a deleted object or an
// unreachable cluster, and says so.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { HealthBadge } from "@/app/_components/health-badge";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { Facts, link, Section, tableBox, td, th } from "@/app/_components/triage-section";
import { requirePageSession } from "@/lib/auth/guard";
import { actionsBlockedReason } from "@/lib/actions/types";
import { getObject, type RevisionInfo } from "@/lib/db/queries/objects";
import { kindFromSlug } from "@/lib/fleet/kinds";
import { readPageParams, routeParam } from "@/lib/http/route-params";
import { ObjectActions } from "./object-actions";
import { ObjectStatusLive, TimelineLive } from "./object-live.client";

type Params = Promise<{ cluster: string; kind: string; namespace: string; name: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const p = await params;
  const [namespace, name, cluster] = [routeParam(p.namespace), routeParam(p.name), routeParam(p.cluster)];
  return { title: namespace && name && cluster ? `${namespace}/${name} · ${cluster}` : "Not found" };
}

function Revision({ info }: { info: RevisionInfo | null }) {
  if (!info) return <>–</>;
  return (
    <span className="break-all font-mono text-xs">
      {info.commit ? (
        <a href={info.commit.url} className={link} rel="noreferrer" target="_blank">
          {info.revision}
          <span className="sr-only"> (commit on {info.commit.provider}, opens in a new tab)</span>
        </a>
      ) : (
        info.revision
      )}
    </span>
  );
}

export default async function ObjectPage({ params }: { params: Params }) {
  await connection();
  await requirePageSession();
  const p = await readPageParams(params);
  const kind = kindFromSlug(p.kind);
  if (!kind) notFound();
  const d = await getObject({ cluster: p.cluster, kind, namespace: p.namespace, name: p.name });
  if (!d) notFound();
  const o = d.object;
  const ready = o.conditions.find((c) => c.type === "Ready");
  return (
    <>
      <nav aria-label="Breadcrumb" className="break-all text-sm text-zinc-600 dark:text-zinc-400">
        <Link href="/clusters" className={link}>
          Clusters
        </Link>{" "}
        /{" "}
        <Link href={d.cluster.url} className={link}>
          {d.cluster.name}
        </Link>{" "}
        / {d.ref.kind} /{" "}
        <span aria-current="page">
          {d.ref.namespace}/{d.ref.name}
        </span>
      </nav>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="break-all text-2xl font-semibold">
          <span className="text-zinc-500">{d.ref.kind}</span> {d.ref.namespace}/{d.ref.name}
        </h1>
        <ObjectStatusLive initial={d} />
      </div>

      {d.historical ? (
        <div
          role="status"
          data-testid="historical"
          className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200"
        >
          {d.historical.reason === "deleted" ? (
            <p className="font-semibold">
              This object was deleted <RelativeTime value={d.historical.asOf} />. What follows is its last known state and its history.
            </p>
          ) : (
            <p className="font-semibold">
              Cluster {d.cluster.name} is unreachable{d.cluster.lastError ? ` (${d.cluster.lastError})` : ""}. This is the last known state,
              from <RelativeTime value={d.historical.asOf} />.
            </p>
          )}
        </div>
      ) : null}

      {/* Operator actions (reconcile, suspend, resume) and the object's audit trail (auditEntries). */}
      <ObjectActions
        cluster={d.ref.cluster}
        kind={p.kind}
        namespace={d.ref.namespace}
        name={d.ref.name}
        suspended={o.suspended}
        exists={!o.deletedAt}
        blocked={actionsBlockedReason(d.cluster)}
      />

      <Section id="status" title="Status">
        {o.readyMessage || o.stalledMessage ? (
          <div className="rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
            <p className="text-sm font-medium">
              {o.readyReason ?? "Ready"}
              {o.stalledReason ? ` · stalled: ${o.stalledReason}` : ""}
            </p>
            <p className="mt-1 whitespace-pre-wrap break-words font-mono text-xs" data-testid="ready-message">
              {o.readyMessage}
            </p>
            {o.stalledMessage && o.stalledMessage !== o.readyMessage ? (
              <p className="mt-1 whitespace-pre-wrap break-words font-mono text-xs">{o.stalledMessage}</p>
            ) : null}
          </div>
        ) : null}
        <div className="mt-3">
          <Facts
            items={[
              ["Failing since", o.firstFailedAt && o.failingForSeconds != null ? <RelativeTime key="f" value={o.firstFailedAt} /> : "–"],
              ["Last ready", <RelativeTime key="r" value={o.lastReadyAt} />],
              ["Last reconcile", <RelativeTime key="l" value={o.lastReconcileAt} />],
              ["Interval", o.interval ?? "–"],
              ["Suspended", o.suspended ? "yes" : "no"],
              ["Generation", o.generation != null ? `${o.observedGeneration ?? "?"} of ${o.generation} observed` : "–"],
              ["API version", o.apiVersion],
              ["First seen", <RelativeTime key="s" value={o.firstSeenAt} />],
              ["Ready since", ready?.lastTransitionTime ? <RelativeTime key="t" value={ready.lastTransitionTime} /> : "–"],
            ]}
          />
        </div>
        {o.conditions.length ? (
          <div className={`${tableBox} mt-3`}>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Conditions</caption>
              <thead>
                <tr>
                  <th scope="col" className={th}>
                    Condition
                  </th>
                  <th scope="col" className={th}>
                    Status
                  </th>
                  <th scope="col" className={th}>
                    Reason
                  </th>
                  <th scope="col" className={th}>
                    Message
                  </th>
                  <th scope="col" className={th}>
                    Since
                  </th>
                </tr>
              </thead>
              <tbody>
                {o.conditions.map((c) => (
                  <tr key={c.type} className="border-t border-zinc-100 dark:border-zinc-800">
                    <th scope="row" className={`${td} font-medium`}>
                      {c.type}
                    </th>
                    <td className={td}>{c.status}</td>
                    <td className={td}>{c.reason ?? "–"}</td>
                    <td className={`${td} max-w-xl whitespace-pre-wrap break-words font-mono text-xs`}>{c.message}</td>
                    <td className={`${td} whitespace-nowrap text-xs`}>
                      {c.lastTransitionTime ? <RelativeTime value={c.lastTransitionTime} /> : "–"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Section>

      <Section id="source" title="Source and revisions">
        <Facts
          items={[
            [
              "Source",
              d.source ? (
                <span key="src" className="flex flex-wrap items-center gap-2">
                  <Link href={d.source.url} className={link}>
                    {d.source.kind} {d.source.namespace}/{d.source.name}
                  </Link>
                  <HealthBadge health={d.source.health} />
                </span>
              ) : o.url ? (
                <span key="url" className="break-all font-mono text-xs">
                  {o.url}
                </span>
              ) : (
                "–"
              ),
            ],
            [
              "Repository",
              d.source?.repositoryUrl ? (
                <span key="repo" className="break-all font-mono text-xs">
                  {d.source.repositoryUrl}
                </span>
              ) : o.url ? (
                <span key="own" className="break-all font-mono text-xs">
                  {o.url}
                </span>
              ) : (
                "–"
              ),
            ],
            ["Applied revision", <Revision key="a" info={d.revisions.applied} />],
            ["Attempted revision", <Revision key="t" info={d.revisions.attempted} />],
            [
              "Last good revision",
              d.revisions.lastGood ? (
                <span key="g">
                  <Revision info={d.revisions.lastGood} />{" "}
                  <span className="text-xs text-zinc-500">
                    (<RelativeTime value={d.revisions.lastGood.at} />)
                  </span>
                </span>
              ) : (
                "–"
              ),
            ],
          ]}
        />
      </Section>

      {d.dependsOn.length ? (
        <Section id="depends" title="Depends on">
          <ul className="space-y-1 text-sm">
            {d.dependsOn.map((dep) => (
              <li key={dep.url} className="flex flex-wrap items-center gap-2">
                <Link href={dep.url} className={link}>
                  {dep.kind} {dep.namespace}/{dep.name}
                </Link>
                <HealthBadge health={dep.health} />
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      {d.helm ? (
        <Section id="helm" title="Helm release">
          <Facts
            items={[
              ["Chart", d.helm.chartName ?? "–"],
              ["Chart version", d.helm.chartVersion ?? "–"],
              ["App version", d.helm.appVersion ?? "–"],
              ["Desired version", d.helm.desiredChartVersion ?? "–"],
            ]}
          />
          {d.helm.history.length ? (
            <div className={`${tableBox} mt-3`}>
              <table className="w-full text-left text-sm">
                <caption className="px-3 pt-2 text-left text-sm font-medium">Helm history (newest first)</caption>
                <thead>
                  <tr>
                    <th scope="col" className={th}>
                      Release
                    </th>
                    <th scope="col" className={th}>
                      Status
                    </th>
                    <th scope="col" className={th}>
                      Action
                    </th>
                    <th scope="col" className={th}>
                      Chart
                    </th>
                    <th scope="col" className={th}>
                      App
                    </th>
                    <th scope="col" className={th}>
                      Deployed
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {d.helm.history.map((h, i) => (
                    <tr key={i} className="border-t border-zinc-100 dark:border-zinc-800">
                      <th scope="row" className={td}>
                        v{h.version ?? "?"}
                      </th>
                      <td className={td}>{h.status ?? "–"}</td>
                      <td className={td}>{h.action ?? "–"}</td>
                      <td className={`${td} font-mono text-xs`}>
                        {h.chartName}@{h.chartVersion}
                      </td>
                      <td className={`${td} font-mono text-xs`}>{h.appVersion ?? "–"}</td>
                      <td className={`${td} text-xs`}>{h.lastDeployed ? <RelativeTime value={h.lastDeployed} /> : "–"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </Section>
      ) : null}

      {d.reconciliations.length ? (
        <Section id="reconciliations" title="Last reconciliations">
          <div className={tableBox}>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Last reconciliations as the controller reports them</caption>
              <thead>
                <tr>
                  <th scope="col" className={th}>
                    Revision
                  </th>
                  <th scope="col" className={th}>
                    Result
                  </th>
                  <th scope="col" className={th}>
                    Runs
                  </th>
                  <th scope="col" className={th}>
                    Last
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.reconciliations.map((r, i) => (
                  <tr key={i} className="border-t border-zinc-100 dark:border-zinc-800">
                    <td className={`${td} break-all font-mono text-xs`}>{r.revision ?? "–"}</td>
                    <td className={td}>{r.status ?? "–"}</td>
                    <td className={td}>{r.total ?? "–"}</td>
                    <td className={`${td} text-xs`}>{r.lastReconciled ? <RelativeTime value={r.lastReconciled} /> : "–"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Section>
      ) : null}

      {d.inventory ? (
        <Section id="inventory" title={`Inventory (${d.inventory.total})`}>
          <p className="text-sm">{d.inventory.byKind.map((k) => `${k.count} ${k.kind}`).join(" · ") || "empty"}</p>
          {d.inventory.entries.length ? (
            <details className="mt-2">
              <summary className="cursor-pointer text-sm text-sky-700 dark:text-sky-400">Show objects</summary>
              <ul className="mt-2 columns-1 text-xs sm:columns-2">
                {d.inventory.entries.map((e, i) => (
                  <li key={i} className="break-all font-mono">
                    {e.kind} {e.namespace ? `${e.namespace}/` : ""}
                    {e.name}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </Section>
      ) : null}

      <Section id="timeline" title="Timeline">
        <TimelineLive initial={d} />
      </Section>

      <Section id="events" title="Kubernetes events">
        {d.events.length ? (
          <div className={tableBox}>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Events kept for this object</caption>
              <thead>
                <tr>
                  <th scope="col" className={th}>
                    Last seen
                  </th>
                  <th scope="col" className={th}>
                    Type
                  </th>
                  <th scope="col" className={th}>
                    Reason
                  </th>
                  <th scope="col" className={th}>
                    Message
                  </th>
                  <th scope="col" className={th}>
                    Count
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.events.map((e, i) => (
                  <tr key={i} className="border-t border-zinc-100 dark:border-zinc-800">
                    <td className={`${td} whitespace-nowrap text-xs`}>
                      <RelativeTime value={e.lastTimestamp} />
                    </td>
                    <td className={td}>{e.type}</td>
                    <td className={td}>{e.reason}</td>
                    <td className={`${td} max-w-xl whitespace-pre-wrap break-words font-mono text-xs`}>{e.message}</td>
                    <td className={td}>{e.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No events kept (events are collected while an object is not ready).</p>
        )}
      </Section>
    </>
  );
}
