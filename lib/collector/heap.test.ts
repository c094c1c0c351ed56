// The collector's Node.js flags reach the ways it is started outside the tests — `npm run collector` (here),
// the chart's command (deploy/helm/chart.test.ts); the demo and the benchmark spread the same constant — and
// this Node.js (20 and 24 in CI) starts with them: a flag it does not know stops the collector from starting.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COLLECTOR_NODE_FLAGS } from "./heap";

describe("the collector's Node.js flags", () => {
  it("are on npm run collector's command line, before the script", () => {
    const script: string = JSON.parse(readFileSync("package.json", "utf8")).scripts.collector;
    const words = script.split(/\s+/);
    expect(words[0]).toBe("node");
    const scriptAt = words.indexOf("lib/collector/main.ts");
    expect(scriptAt).toBeGreaterThan(0);
    for (const flag of COLLECTOR_NODE_FLAGS) {
      expect(words.indexOf(flag)).toBeGreaterThan(0);
      expect(words.indexOf(flag)).toBeLessThan(scriptAt);
    }
  });

  it("are known to this Node.js: it starts with them and says nothing", () => {
    const run = spawnSync(process.execPath, [...COLLECTOR_NODE_FLAGS, "-e", ""], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    const v8Options = spawnSync(process.execPath, ["--v8-options"], { encoding: "utf8" }).stdout;
    for (const flag of COLLECTOR_NODE_FLAGS) expect(v8Options).toContain(`--${flag.replace(/^--(no-)?/, "").replace(/=.*$/, "")} `);
  });
});
