// Operator actions for one object (Flux: reconcile now, suspend, resume; an Argo CD Application: refresh, sync) and its audit trail. Buttons are
// rendered only for operators and admins while actions are enabled; the API refuses everyone else anyway.
import { AuditTable } from "@/app/auth/_components/audit-table";
import { kindName } from "@/lib/actions/request";
import { ACTIONABLE_KINDS } from "@/lib/actions/types";
import { listAuditEntries } from "@/lib/auth/audit";
import { canAct, csrfTokenFor, getSession } from "@/lib/auth/guard";
import { ObjectActionButtons } from "./object-action-buttons.client";

export interface ObjectActionsProps {
  cluster: string;
  /** Lower case, as in the URL (kustomization, helmrelease, ...). */
  kind: string;
  namespace: string;
  name: string;
  suspended: boolean;
  /** False when the object is gone from the cluster: nothing to act on. */
  exists?: boolean;
  /** Why actions cannot run now (the cluster is unreachable), shown next to the disabled buttons. */
  blocked?: string | null;
}

export async function ObjectActions({ cluster, kind, namespace, name, suspended, exists = true, blocked = null }: ObjectActionsProps) {
  const session = await getSession();
  const actionable = exists && (ACTIONABLE_KINDS as readonly string[]).includes(kind.toLowerCase());
  const entries = await listAuditEntries({ clusterName: cluster, kind: kindName(kind), namespace, name, limit: 10 });
  return (
    <section aria-labelledby="object-actions-title" className="mt-6" data-testid="object-actions">
      <h2 id="object-actions-title" className="text-lg font-semibold">
        Actions
      </h2>
      {session && actionable && canAct(session) ? (
        <ObjectActionButtons
          target={{ cluster, kind: kind.toLowerCase(), namespace, name }}
          suspended={suspended}
          csrfToken={await csrfTokenFor(session)}
          blocked={blocked}
        />
      ) : (
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          {!actionable
            ? "No actions for this object."
            : kind.toLowerCase() === "application"
              ? "Refresh and sync need the operator role."
              : "Reconcile, suspend and resume need the operator role."}
        </p>
      )}
      <h3 className="mt-4 text-sm font-semibold">Audit trail</h3>
      <div className="mt-1">
        <AuditTable entries={entries} showObject={false} caption={`Audit trail of ${kind} ${namespace}/${name}`} />
      </div>
    </section>
  );
}
