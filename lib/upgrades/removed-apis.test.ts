import { describe, expect, it } from "vitest";
import { inventoryRefs, parseInventoryEntry, REMOVED_APIS, removedApiUses } from "./removed-apis";

describe("Flux inventory entries", () => {
  it.each([
    [
      { id: "default_podinfo_apps_Deployment", v: "v1" },
      { namespace: "default", name: "podinfo", group: "apps", kind: "Deployment", version: "v1" },
    ],
    [
      { id: "default_podinfo__Service", v: "v1" },
      { namespace: "default", name: "podinfo", group: "", kind: "Service", version: "v1" },
    ],
    [
      { id: "_podinfo__Namespace", v: "v1" },
      { namespace: "", name: "podinfo", group: "", kind: "Namespace", version: "v1" },
    ],
    [
      { id: "_ex_flowcontrol.apiserver.k8s.io_FlowSchema", v: "v1beta3" },
      { namespace: "", name: "ex", group: "flowcontrol.apiserver.k8s.io", kind: "FlowSchema", version: "v1beta3" },
    ],
  ])("%j", (entry, expected) => {
    expect(parseInventoryEntry(entry)).toEqual(expected);
  });
  it.each([[{ id: "broken", v: "v1" }], [{ id: "a_b_c_D" }], [{ id: 3, v: "v1" }], [{ id: "ns__apps_Deployment", v: "v1" }]])(
    "rejects %j",
    (entry) => {
      expect(parseInventoryEntry(entry as never)).toBeNull();
    },
  );
  it("tolerates missing or malformed inventories", () => {
    expect(inventoryRefs(null)).toEqual([]);
    expect(inventoryRefs({ entries: "x" })).toEqual([]);
    expect(inventoryRefs({ entries: [{ id: "a_b__ConfigMap", v: "v1" }, { nope: 1 }] })).toHaveLength(1);
    expect(inventoryRefs([{ id: "a_b__ConfigMap", v: "v1" }])).toHaveLength(1); // as the collector stores it
  });
});

describe("removed APIs", () => {
  const refs = inventoryRefs({
    entries: [
      { id: "apps_api_policy_PodDisruptionBudget", v: "v1beta1" },
      { id: "apps_api_autoscaling_HorizontalPodAutoscaler", v: "v2beta2" },
      { id: "apps_api_autoscaling_HorizontalPodAutoscaler", v: "v2" },
      { id: "_fs_flowcontrol.apiserver.k8s.io_FlowSchema", v: "v1beta3" },
      { id: "apps_web_networking.k8s.io_Ingress", v: "v1beta1" },
      { id: "apps_job_batch_CronJob", v: "v1beta1" },
    ],
  });
  it.each([
    // current → next: what the upgrade newly breaks
    ["1.20", "1.21", []],
    ["1.21", "1.22", ["Ingress"]],
    ["1.24", "1.25", ["PodDisruptionBudget", "CronJob"]],
    ["1.25", "1.26", ["HorizontalPodAutoscaler"]],
    ["1.30", "1.31", []],
    ["1.31", "1.32", ["FlowSchema"]],
  ])("removed by %s → %s", (current, next, kinds) => {
    expect(
      removedApiUses(refs, current, next)
        .filter((u) => u.stage === "next")
        .map((u) => u.kind)
        .sort(),
    ).toEqual([...kinds].sort());
  });
  it("a served version of the same kind is never a finding", () => {
    expect(removedApiUses(refs, "1.34", "1.35").map((u) => `${u.kind}@${u.version}`)).not.toContain("HorizontalPodAutoscaler@v2");
  });
  it("table facts", () => {
    const find = (apiVersion: string, kind: string) =>
      REMOVED_APIS.find((a) => `${a.group}/${a.version}` === apiVersion && a.kind === kind)?.removedIn;
    expect(find("policy/v1beta1", "PodSecurityPolicy")).toBe("1.25");
    expect(find("batch/v1beta1", "CronJob")).toBe("1.25");
    expect(find("autoscaling/v2beta2", "HorizontalPodAutoscaler")).toBe("1.26");
    expect(find("flowcontrol.apiserver.k8s.io/v1beta2", "FlowSchema")).toBe("1.29");
    expect(find("flowcontrol.apiserver.k8s.io/v1beta3", "PriorityLevelConfiguration")).toBe("1.32");
    expect(find("networking.k8s.io/v1beta1", "Ingress")).toBe("1.22");
  });
});

describe("every removed API with its stage for the cluster", () => {
  const refs = inventoryRefs([
    { id: "_fs_flowcontrol.apiserver.k8s.io_FlowSchema", v: "v1beta3" }, // 1.32
    { id: "_fs2_flowcontrol.apiserver.k8s.io_FlowSchema", v: "v1beta2" }, // 1.29
    { id: "kube-system_cap_storage.k8s.io_CSIStorageCapacity", v: "v1beta1" }, // 1.27
    { id: "apps_job_batch_CronJob", v: "v1" }, // served
  ]);
  it.each([
    // current, next, stages in removal order (1.27, 1.29, 1.32)
    ["1.26", "1.27", ["next", "upcoming", "upcoming"]],
    ["1.28", "1.29", ["removed", "next", "upcoming"]],
    ["1.31", "1.32", ["removed", "removed", "next"]],
    ["1.35", null, ["removed", "removed", "removed"]],
    [null, null, ["unknown-version", "unknown-version", "unknown-version"]],
  ])("on %s (next %s)", (current, next, stages) => {
    const uses = removedApiUses(refs, current, next);
    expect(uses.map((u) => u.removed.removedIn)).toEqual(["1.27", "1.29", "1.32"]);
    expect(uses.map((u) => u.stage)).toEqual(stages);
  });
  it("covers every removal the migration guide lists from 1.22 on", () => {
    const byRelease = (v: string) => REMOVED_APIS.filter((a) => a.removedIn === v).length;
    expect([byRelease("1.22"), byRelease("1.25"), byRelease("1.26"), byRelease("1.27"), byRelease("1.29"), byRelease("1.32")]).toEqual([
      22, 7, 3, 1, 2, 2,
    ]);
  });
});
