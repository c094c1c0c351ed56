// Upgrade campaigns: named targets ("all clusters on 1.35 by 2027-03-01") and how far each has come.
// Operators and admins create them here; everyone signed in reads them.
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { csrfTokenFor, requirePageSession } from "@/lib/auth/guard";
import { roleAtLeast } from "@/lib/auth/roles";
import { listCampaigns } from "@/lib/db/queries/campaigns";
import { CampaignForm } from "./campaign-form";

export const metadata: Metadata = { title: "Upgrade campaigns" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function CampaignsPage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  const session = await requirePageSession();
  const raw = await searchParams;
  const error = typeof raw.error === "string" ? raw.error.slice(0, 500) : null;
  const campaigns = await listCampaigns();
  const canEdit = roleAtLeast(session.role, "operator");
  const token = canEdit ? await csrfTokenFor(session) : "";
  return (
    <>
      <nav aria-label="Breadcrumb" className="text-sm text-zinc-600 dark:text-zinc-400">
        <Link href="/upgrades" className="underline">
          Upgrades
        </Link>{" "}
        / Campaigns
      </nav>
      <h1 className="mt-1 text-2xl font-semibold">Upgrade campaigns</h1>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        A target version by a date, clusters in waves. Progress is what the collector observes, never a box someone ticks.
      </p>
      {campaigns.length ? (
        <ul className="mt-4 space-y-2" data-testid="campaigns">
          {campaigns.map((c) => (
            <li key={c.slug} className="rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900">
              <Link href={c.url} className="font-medium underline">
                {c.name}
              </Link>
              <div className="text-sm text-zinc-600 dark:text-zinc-400">
                {c.done} of {c.total} clusters on {c.targetVersion}
                {c.unknown ? ` (${c.unknown} of unknown version)` : ""} · due {c.deadline} (
                {c.daysLeft >= 0 ? `in ${c.daysLeft} days` : `${-c.daysLeft} days late`}) · waves by {c.waveLabel}:{" "}
                {c.waveOrder.join(" → ")}
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-4 text-sm">No campaign yet.</p>
      )}
      {canEdit ? (
        <section aria-labelledby="new-campaign" className="mt-6">
          <h2 id="new-campaign" className="text-lg font-semibold">
            New campaign
          </h2>
          <CampaignForm action="/api/campaigns" csrfToken={token} submit="Create campaign" error={error} />
        </section>
      ) : (
        <p className="mt-6 text-sm text-zinc-600 dark:text-zinc-400">Operators and admins create campaigns.</p>
      )}
    </>
  );
}
