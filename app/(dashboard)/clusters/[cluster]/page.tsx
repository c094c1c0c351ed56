// One cluster: reachability and last error, how it is reached, versions, node groups, objects by kind
// with health, recent transitions and the substitution variables its Kustomizations use.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { HealthBadge } from "@/app/_components/health-badge";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { Facts, link, Section, tableBox, td, th } from "@/app/_components/triage-section";
import { requirePageSession } from "@/lib/auth/guard";
import { getCluster, type ClusterObject } from "@/lib/db/queries/clusters";
import { FLUX_KINDS, kindSlug } from "@/lib/fleet/kinds";
import { readPageParams, routeParam } from "@/lib/http/route-params";
import { formatDuration } from "@/lib/time";
import { Counts } from "../../_fleet/fleet-live.client";

type Params = Promise<{ cluster: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { cluster } = await params;
  return { title: routeParam(cluster) ?? "Not found" };
}

function ObjectsTable({ kind, objects }: { kind: string; objects: ClusterObject[] }) {
  return (
    <div className={tableBox}>
      <table className="w-full min-w-[44rem] text-left text-sm">
        <caption className="sr-only">{kind} objects</caption>
        <thead>
          <tr>
            <th scope="col" className={th}>
              Name
            </th>
            <th scope="col" className={th}>
              Health
            </th>
            <th scope="col" className={th}>
              Message
            </th>
            <th scope="col" className={th}>
              Revision
            </th>
            <th scope="col" className={th}>
              Last reconcile
            </th>
          </tr>
        </thead>
        <tbody>
          {objects.map((o) => (
            <tr key={o.url} className="border-t border-zinc-100 dark:border-zinc-800" data-object={`${o.namespace}/${o.name}`}>
              <th scope="row" className={`${td} font-medium`}>
                <Link href={o.url} className={link}>
                  {o.namespace}/{o.name}
                </Link>
              </th>
              <td className={td}>
                <HealthBadge health={o.health} />
                {o.failingForSeconds != null ? (
                  <span className="mt-1 block text-xs text-zinc-500">for {formatDuration(o.failingForSeconds * 1000)}</span>
                ) : null}
              </td>
              <td className={`${td} max-w-md`}>
                {o.readyReason ? <span className="font-medium">{o.readyReason}: </span> : null}
                <span className="line-clamp-2 break-words text-xs text-zinc-700 dark:text-zinc-300" title={o.readyMessage ?? undefined}>
                  {o.readyMessage}
                </span>
              </td>
              <td className={`${td} max-w-48 break-all font-mono text-xs`}>{o.revision ?? "–"}</td>
              <td className={`${td} whitespace-nowrap text-xs`}>
                <RelativeTime value={o.lastReconcileAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default async function ClusterPage({ params }: { params: Params }) {
  await connection();
  await requirePageSession();
  const { cluster } = await readPageParams(params);
  const c = await getCluster(cluster);
  if (!c) notFound();
  const unreachable = c.reachability === "unreachable" || c.reachability === "gone";
  const support = c.versions.support;
  return (
    <>
      <nav aria-label="Breadcrumb" className="text-sm text-zinc-600 dark:text-zinc-400">
        <Link href="/clusters" className={link}>
          Clusters
        </Link>{" "}
        / <span aria-current="page">{c.name}</span>
      </nav>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold break-all">{c.name}</h1>
        <HealthBadge health={c.reachability} />
        <span className="text-sm text-zinc-600 dark:text-zinc-400">
          {[c.role, c.env, c.team, c.region, c.accountId].filter(Boolean).join(" · ")}
        </span>
      </div>

      {unreachable ? (
        <div
          role="alert"
          className="mt-4 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          <p className="font-semibold">
            {c.reachability === "gone" ? "This cluster is no longer discovered." : "The collector cannot reach this cluster."} What follows
            is the last known state, from <RelativeTime value={c.lastSuccessAt} />.
          </p>
          {c.lastError ? (
            <p className="mt-1 break-words font-mono text-xs">
              {c.lastErrorKind ? `${c.lastErrorKind}: ` : ""}
              {c.lastError}
            </p>
          ) : null}
        </div>
      ) : null}

      <Section id="reach" title="Reachability">
        <Facts
          items={[
            ["Last successful poll", <RelativeTime key="s" value={c.lastSuccessAt} />],
            ["Last attempt", <RelativeTime key="a" value={c.lastAttemptAt} />],
            [
              "Last error",
              c.lastError ? (
                <span key="e">
                  <RelativeTime value={c.lastErrorAt} />: <span className="break-words font-mono text-xs">{c.lastError}</span>
                </span>
              ) : (
                "none"
              ),
            ],
            ["Latency", c.latencyMs != null ? `${c.latencyMs} ms` : "–"],
            [
              "Endpoint",
              c.access.endpoint ? (
                <span key="ep" className="break-all font-mono text-xs">
                  {c.access.endpoint}
                </span>
              ) : (
                "–"
              ),
            ],
            [
              "EKS ARN",
              c.access.eksArn ? (
                <span key="arn" className="break-all font-mono text-xs">
                  {c.access.eksArn}
                </span>
              ) : (
                "–"
              ),
            ],
          ]}
        />
      </Section>

      <Section id="access" title="How it is reached">
        {c.access.paths.length ? (
          <div className={tableBox}>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Access paths</caption>
              <thead>
                <tr>
                  <th scope="col" className={th}>
                    Via
                  </th>
                  <th scope="col" className={th}>
                    Secret
                  </th>
                  <th scope="col" className={th}>
                    Key
                  </th>
                  <th scope="col" className={th}>
                    Region / role
                  </th>
                </tr>
              </thead>
              <tbody>
                {c.access.paths.map((p, i) => (
                  <tr key={i} className="border-t border-zinc-100 dark:border-zinc-800">
                    <td className={td}>{p.via}</td>
                    <td className={`${td} font-mono text-xs`}>{p.secretName ? `${p.secretNamespace ?? ""}/${p.secretName}` : "–"}</td>
                    <td className={`${td} font-mono text-xs`}>{p.key ?? "–"}</td>
                    <td className={`${td} break-all font-mono text-xs`}>{[p.region, p.roleArn].filter(Boolean).join(" · ") || "–"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No access path recorded.</p>
        )}
        {c.access.provisioners.map((p) => (
          <div
            key={`${p.kind}/${p.namespace}/${p.name}`}
            className="mt-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm dark:border-zinc-800 dark:bg-zinc-900"
          >
            <p>
              Provisioned by Crossplane <strong>{p.kind}</strong>{" "}
              <span className="font-mono">
                {p.namespace ? `${p.namespace}/` : ""}
                {p.name}
              </span>{" "}
              <span className="text-xs text-zinc-500">({p.apiVersion})</span>
            </p>
            <p className="mt-1 flex flex-wrap gap-2">
              <HealthBadge
                health={p.ready === "True" ? "ready" : p.ready === "False" ? "failing" : "unknown"}
                label={`Ready ${p.ready ?? "?"}${p.readyReason ? ` (${p.readyReason})` : ""}`}
              />
              <HealthBadge
                health={p.synced === "True" ? "ready" : p.synced === "False" ? "failing" : "unknown"}
                label={`Synced ${p.synced ?? "?"}${p.syncedReason ? ` (${p.syncedReason})` : ""}`}
              />
              {p.secretName ? (
                <span className="text-xs text-zinc-600 dark:text-zinc-400">
                  connection secret {p.secretNamespace}/{p.secretName}
                </span>
              ) : null}
            </p>
            {p.conditions.some((x) => x.message) ? (
              <ul className="mt-2 list-disc pl-5 text-xs">
                {p.conditions
                  .filter((x) => x.message)
                  .map((x) => (
                    <li key={x.type} className="break-words">
                      {x.type}: {x.message}
                    </li>
                  ))}
              </ul>
            ) : null}
          </div>
        ))}
      </Section>

      <Section id="versions" title="Versions">
        <Facts
          items={[
            [
              "Kubernetes",
              <span key="k" className="font-mono">
                {c.versions.kubernetes ?? "–"}
              </span>,
            ],
            ["EKS", c.versions.eks ? `${c.versions.eks}${c.versions.platform ? ` (${c.versions.platform})` : ""}` : "–"],
            [
              "Support",
              support?.versionStatus
                ? `${support.versionStatus.replace(/_/g, " ").toLowerCase()}${support.endOfStandardSupport ? `, standard ends ${support.endOfStandardSupport.slice(0, 10)}` : ""}`
                : "–",
            ],
            ["Upgrade policy", c.versions.supportType ?? "–"],
            ["Flux", c.versions.flux ?? "–"],
            ["Kubelets", c.versions.kubelets.length ? c.versions.kubelets.map((k) => `${k.version} × ${k.nodes}`).join(", ") : "–"],
          ]}
        />
        {c.nodeGroups.length ? (
          <div className={`${tableBox} mt-3`}>
            <table className="w-full text-left text-sm">
              <caption className="px-3 pt-2 text-left text-sm font-medium">Node groups</caption>
              <thead>
                <tr>
                  <th scope="col" className={th}>
                    Name
                  </th>
                  <th scope="col" className={th}>
                    Version
                  </th>
                  <th scope="col" className={th}>
                    Release
                  </th>
                  <th scope="col" className={th}>
                    Status
                  </th>
                  <th scope="col" className={th}>
                    Capacity
                  </th>
                </tr>
              </thead>
              <tbody>
                {c.nodeGroups.map((n) => (
                  <tr key={n.name} className="border-t border-zinc-100 dark:border-zinc-800">
                    <th scope="row" className={`${td} font-medium`}>
                      {n.name}
                    </th>
                    <td className={`${td} font-mono text-xs`}>{n.version ?? "–"}</td>
                    <td className={`${td} font-mono text-xs`}>{n.releaseVersion ?? "–"}</td>
                    <td className={td}>{n.status ?? "–"}</td>
                    <td className={`${td} text-xs`}>
                      {[n.capacityType, n.instanceTypes.join(", "), n.desiredSize != null ? `${n.desiredSize} nodes` : null]
                        .filter(Boolean)
                        .join(" · ")}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {c.addons.length ? (
          <p className="mt-3 text-sm">
            <span className="font-medium">EKS add-ons: </span>
            {c.addons.map((a) => `${a.name} ${a.version ?? ""}${a.status && a.status !== "ACTIVE" ? ` (${a.status})` : ""}`).join(" · ")}
          </p>
        ) : null}
      </Section>

      <Section id="objects" title="Flux objects" actions={<Counts counts={c.totals} />}>
        {FLUX_KINDS.map((kind) => {
          const list = c.objects.filter((o) => o.kind === kind);
          if (!list.length) return null;
          return (
            <div key={kind} className="mt-4 first:mt-0">
              <h3 className="mb-2 flex flex-wrap items-center gap-3 text-base font-semibold">
                {kind}s <Counts counts={c.counts[kindSlug(kind)]} />
              </h3>
              <ObjectsTable kind={kind} objects={list} />
            </div>
          );
        })}
        {c.objects.length === 0 ? <p className="text-sm text-zinc-600 dark:text-zinc-400">No Flux objects collected.</p> : null}
      </Section>

      <Section id="transitions" title="Recent transitions">
        {c.transitions.length ? (
          <ol className="space-y-2 text-sm">
            {c.transitions.map((t, i) => (
              <li key={i} className="flex flex-wrap items-baseline gap-2 border-l-2 border-zinc-300 pl-3 dark:border-zinc-700">
                <RelativeTime value={t.at} className="text-xs text-zinc-500" />
                <Link href={t.url} className={link}>
                  {t.kind} {t.namespace}/{t.name}
                </Link>
                <span>
                  {t.previousHealth ? `${t.previousHealth} → ` : ""}
                  <HealthBadge health={t.health} />
                </span>
                {t.readyReason ? <span className="text-xs text-zinc-600 dark:text-zinc-400">{t.readyReason}</span> : null}
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No transitions recorded yet.</p>
        )}
      </Section>

      <Section id="substitutions" title="Substitution variables">
        {c.substitutions.length ? (
          <div className={tableBox}>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">postBuild substitution variables (non-secret)</caption>
              <thead>
                <tr>
                  <th scope="col" className={th}>
                    Variable
                  </th>
                  <th scope="col" className={th}>
                    Value
                  </th>
                  <th scope="col" className={th}>
                    From
                  </th>
                </tr>
              </thead>
              <tbody>
                {c.substitutions.map((v) => (
                  <tr key={`${v.from}/${v.name}`} className="border-t border-zinc-100 dark:border-zinc-800">
                    <th scope="row" className={`${td} font-mono text-xs font-medium`}>
                      {v.name}
                    </th>
                    <td className={`${td} break-all font-mono text-xs`}>{v.value}</td>
                    <td className={`${td} text-xs`}>{v.from ?? "–"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">None recorded (secret values are never shown).</p>
        )}
      </Section>

      {c.deletedObjects.length ? (
        <Section id="deleted" title="Deleted objects">
          <ul className="text-sm">
            {c.deletedObjects.map((o) => (
              <li key={o.url}>
                <Link href={o.url} className={link}>
                  {o.kind} {o.namespace}/{o.name}
                </Link>{" "}
                <span className="text-xs text-zinc-500">
                  deleted <RelativeTime value={o.deletedAt} />
                </span>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
    </>
  );
}
