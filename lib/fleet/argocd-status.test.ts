import { describe, expect, it } from "vitest";
import { argoApplicationHealth, argoApplicationSetHealth, type ArgoAppStatusInput } from "./argocd-status";

const SHA = "a656a333006bb50b480d00c42370bbbd1f45555d";
const OLD = "50240d9d473c490f6b1263c3c50f6369a446dce1";

/** A reconciled, healthy, synced, auto-synced Application; each row changes what it needs. */
function app(overrides: Partial<ArgoAppStatusInput> = {}): ArgoAppStatusInput {
  return {
    healthStatus: "Healthy",
    syncStatus: "Synced",
    syncRevision: SHA,
    operationPhase: "Succeeded",
    operationMessage: "successfully synced (all tasks run)",
    operationRevision: SHA,
    operationRequested: false,
    conditions: [],
    autoSync: true,
    selfHeal: false,
    reconciledAt: "2026-11-23T17:00:00Z",
    resources: [],
    ...overrides,
  };
}

// The mapping table of docs/argocd.md, row by row.
const rows: Array<{
  row: string;
  input: ArgoAppStatusInput;
  health: string;
  reason: string;
  message?: RegExp;
  drift?: boolean;
  explained?: boolean;
}> = [
  {
    row: "no status at all (just created, as the API server returns it)",
    input: app({
      healthStatus: null,
      syncStatus: null,
      syncRevision: null,
      operationPhase: null,
      operationMessage: null,
      operationRevision: null,
      reconciledAt: null,
    }),
    health: "new",
    reason: "NotReconciled",
  },
  {
    row: "no status, a sync already requested",
    input: app({ healthStatus: null, syncStatus: null, operationPhase: null, reconciledAt: null, operationRequested: true }),
    health: "new",
    reason: "NotReconciled",
    message: /a sync is requested/,
  },
  { row: "Healthy + Synced", input: app(), health: "ready", reason: "Synced", message: /^Healthy and synced to a656a33$/ },
  {
    row: "Healthy + Synced with an old failed operation (the live state matches Git)",
    input: app({ operationPhase: "Failed", operationMessage: "one or more objects failed to apply" }),
    health: "ready",
    reason: "Synced",
  },
  {
    row: "ComparisonError: sync Unknown while health keeps its last value",
    input: app({
      syncStatus: "Unknown",
      syncRevision: null,
      conditions: [
        {
          type: "ComparisonError",
          message:
            "Failed to load target state: failed to generate manifest for source 1 of 1: rpc error: code = Unknown desc = Manifest generation error (cached): git-source-2: app path does not exist",
        },
      ],
    }),
    health: "failing",
    reason: "ComparisonError",
    message: /^Failed to load target state: .*app path does not exist$/,
  },
  {
    row: "InvalidSpecError outranks ComparisonError and SyncError",
    input: app({
      healthStatus: "Unknown",
      syncStatus: "Unknown",
      conditions: [
        { type: "SyncError", message: "Failed last sync attempt to [x]: boom" },
        { type: "InvalidSpecError", message: "application references project nope which does not exist" },
        { type: "ComparisonError", message: "cannot compare" },
      ],
    }),
    health: "failing",
    reason: "InvalidSpecError",
    message: /^application references project nope which does not exist \(and ComparisonError, SyncError\)$/,
  },
  {
    row: "SyncError after a failed automated sync (OutOfSync, Degraded)",
    input: app({
      healthStatus: "Degraded",
      syncStatus: "OutOfSync",
      operationPhase: "Failed",
      operationMessage: 'one or more objects failed to apply, reason: Deployment.apps "checkout-api" is invalid',
      conditions: [{ type: "SyncError", message: `Failed last sync attempt to [${SHA}]: one or more objects failed to apply` }],
    }),
    health: "failing",
    reason: "SyncError",
    message: /^Failed last sync attempt to \[/,
  },
  {
    row: "manual sync Failed, still OutOfSync (no condition: only the operation says it)",
    input: app({
      autoSync: false,
      syncStatus: "OutOfSync",
      operationPhase: "Failed",
      operationMessage: "one or more synchronization tasks completed unsuccessfully, reason: Job failed",
    }),
    health: "failing",
    reason: "OperationFailed",
    message: /^one or more synchronization tasks completed unsuccessfully/,
  },
  {
    row: "operation Error (could not run)",
    input: app({ syncStatus: "OutOfSync", operationPhase: "Error", operationMessage: "ComparisonError: rpc error" }),
    health: "failing",
    reason: "OperationError",
  },
  {
    row: "sync retrying after a failure",
    input: app({
      syncStatus: "OutOfSync",
      operationPhase: "Running",
      operationMessage: "one or more objects failed to apply. Retrying attempt #2 at 3:04PM.",
    }),
    health: "failing",
    reason: "SyncRetrying",
  },
  {
    row: "sync running",
    input: app({
      syncStatus: "OutOfSync",
      operationPhase: "Running",
      operationMessage: "waiting for healthy state of apps/Deployment/checkout-api",
    }),
    health: "progressing",
    reason: "Syncing",
    message: /waiting for healthy state/,
  },
  {
    row: "sync terminating",
    input: app({ operationPhase: "Terminating", operationMessage: "Operation terminated" }),
    health: "progressing",
    reason: "Terminating",
  },
  {
    row: "sync requested, not started",
    input: app({ syncStatus: "OutOfSync", operationRequested: true }),
    health: "progressing",
    reason: "SyncRequested",
  },
  {
    row: "Degraded with persisted resource health: the resources say why",
    input: app({
      healthStatus: "Degraded",
      resources: [
        {
          kind: "Deployment",
          group: "apps",
          namespace: "kube-system",
          name: "aws-load-balancer-controller",
          health: "Degraded",
          healthMessage: 'Deployment "aws-load-balancer-controller" exceeded its progress deadline',
        },
        { kind: "Service", namespace: "kube-system", name: "aws-load-balancer-webhook-service", health: "Healthy" },
      ],
    }),
    health: "failing",
    reason: "Degraded",
    message:
      /^Deployment kube-system\/aws-load-balancer-controller is Degraded: Deployment "aws-load-balancer-controller" exceeded its progress deadline$/,
  },
  {
    row: "Degraded in v3's default mode: nothing in the object explains it, and we say so",
    input: app({ healthStatus: "Degraded" }),
    health: "failing",
    reason: "Degraded",
    message: /keeps resource health out of the Application since v3/,
    explained: false,
  },
  {
    row: "Missing with automated sync: about to be created",
    input: app({ healthStatus: "Missing", syncStatus: "OutOfSync", operationPhase: null }),
    health: "progressing",
    reason: "Missing",
  },
  {
    row: "Missing with automated sync off: nothing deployed, waiting for a person",
    input: app({ autoSync: false, healthStatus: "Missing", syncStatus: "OutOfSync", operationPhase: null }),
    health: "suspended",
    reason: "AwaitingManualSync",
    drift: true,
  },
  { row: "Suspended (a paused Deployment)", input: app({ healthStatus: "Suspended" }), health: "suspended", reason: "Suspended" },
  { row: "Progressing", input: app({ healthStatus: "Progressing" }), health: "progressing", reason: "Progressing" },
  {
    row: "Unknown health without an error condition",
    input: app({ healthStatus: "Unknown" }),
    health: "failing",
    reason: "HealthUnknown",
    explained: false,
  },
  {
    row: "OutOfSync, automated sync off: drift, not failing",
    input: app({
      autoSync: false,
      syncStatus: "OutOfSync",
      resources: [
        { kind: "ConfigMap", namespace: "podinfo", name: "podinfo-config", status: "OutOfSync" },
        { kind: "Deployment", group: "apps", namespace: "podinfo", name: "podinfo", status: "Synced" },
      ],
    }),
    health: "ready",
    reason: "OutOfSync",
    message: /^Healthy; 1 resource differs from Git \(automated sync is off\)$/,
    drift: true,
  },
  {
    row: "OutOfSync, automated sync on, new revision: Argo CD will sync",
    input: app({ syncStatus: "OutOfSync", syncRevision: SHA, operationRevision: OLD }),
    health: "progressing",
    reason: "OutOfSync",
    message: /automated sync will apply a656a33/,
  },
  {
    row: "OutOfSync, automated sync on, self-heal off, this revision already synced: a live edit stays",
    input: app({ syncStatus: "OutOfSync" }),
    health: "ready",
    reason: "OutOfSync",
    drift: true,
  },
  {
    row: "OutOfSync, self-heal on: Argo CD will put it back",
    input: app({ syncStatus: "OutOfSync", selfHeal: true }),
    health: "progressing",
    reason: "OutOfSync",
  },
  {
    row: "sync Unknown without a condition",
    input: app({ syncStatus: "Unknown" }),
    health: "progressing",
    reason: "SyncUnknown",
    explained: false,
  },
];

describe("argoApplicationHealth (the table in docs/argocd.md)", () => {
  for (const r of rows) {
    it(r.row, () => {
      const v = argoApplicationHealth(r.input);
      expect(v.health).toBe(r.health);
      expect(v.reason).toBe(r.reason);
      if (r.message) expect(v.message).toMatch(r.message);
      expect(v.message.length).toBeGreaterThan(0);
      expect(v.drift !== null).toBe(r.drift ?? false);
      expect(v.explained).toBe(r.explained ?? true);
    });
  }

  it("keeps warning conditions apart: they never make an Application failing", () => {
    const v = argoApplicationHealth(
      app({
        conditions: [
          { type: "SharedResourceWarning", message: "ConfigMap/x is part of applications argocd/a and b" },
          { type: "OrphanedResourceWarning", message: "Application has 2 orphaned resources" },
        ],
      }),
    );
    expect(v.health).toBe("ready");
    expect(v.warnings).toEqual([
      "SharedResourceWarning: ConfigMap/x is part of applications argocd/a and b",
      "OrphanedResourceWarning: Application has 2 orphaned resources",
    ]);
  });

  it("names at most three degraded resources and counts the rest", () => {
    const resources = Array.from({ length: 5 }, (_, i) => ({ kind: "Deployment", namespace: "ns", name: `d${i}`, health: "Degraded" }));
    expect(argoApplicationHealth(app({ healthStatus: "Degraded", resources })).message).toBe(
      "Deployment ns/d0 is Degraded; Deployment ns/d1 is Degraded; Deployment ns/d2 is Degraded; and 2 more",
    );
  });
});

describe("argoApplicationSetHealth", () => {
  const t = "2026-11-23T17:00:00Z";
  const healthy = [
    {
      type: "ErrorOccurred",
      status: "False",
      reason: "ApplicationSetUpToDate",
      message: "All applications have been generated successfully",
      lastTransitionTime: t,
    },
    {
      type: "ParametersGenerated",
      status: "True",
      reason: "ParametersGenerated",
      message: "Successfully generated parameters for all Applications",
      lastTransitionTime: t,
    },
    {
      type: "ResourcesUpToDate",
      status: "True",
      reason: "ApplicationSetUpToDate",
      message: "All applications have been generated successfully",
      lastTransitionTime: t,
    },
  ];
  const cases = [
    { row: "no status yet", conditions: [], generated: null, health: "new", reason: "NotReconciled" },
    {
      row: "up to date, counting what it generates",
      conditions: healthy,
      generated: 4,
      health: "ready",
      reason: "ApplicationSetUpToDate",
      message: /generated successfully; it generates 4 Applications$/,
    },
    {
      row: "up to date, no cluster matches",
      conditions: healthy,
      generated: 0,
      health: "ready",
      reason: "ApplicationSetUpToDate",
      message: /it generates no Application$/,
    },
    {
      row: "error while generating (ErrorOccurred True, ResourcesUpToDate False)",
      conditions: [
        {
          type: "ErrorOccurred",
          status: "True",
          reason: "ApplicationValidationError",
          message: "application destination spec is invalid: there are no clusters with this name: staging-2",
          lastTransitionTime: t,
        },
        {
          type: "ParametersGenerated",
          status: "True",
          reason: "ParametersGenerated",
          message: "Successfully generated parameters for all Applications",
          lastTransitionTime: t,
        },
        {
          type: "ResourcesUpToDate",
          status: "False",
          reason: "ErrorOccurred",
          message: "application destination spec is invalid: there are no clusters with this name: staging-2",
          lastTransitionTime: t,
        },
      ],
      generated: 3,
      health: "failing",
      reason: "ApplicationValidationError",
      message: /^application destination spec is invalid/,
    },
    {
      row: "parameters could not be generated",
      conditions: [
        {
          type: "ParametersGenerated",
          status: "False",
          reason: "ErrorOccurred",
          message: "error generating params from git",
          lastTransitionTime: t,
        },
      ],
      generated: null,
      health: "failing",
      reason: "ErrorOccurred",
    },
    {
      row: "progressive sync rolling out",
      conditions: [
        ...healthy,
        {
          type: "RolloutProgressing",
          status: "True",
          reason: "ApplicationSetModified",
          message: "ApplicationSet is performing rollout of step 1",
          lastTransitionTime: t,
        },
      ],
      generated: 2,
      health: "progressing",
      reason: "ApplicationSetModified",
    },
  ];
  for (const c of cases) {
    it(c.row, () => {
      const v = argoApplicationSetHealth({ conditions: c.conditions, generated: c.generated });
      expect(v.health).toBe(c.health);
      expect(v.reason).toBe(c.reason);
      if (c.message) expect(v.message).toMatch(c.message);
    });
  }
});
