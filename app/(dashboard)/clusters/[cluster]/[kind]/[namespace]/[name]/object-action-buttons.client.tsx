"use client";

// Reconcile now / suspend / resume (Flux), refresh / sync (an Argo CD Application) with an explicit confirmation step and the result shown in place.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";

type Action = "reconcile" | "suspend" | "resume" | "refresh" | "sync";

interface Target {
  cluster: string;
  kind: string;
  namespace: string;
  name: string;
}

interface Outcome {
  tone: "ok" | "error" | "pending";
  text: string;
}

const LABEL: Record<Action, string> = {
  reconcile: "Reconcile now",
  suspend: "Suspend",
  resume: "Resume",
  refresh: "Refresh",
  sync: "Sync",
};

const EXPLAIN: Record<Action, string> = {
  reconcile: "asks Flux to reconcile it now (sets reconcile.fluxcd.io/requestedAt)",
  suspend: "stops Flux from reconciling it until resumed (spec.suspend: true)",
  resume: "lets Flux reconcile it again (removes spec.suspend)",
  refresh: "asks Argo CD to compare it with Git now (sets argocd.argoproj.io/refresh: normal)",
  sync: "asks Argo CD to sync it to its target revision now (the operation argocd app sync writes)",
};

export function ObjectActionButtons({
  target,
  suspended,
  csrfToken,
  blocked,
}: {
  target: Target;
  suspended: boolean;
  csrfToken: string;
  /** Why the actions cannot run now; the buttons are disabled and this is shown. */
  blocked: string | null;
}) {
  const router = useRouter();
  const [confirming, setConfirming] = useState<Action | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [, startTransition] = useTransition();
  const actions: Action[] = target.kind === "application" ? ["refresh", "sync"] : suspended ? ["resume"] : ["reconcile", "suspend"];

  async function run(action: Action) {
    setBusy(true);
    setOutcome(null);
    try {
      const res = await fetch("/api/actions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ action, ...target, csrfToken }),
      });
      const body = (await res.json().catch(() => ({}))) as { status?: string; result?: string | null; error?: { message?: string } };
      if (!res.ok) setOutcome({ tone: "error", text: body.error?.message ?? `failed (HTTP ${res.status})` });
      else if (body.status === "ok") setOutcome({ tone: "ok", text: body.result ?? "done" });
      else if (body.status === "pending")
        setOutcome({ tone: "pending", text: "Queued: the collector has not carried it out yet. The audit trail will show the result." });
      else setOutcome({ tone: "error", text: body.result ?? "failed" });
    } catch {
      setOutcome({ tone: "error", text: "could not reach Crow's Nest" });
    } finally {
      setBusy(false);
      setConfirming(null);
      startTransition(() => router.refresh());
    }
  }

  return (
    <div className="mt-2" data-testid="object-action-buttons">
      {confirming ? (
        <div
          role="group"
          aria-label="Confirm action"
          className="flex flex-wrap items-center gap-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950"
        >
          <span>
            {LABEL[confirming]} {target.kind}{" "}
            <strong>
              {target.namespace}/{target.name}
            </strong>{" "}
            on <strong>{target.cluster}</strong>? This {EXPLAIN[confirming]}.
          </span>
          <button
            type="button"
            disabled={busy}
            onClick={() => void run(confirming)}
            className="rounded bg-zinc-900 px-3 py-1 font-medium text-white disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900"
          >
            {busy ? "Working…" : `Yes, ${LABEL[confirming].toLowerCase()}`}
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => setConfirming(null)}
            className="rounded border border-zinc-300 px-3 py-1 dark:border-zinc-700"
          >
            Cancel
          </button>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          {actions.map((action) => (
            <button
              key={action}
              type="button"
              disabled={!!blocked}
              aria-describedby={blocked ? "object-actions-blocked" : undefined}
              onClick={() => setConfirming(action)}
              className="rounded border border-zinc-300 px-3 py-1 text-sm font-medium hover:bg-zinc-100 disabled:cursor-not-allowed disabled:opacity-50 disabled:hover:bg-transparent dark:border-zinc-700 dark:hover:bg-zinc-800"
            >
              {LABEL[action]}
            </button>
          ))}
          {blocked ? (
            <p id="object-actions-blocked" data-testid="actions-blocked" className="text-sm text-amber-700 dark:text-amber-400">
              Unavailable: {blocked}.
            </p>
          ) : null}
        </div>
      )}
      {outcome ? (
        <p
          role="status"
          data-testid="action-result"
          className={`mt-2 text-sm ${outcome.tone === "ok" ? "text-emerald-700 dark:text-emerald-400" : outcome.tone === "pending" ? "text-amber-700 dark:text-amber-400" : "text-red-700 dark:text-red-400"}`}
        >
          {outcome.tone === "error" ? "Failed: " : ""}
          {outcome.text}
        </p>
      ) : null}
    </div>
  );
}
