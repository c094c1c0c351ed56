import { describe, expect, it } from "vitest";
import { clusterVersionKnowledge, type VersionFactsInput } from "../fleet/cluster-facts";
import { eksFactsNote } from "./eks-facts-source";

const now = new Date("2026-11-23T12:00:00Z");
const input = (over: Partial<VersionFactsInput> = {}): VersionFactsInput => ({
  reachability: "reachable",
  eksVersion: "1.35",
  eksFactsSource: "eks-api",
  eksError: null,
  kubernetesVersion: "v1.35.1-eks-113cf36",
  lastSuccessAt: "2026-11-23T11:59:00Z",
  lastErrorKind: null,
  lastError: null,
  hubReachable: true,
  provisioning: null,
  desiredVersion: null,
  ...over,
});
const note = (over: Partial<VersionFactsInput> = {}) => {
  const i = input(over);
  return eksFactsNote(clusterVersionKnowledge(i, now), i.eksError);
};

describe("eksFactsNote", () => {
  it("says nothing while the EKS API answers", () => {
    expect(note()).toBeNull();
  });

  it("names Crossplane and the EKS API's refusal when the facts come from Crossplane", () => {
    const denied = "AccessDeniedException: User: arn:aws:sts::111122223333:assumed-role/crows-nest is not authorized\nmore";
    const k = clusterVersionKnowledge(input({ eksFactsSource: "crossplane", eksError: denied }), now);
    expect(k).toMatchObject({ source: "observed", current: true, from: "crossplane", eksAccess: false });
    expect(eksFactsNote(k, denied)).toBe(
      "from Crossplane (EKS API refused: AccessDeniedException: User: arn:aws:sts::111122223333:assumed-role/crows-nest is not authorized)",
    );
    expect(note({ eksFactsSource: "crossplane" })).toBe("from Crossplane (no EKS API access)");
  });

  it("a version stored from the EKS API before it refused says so (last known, not current)", () => {
    const k = clusterVersionKnowledge(
      input({ eksError: "AccessDeniedException", reachability: "unreachable", lastErrorKind: "refused" }),
      now,
    );
    expect(k.eksAccess).toBe(false);
    expect(eksFactsNote(k, "AccessDeniedException")).toBe(
      "from the EKS API before it stopped answering (EKS API refused: AccessDeniedException)",
    );
  });

  it("the API server's version: said only when the EKS API refused", () => {
    expect(note({ eksVersion: null, eksFactsSource: null })).toBeNull();
    expect(note({ eksVersion: null, eksFactsSource: null, eksError: "AccessDeniedException" })).toBe(
      "from Kubernetes /version (EKS API refused: AccessDeniedException)",
    );
  });

  it("nothing to say of a version nobody knows", () => {
    expect(note({ eksVersion: null, kubernetesVersion: null, eksFactsSource: null, eksError: "AccessDeniedException" })).toBeNull();
  });
});
