import { describe, expect, it } from "vitest";
import { normaliseMessage } from "./normalise";

describe("normaliseMessage", () => {
  it.each([
    ["Applied revision: master@sha1:450796ddb2ab6724ee1cc32a4be56da032d1cca0", "Applied revision: <revision>"],
    ["Reconciliation finished in 176.163666ms, next run in 10m0s", "Reconciliation finished in <duration>, next run in <duration>"],
    [
      "kustomization path not found: stat /tmp/kustomization-1464362706/invalid: no such file or directory",
      "kustomization path not found: stat /tmp/kustomization-<n>/invalid: no such file or directory",
    ],
    [
      "Fetching manifests for revision master/67e2c98a60dc92283531412a9e604dd4bae005a9 with a timeout of 4m30s",
      "Fetching manifests for revision <revision> with a timeout of <duration>",
    ],
    [
      "health check failed after 5m0.04s: timeout waiting for: [Deployment/apps/podinfo status: 'InProgress']",
      "health check failed after <duration>: timeout waiting for: [Deployment/apps/podinfo status: 'InProgress']",
    ],
    ["dependency 'flux-system/keycloak-operator' is not ready", "dependency 'flux-system/keycloak-operator' is not ready"],
    [
      "Helm upgrade failed for release infra-x509/x509 with chart x509-certificate-exporter@3.20.0+5c938ddd1547: template: x509-certificate-exporter/templates/migrations/pre-upgrade-3-20-0.yaml:17:13: executing error calling semverCompare: invalid semantic version",
      "Helm upgrade failed for release infra-x509/x509 with chart x509-certificate-exporter@<version>: template: x509-certificate-exporter/templates/migrations/pre-upgrade-<n>-<n>-<n>.yaml:<n>:<n>: executing error calling semverCompare: invalid semantic version",
    ],
    [
      "Helm test failed for release podinfo/podinfo.v1 with chart podinfo@6.5.3: 1 error occurred:\n\t* pod podinfo-fault-test-a0tew failed",
      "Helm test failed for release podinfo/podinfo.v<n> with chart podinfo@<version>: <n> error occurred: * pod podinfo-fault-test-<pod> failed",
    ],
    ["stored artifact: revision 'sha256:ed9457de'", "stored artifact: revision '<digest>'"],
    ["Failed to install after 1 attempt(s)", "Failed to install after <n> attempt(s)"],
    [
      "Cluster state of release ingress-nginx/ingress-nginx.v12 has drifted from the desired state:\nDeployment/ingress-nginx/ingress-nginx-controller changed (0 additions, 1 changes, 0 removals)",
      "Cluster state of release ingress-nginx/ingress-nginx.v<n> has drifted from the desired state: Deployment/ingress-nginx/ingress-nginx-controller changed (<n> additions, <n> changes, <n> removals)",
    ],
    ["back-off restarting pod podinfo-7c7b47f5f-8bhrp", "back-off restarting pod podinfo-<pod>"],
    ["uid 7d0cdc51-ddcf-4743-b223-83ca5c699632 at 2026-11-21T10:00:00Z", "uid <uid> at <time>"],
    ["dial tcp 10.0.12.7:443: i/o timeout", "dial tcp <ip>: i/o timeout"],
    [
      "stored artifact for revision 'v1.2.3@sha256:9f0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4'",
      "stored artifact for revision '<revision>'",
    ],
  ])("%s", (input, want) => {
    expect(normaliseMessage(input)).toBe(want);
  });

  it("keeps names, kinds and API versions apart", () => {
    expect(normaliseMessage("Kustomization/flux-system/cnp dry-run failed (Invalid): apps/v1 x509-exporter-operator")).toBe(
      "Kustomization/flux-system/cnp dry-run failed (Invalid): apps/v1 x509-exporter-operator",
    );
  });

  it("makes the same error with different revisions, durations and temp folders read the same", () => {
    const a =
      "kustomize build failed: accumulating resources from '/tmp/kustomization-4230188404/apps': revision main@sha1:1111111111111111111111111111111111111111 after 2.5s";
    const b =
      "kustomize build failed: accumulating resources from '/tmp/kustomization-991/apps': revision main@sha1:2222222222222222222222222222222222222abc after 10m0s";
    expect(normaliseMessage(a)).toBe(normaliseMessage(b));
  });

  it("tells different errors apart", () => {
    expect(normaliseMessage("dependency 'flux-system/infra' is not ready")).not.toBe(
      normaliseMessage("dependency 'flux-system/apps' is not ready"),
    );
  });

  describe("health-check resource lists, reordered on every retry", () => {
    const entry = (ns: string, name: string, status = "InProgress") => `Deployment/${ns}/${name} status: '${status}'`;
    const timeout = (entries: string[], took = "10m0.03s") =>
      `health check failed after ${took}: timeout waiting for: [${entries.join(", ")}]`;

    it("reads a reordered list as the same message, and a different list as another", () => {
      const a = [entry("shop", "api"), entry("shop", "web"), entry("billing", "worker")];
      expect(normaliseMessage(timeout(a))).toBe(normaliseMessage(timeout([a[2], a[0], a[1]], "10m0.91s")));
      expect(normaliseMessage(timeout(a))).toBe(
        "health check failed after <duration>: timeout waiting for: [Deployment/billing/worker status: 'InProgress', Deployment/shop/api status: 'InProgress', Deployment/shop/web status: 'InProgress']",
      );
      expect(normaliseMessage(timeout(a))).not.toBe(normaliseMessage(timeout(a.slice(0, 2))));
      expect(normaliseMessage(timeout(a))).not.toBe(normaliseMessage(timeout([entry("shop", "api", "Failed"), a[1], a[2]])));
    });

    it("does the same for stalled resources, from kustomize-controller and helm-controller, text after the list kept", () => {
      const stalled = (list: string[]) =>
        `Helm upgrade failed for release shop/api with chart api@1.4.2: failed early due to stalled resources: [${list.join(", ")}] (retrying)`;
      const a = [entry("shop", "api", "Failed"), `Job/shop/migrate status: 'Failed'`];
      expect(normaliseMessage(stalled(a))).toBe(normaliseMessage(stalled([a[1], a[0]])));
      expect(normaliseMessage(stalled(a))).toMatch(/\] \(retrying\)$/);
    });

    it("reads two retries of a list Flux trimmed to 32 KiB (different samples, a half entry at the end) as the same", () => {
      // As the tenants health check on a big cluster: 760 Deployments, each retry in another order, trimmed.
      // Names without digits, so that normalising numbers does not make them alike.
      const word = (i: number) => `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`;
      const all = Array.from({ length: 380 }, (_, i) => [entry(`shop-${word(i)}`, "web"), entry(`billing-${word(i)}`, "worker")]).flat();
      // Another order on each retry: every k-th entry first, then the rest.
      const shuffled = (k: number) => [...all.filter((_, i) => i % k === 0), ...all.filter((_, i) => i % k !== 0).reverse()];
      const trim = (m: string) => (m.length <= 32_768 ? m : `${m.slice(0, 32_765)}...`);
      const first = trim(timeout(shuffled(3)));
      const second = trim(timeout(shuffled(4), "10m1.2s"));
      expect(first.length).toBe(32_768);
      expect(first).not.toBe(second);
      expect(normaliseMessage(first)).toBe(normaliseMessage(second));
      expect(normaliseMessage(first)).toBe(
        "health check failed after <duration>: timeout waiting for: [Deployment status: 'InProgress', …]",
      );
      // The untrimmed list is still told apart from another one.
      expect(normaliseMessage(timeout(all))).not.toBe(normaliseMessage(timeout(all.slice(1))));
    });
  });

  it("handles empty input", () => {
    expect(normaliseMessage(null)).toBe("");
  });
});
