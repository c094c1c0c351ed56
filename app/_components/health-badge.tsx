// A health as a badge: colour plus a word and a shape, so it reads without colour too.
import type { Health } from "@/lib/fleet/status";

type BadgeHealth = Health | "missing" | "reachable" | "unreachable" | "pending" | "gone" | "healthy";

const STYLE: Record<BadgeHealth, { cls: string; icon: string; label: string }> = {
  ready: {
    cls: "border-green-300 bg-green-50 text-green-800 dark:border-green-800 dark:bg-green-950 dark:text-green-300",
    icon: "●",
    label: "ready",
  },
  healthy: {
    cls: "border-green-300 bg-green-50 text-green-800 dark:border-green-800 dark:bg-green-950 dark:text-green-300",
    icon: "●",
    label: "healthy",
  },
  reachable: {
    cls: "border-green-300 bg-green-50 text-green-800 dark:border-green-800 dark:bg-green-950 dark:text-green-300",
    icon: "●",
    label: "reachable",
  },
  failing: {
    cls: "border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-300",
    icon: "✕",
    label: "failing",
  },
  stalled: {
    cls: "border-purple-300 bg-purple-50 text-purple-800 dark:border-purple-800 dark:bg-purple-950 dark:text-purple-300",
    icon: "■",
    label: "stalled",
  },
  stale: {
    cls: "border-orange-300 bg-orange-50 text-orange-800 dark:border-orange-800 dark:bg-orange-950 dark:text-orange-300",
    icon: "◷",
    label: "stale",
  },
  progressing: {
    cls: "border-blue-300 bg-blue-50 text-blue-800 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-300",
    icon: "↻",
    label: "progressing",
  },
  suspended: {
    cls: "border-yellow-300 bg-yellow-50 text-yellow-900 dark:border-yellow-800 dark:bg-yellow-950 dark:text-yellow-300",
    icon: "❚❚",
    label: "suspended",
  },
  new: {
    cls: "border-sky-300 bg-sky-50 text-sky-800 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-300",
    icon: "✦",
    label: "new · not reconciled yet",
  },
  unclaimed: {
    cls: "border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-300",
    icon: "⊘",
    label: "not picked up",
  },
  unknown: {
    cls: "border-zinc-300 bg-zinc-100 text-zinc-700 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
    icon: "?",
    label: "unknown",
  },
  unreachable: {
    cls: "border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-300",
    icon: "⚠",
    label: "unreachable",
  },
  pending: {
    cls: "border-zinc-300 bg-zinc-100 text-zinc-700 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
    icon: "…",
    label: "not polled yet",
  },
  gone: {
    cls: "border-zinc-300 bg-zinc-100 text-zinc-700 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
    icon: "–",
    label: "gone",
  },
  missing: {
    cls: "border-zinc-300 bg-zinc-100 text-zinc-700 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
    icon: "–",
    label: "not found",
  },
};

export function HealthBadge({ health, label, className = "" }: { health: BadgeHealth | string; label?: string; className?: string }) {
  const s = STYLE[health as BadgeHealth] ?? STYLE.unknown;
  return (
    <span
      data-health={health}
      className={`inline-flex items-center gap-1 whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium ${s.cls} ${className}`}
    >
      <span aria-hidden="true">{s.icon}</span>
      {label ?? s.label}
    </span>
  );
}
