// Secrets read from the hub during one discovery cycle: listed once per namespace that holds connection
// secrets, or fetched one by one when their namespace could not be listed.
import { obj, type Raw, str } from "../../kube/raw";
import type { HubReader } from "./hub-reader";

export interface SecretData {
  namespace: string;
  name: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  data: Record<string, string>;
}

/** Secrets read from the hub this cycle (connection secrets are re-read every cycle). */
export class SecretStore {
  private readonly byKey = new Map<string, SecretData>();
  private readonly loadedNamespaces = new Set<string>();

  constructor(private readonly hub: HubReader) {}

  add(raw: Raw): SecretData {
    const metadata = obj(raw.metadata);
    const secret: SecretData = {
      namespace: str(metadata.namespace) ?? "",
      name: str(metadata.name) ?? "",
      labels: obj(metadata.labels) as Record<string, string>,
      annotations: obj(metadata.annotations) as Record<string, string>,
      data: obj(raw.data) as Record<string, string>,
    };
    this.byKey.set(`${secret.namespace}/${secret.name}`, secret);
    return secret;
  }

  /** One LIST per namespace holding connection secrets. */
  async loadNamespace(namespace: string): Promise<void> {
    if (this.loadedNamespaces.has(namespace)) return;
    const items = await this.hub.list(`/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets`);
    for (const item of items) this.add(item);
    this.loadedNamespaces.add(namespace);
  }

  async get(namespace: string, name: string): Promise<SecretData | undefined> {
    const key = `${namespace}/${name}`;
    if (!this.byKey.has(key) && !this.loadedNamespaces.has(namespace)) {
      const raw = await this.hub
        .getJson<Raw>(`/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`)
        .catch((err) => {
          if ((err as { status?: number }).status === 404) return undefined;
          throw err;
        });
      if (raw) this.add(raw);
    }
    return this.byKey.get(key);
  }
}

/** The secret in the shape the API returned it (for parsers that read a whole Secret object). */
export function secretObject(secret: SecretData): Raw {
  return {
    metadata: { namespace: secret.namespace, name: secret.name, labels: secret.labels, annotations: secret.annotations },
    data: secret.data,
  };
}
