// One campaign, a page a manager can link to: per wave, which clusters are done, upgrading, blocked (with
// their blockers) or not started, those whose version is unknown, and the burn-down from the version history.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { csrfTokenFor, requirePageSession } from "@/lib/auth/guard";
import { readPageParams } from "@/lib/http/route-params";
import { roleAtLeast } from "@/lib/auth/roles";
import { getCampaignView } from "@/lib/db/queries/campaigns";
import { CAMPAIGN_STATES, type CampaignCluster, type CampaignState } from "@/lib/upgrades/campaign";
import { UpgradeStat } from "@/app/_components/upgrade-badges";
import { CampaignForm } from "../campaign-form";
import { BurnDownChart } from "./burn-down.client";

type Params = Promise<{ slug: string }>;

/** Clusters listed per wave before "show all" (the counts always cover every one). */
const WAVE_PAGE_ROWS = 40;
/** Blockers named per cluster; the rest are one link away, on the cluster's upgrade page. */
const BLOCKERS_SHOWN = 3;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { slug } = await params;
  return { title: `Campaign ${slug}` };
}

const STATE_LABEL: Record<CampaignState, string> = {
  done: "done",
  upgrading: "upgrading",
  blocked: "blocked",
  "not-started": "not started",
  unknown: "version unknown",
};
const STATE_CLASS: Record<CampaignState, string> = {
  done: "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200",
  upgrading: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  blocked: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  "not-started": "bg-zinc-100 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200",
  unknown: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
};

function ClusterRow({ c }: { c: CampaignCluster }) {
  return (
    <li
      data-cluster={c.name}
      data-state={c.state}
      className="border-t border-zinc-100 py-1.5 text-sm first:border-t-0 dark:border-zinc-800"
    >
      <span className={`mr-2 inline-block rounded px-1.5 text-xs font-medium ${STATE_CLASS[c.state]}`}>{STATE_LABEL[c.state]}</span>
      <Link href={`/upgrades/${encodeURIComponent(c.name)}`} className="font-medium underline-offset-2 hover:underline">
        {c.name}
      </Link>{" "}
      <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{c.version ?? "?"}</span>
      {c.versionSource === "last-known" ? <span className="text-xs text-amber-800 dark:text-amber-300"> (last known)</span> : null}
      {c.state === "unknown" && c.why ? <span className="text-xs text-zinc-500"> — {c.why}</span> : null}
      {c.minorsToGo ? <span className="text-xs text-zinc-500"> · {c.minorsToGo} minor(s) to go</span> : null}
      {c.blockers.length ? (
        <ul className="mt-0.5 list-disc pl-6 text-xs text-red-900 dark:text-red-200">
          {c.blockers.slice(0, BLOCKERS_SHOWN).map((b, i) => (
            <li key={i}>{b.title}</li>
          ))}
          {c.blockers.length > BLOCKERS_SHOWN ? (
            <li>
              <Link href={`/upgrades/${encodeURIComponent(c.name)}`} className="underline">
                {c.blockers.length - BLOCKERS_SHOWN} more on its upgrade page
              </Link>
            </li>
          ) : null}
        </ul>
      ) : null}
    </li>
  );
}

export default async function CampaignPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  await connection();
  const session = await requirePageSession();
  const { slug } = await readPageParams(params);
  const raw = await searchParams;
  const error = typeof raw.error === "string" ? raw.error.slice(0, 500) : null;
  const v = await getCampaignView(slug);
  if (!v) notFound();
  const canEdit = roleAtLeast(session.role, "operator");
  const token = canEdit ? await csrfTokenFor(session) : "";
  const counts = v.progress.counts;
  const showAll = raw.all === "1";
  return (
    <>
      <nav aria-label="Breadcrumb" className="text-sm text-zinc-600 dark:text-zinc-400">
        <Link href="/upgrades" className="underline">
          Upgrades
        </Link>{" "}
        /{" "}
        <Link href="/upgrades/campaigns" className="underline">
          Campaigns
        </Link>{" "}
        / {v.name}
      </nav>
      <h1 className="mt-1 text-2xl font-semibold">{v.name}</h1>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        Every cluster on <strong>{v.targetVersion}</strong> by <strong>{v.deadline}</strong> (
        {v.daysLeft >= 0 ? `${v.daysLeft} days left` : `${-v.daysLeft} days late`}), in waves by <code>{v.waveLabel}</code>:{" "}
        {v.waveOrder.join(" → ")}. Created {v.createdAt.slice(0, 10)} by {v.createdBy}; last edited by {v.updatedBy}.
      </p>
      {v.targetUnknown ? (
        <p role="alert" className="mt-2 text-sm text-amber-900 dark:text-amber-200">
          No cluster runs {v.targetVersion} and EKS lists no such version yet.
        </p>
      ) : null}

      <dl className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-5" data-testid="campaign-counts">
        {CAMPAIGN_STATES.map((s) => (
          <UpgradeStat
            key={s}
            testId={`count-${s}`}
            label={STATE_LABEL[s]}
            value={String(counts[s])}
            hint={s === "done" ? `of ${v.total} clusters` : undefined}
          />
        ))}
      </dl>

      <section aria-labelledby="waves" className="mt-6">
        <h2 id="waves" className="text-lg font-semibold">
          Waves
        </h2>
        <div className="mt-2 grid gap-3 lg:grid-cols-2">
          {v.progress.waves.map((w) => (
            <section
              key={w.value ?? "(other)"}
              data-wave={w.value ?? "(other)"}
              aria-label={`Wave ${w.value ?? "other"}`}
              className="rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
            >
              <h3 className="font-medium">
                {w.value ?? `other ${v.waveLabel} values`}{" "}
                <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">
                  {CAMPAIGN_STATES.filter((s) => w.counts[s])
                    .map((s) => `${w.counts[s]} ${STATE_LABEL[s]}`)
                    .join(" · ") || "no clusters"}
                </span>
              </h3>
              <ul className="mt-1">
                {(showAll ? w.clusters : w.clusters.slice(0, WAVE_PAGE_ROWS)).map((c) => (
                  <ClusterRow key={c.name} c={c} />
                ))}
              </ul>
              {!showAll && w.clusters.length > WAVE_PAGE_ROWS ? (
                <Link href={`${v.url}?all=1#waves`} className="mt-1 inline-block text-sm underline">
                  and {w.clusters.length - WAVE_PAGE_ROWS} more
                </Link>
              ) : null}
            </section>
          ))}
        </div>
      </section>

      <section aria-labelledby="burn-down" className="mt-6">
        <h2 id="burn-down" className="text-lg font-semibold">
          Burn-down
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          From the version history the collector keeps, from a month before the campaign started.
        </p>
        <div className="mt-2">
          <BurnDownChart points={v.burnDown} />
        </div>
        <details className="mt-2">
          <summary className="cursor-pointer text-sm font-medium">The numbers per day</summary>
          <table className="mt-2 text-sm" data-testid="burn-down-table">
            <thead>
              <tr>
                <th scope="col" className="px-3 py-1 text-left font-medium">
                  Day
                </th>
                <th scope="col" className="px-3 py-1 text-left font-medium">
                  Still to upgrade
                </th>
                <th scope="col" className="px-3 py-1 text-left font-medium">
                  Done
                </th>
              </tr>
            </thead>
            <tbody>
              {[...v.burnDown].reverse().map((p) => (
                <tr key={p.date} data-date={p.date}>
                  <th scope="row" className="px-3 py-0.5 text-left font-mono font-normal">
                    {p.date}
                  </th>
                  <td className="px-3 py-0.5 tabular-nums">{p.remaining}</td>
                  <td className="px-3 py-0.5 tabular-nums">{p.done}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </section>

      {canEdit ? (
        <section aria-labelledby="edit" className="mt-6">
          <h2 id="edit" className="text-lg font-semibold">
            Edit
          </h2>
          <CampaignForm action={`/api/campaigns/${encodeURIComponent(v.slug)}`} csrfToken={token} values={v} submit="Save" error={error} />
          <form method="post" action={`/api/campaigns/${encodeURIComponent(v.slug)}`} className="mt-3">
            <input type="hidden" name="csrfToken" value={token} />
            <input type="hidden" name="_action" value="archive" />
            <button type="submit" className="text-sm text-red-800 underline dark:text-red-300">
              Archive this campaign
            </button>
          </form>
        </section>
      ) : null}
    </>
  );
}
