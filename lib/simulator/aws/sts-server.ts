// The simulated AWS STS (awsQuery protocol: form-encoded POST, XML answers): AssumeRoleWithWebIdentity for
// IRSA, AssumeRole for cross-account roles chained from it, and GetCallerIdentity (signed or presigned, the
// request an EKS token stands for).
import type { IncomingMessage, ServerResponse } from "node:http";
import { createHash, randomBytes } from "node:crypto";
import type { KeyObject } from "node:crypto";
import { errors as joseErrors, jwtVerify } from "jose";
import type { SimClock } from "../clock";
import { ARGOCD_SPOKES_ACCOUNT_ID } from "../fleet/argocd";
import { ACCOUNT_BY_ENV } from "../fleet/topology";
import { COLLECTOR_ROLE_ARN, COLLECTOR_SERVICE_ACCOUNT, HUB_ACCOUNT_ID, identities, type SimIdentity } from "./identities";
import { escapeXml, readBody, requestId, sendXml } from "./http";
import { authenticate, parseRawQuery } from "./request-auth";

const NS = "https://sts.amazonaws.com/doc/2011-06-15/";
export const WEB_IDENTITY_AUDIENCE = "sts.amazonaws.com";

export interface StsContext {
  clock: SimClock;
  realNow?: () => number;
  /** OIDC issuer of the hub cluster and the key its service-account tokens are signed with */
  oidc: { issuer: string; publicKey: KeyObject; providerArn: string };
}

class StsError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly type: "Sender" | "Receiver" = "Sender",
  ) {
    super(message);
  }
}

function sendError(res: ServerResponse, error: StsError): void {
  sendXml(
    res,
    error.status,
    `<ErrorResponse xmlns="${NS}">\n  <Error>\n    <Type>${error.type}</Type>\n    <Code>${error.code}</Code>\n    <Message>${escapeXml(error.message)}</Message>\n  </Error>\n  <RequestId>${requestId()}</RequestId>\n</ErrorResponse>\n`,
  );
}

const KNOWN_ACCOUNTS = new Set<string>([HUB_ACCOUNT_ID, ...Object.values(ACCOUNT_BY_ENV), ARGOCD_SPOKES_ACCOUNT_ID]);
const ROLE_ARN = /^arn:aws:iam::(\d{12}):role\/(?:[\w+=,.@-]+\/)*([\w+=,.@-]{1,64})$/;
const SESSION_NAME = /^[\w+=,.@-]{2,64}$/;

function issueCredentials(roleArn: string, sessionName: string, durationSeconds: number, nowMs: number): SimIdentity {
  const [, account, roleName] = ROLE_ARN.exec(roleArn)!;
  const roleId = "AROA" + createHash("sha256").update(roleArn).digest("hex").toUpperCase().slice(0, 17);
  identities.prune(nowMs);
  return identities.issue({
    accessKeyId: "ASIA" + randomBytes(12).toString("hex").toUpperCase().slice(0, 16),
    arn: `arn:aws:sts::${account}:assumed-role/${roleName}/${sessionName}`,
    principalArn: roleArn,
    userId: `${roleId}:${sessionName}`,
    accountId: account,
    expiresAtMs: nowMs + durationSeconds * 1000,
    readOnly: /readonly|read-only|viewer/i.test(roleName),
  });
}

function credentialsXml(identity: SimIdentity): string {
  return (
    `    <AssumedRoleUser>\n      <AssumedRoleId>${identity.userId}</AssumedRoleId>\n      <Arn>${identity.arn}</Arn>\n    </AssumedRoleUser>\n` +
    `    <Credentials>\n      <AccessKeyId>${identity.accessKeyId}</AccessKeyId>\n      <SecretAccessKey>${escapeXml(identity.secretAccessKey)}</SecretAccessKey>\n` +
    `      <SessionToken>${escapeXml(identity.sessionToken!)}</SessionToken>\n      <Expiration>${new Date(identity.expiresAtMs!).toISOString().replace(/\.\d{3}Z$/, "Z")}</Expiration>\n    </Credentials>\n`
  );
}

function duration(params: Record<string, string | string[]>): number {
  const raw = params.DurationSeconds;
  if (raw === undefined) return 3600;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 900 || n > 43200) {
    throw new StsError(
      400,
      "ValidationError",
      `1 validation error detected: Value '${raw}' at 'durationSeconds' failed to satisfy constraint: Member must have value greater than or equal to 900`,
    );
  }
  return n;
}

function param(params: Record<string, string | string[]>, name: string): string | undefined {
  const v = params[name];
  return Array.isArray(v) ? v[0] : v;
}

export function createStsHandler(ctx: StsContext) {
  const realNow = ctx.realNow ?? Date.now;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const body = await readBody(req);
      const [, rawQuery = ""] = (req.url ?? "/").split("?", 2);
      const params = { ...parseRawQuery(rawQuery), ...(req.method === "POST" ? parseForm(body.toString("utf8")) : {}) };
      const action = param(params, "Action");
      const now = realNow();
      if (action === "AssumeRoleWithWebIdentity") return sendXml(res, 200, await assumeRoleWithWebIdentity(ctx, params, now));
      const auth = authenticate({ method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, body }, "sts", [
        now,
        ctx.clock.now(),
      ]);
      if (!auth.ok)
        throw new StsError(
          auth.status,
          auth.code === "UnrecognizedClientException"
            ? "InvalidClientTokenId"
            : auth.code === "InvalidSignatureException"
              ? "SignatureDoesNotMatch"
              : auth.code,
          auth.message,
        );
      if (action === "GetCallerIdentity") {
        const who = auth.identity;
        return sendXml(
          res,
          200,
          `<GetCallerIdentityResponse xmlns="${NS}">\n  <GetCallerIdentityResult>\n    <Arn>${who.arn}</Arn>\n    <UserId>${who.userId}</UserId>\n    <Account>${who.accountId}</Account>\n  </GetCallerIdentityResult>\n  <ResponseMetadata>\n    <RequestId>${requestId()}</RequestId>\n  </ResponseMetadata>\n</GetCallerIdentityResponse>\n`,
        );
      }
      if (action === "AssumeRole") {
        const roleArn = param(params, "RoleArn") ?? "";
        const sessionName = param(params, "RoleSessionName") ?? "";
        const m = ROLE_ARN.exec(roleArn);
        if (!m || !SESSION_NAME.test(sessionName))
          throw new StsError(400, "ValidationError", "RoleArn and RoleSessionName are required and must be valid.");
        if (!KNOWN_ACCOUNTS.has(m[1])) {
          throw new StsError(
            403,
            "AccessDenied",
            `User: ${auth.identity.arn} is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`,
          );
        }
        const identity = issueCredentials(roleArn, sessionName, duration(params), now);
        return sendXml(
          res,
          200,
          `<AssumeRoleResponse xmlns="${NS}">\n  <AssumeRoleResult>\n${credentialsXml(identity)}  </AssumeRoleResult>\n  <ResponseMetadata>\n    <RequestId>${requestId()}</RequestId>\n  </ResponseMetadata>\n</AssumeRoleResponse>\n`,
        );
      }
      throw new StsError(400, "InvalidAction", `Could not find operation ${action ?? "(none)"} for version 2011-06-15`);
    } catch (error) {
      sendError(res, error instanceof StsError ? error : new StsError(500, "InternalFailure", "An internal error occurred.", "Receiver"));
    }
  };
}

function parseForm(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(text)) out[k] = v;
  return out;
}

async function assumeRoleWithWebIdentity(ctx: StsContext, params: Record<string, string | string[]>, now: number): Promise<string> {
  const roleArn = param(params, "RoleArn") ?? "";
  const sessionName = param(params, "RoleSessionName") ?? "";
  const token = param(params, "WebIdentityToken") ?? "";
  if (!ROLE_ARN.test(roleArn)) throw new StsError(400, "ValidationError", `${roleArn} is invalid`);
  if (!SESSION_NAME.test(sessionName))
    throw new StsError(400, "ValidationError", "1 validation error detected: Value at 'roleSessionName' failed to satisfy constraint");
  let subject: string;
  try {
    const { payload } = await jwtVerify(token, ctx.oidc.publicKey, {
      issuer: ctx.oidc.issuer,
      audience: WEB_IDENTITY_AUDIENCE,
      currentDate: new Date(now),
    });
    subject = String(payload.sub ?? "");
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired)
      throw new StsError(
        400,
        "ExpiredTokenException",
        "Token expired: current date/time " + new Date(now).toISOString() + " must be before the expiration date/time",
      );
    throw new StsError(
      400,
      "InvalidIdentityToken",
      "Couldn't retrieve verification key from your identity provider,  please reference AssumeRoleWithWebIdentity documentation for requirements",
    );
  }
  // The role's trust policy: only the collector's service account may assume the collector role.
  if (roleArn !== COLLECTOR_ROLE_ARN || subject !== COLLECTOR_SERVICE_ACCOUNT) {
    throw new StsError(403, "AccessDenied", "Not authorized to perform sts:AssumeRoleWithWebIdentity");
  }
  const identity = issueCredentials(roleArn, sessionName, duration(params), now);
  return (
    `<AssumeRoleWithWebIdentityResponse xmlns="${NS}">\n  <AssumeRoleWithWebIdentityResult>\n` +
    `    <Audience>${WEB_IDENTITY_AUDIENCE}</Audience>\n${credentialsXml(identity)}` +
    `    <Provider>${ctx.oidc.providerArn}</Provider>\n    <SubjectFromWebIdentityToken>${escapeXml(subject)}</SubjectFromWebIdentityToken>\n` +
    `  </AssumeRoleWithWebIdentityResult>\n  <ResponseMetadata>\n    <RequestId>${requestId()}</RequestId>\n  </ResponseMetadata>\n</AssumeRoleWithWebIdentityResponse>\n`
  );
}
