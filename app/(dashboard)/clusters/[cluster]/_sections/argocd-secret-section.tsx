// What the hub's Argo CD cluster secret says about this cluster: how Argo CD (and so Crow's Nest) reaches it,
// a way in Crow's Nest cannot use (an exec plugin it never runs), and the GitOps Bridge metadata.
import { Facts, Section } from "@/app/_components/triage-section";
import type { AccessPath, ArgoPathFacts } from "@/lib/db/queries/clusters";

type Repo = ArgoPathFacts["gitopsBridge"]["addonsRepo"];
const repoText = (r: Repo) => (r ? [r.url, [r.basepath, r.path].filter(Boolean).join(""), r.revision].filter(Boolean).join(" · ") : null);

export function ArgoSecretSection({ paths }: { paths: AccessPath[] }) {
  const secrets = paths.filter((p): p is AccessPath & { argocd: ArgoPathFacts } => p.argocd !== null);
  if (!secrets.length) return null;
  return (
    <Section id="argocd-secret" title="Argo CD cluster secret">
      {secrets.map((p) => (
        <ArgoSecretCard key={`${p.secretNamespace}/${p.secretName}`} path={p} facts={p.argocd} />
      ))}
    </Section>
  );
}

function ArgoSecretCard({ path, facts }: { path: AccessPath; facts: ArgoPathFacts }) {
  const bridge = facts.gitopsBridge;
  const addons = Object.entries(bridge.addons).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div className="space-y-2">
      {facts.problem ? (
        <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950">
          Cannot use this way in: {facts.problem}
        </p>
      ) : null}
      <Facts
        items={[
          ["Secret", <span key="s" className="font-mono text-xs">{`${path.secretNamespace ?? ""}/${path.secretName ?? ""}`}</span>],
          ["Argo CD name", facts.name],
          [
            "Server",
            <span key="v" className="break-all font-mono text-xs">
              {facts.server}
            </span>,
          ],
          ["Reached with", facts.access],
          ["Environment", bridge.environment],
          ["Region", bridge.region],
          ["AWS account", bridge.accountId],
          ["VPC", bridge.vpcId],
          ["Kubernetes version (metadata)", bridge.kubernetesVersion],
          [
            "Add-ons enabled",
            addons
              .filter(([, on]) => on)
              .map(([a]) => a)
              .join(", ") || "none",
          ],
          [
            "Add-ons disabled",
            addons
              .filter(([, on]) => !on)
              .map(([a]) => a)
              .join(", ") || "none",
          ],
          ["Add-ons repository", repoText(bridge.addonsRepo)],
          ["Workloads repository", repoText(bridge.workloadRepo)],
        ]}
      />
      {facts.warnings.length ? (
        <ul className="list-disc pl-5 text-sm text-zinc-700 dark:text-zinc-300">
          {facts.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
