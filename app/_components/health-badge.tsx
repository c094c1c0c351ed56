// A health as a badge: colour plus a word and a shape, so it reads without colour too (classes in globals.css).
import type { Health } from "@/lib/fleet/status";

type BadgeHealth =
  | Health
  | "missing"
  | "reachable"
  | "unreachable"
  | "pending"
  | "gone"
  | "healthy"
  | "provisioning"
  | "create-failed"
  | "crossplane"
  | "not-ready";

const STYLE: Record<BadgeHealth, { cls: string; icon: string; label: string }> = {
  ready: {
    cls: "badge-green",
    icon: "●",
    label: "ready",
  },
  healthy: {
    cls: "badge-green",
    icon: "●",
    label: "healthy",
  },
  reachable: {
    cls: "badge-green",
    icon: "●",
    label: "reachable",
  },
  failing: {
    cls: "badge-red",
    icon: "✕",
    label: "failing",
  },
  stalled: {
    cls: "badge-purple",
    icon: "■",
    label: "stalled",
  },
  stale: {
    cls: "badge-orange",
    icon: "◷",
    label: "stale",
  },
  progressing: {
    cls: "badge-blue",
    icon: "↻",
    label: "progressing",
  },
  suspended: {
    cls: "badge-yellow",
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
    cls: "badge-zinc",
    icon: "?",
    label: "unknown",
  },
  unreachable: {
    cls: "badge-red",
    icon: "⚠",
    label: "unreachable",
  },
  provisioning: {
    cls: "border-blue-300 bg-blue-50 text-blue-800 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-300",
    icon: "◔",
    label: "provisioning",
  },
  "create-failed": {
    cls: "border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-300",
    icon: "✕",
    label: "failed to create",
  },
  crossplane: {
    cls: "border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-300",
    icon: "✕",
    label: "Crossplane error",
  },
  "not-ready": {
    cls: "border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-300",
    icon: "⚠",
    label: "NotReady",
  },
  pending: {
    cls: "badge-zinc",
    icon: "…",
    label: "not polled yet",
  },
  gone: {
    cls: "badge-zinc",
    icon: "–",
    label: "gone",
  },
  missing: {
    cls: "badge-zinc",
    icon: "–",
    label: "not found",
  },
};

export function HealthBadge({ health, label, className = "" }: { health: BadgeHealth | string; label?: string; className?: string }) {
  const s = STYLE[health as BadgeHealth] ?? STYLE.unknown;
  return (
    <span data-health={health} className={className ? `badge ${s.cls} ${className}` : `badge ${s.cls}`}>
      <span aria-hidden="true">{s.icon}</span>
      {label ?? s.label}
    </span>
  );
}
