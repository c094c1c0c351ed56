// The house rules in eslint.config.mjs fire: each forbidden import, linted as if written in the folder it
// is forbidden in, is reported by the real configuration; the allowed counterpart is not.
import { ESLint } from "eslint";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BOUNDARY_RULES = new Set(["import/no-restricted-paths", "no-restricted-imports", "no-restricted-properties"]);

const cases: Array<{ file: string; code: string; rule: string | null }> = [
  // lib/fleet and lib/upgrades are pure
  { file: "lib/fleet/probe.ts", code: `import { getPool } from "../db/client";\nvoid getPool;`, rule: "import/no-restricted-paths" },
  { file: "lib/upgrades/probe.ts", code: `import { getPool } from "@/lib/db/client";\nvoid getPool;`, rule: "import/no-restricted-paths" },
  { file: "lib/fleet/probe.ts", code: `import { listAll } from "../kube/list";\nvoid listAll;`, rule: "import/no-restricted-paths" },
  {
    file: "lib/upgrades/probe.ts",
    code: `import type { EksApi } from "../aws/eks";\nexport type X = EksApi;`,
    rule: "import/no-restricted-paths",
  },
  { file: "lib/fleet/probe.ts", code: `import { env } from "../env";\nvoid env;`, rule: "import/no-restricted-paths" },
  { file: "lib/fleet/probe.ts", code: `import { readFileSync } from "node:fs";\nvoid readFileSync;`, rule: "no-restricted-imports" },
  { file: "lib/upgrades/probe.ts", code: `import { request } from "https";\nvoid request;`, rule: "no-restricted-imports" },
  { file: "lib/fleet/probe.ts", code: `import { spawn } from "node:child_process";\nvoid spawn;`, rule: "no-restricted-imports" },
  { file: "lib/fleet/probe.ts", code: `import { connect } from "node:net";\nvoid connect;`, rule: "no-restricted-imports" },
  { file: "lib/upgrades/probe.ts", code: `import pg from "pg";\nvoid pg;`, rule: "no-restricted-imports" },
  { file: "lib/fleet/probe.ts", code: `export const level = process.env.LOG_LEVEL;`, rule: "no-restricted-properties" },
  {
    file: "lib/upgrades/probe.ts",
    code: `const { env } = process;\nexport const level = env.LOG_LEVEL;`,
    rule: "no-restricted-properties",
  },
  { file: "lib/fleet/probe.ts", code: `import { createHash } from "node:crypto";\nvoid createHash;`, rule: null },
  { file: "lib/fleet/probe.ts", code: `import { kubernetesMinor } from "../upgrades/versions";\nvoid kubernetesMinor;`, rule: null },
  // lib/db never imports lib/collector
  {
    file: "lib/db/writes/probe.ts",
    code: `import { healthCounts } from "../../collector/changes";\nvoid healthCounts;`,
    rule: "import/no-restricted-paths",
  },
  {
    file: "lib/db/probe.ts",
    code: `import type { Collector } from "@/lib/collector/collector";\nexport type X = Collector;`,
    rule: "import/no-restricted-paths",
  },
  {
    file: "lib/db/writes/probe.ts",
    code: `import type { FluxObjectRecord } from "../../kube/types";\nexport type X = FluxObjectRecord;`,
    rule: null,
  },
  // app/ never talks to clusters or AWS
  { file: "app/api/probe/route.ts", code: `import { listAll } from "@/lib/kube/list";\nvoid listAll;`, rule: "import/no-restricted-paths" },
  { file: "app/probe/page.tsx", code: `import { eksApi } from "../../lib/aws/eks";\nvoid eksApi;`, rule: "import/no-restricted-paths" },
  {
    file: "app/probe.ts",
    code: `import { Collector } from "@/lib/collector/collector";\nvoid Collector;`,
    rule: "import/no-restricted-paths",
  },
  { file: "app/api/probe/route.ts", code: `import { getPool } from "@/lib/db/client";\nvoid getPool;`, rule: null },
  // client files import database code for its types only
  {
    file: "app/probe.client.tsx",
    code: `import { getFleet } from "@/lib/db/queries/fleet";\nvoid getFleet;`,
    rule: "no-restricted-imports",
  },
  {
    file: "app/_components/probe.client.ts",
    code: `import { getPool } from "../../lib/db/client";\nvoid getPool;`,
    rule: "no-restricted-imports",
  },
  { file: "app/probe.client.tsx", code: `import type { Fleet } from "@/lib/db/queries/fleet";\nexport type X = Fleet;`, rule: null },
  { file: "app/probe.client.tsx", code: `import { FLUX_KINDS } from "@/lib/fleet/kinds";\nvoid FLUX_KINDS;`, rule: null },
];

let eslint: ESLint;
beforeAll(() => {
  // Probe files do not exist, so the type-aware parser is switched off and only the boundary rules run.
  eslint = new ESLint({
    cwd: root,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => BOUNDARY_RULES.has(ruleId),
  });
});

describe("house rules in eslint.config.mjs", () => {
  it.each(cases)("$file: $code → $rule", async ({ file, code, rule }) => {
    const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
    const fired = result.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`);
    expect(fired).toEqual(rule ? [rule] : []);
  });
});
