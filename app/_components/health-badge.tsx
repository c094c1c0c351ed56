// A health as a badge: colour plus a word and a shape, so it reads without colour too (classes in globals.css).
import type { Health } from "@/lib/fleet/status";

type BadgeHealth = Health | "missing" | "reachable" | "unreachable" | "pending" | "gone" | "healthy";

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
