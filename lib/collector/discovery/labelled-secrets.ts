// Discovery source (c): kubeconfig Secrets on the hub carrying the discovery label (in every namespace, or
// in DISCOVERY_SECRET_NAMESPACES).
import type { SecretReference } from "./candidates";
import type { SourceProblems } from "./problems";
import type { SecretData, SecretStore } from "./secret-store";
import { labelledSecrets, type HubReader } from "./hub-reader";

export function labelledSecretReference(secret: SecretData): SecretReference {
  return { ref: { namespace: secret.namespace, name: secret.name }, via: "label-secret", labels: secret.labels };
}

export async function labelledSecretReferences(
  hub: HubReader,
  secretLabel: string,
  secrets: SecretStore,
  problems: SourceProblems,
  namespaces: readonly string[] = [],
): Promise<SecretReference[]> {
  const items = await labelledSecrets(hub, `${secretLabel}=true`, namespaces, (where, err) =>
    problems.failed(`listing labelled secrets in ${where}`, err),
  );
  return items.map((item) => labelledSecretReference(secrets.add(item)));
}
