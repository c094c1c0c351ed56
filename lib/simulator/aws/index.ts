// The AWS side of the fleet simulator: HTTPS endpoints for EKS and STS (own CA), the web-identity token file
// and the environment that makes the AWS SDK's default credential chain use them (IRSA), plus the EKS-token
// verifier the simulated Kubernetes API servers call.
import { createServer, type Server } from "node:https";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { SignJWT } from "jose";
import type { SimClock } from "../clock";
import type { FleetModel, RuntimeInfo, TokenCheck } from "../contract";
import { EKS_DEFAULT_VERSION } from "../fleet/catalogue";
import { hubSpecAt, oidcIssuer } from "../fleet/hub";
import type { SimFleet } from "../fleet/index";
import { REGIONS, type SpokeSpec } from "../fleet/topology";
import { createClusterTls, type ClusterTls } from "../tls";
import { createEksHandler } from "./eks-server";
import { COLLECTOR_ROLE_ARN, COLLECTOR_SERVICE_ACCOUNT, HUB_ACCOUNT_ID, STATIC_USER, identities } from "./identities";
import { WEB_IDENTITY_AUDIENCE, createStsHandler } from "./sts-server";
import { verifyEksToken as verifyAt } from "./token";

/**
 * Verifies an EKS bearer token for a cluster. Tokens are judged at simulated time `nowMs` (the tokens in the
 * connection secrets are minted on the simulated clock) and at wall-clock time (clients such as the collector
 * sign with their own clock, which differs when the simulator runs faster than real time).
 */
export function verifyEksToken(token: string, clusterName: string, nowMs: number): TokenCheck {
  return verifyAt(token, clusterName, nowMs, { alsoAcceptAtMs: [Date.now()] });
}

export interface AwsServers {
  eksEndpoint: string;
  stsEndpoint: string;
  caPem: string;
  /** What aws.env holds: the IRSA path (no static keys). */
  env: Record<string, string>;
  /** aws-static.env: the same endpoints with static access keys instead of IRSA. */
  staticEnv: Record<string, string>;
  /** Current web-identity token (also in env.AWS_WEB_IDENTITY_TOKEN_FILE). */
  webIdentityToken(): string;
  stop(): Promise<void>;
}

export interface StartAwsServersOptions {
  model: FleetModel;
  runtime: RuntimeInfo;
  clock: SimClock;
  outDir: string;
  /** wall clock, for tests */
  realNow?: () => number;
}

const TOKEN_FILE = "web-identity-token";
const TOKEN_LIFETIME_S = 86_400;

interface StoredState {
  tls: ClusterTls;
  ports?: { eks?: number; sts?: number };
  oidcKeyPem?: string;
  /** seals STS session tokens, so credentials survive a restart (hex) */
  sessionKey?: string;
}

function loadState(outDir: string): StoredState {
  const path = join(outDir, "aws-state.json");
  if (existsSync(path)) {
    const stored = JSON.parse(readFileSync(path, "utf8")) as StoredState;
    if (stored.tls?.caPem) return stored;
  }
  return { tls: createClusterTls("aws-simulator") };
}

function saveState(outDir: string, state: StoredState): void {
  writeFileSync(join(outDir, "aws-state.json"), JSON.stringify(state, null, 2), { mode: 0o600 });
}

async function listen(server: Server, port: number | undefined): Promise<number> {
  const attempt = (p: number) =>
    new Promise<number>((resolvePort, reject) => {
      const onError = (error: Error) => reject(error);
      server.once("error", onError);
      server.listen(p, "127.0.0.1", () => {
        server.off("error", onError);
        resolvePort((server.address() as AddressInfo).port);
      });
    });
  if (port) {
    try {
      return await attempt(port);
    } catch {
      // the stored port is taken: fall back to any free port
    }
  }
  return attempt(0);
}

/** Wraps any FleetModel (e.g. a test fleet) so the EKS API can describe its EKS clusters. */
function asSimFleet(model: FleetModel, epoch: number): SimFleet {
  if ("spokeSpec" in model && typeof (model as SimFleet).spokeSpec === "function") return model as SimFleet;
  const specs: SpokeSpec[] = model.clusters
    .filter((c) => c.eks)
    .map((c, index) => ({
      index,
      name: c.eks!.name,
      env: (["prod", "staging", "dev"].includes(c.env) ? c.env : "prod") as SpokeSpec["env"],
      team: c.team,
      region: c.eks!.region,
      accountId: c.eks!.accountId,
      version: /^v(\d+\.\d+)/.exec(c.gitVersion)?.[1] ?? EKS_DEFAULT_VERSION,
      provisioning: "eks-only",
      hubFluxRef: false,
      roles: [],
    }));
  const byName = new Map(specs.map((s) => [s.name, s]));
  return Object.assign(Object.create(model) as FleetModel, {
    epoch: model.epoch ?? epoch,
    objectsPerSpoke: 0,
    spokes: specs,
    provisionedSpokes: [],
    argoSpokes: [],
    spokeSpec: (name: string) => byName.get(name),
    // Only its name, region and OIDC issuer matter: a test fleet's hub, if any, is one of the clusters above.
    hub: hubSpecAt(EKS_DEFAULT_VERSION),
    plan: () => undefined,
    facts: {
      badCommit: { kustomization: "apps", namespace: "flux-system", clusters: [] },
      labelOnly: [],
      eksOnly: [],
      crossplaneOnly: [],
      provisioning: { creating: "", creatingUpjet: "", failing: "", availableAt: {} },
    },
  }) as SimFleet;
}

export async function startAwsServers(options: StartAwsServersOptions): Promise<AwsServers> {
  const outDir = resolve(options.outDir);
  mkdirSync(outDir, { recursive: true });
  const realNow = options.realNow ?? Date.now;
  const state = loadState(outDir);
  const model = asSimFleet(options.model, options.clock.now());

  // The hub's OIDC issuer signs the collector's projected service-account token (RS256, like kube-apiserver).
  if (!state.oidcKeyPem) {
    state.oidcKeyPem = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  }
  const privateKey = createPrivateKey(state.oidcKeyPem);
  const publicKey = createPublicKey(privateKey);
  state.sessionKey ??= randomBytes(32).toString("hex");
  identities.setSessionKey(Buffer.from(state.sessionKey, "hex"));
  const issuer = oidcIssuer(model.hub);
  const providerArn = `arn:aws:iam::${HUB_ACCOUNT_ID}:oidc-provider/${issuer.replace(/^https:\/\//, "")}`;

  const tlsOptions = { key: state.tls.keyPem, cert: state.tls.certPem };
  // The handlers answer every error themselves (500 with an AWS-shaped body); nothing is left to reject.
  const eksHandler = createEksHandler({ model, runtime: options.runtime, clock: options.clock, realNow });
  const stsHandler = createStsHandler({ clock: options.clock, realNow, oidc: { issuer, publicKey, providerArn } });
  const eksServer = createServer(tlsOptions, (req, res) => void eksHandler(req, res));
  const stsServer = createServer(tlsOptions, (req, res) => void stsHandler(req, res));
  const eksPort = await listen(eksServer, state.ports?.eks);
  const stsPort = await listen(stsServer, state.ports?.sts);
  state.ports = { eks: eksPort, sts: stsPort };
  saveState(outDir, state);

  const eksEndpoint = `https://127.0.0.1:${eksPort}`;
  const stsEndpoint = `https://127.0.0.1:${stsPort}`;
  const caPath = join(outDir, "aws-ca.pem");
  writeFileSync(caPath, state.tls.caPem);

  const tokenPath = join(outDir, TOKEN_FILE);
  let currentToken = "";
  const writeToken = async () => {
    const now = Math.floor(realNow() / 1000);
    currentToken = await new SignJWT({
      "kubernetes.io": {
        namespace: "crows-nest",
        serviceaccount: { name: "crows-nest-collector", uid: "5d7c3c1e-7f6b-4c0e-9d55-2a3b6c1f0e42" },
      },
    })
      .setProtectedHeader({ alg: "RS256", kid: "crows-nest-sim" })
      .setIssuer(issuer)
      .setSubject(COLLECTOR_SERVICE_ACCOUNT)
      .setAudience(WEB_IDENTITY_AUDIENCE)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + TOKEN_LIFETIME_S)
      .sign(privateKey);
    writeFileSync(tokenPath, currentToken, { mode: 0o600 });
  };
  await writeToken();
  // kubelet refreshes projected tokens well before they expire; so do we.
  const refresh = setInterval(() => void writeToken(), 60 * 60_000);
  refresh.unref();

  const regions = [...new Set([model.hub.region, ...REGIONS.map((r) => r.name), ...model.spokes.map((s) => s.region)])];
  const common = {
    AWS_REGION: model.hub.region,
    AWS_DEFAULT_REGION: model.hub.region,
    AWS_STS_REGIONAL_ENDPOINTS: "regional",
    AWS_ENDPOINT_URL_STS: stsEndpoint,
    AWS_ENDPOINT_URL_EKS: eksEndpoint,
    CROWS_NEST_EKS_ENDPOINT: eksEndpoint,
    CROWS_NEST_STS_ENDPOINT: stsEndpoint,
    EKS_REGIONS: regions.join(","),
    NODE_EXTRA_CA_CERTS: caPath,
  };
  const env = {
    ...common,
    AWS_ROLE_ARN: COLLECTOR_ROLE_ARN,
    AWS_WEB_IDENTITY_TOKEN_FILE: tokenPath,
    AWS_ROLE_SESSION_NAME: "crows-nest-collector",
  };
  const staticEnv = { ...common, AWS_ACCESS_KEY_ID: STATIC_USER.accessKeyId, AWS_SECRET_ACCESS_KEY: STATIC_USER.secretAccessKey };
  writeFileSync(
    join(outDir, "aws-static.env"),
    Object.entries(staticEnv)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n") + "\n",
    { mode: 0o600 },
  );

  const close = (server: Server) =>
    new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });

  return {
    eksEndpoint,
    stsEndpoint,
    caPem: state.tls.caPem,
    env,
    staticEnv,
    webIdentityToken: () => currentToken,
    async stop() {
      clearInterval(refresh);
      await Promise.all([close(eksServer), close(stsServer)]);
    },
  };
}
