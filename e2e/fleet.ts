// The simulated fleet every end-to-end spec runs against (started once by global-setup.ts).
// Twelve clusters is the smallest fleet in which every scenario is present; the huge-message spoke
// holds more objects than one page of the cluster's object table shows. Three more spokes are known only
// through the hub's Argo CD cluster secrets (awsAuthConfig, a bearer token, an exec plugin we never run).
export const E2E_FLEET = { clusters: 12, objects: 30, seed: 7, objectsBySpoke: { "staging-use1-002": 130 }, argocdSpokes: 3 } as const;

/**
 * t0 of the running simulator, set by global-setup.ts: its date also picks the fleet's Kubernetes versions, so
 * a spec's own model of the fleet must use it. Now while Playwright only lists the tests (before the setup).
 */
export const e2eSimEpoch = () => Number(process.env.E2E_SIM_EPOCH) || Date.now();
