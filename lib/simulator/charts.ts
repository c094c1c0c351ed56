// The Helm repositories and OCI registry of the simulated fleet. The simulated sources name the real
// chart sites, which a demo machine may not reach; this server answers for them from the simulator's
// catalogue (an `index.yaml` per HelmRepository, tags behind the anonymous bearer-token dance for OCI),
// and `mirrors` maps each real URL to it, in the form UPSTREAM_MIRRORS takes.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { HELM_ADDONS } from "./fleet/catalogue";
import { ALTERNATIVE_SOURCES } from "./fleet/old-cluster";

export interface ChartMirror {
  base: string;
  /** Repository URL → mirror URL. */
  mirrors: Record<string, string>;
  /** The same, as the UPSTREAM_MIRRORS setting. */
  setting: string;
  stop(): Promise<void>;
}

function indexYaml(repository: string): string | null {
  const charts = HELM_ADDONS.filter((a) => a.source.kind === "HelmRepository" && a.source.name === repository);
  if (!charts.length) return null;
  const entries = charts.map((a) => `  ${a.chart}:\n${a.versions.map((v) => `    - name: ${a.chart}\n      version: "${v}"\n`).join("")}`);
  return `apiVersion: v1\nentries:\n${entries.join("")}`;
}

export async function startChartMirror(port = 0): Promise<ChartMirror> {
  let base = "";
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", base);
    if (url.pathname === "/token") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ token: "anonymous" }));
      return;
    }
    const tags = /^\/v2\/(.+)\/tags\/list$/.exec(url.pathname);
    if (tags) {
      if (req.headers.authorization !== "Bearer anonymous") {
        res
          .writeHead(401, { "www-authenticate": `Bearer realm="${base}/token",service="mirror",scope="repository:${tags[1]}:pull"` })
          .end();
        return;
      }
      // An OCIRepository names the chart artifact itself; an OCI HelmRepository the folder holding the chart.
      const alternative = ALTERNATIVE_SOURCES.find((s) => s.source.type === "oci" && `${s.source.url}/${s.chart}`.endsWith(`/${tags[1]}`));
      const addon =
        HELM_ADDONS.find((a) => a.source.kind === "OCIRepository" && a.source.url.endsWith(`/${tags[1]}`)) ??
        HELM_ADDONS.find((a) => a.chart === alternative?.chart);
      res
        .writeHead(addon ? 200 : 404, { "content-type": "application/json" })
        .end(JSON.stringify({ name: tags[1], tags: addon ? [...addon.versions, "latest"] : [] }));
      return;
    }
    const index = /^\/([^/]+)\/index\.yaml$/.exec(url.pathname);
    const yaml = index ? indexYaml(index[1]) : null;
    if (!yaml) {
      res.writeHead(404).end();
      return;
    }
    const etag = `"${Buffer.from(yaml).length.toString(16)}"`;
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/x-yaml", etag }).end(yaml);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mirrors: Record<string, string> = {};
  for (const a of HELM_ADDONS) {
    // HTTP repositories map to their index folder; an OCI repository to the same path on a plain-HTTP registry.
    mirrors[a.source.url] =
      a.source.kind === "HelmRepository" ? `${base}/${a.source.name}` : `${base}/${a.source.url.replace(/^oci:\/\/[^/]+\//, "")}`;
  }
  for (const { source } of ALTERNATIVE_SOURCES) mirrors[source.url] = `${base}/${source.url.replace(/^oci:\/\/[^/]+\//, "")}`;
  return {
    base,
    mirrors,
    setting: Object.entries(mirrors)
      .map(([from, to]) => `${from}=${to}`)
      .join(","),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
