// What makes an object read differently from its health alone: "static" (an OCI HelmRepository, nothing to
// reconcile), "drifted" (Ready, but the cluster differs from the release), "reconciling" (a routine reconcile
// of the revision already applied is running) or "retrying" (a failing one's retry is running). Worded so
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
  reconciling: {
    cls: "border-sky-300 text-sky-800 dark:border-sky-800 dark:text-sky-300",
    icon: "↻",
    label: "reconciling",
    title:
      "kustomize-controller is re-applying the revision it already applied (its routine reconcile, every interval): Ready reads Unknown until it ends. The last result stands; this is not a change.",
  },
  retrying: {
    cls: "border-red-300 text-red-800 dark:border-red-800 dark:text-red-300",
    icon: "↻",
    label: "retrying",
    title:
      "kustomize-controller is retrying the revision that failed (every retry interval): Ready reads Unknown until it ends. The failure shown is the last one; it still counts as failing.",
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
