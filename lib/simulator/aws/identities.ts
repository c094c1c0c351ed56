// Every AWS identity the simulator knows, with its secret: the simulated STS issues temporary credentials
// into this store, and the EKS API and the EKS-token verifier look secrets up here to recompute signatures.
// All values are simulation-only and are never valid against real AWS.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/** The simulated AWS account of the hub and of the shared-services identities. */
export const HUB_ACCOUNT_ID = "123456789012";

export interface SimIdentity {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** Caller ARN as STS GetCallerIdentity reports it. */
  arn: string;
  /** The IAM principal (user or role) ARN, what EKS access entries map. */
  principalArn: string;
  userId: string;
  accountId: string;
  /** Epoch ms after which requests signed with it are refused; undefined = long-lived. */
  expiresAtMs?: number;
  readOnly: boolean;
}

function derive(label: string, length: number, alphabet: string): string {
  let out = "";
  let counter = 0;
  while (out.length < length) {
    const digest = createHash("sha256").update(`${label}:${counter++}`).digest();
    for (const byte of digest) {
      if (out.length >= length) break;
      out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

const UPPER_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const SECRET_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Deterministic simulation credentials from a label (so tokens in generated objects are reproducible). */
export function deriveCredentials(label: string, temporary: boolean) {
  return {
    accessKeyId: (temporary ? "ASIA" : "AKIA") + derive(`${label}:akid`, 16, UPPER_ALNUM),
    secretAccessKey: derive(`${label}:secret`, 40, SECRET_ALPHABET),
    sessionToken: temporary ? "IQoJb3JpZ2luX2VjE" + derive(`${label}:session`, 300, SECRET_ALPHABET) : undefined,
  };
}

/** Static IAM user written only to aws-static.env (the non-IRSA path). */
export const STATIC_USER: SimIdentity = (() => {
  const c = deriveCredentials("static-user:crows-nest-demo", false);
  return {
    accessKeyId: c.accessKeyId,
    secretAccessKey: c.secretAccessKey,
    arn: `arn:aws:iam::${HUB_ACCOUNT_ID}:user/crows-nest-demo`,
    principalArn: `arn:aws:iam::${HUB_ACCOUNT_ID}:user/crows-nest-demo`,
    userId: "AIDA" + derive("static-user:id", 17, UPPER_ALNUM),
    accountId: HUB_ACCOUNT_ID,
    readOnly: false,
  };
})();

/** The IRSA role of Crossplane's provider-aws in the hub; it signs the tokens in the connection secrets. */
export const CROSSPLANE_IDENTITY: SimIdentity = (() => {
  const c = deriveCredentials("crossplane:provider-aws", true);
  const roleId = "AROA" + derive("crossplane:role-id", 17, UPPER_ALNUM);
  const session = "provider-aws-1732217700123456789";
  return {
    accessKeyId: c.accessKeyId,
    secretAccessKey: c.secretAccessKey,
    sessionToken: c.sessionToken,
    arn: `arn:aws:sts::${HUB_ACCOUNT_ID}:assumed-role/crossplane-provider-aws/${session}`,
    principalArn: `arn:aws:iam::${HUB_ACCOUNT_ID}:role/crossplane-provider-aws`,
    userId: `${roleId}:${session}`,
    accountId: HUB_ACCOUNT_ID,
    readOnly: false,
  };
})();

/** Role the collector assumes with its web-identity token (IRSA). */
export const COLLECTOR_ROLE_ARN = `arn:aws:iam::${HUB_ACCOUNT_ID}:role/crows-nest-collector`;
export const COLLECTOR_SERVICE_ACCOUNT = "system:serviceaccount:crows-nest:crows-nest-collector";

const SESSION_PREFIX = "IQoJb3JpZ2luX2VjE";

export class IdentityStore {
  private readonly byAccessKey = new Map<string, SimIdentity>();
  private sessionKey: Buffer | undefined;

  constructor() {
    this.add(STATIC_USER);
    this.add(CROSSPLANE_IDENTITY);
  }

  add(identity: SimIdentity): void {
    this.byAccessKey.set(identity.accessKeyId, identity);
  }

  get(accessKeyId: string): SimIdentity | undefined {
    return this.byAccessKey.get(accessKeyId);
  }

  /**
   * Key that makes temporary credentials self-describing: the session token carries the identity, sealed
   * with this key, and the secret derives from it. A restarted simulator (same key, kept in its state
   * file) still recognises credentials it issued before, as AWS would.
   */
  setSessionKey(key: Buffer): void {
    this.sessionKey = key;
  }

  /** Mints temporary credentials for an identity (accessKeyId/secret/sessionToken are filled in). */
  issue(template: Omit<SimIdentity, "secretAccessKey" | "sessionToken">): SimIdentity {
    const key = this.requireKey();
    const payload = Buffer.from(JSON.stringify(template)).toString("base64url");
    const seal = createHmac("sha256", key).update(payload).digest("base64url");
    const identity: SimIdentity = {
      ...template,
      secretAccessKey: this.secretFor(template.accessKeyId),
      sessionToken: `${SESSION_PREFIX}${payload}.${seal}`,
    };
    this.add(identity);
    return identity;
  }

  /** The identity behind an access key, also for sealed session tokens issued before a restart. */
  resolve(accessKeyId: string, sessionToken: string | undefined): SimIdentity | undefined {
    const known = this.byAccessKey.get(accessKeyId);
    if (known || !sessionToken || !this.sessionKey || !sessionToken.startsWith(SESSION_PREFIX)) return known;
    const [payload, seal] = sessionToken.slice(SESSION_PREFIX.length).split(".");
    if (!payload || !seal) return undefined;
    const expected = createHmac("sha256", this.sessionKey).update(payload).digest();
    const given = Buffer.from(seal, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const template = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as SimIdentity;
    if (template.accessKeyId !== accessKeyId) return undefined;
    const identity = { ...template, secretAccessKey: this.secretFor(accessKeyId), sessionToken };
    this.add(identity);
    return identity;
  }

  /** Drops expired temporary credentials so a long demo does not grow the map without bound. */
  prune(nowMs: number): void {
    for (const [key, identity] of this.byAccessKey) {
      if (identity.expiresAtMs !== undefined && identity.expiresAtMs + 3_600_000 < nowMs) this.byAccessKey.delete(key);
    }
  }

  private secretFor(accessKeyId: string): string {
    return createHmac("sha256", this.requireKey()).update(`secret:${accessKeyId}`).digest("base64").slice(0, 40);
  }

  private requireKey(): Buffer {
    // Tests and tools that never call setSessionKey still get working credentials for this process.
    this.sessionKey ??= createHash("sha256").update(`session-key:${process.pid}:${Date.now()}`).digest();
    return this.sessionKey;
  }
}

/** One store per process: the kube runtime, STS and EKS servers of a simulator share it. */
export const identities = new IdentityStore();
