import { describe, expect, it } from "vitest";
import { toKubeEvent } from "../kube/cluster-info";
import type { KubeEventRecord } from "../kube/types";
import { aboutProvisioner, keepFluxEvent, keepNodeEvent, newestPerObject } from "./events";

const known = (health: string, deleted = false) => ({ kind: "HelmRelease", deleted, cared: { health } });

describe("which Events are kept", () => {
  it("keeps every Warning of a Flux object, ready or not, and all Events of one not ready or deleted", () => {
    expect(keepFluxEvent({ type: "Warning" }, known("ready"))).toBe(true); // DriftDetected on a Ready release
    expect(keepFluxEvent({ type: "Normal" }, known("ready"))).toBe(false);
    expect(keepFluxEvent({ type: "Normal" }, known("suspended"))).toBe(false);
    expect(keepFluxEvent({ type: "Normal" }, known("failing"))).toBe(true);
    expect(keepFluxEvent({ type: "Normal" }, known("progressing"))).toBe(true);
    expect(keepFluxEvent({ type: "Normal" }, known("ready", true))).toBe(true); // UninstallSucceeded after deletion
    expect(keepFluxEvent({ type: "Warning" }, undefined)).toBe(false); // never stored: no page to show it on
  });

  it("keeps Node Events about readiness (NodeNotReady is Normal) and Warnings, not the kubelet's start-up chatter", () => {
    expect(keepNodeEvent({ type: "Normal", reason: "NodeNotReady" })).toBe(true);
    expect(keepNodeEvent({ type: "Normal", reason: "NodeReady" })).toBe(true);
    expect(keepNodeEvent({ type: "Warning", reason: "InvalidDiskCapacity" })).toBe(true);
    expect(keepNodeEvent({ type: "Normal", reason: "NodeHasSufficientMemory" })).toBe(false);
    expect(keepNodeEvent({ type: "Normal", reason: "Starting" })).toBe(false);
  });

  it("matches Events to provisioning resources by group, kind, namespace and name", () => {
    const event = (apiVersion: string, kind: string, name: string) =>
      toKubeEvent({
        metadata: { uid: `${kind}-${name}` },
        involvedObject: { apiVersion, kind, name },
        type: "Warning",
        reason: "CannotCreateExternalResource",
        message: "InvalidParameterException",
        firstTimestamp: "2026-11-21T10:00:00Z",
        lastTimestamp: "2026-11-21T10:05:00Z",
        count: 3,
      })!;
    const provisioners = [{ apiVersion: "eks.aws.upbound.io/v1beta2", kind: "Cluster", namespace: "", name: "staging-euw1-analytics" }];
    expect(aboutProvisioner(event("eks.aws.upbound.io/v1beta2", "Cluster", "staging-euw1-analytics"), provisioners)).toBe(true);
    // The same kind name in another group is another object (Cluster.eks.aws.crossplane.io, Cluster.cluster.x-k8s.io).
    expect(aboutProvisioner(event("eks.aws.crossplane.io/v1beta1", "Cluster", "staging-euw1-analytics"), provisioners)).toBe(false);
    expect(aboutProvisioner(event("eks.aws.upbound.io/v1beta2", "Cluster", "other"), provisioners)).toBe(false);
  });

  it("caps Events per object, newest first", () => {
    const e = (name: string, i: number): KubeEventRecord => ({
      uid: `${name}-${i}`,
      involvedApiVersion: "v1",
      involvedKind: "Node",
      involvedNamespace: "",
      involvedName: name,
      type: "Normal",
      reason: "NodeNotReady",
      message: "m",
      count: 1,
      firstTimestamp: `2026-11-21T10:${String(i).padStart(2, "0")}:00.000Z`,
      lastTimestamp: `2026-11-21T10:${String(i).padStart(2, "0")}:00.000Z`,
      reportingController: "node-controller",
      revision: null,
    });
    const kept = newestPerObject([...Array.from({ length: 30 }, (_, i) => e("a", i)), e("b", 1)], 20);
    expect(kept.filter((k) => k.involvedName === "a")).toHaveLength(20);
    expect(kept.filter((k) => k.involvedName === "a").map((k) => k.uid)[0]).toBe("a-29");
    expect(kept.filter((k) => k.involvedName === "b")).toHaveLength(1);
  });
});

describe("toKubeEvent: Flux's revision annotation", () => {
  const flux = (apiVersion: string, annotations?: Record<string, string>) =>
    toKubeEvent({
      metadata: { uid: "u", annotations },
      involvedObject: { apiVersion, kind: "HelmRelease", namespace: "monitoring", name: "kps" },
      type: "Warning",
      reason: "UpgradeFailed",
      message: "Helm upgrade failed",
      firstTimestamp: "2026-11-21T10:00:00Z",
      lastTimestamp: "2026-11-21T10:00:00Z",
      count: 1,
    })!;
  it("reads <group of the involved object>/revision: for helm-controller the chart version", () => {
    expect(
      flux("helm.toolkit.fluxcd.io/v2", { "helm.toolkit.fluxcd.io/revision": "79.5.0", "helm.toolkit.fluxcd.io/token": "sha256:x" })
        .revision,
    ).toBe("79.5.0");
    expect(flux("helm.toolkit.fluxcd.io/v2", { "kustomize.toolkit.fluxcd.io/revision": "main@sha1:x" }).revision).toBeNull();
    // DriftDetected carries none.
    expect(flux("helm.toolkit.fluxcd.io/v2").revision).toBeNull();
    expect(flux("v1", { "helm.toolkit.fluxcd.io/revision": "1" }).revision).toBeNull();
  });
});
