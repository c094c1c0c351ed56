import { describe, expect, it } from "vitest";
import {
  clusterVersionKnowledge,
  crossplaneEksFacts,
  crossplaneMayWrite,
  type CrossplaneObservation,
  type VersionFactsInput,
} from "./cluster-facts";

const now = new Date("2026-11-23T12:00:00Z");

function makeObservation(over: Partial<CrossplaneObservation> = {}): CrossplaneObservation {
  return {
    kind: "Cluster",
    desiredVersion: "1.34",
    eksArn: "arn:aws:eks:us-east-1:345678901234:cluster/staging-use1-002",
    version: "1.34",
    platformVersion: "eks.12",
    eksStatus: "ACTIVE",
    supportType: null,
    ...over,
  };
}

function makeCluster(over: Partial<VersionFactsInput> = {}): VersionFactsInput {
  return {
    reachability: "reachable",
    eksVersion: "1.34",
    eksFactsSource: "eks-api",
    eksError: null,
    kubernetesVersion: "v1.34.2-eks-1a2b3c4",
    lastSuccessAt: "2026-11-23T11:59:00Z",
    lastErrorKind: null,
    lastError: null,
    hubReachable: true,
    provisioning: null,
    desiredVersion: null,
    ...over,
  };
}

const ACCESS_DENIED =
  "AccessDeniedException: User: arn:aws:sts::123456789012:assumed-role/crows-nest-collector/x is not authorized to perform: eks:DescribeCluster";

describe("EKS facts Crossplane holds", () => {
  it("a managed Cluster's atProvider comes before a composite's, each fact from the first that has it", () => {
    const composite = makeObservation({ kind: "EKSCluster", version: "1.30", eksArn: null, desiredVersion: null, platformVersion: null });
    const auth = makeObservation({
      kind: "ClusterAuth",
      version: null,
      eksArn: null,
      platformVersion: null,
      eksStatus: null,
      desiredVersion: null,
    });
    expect(crossplaneEksFacts([composite, auth, makeObservation({ supportType: null })])).toEqual({
      eksArn: "arn:aws:eks:us-east-1:345678901234:cluster/staging-use1-002",
      version: "1.34",
      platformVersion: "eks.12",
      eksStatus: "ACTIVE",
      supportType: null,
      desiredVersion: "1.34",
    });
  });

  it("nothing observed (upjet still creating, atProvider empty) but a desired version is still a fact", () => {
    const creating = makeObservation({ eksArn: null, version: null, platformVersion: null, eksStatus: null, desiredVersion: "1.35" });
    expect(crossplaneEksFacts([creating])).toMatchObject({ version: null, desiredVersion: "1.35" });
    expect(
      crossplaneEksFacts([makeObservation({ eksArn: null, version: null, platformVersion: null, eksStatus: null, desiredVersion: null })]),
    ).toBeNull();
  });

  it("the EKS API wins while it answers; Crossplane fills in when it never did or stopped", () => {
    expect(crossplaneMayWrite({ eksFactsSource: "eks-api", eksError: null })).toBe(false);
    expect(crossplaneMayWrite({ eksFactsSource: "eks-api", eksError: ACCESS_DENIED })).toBe(true);
    expect(crossplaneMayWrite({ eksFactsSource: null, eksError: null })).toBe(true);
    expect(crossplaneMayWrite({ eksFactsSource: "crossplane", eksError: ACCESS_DENIED })).toBe(true);
  });
});

describe("what we know of a cluster's version, and from where", () => {
  it("EKS API answering: observed, from the EKS API", () => {
    expect(clusterVersionKnowledge(makeCluster(), now)).toMatchObject({
      version: "1.34",
      source: "observed",
      current: true,
      from: "eks-api",
      eksAccess: true,
      upgradeInProgress: false,
    });
  });

  it("no EKS API access (AccessDenied), Crossplane knows it: observed, from Crossplane, and an upgrade Crossplane asked for", () => {
    const k = clusterVersionKnowledge(makeCluster({ eksFactsSource: "crossplane", eksError: ACCESS_DENIED, desiredVersion: "1.35" }), now);
    expect(k).toMatchObject({
      version: "1.34",
      source: "observed",
      from: "crossplane",
      eksAccess: false,
      upgradeInProgress: true,
      desiredVersion: "1.35",
    });
  });

  it("the API server unreachable: the EKS API's facts are as old as the last poll (the collector asks EKS after one), last known", () => {
    const k = clusterVersionKnowledge(
      makeCluster({ reachability: "unreachable", lastErrorKind: "refused", lastError: "connect ECONNREFUSED" }),
      now,
    );
    expect(k).toMatchObject({ version: "1.34", source: "last-known", from: "eks-api", current: false, eksAccess: true });
    expect(k.why).toBe("API server refused the connection");
  });

  it("unreachable, no EKS access, only /version known: the last known version with its age, counted apart", () => {
    const k = clusterVersionKnowledge(
      makeCluster({
        reachability: "unreachable",
        eksVersion: null,
        eksFactsSource: null,
        lastSuccessAt: "2026-11-23T09:00:00Z",
        lastErrorKind: "auth",
        lastError: "Unauthorized",
      }),
      now,
    );
    expect(k).toMatchObject({
      version: "1.34",
      source: "last-known",
      from: "kubernetes",
      ageSeconds: 3 * 3600,
      current: false,
      why: "credentials refused (token expired or not allowed); no EKS API access",
    });
  });

  it("Crossplane facts from a hub that does not answer are last known too", () => {
    const k = clusterVersionKnowledge(
      makeCluster({
        eksFactsSource: "crossplane",
        eksError: ACCESS_DENIED,
        hubReachable: false,
        reachability: "unreachable",
        lastErrorKind: "timeout",
      }),
      now,
    );
    expect(k).toMatchObject({ source: "last-known", from: "crossplane", current: false });
  });

  it("never reached: unknown, and the error that stopped us", () => {
    const k = clusterVersionKnowledge(
      makeCluster({
        reachability: "unreachable",
        eksVersion: null,
        eksFactsSource: null,
        kubernetesVersion: null,
        lastSuccessAt: null,
        lastErrorKind: "auth",
        lastError: "401 Unauthorized\nmore",
      }),
      now,
    );
    expect(k).toMatchObject({ version: null, source: "unknown", from: null, why: "never reached: 401 Unauthorized; no EKS API access" });
  });

  it("being created: the desired version, never summed; failed to create says so", () => {
    const creating = makeCluster({
      reachability: "provisioning",
      eksVersion: null,
      kubernetesVersion: null,
      provisioning: "creating",
      desiredVersion: "1.35",
    });
    expect(clusterVersionKnowledge(creating, now)).toMatchObject({
      version: "1.35",
      source: "desired",
      current: false,
      desiredVersion: "1.35",
      upgradeInProgress: false,
    });
    expect(clusterVersionKnowledge({ ...creating, provisioning: "failed" }, now)).toMatchObject({
      source: "desired",
      why: "Crossplane failed to create it",
    });
  });
});
