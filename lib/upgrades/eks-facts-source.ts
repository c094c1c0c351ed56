// Where the upgrade pages' EKS facts for a cluster come from, said beside its version: the EKS API while it
// answers; Crossplane's status (status.atProvider) when the EKS API may not be asked for it (its refusal,
// e.g. AccessDenied, is kept as eksError); the API server's /version when neither knows it. Nothing is said
// for the usual case (the EKS API answers), so the note marks exactly the clusters a manager should read twice.
import { FACT_SOURCE_LABELS, type ClusterVersionKnowledge } from "../fleet/cluster-facts";

const firstLine = (text: string) => {
  const line = text.split("\n")[0].trim();
  return line.length > 120 ? `${line.slice(0, 117)}…` : line;
};

/** "from Crossplane (EKS API refused: AccessDeniedException …)", or null when the EKS API answers for it. */
export function eksFactsNote(k: Pick<ClusterVersionKnowledge, "from" | "eksAccess" | "version">, eksError: string | null): string | null {
  if (!k.version || !k.from) return null;
  const refusal = eksError ? `EKS API refused: ${firstLine(eksError)}` : "no EKS API access";
  if (k.from === "eks-api") return k.eksAccess ? null : `from the EKS API before it stopped answering (${refusal})`;
  if (k.from === "crossplane") return `from Crossplane (${refusal})`;
  // The API server's own version: say why the EKS API did not give it only when the EKS API refused.
  return eksError ? `from ${FACT_SOURCE_LABELS.kubernetes} (${refusal})` : null;
}
