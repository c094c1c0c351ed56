// The simulated hub's objects (the shapes the real controllers write) for the discovery sources' tests.
import type { KubeObject, RuntimeInfo } from "../../simulator/contract";
import { createFleetModel } from "../../simulator/fleet/index";

export const EPOCH = Date.UTC(2026, 10, 21, 20, 0, 0);
const CA_PEM = "-----BEGIN CERTIFICATE-----\nMIIBsim\n-----END CERTIFICATE-----\n";
export const runtime: RuntimeInfo = {
  endpointOf: (cluster) => `https://${cluster}.sim.test:6443`,
  caDataOf: () => Buffer.from(CA_PEM).toString("base64"),
  stsEndpoint: "https://sts.sim.test",
};
/** The end-to-end fleet size, plus three spokes only Argo CD knows. */
export const model = createFleetModel({ clusters: 12, objects: 12, seed: 7, epoch: EPOCH, argocdSpokes: 3 });
export const hubObjects: KubeObject[] = model.objectsAt("hub", EPOCH, runtime);
export const ofKind = (kind: string) => hubObjects.filter((o) => o.kind === kind) as unknown as Array<Record<string, unknown>>;
