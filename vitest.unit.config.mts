// `npm run test:unit`: the pure tests only, in seconds. No global setup, so no PostgreSQL is started; a
// database or simulator test listed here by mistake fails loudly (useTestDatabase has no server to use).
// `npm test` (vitest.config.mts) stays the full suite.
import { configDefaults, defineConfig } from "vitest/config";
import full from "./vitest.config.mjs";

const UNIT_TESTS = [
  "lib/*.test.ts",
  "lib/fleet/**/*.test.ts",
  "lib/upgrades/**/*.test.ts",
  "lib/kube/**/*.test.ts",
  "lib/http/**/*.test.ts",
  "lib/live/**/*.test.ts",
  "lib/webhooks/**/*.test.ts",
  "lib/aws/**/*.test.ts",
  "lib/auth/**/*.test.ts",
  "lib/collector/{changes,poll,targets,eks-reader,heap,idle-reads}.test.ts",
  "lib/collector/discovery/*.test.ts",
  "lib/db/embedded.test.ts",
  "lib/simulator/clock.test.ts",
  "lib/simulator/fleet/**/*.test.ts",
  "lib/simulator/kube/{bookmark-timing,faults,patch,selectors,store,reconciles,managed-fields,kubelets}.test.ts",
];

export default defineConfig({
  ...full,
  test: {
    ...full.test,
    include: UNIT_TESTS,
    // oidc.test.ts runs a real OIDC provider over HTTP; keys.test.ts keeps the CSRF key in PostgreSQL.
    exclude: [...configDefaults.exclude, "lib/auth/oidc.test.ts", "lib/auth/keys.test.ts"],
    globalSetup: [],
    pool: "threads",
    // One module graph per worker instead of one per file: half the wall time. `npm test` still isolates.
    isolate: false,
  },
});
