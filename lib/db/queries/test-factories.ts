// Tiny row factories for query tests: a cluster, a Flux object, a transition, with sensible defaults.
import type { PrismaClient } from "../generated/client";

let seq = 0;

export async function makeCluster(
  prisma: PrismaClient,
  data: Partial<Parameters<PrismaClient["cluster"]["create"]>[0]["data"]> & { name: string },
) {
  return prisma.cluster.create({
    data: {
      lastSuccessAt: new Date("2026-11-21T11:59:00Z"),
      lastAttemptAt: new Date("2026-11-21T11:59:00Z"),
      ...data,
    },
  });
}

export async function makeObject(
  prisma: PrismaClient,
  clusterId: number,
  data: Partial<Parameters<PrismaClient["fluxObject"]["create"]>[0]["data"]> & { name: string },
) {
  seq++;
  return prisma.fluxObject.create({
    data: {
      clusterId,
      kind: "Kustomization",
      apiVersion: "kustomize.toolkit.fluxcd.io/v1",
      namespace: "flux-system",
      health: "ready",
      readyStatus: "True",
      readyReason: "ReconciliationSucceeded",
      readyMessage: "Applied revision: main@sha1:450796ddb2ab6724ee1cc32a4be56da032d1cca0",
      interval: "10m",
      intervalSeconds: 600,
      lastReconcileAt: new Date("2026-11-21T11:55:00Z"),
      contentHash: `h${seq}`,
      ...data,
    } as Parameters<PrismaClient["fluxObject"]["create"]>[0]["data"],
  });
}

export const failing = (message: string, reason = "BuildFailed", firstFailedAt = "2026-11-21T09:00:00Z") => ({
  health: "failing",
  readyStatus: "False",
  readyReason: reason,
  readyMessage: message,
  firstFailedAt: new Date(firstFailedAt),
});
