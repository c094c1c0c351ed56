// What makes a healthy object read differently: "static" (an OCI HelmRepository, nothing to reconcile) or
// "drifted" (Ready, but the cluster differs from the release). Neither is a problem; both are worded so
// they read without colour.
import type { HealthDetail } from "@/lib/fleet/status";

const STYLE: Record<HealthDetail, { cls: string; icon: string; label: string; title: string }> = {
  static: {
    cls: "border-green-300 text-green-800 dark:border-green-800 dark:text-green-300",
    icon: "▪",
    label: "static",
    title: "An OCI HelmRepository: source-controller stores nothing for it and writes no status; it is ready to use as it is.",
  },
  drifted: {
    cls: "border-amber-400 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200",
    icon: "≠",
    label: "drifted",
    title:
      "Ready, but helm-controller found the cluster differing from the release (drift detection in warn mode). Not counted as failing.",
  },
};

export function HealthDetailBadge({ detail, title }: { detail: HealthDetail | null; title?: string | null }) {
  if (!detail) return null;
  const s = STYLE[detail];
  return (
    <span
      data-health-detail={detail}
      title={title ?? s.title}
      className={`inline-flex items-center gap-1 whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium ${s.cls}`}
    >
      <span aria-hidden="true">{s.icon}</span>
      {s.label}
    </span>
  );
}
