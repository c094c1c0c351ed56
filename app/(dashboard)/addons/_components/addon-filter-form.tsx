// Plain GET form: filters live in the query string, so any view of the matrix can be shared.
import type { AddonFilters } from "@/lib/upgrades/addon-filters";
import { STANDINGS, STANDING_LABEL } from "@/lib/upgrades/standing";
import { FilterSelect, fieldClass, labelClass } from "@/app/_components/form-fields";

export function AddonFilterForm({
  filters,
  facets,
}: {
  filters: AddonFilters;
  facets: { envs: string[]; teams: string[]; regions: string[] };
}) {
  return (
    <form role="search" aria-label="Filter add-ons" method="get" action="/addons" className="flex flex-wrap items-end gap-3">
      <FilterSelect name="env" text="Environment" value={filters.env} options={facets.envs} />
      <FilterSelect name="team" text="Team" value={filters.team} options={facets.teams} />
      <FilterSelect name="region" text="Region" value={filters.region} options={facets.regions} />
      <label className={labelClass}>
        Group clusters by
        <select name="group" defaultValue={filters.group} className={fieldClass}>
          <option value="none">Nothing</option>
          <option value="env">Environment</option>
          <option value="team">Team</option>
          <option value="region">Region</option>
        </select>
      </label>
      <label className={labelClass}>
        Kind
        <select name="kind" defaultValue={filters.kind ?? ""} className={fieldClass}>
          <option value="">All</option>
          <option value="helm">Helm charts</option>
          <option value="eks">EKS managed add-ons</option>
          <option value="flux">Flux</option>
        </select>
      </label>
      <label className={labelClass}>
        Standing
        <select name="standing" defaultValue={filters.standing ?? ""} className={fieldClass}>
          <option value="">All</option>
          {STANDINGS.map((s) => (
            <option key={s} value={s}>
              {STANDING_LABEL[s]}
            </option>
          ))}
        </select>
      </label>
      <label className={labelClass}>
        Search
        <input type="search" name="q" defaultValue={filters.q ?? ""} className={`${fieldClass} w-44`} />
      </label>
      <label className="flex items-center gap-1.5 pb-2 text-sm">
        <input type="checkbox" name="skew" value="1" defaultChecked={!!filters.skew} /> Only with skew
      </label>
      <label className={labelClass}>
        As of date (UTC)
        <input type="date" name="at" defaultValue={filters.at ?? ""} className={fieldClass} />
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
