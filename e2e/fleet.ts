// The simulated fleet every end-to-end spec runs against (started once by global-setup.ts).
// Twelve clusters is the smallest fleet in which every scenario is present.
export const E2E_FLEET = { clusters: 12, objects: 30, seed: 7 } as const;
