// Badges for add-on standings and EKS support status: colour plus words (never colour alone).
import type { Standing } from "@/lib/upgrades/standing";
import { STANDING_LABEL } from "@/lib/upgrades/standing";
import { VERSION_STATUS_LABEL } from "@/lib/upgrades/format";

/** Colours per standing live in globals.css (.standing[data-standing=…]): the matrix repeats this badge in every cell. */
export function StandingBadge({ standing }: { standing: Standing }) {
  return (
    <span data-standing={standing} className="standing">
      {STANDING_LABEL[standing]}
    </span>
  );
}

const STATUS_CLASS: Record<string, string> = {
  STANDARD_SUPPORT: "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200",
  EXTENDED_SUPPORT: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  UNSUPPORTED: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};

export function SupportBadge({ status }: { status: string | null }) {
  if (!status) return <span className="text-xs text-zinc-500">unknown</span>;
  return (
    <span
      data-support={status}
      className={`inline-block whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_CLASS[status] ?? ""}`}
    >
      {VERSION_STATUS_LABEL[status] ?? status}
    </span>
  );
}

/** A small figure with a label, for summary rows. */
export function UpgradeStat({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId?: string }) {
  return (
    <div className="rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900" data-testid={testId}>
      <dt className="text-xs font-medium text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums">{value}</dd>
      {hint ? <dd className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">{hint}</dd> : null}
    </div>
  );
}
