// Discovery source (c): kubeconfig Secrets anywhere on the hub carrying the discovery label.
import type { SecretReference } from "./candidates";
import type { SourceProblems } from "./problems";
import type { SecretData, SecretStore } from "./secret-store";
import type { HubReader } from "./hub-reader";

export function labelledSecretReference(secret: SecretData): SecretReference {
  return { ref: { namespace: secret.namespace, name: secret.name }, via: "label-secret", labels: secret.labels };
}

export async function labelledSecretReferences(
  hub: HubReader,
  secretLabel: string,
  secrets: SecretStore,
  problems: SourceProblems,
): Promise<SecretReference[]> {
  try {
    const items = await hub.list(`/api/v1/secrets`, { labelSelector: `${secretLabel}=true` });
    return items.map((item) => labelledSecretReference(secrets.add(item)));
  } catch (err) {
    problems.failed("listing labelled secrets", err);
    return [];
  }
}
