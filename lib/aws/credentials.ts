// AWS identities the collector acts as: the SDK's default chain (env, IRSA web identity, EKS Pod Identity,
// profile, IMDS), optionally chained into a role per region or per cluster (cross-account fleets), so no
// long-lived key is needed anywhere. Assumed-role credentials are cached until five minutes before expiry.
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import { defaultProvider } from "@aws-sdk/credential-provider-node";
import type { AwsCredentialIdentity } from "@smithy/types";

export type CredentialSource = () => Promise<AwsCredentialIdentity>;

export interface CredentialOptions {
  /** "region=arn" or "cluster=arn" entries (EKS_ASSUME_ROLES). */
  assumeRoles: string[];
  /** STS endpoint override (simulator); the SDK also honours AWS_ENDPOINT_URL_STS itself. */
  stsEndpoint?: string;
}

/** Role to assume for a cluster: a per-cluster entry wins over a per-region one. */
export function roleFor(assumeRoles: string[], clusterName: string | null, region: string): string | null {
  const map = new Map<string, string>();
  for (const entry of assumeRoles) {
    const i = entry.indexOf("=");
    if (i > 0) map.set(entry.slice(0, i).trim(), entry.slice(i + 1).trim());
  }
  return (clusterName ? map.get(clusterName) : undefined) ?? map.get(region) ?? null;
}

export class AwsCredentials {
  private readonly base: CredentialSource;
  private readonly assumed = new Map<string, Promise<AwsCredentialIdentity>>();

  constructor(
    private readonly options: CredentialOptions,
    base?: CredentialSource,
  ) {
    this.base = base ?? (defaultProvider() as CredentialSource);
  }

  /** Credentials for calls about `clusterName` (or region-wide calls when null) in `region`. */
  async forCluster(clusterName: string | null, region: string): Promise<{ credentials: AwsCredentialIdentity; roleArn: string | null }> {
    const roleArn = roleFor(this.options.assumeRoles, clusterName, region);
    if (!roleArn) return { credentials: await this.base(), roleArn: null };
    return { credentials: await this.forRole(roleArn, region), roleArn };
  }

  /** Credentials of a role named by the cluster's own configuration (an Argo CD awsAuthConfig.roleARN), assumed from our identity. */
  async forRole(roleArn: string, region: string): Promise<AwsCredentialIdentity> {
    const key = `${region}|${roleArn}`;
    let pending = this.assumed.get(key);
    if (pending) {
      const creds = await pending.catch(() => undefined);
      if (!creds || (creds.expiration && creds.expiration.getTime() - 5 * 60_000 < Date.now())) pending = undefined;
    }
    if (!pending) {
      pending = this.assume(roleArn, region);
      this.assumed.set(key, pending);
      pending.catch(() => this.assumed.delete(key));
    }
    return pending;
  }

  /** A provider the AWS SDK clients accept. */
  provider(clusterName: string | null, region: string): CredentialSource {
    return async () => (await this.forCluster(clusterName, region)).credentials;
  }

  private async assume(roleArn: string, region: string): Promise<AwsCredentialIdentity> {
    const sts = new STSClient({
      region,
      credentials: this.base,
      ...(this.options.stsEndpoint ? { endpoint: this.options.stsEndpoint } : {}),
    });
    try {
      const out = await sts.send(
        new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: "crows-nest-collector", DurationSeconds: 3600 }),
      );
      const c = out.Credentials;
      if (!c?.AccessKeyId || !c.SecretAccessKey) throw new Error(`AssumeRole ${roleArn} returned no credentials`);
      return { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken, expiration: c.Expiration };
    } finally {
      sts.destroy();
    }
  }
}
