// Plain GET form: filters live in the query string, so any view of the matrix can be shared.
import type { AddonFilters } from "@/lib/upgrades/addon-filters";
import { STANDINGS, STANDING_LABEL } from "@/lib/upgrades/standing";

const field =
  "mt-1 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";
const label = "flex flex-col text-xs font-medium text-zinc-600 dark:text-zinc-400";

function ClusterSelect({ name, text, value, options }: { name: string; text: string; value: string | undefined; options: string[] }) {
  return (
    <label className={label}>
      {text}
      <select name={name} defaultValue={value ?? ""} className={field}>
        <option value="">All</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

export function AddonFilterForm({
  filters,
  facets,
}: {
  filters: AddonFilters;
  facets: { envs: string[]; teams: string[]; regions: string[] };
}) {
  return (
    <form role="search" aria-label="Filter add-ons" method="get" action="/addons" className="flex flex-wrap items-end gap-3">
      <ClusterSelect name="env" text="Environment" value={filters.env} options={facets.envs} />
      <ClusterSelect name="team" text="Team" value={filters.team} options={facets.teams} />
      <ClusterSelect name="region" text="Region" value={filters.region} options={facets.regions} />
      <label className={label}>
        Group clusters by
        <select name="group" defaultValue={filters.group} className={field}>
          <option value="none">Nothing</option>
          <option value="env">Environment</option>
          <option value="team">Team</option>
          <option value="region">Region</option>
        </select>
      </label>
      <label className={label}>
        Kind
        <select name="kind" defaultValue={filters.kind ?? ""} className={field}>
          <option value="">All</option>
          <option value="helm">Helm charts</option>
          <option value="eks">EKS managed add-ons</option>
          <option value="flux">Flux</option>
        </select>
      </label>
      <label className={label}>
        Standing
        <select name="standing" defaultValue={filters.standing ?? ""} className={field}>
          <option value="">All</option>
          {STANDINGS.map((s) => (
            <option key={s} value={s}>
              {STANDING_LABEL[s]}
            </option>
          ))}
        </select>
      </label>
      <label className={label}>
        Search
        <input type="search" name="q" defaultValue={filters.q ?? ""} className={`${field} w-44`} />
      </label>
      <label className="flex items-center gap-1.5 pb-2 text-sm">
        <input type="checkbox" name="skew" value="1" defaultChecked={!!filters.skew} /> Only with skew
      </label>
      <label className={label}>
        As of date (UTC)
        <input type="date" name="at" defaultValue={filters.at ?? ""} className={field} />
      </label>
      <button
        type="submit"
        className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
      >
        Apply
      </button>
    </form>
  );
}
