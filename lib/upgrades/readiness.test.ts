import { describe, expect, it } from "vitest";
import { managedAddonStanding } from "./managed-addons";
import { readiness, type ReadinessInput } from "./readiness";
import { inventoryRefs, removedApiUses } from "./removed-apis";
import { skewReport } from "./skew";
import { supportInfo } from "./support";

const now = new Date("2026-11-21T20:00:00Z");

function makeInput(over: Partial<ReadinessInput> = {}): ReadinessInput {
  return {
    cluster: "prod-a",
    controlPlane: "v1.33.4-eks-3025e55",
    next: "1.34",
    eksStatus: "ACTIVE",
    reachable: true,
    support: supportInfo("1.33", null, now),
    skew: skewReport("1.33", [{ source: "general", version: "1.33", nodes: 3 }]),
    insights: [],
    managedAddons: [],
    removedApis: [],
    helmAddons: [],
    nodeGroups: [{ name: "general", version: "1.33" }],
    ...over,
  };
}

const catalog = (...v: string[]) => v.map((addonVersion, i) => ({ addonVersion, defaultVersion: i === v.length - 1 }));

describe("managed add-on standing", () => {
  it.each([
    // installed, catalog now, catalog next, compatibleWithNext, noVersionForNext, behindLatestNow
    ["v1.20.5-eksbuild.1", catalog("v1.20.5-eksbuild.1"), catalog("v1.20.5-eksbuild.1"), true, false, false],
    ["v1.19.0-eksbuild.1", catalog("v1.20.5-eksbuild.1", "v1.19.0-eksbuild.1"), catalog("v1.20.5-eksbuild.1"), false, false, true],
    ["v1.19.0-eksbuild.1", catalog("v1.19.0-eksbuild.1"), null, null, false, false],
    ["v1.19.0-eksbuild.1", catalog("v1.19.0-eksbuild.1"), [], false, true, false],
  ])("%s", (version, now, next, compatibleWithNext, noVersionForNext, behindLatestNow) => {
    expect(managedAddonStanding({ name: "vpc-cni", version }, now, next)).toMatchObject({
      compatibleWithNext,
      noVersionForNext,
      behindLatestNow,
    });
  });
  it("default and latest per version", () => {
    const s = managedAddonStanding(
      { name: "coredns", version: "v1.11.4-eksbuild.2", status: "DEGRADED" },
      catalog("v1.11.4-eksbuild.2", "v1.11.3-eksbuild.1"),
      catalog("v1.12.1-eksbuild.1", "v1.11.4-eksbuild.2"),
    );
    expect(s).toMatchObject({
      latestNow: "v1.11.4-eksbuild.2",
      defaultNow: "v1.11.3-eksbuild.1",
      latestNext: "v1.12.1-eksbuild.1",
      defaultNext: "v1.11.4-eksbuild.2",
      failing: true,
    });
  });
});

describe("readiness N → N+1", () => {
  it("a clean cluster is ready, with a checklist in upgrade order", () => {
    const r = readiness(makeInput());
    expect(r).toMatchObject({ current: "1.33", next: "1.34", ready: true, blockers: [] });
    expect(r.checklist.map((s) => s.title)).toEqual([
      "Migrate manifests off removed APIs",
      "Bring every kubelet to 1.31 or newer",
      "Update managed add-ons that do not run on 1.34",
      "Resolve EKS upgrade insights",
      "Upgrade the control plane 1.33 → 1.34",
      "Update managed add-ons after the control plane (to the 1.34 defaults)",
      "Upgrade node groups to 1.34",
      "Upgrade Helm add-ons that are behind upstream",
      "Verify",
    ]);
    expect(r.checklist[4].command).toBe("aws eks update-cluster-version --name prod-a --kubernetes-version 1.34");
    expect(r.checklist.slice(0, 4).every((s) => s.done)).toBe(true);
  });

  it("collects every kind of blocker", () => {
    const removed = removedApiUses(
      inventoryRefs({ entries: [{ id: "_fs_flowcontrol.apiserver.k8s.io_FlowSchema", v: "v1beta3" }] }),
      "1.33",
      "1.34",
    );
    const r = readiness(
      makeInput({
        skew: skewReport("1.33", [{ source: "legacy", version: "1.30", nodes: 2 }]),
        insights: [
          {
            name: "Deprecated APIs removed in Kubernetes v1.34",
            category: "UPGRADE_READINESS",
            status: "ERROR",
            kubernetesVersion: "1.34",
            reason: "in use",
          },
          { name: "Kubelet version skew", category: "UPGRADE_READINESS", status: "WARNING", kubernetesVersion: "1.34" },
          { name: "Cluster health issues", category: "UPGRADE_READINESS", status: "PASSING", kubernetesVersion: "1.34" },
          { name: "Far future", category: "UPGRADE_READINESS", status: "ERROR", kubernetesVersion: "1.36" },
          { name: "Misconfig", category: "MISCONFIGURATION", status: "ERROR" },
        ],
        managedAddons: [
          managedAddonStanding(
            { name: "vpc-cni", version: "v1.18.0-eksbuild.1" },
            catalog("v1.20.5-eksbuild.1", "v1.18.0-eksbuild.1"),
            catalog("v1.20.5-eksbuild.1"),
          ),
        ],
        removedApis: removed.map((u) => ({ ...u, owner: { kind: "Kustomization", namespace: "flux-system", name: "infra" } })),
      }),
    );
    expect(r.ready).toBe(false);
    expect(r.blockers.map((b) => b.kind).sort()).toEqual(["insight", "insight", "kubelet-skew", "managed-addon", "removed-api"]);
    expect(r.blockers.find((b) => b.kind === "removed-api")!.title).toBe(
      "flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is no longer served since 1.32",
    );
    expect(r.blockers.find((b) => b.kind === "managed-addon")!.detail).toBe(
      "Update to v1.20.5-eksbuild.1 first: it runs on both 1.33 and 1.34.",
    );
    expect(r.checklist[1]).toMatchObject({
      done: false,
      command: "aws eks update-nodegroup-version --cluster-name prod-a --nodegroup-name legacy --kubernetes-version 1.33",
    });
  });

  it("warns about extended support, mid-upgrade skew and failing releases", () => {
    const r = readiness(
      makeInput({
        controlPlane: "1.31",
        support: supportInfo("1.31", null, now),
        eksStatus: "UPDATING",
        skew: skewReport("1.31", [{ source: "general", version: "1.30", nodes: 3 }]),
        helmAddons: [
          { name: "ingress", namespace: "ingress-nginx", chart: "ingress-nginx", applied: "4.12.4", latest: "4.13.3", failing: true },
        ],
      }),
    );
    expect(r.ready).toBe(true);
    expect(r.warnings.map((w) => w.title)).toEqual([
      "Control plane update in progress",
      "In extended support since 2025-11-26",
      "Node group general: kubelet 1.30 behind the control plane",
      "HelmRelease ingress-nginx/ingress is failing",
    ]);
    expect(r.warnings[1].detail).toContain("$365/month");
    expect(r.checklist[7].detail).toBe("ingress-nginx 4.12.4 → 4.13.3");
  });

  it("no next version: nothing to check", () => {
    const r = readiness(makeInput({ next: null }));
    expect(r).toMatchObject({ next: null, ready: false, checklist: [] });
  });

  it("an old cluster past end of extended support still gets its blockers, and says the auto-upgrade is due", () => {
    const uses = removedApiUses(
      inventoryRefs({
        entries: [
          { id: "_fs_flowcontrol.apiserver.k8s.io_FlowSchema", v: "v1beta2" }, // removed in 1.29: upcoming for 1.27
          { id: "kube-system_cap_storage.k8s.io_CSIStorageCapacity", v: "v1beta1" }, // removed in 1.27: already gone
          { id: "web_hpa_autoscaling_HorizontalPodAutoscaler", v: "v2" }, // fine
        ],
      }),
      "1.27",
      "1.28",
    ).map((u) => ({ ...u, owner: { kind: "HelmRelease", namespace: "platform", name: "flow" } }));
    const r = readiness(
      makeInput({
        controlPlane: "v1.27.16-eks-2f0b4c7",
        next: "1.28",
        support: supportInfo("1.27", null, now),
        skew: skewReport("1.27", [{ source: "workers", version: "1.24", nodes: 2 }]),
        removedApis: uses,
      }),
    );
    expect(r).toMatchObject({ current: "1.27", next: "1.28", ready: false });
    expect(r.warnings[0].title).toBe("Kubernetes 1.27 is past end of extended support: auto-upgrade due since 2025-07-24");
    expect(r.warnings[0].detail).toContain("$365/month");
    expect(r.blockers.map((b) => b.title)).toEqual([
      "Node group workers: kubelet 1.24 too old for 1.28",
      "storage.k8s.io/v1beta1 CSIStorageCapacity is no longer served since 1.27",
    ]);
    expect(r.upcoming.map((u) => u.title)).toEqual(["flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema is removed in 1.29"]);
    expect(r.upcoming[0].detail).toContain("HelmRelease platform/flow");
    expect(r.checklist[4].command).toBe("aws eks update-cluster-version --name prod-a --kubernetes-version 1.28");
  });
});

describe("managed add-on advice is never a no-op", () => {
  const check = (installed: string, now: ReturnType<typeof catalog> | null, next: ReturnType<typeof catalog> | null) =>
    managedAddonStanding({ name: "coredns", version: installed }, now, next).advice;

  it.each([
    // installed, catalog N, catalog N+1 (last = default), advice
    // installed runs on N+1 and is the default there: nothing to do
    [
      "v1.11.4-eksbuild.24",
      catalog("v1.11.4-eksbuild.24"),
      catalog("v1.12.4-eksbuild.1", "v1.11.4-eksbuild.24"),
      { when: "none", to: null },
    ],
    // installed runs on N+1 but below its default: after the control plane, to the default
    [
      "v1.11.4-eksbuild.24",
      catalog("v1.11.4-eksbuild.24"),
      catalog("v1.11.4-eksbuild.24", "v1.12.4-eksbuild.1"),
      { when: "after", to: "v1.12.4-eksbuild.1" },
    ],
    // not on N+1, a version runs on both: before, to it
    [
      "v1.11.3-eksbuild.2",
      catalog("v1.11.4-eksbuild.24", "v1.11.3-eksbuild.2"),
      catalog("v1.12.4-eksbuild.1", "v1.11.4-eksbuild.24"),
      { when: "before", to: "v1.11.4-eksbuild.24" },
    ],
    // not on N+1, nothing runs on both: after the control plane, to the N+1 default
    [
      "v1.10.1-eksbuild.38",
      catalog("v1.10.1-eksbuild.38"),
      catalog("v1.13.1-eksbuild.1", "v1.12.4-eksbuild.1"),
      { when: "after", to: "v1.12.4-eksbuild.1" },
    ],
    // the newest version for both is the installed one (build metadata aside): never "update to what you have"
    ["v1.11.4-eksbuild.24", catalog("v1.11.4-eksbuild.24"), catalog("v1.11.4-eksbuild.24"), { when: "none", to: null }],
    ["v1.11.4-eksbuild.24", catalog("v1.11.4-eksbuild.24"), null, { when: "unknown", to: null }],
  ])("%s", (installed, now, next, advice) => {
    const a = check(installed, now, next);
    expect(a).toEqual(advice);
    if (a.to) expect(a.to).not.toBe(installed);
  });

  it("the readiness text names a version compatible with both, or says after the control plane", () => {
    const stuck = managedAddonStanding(
      { name: "coredns", version: "v1.10.1-eksbuild.38" },
      catalog("v1.10.1-eksbuild.38"),
      catalog("v1.13.1-eksbuild.1", "v1.12.4-eksbuild.1"),
    );
    const r = readiness(makeInput({ managedAddons: [stuck] }));
    expect(r.blockers).toEqual([]);
    expect(r.warnings.find((w) => w.kind === "managed-addon")!.detail).toBe(
      "No version runs on both 1.33 and 1.34: update after the control plane, to v1.12.4-eksbuild.1.",
    );
    const texts = r.checklist.map((s) => `${s.detail}\n${s.command ?? ""}`).join("\n");
    expect(texts).toContain("coredns v1.10.1-eksbuild.38 → v1.12.4-eksbuild.1");
    expect(texts).not.toMatch(/v1\.10\.1-eksbuild\.38 → v1\.10\.1-eksbuild\.38/);
  });
});
