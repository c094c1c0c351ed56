// Prometheus metrics of the collector (prom-client), served on COLLECTOR_METRICS_PORT at /metrics.
import http from "node:http";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { oneLine } from "../errors";

export class CollectorMetrics {
  readonly registry = new Registry();
  readonly cycleSeconds = new Histogram({
    name: "crows_nest_collector_cycle_seconds",
    help: "Duration of a full collection cycle",
    buckets: [1, 5, 10, 20, 30, 45, 60, 90, 120, 300],
    registers: [this.registry],
  });
  readonly lastCycleSeconds = new Gauge({
    name: "crows_nest_collector_last_cycle_seconds",
    help: "Duration of the last cycle",
    registers: [this.registry],
  });
  readonly clusters = new Gauge({
    name: "crows_nest_clusters",
    help: "Clusters by reachability as of the last cycle",
    labelNames: ["reachability"],
    registers: [this.registry],
  });
  readonly objects = new Gauge({
    name: "crows_nest_flux_objects",
    help: "Flux objects by health (stale and unclaimed derived as the pages do)",
    labelNames: ["kind", "health"],
    registers: [this.registry],
  });
  readonly requests = new Counter({
    name: "crows_nest_collector_requests_total",
    help: "Requests sent to clusters and AWS",
    labelNames: ["cluster", "target"],
    registers: [this.registry],
  });
  readonly errors = new Counter({
    name: "crows_nest_collector_errors_total",
    help: "Failed requests and polls by cluster and error kind",
    labelNames: ["cluster", "kind"],
    registers: [this.registry],
  });
  readonly rowsWritten = new Counter({
    name: "crows_nest_collector_rows_written_total",
    help: "Rows written to Postgres",
    labelNames: ["table"],
    registers: [this.registry],
  });
  readonly pollSeconds = new Histogram({
    name: "crows_nest_collector_cluster_poll_seconds",
    help: "Duration of one cluster poll",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    registers: [this.registry],
  });
  readonly leases = new Gauge({
    name: "crows_nest_collector_leases",
    help: "Cluster leases held by this replica",
    registers: [this.registry],
  });

  readonly clusterMode = new Gauge({
    name: "crows_nest_collector_cluster_mode",
    help: "How each leased cluster is read (watch or poll) and why it is polled (1 per cluster)",
    labelNames: ["cluster", "mode", "reason"],
    registers: [this.registry],
  });
  readonly unchangedNodes = new Counter({
    name: "crows_nest_collector_node_reports_unchanged_total",
    help: "Watched Node updates that changed nothing kept (kubelet status reports, every 5 minutes a node): dropped unwritten",
    registers: [this.registry],
  });
  readonly sessions = new Gauge({
    name: "crows_nest_collector_watch_sessions",
    help: "Watch sessions of this replica by state (watching, fallback, failed, starting)",
    labelNames: ["mode"],
    registers: [this.registry],
  });

  readonly idleNaps = new Counter({
    name: "crows_nest_collector_idle_naps_total",
    help: "Naps taken while nothing was in flight and nothing changed (frames arriving meanwhile are read together at the nap's end)",
    registers: [this.registry],
  });
  readonly idleNapSeconds = new Counter({
    name: "crows_nest_collector_idle_nap_seconds_total",
    help: "Time spent napping (the event loop blocked, using no CPU); the event loop lag metrics include it",
    registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: "crows_nest_collector_" });
  }

  /** Counts one nap (idle-reads.ts). */
  napped(ms: number): void {
    this.idleNaps.inc();
    this.idleNapSeconds.inc(ms / 1000);
  }

  /** Serves /metrics; resolves with the bound port. */
  serve(port: number, host = "0.0.0.0"): Promise<{ port: number; close: () => Promise<void> }> {
    const server = http.createServer((req, res) => {
      if (req.url?.split("?")[0] === "/metrics") {
        this.registry.metrics().then(
          (body) => res.writeHead(200, { "Content-Type": this.registry.contentType }).end(body),
          (err: unknown) => res.writeHead(500, { "Content-Type": "text/plain" }).end(`${oneLine(err)}\n`),
        );
        return;
      }
      if (req.url === "/healthz") {
        res.writeHead(200, { "Content-Type": "text/plain" });
        res.end("ok\n");
        return;
      }
      res.writeHead(404).end();
    });
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        const address = server.address();
        resolve({
          port: typeof address === "object" && address ? address.port : port,
          close: () => new Promise<void>((r) => server.close(() => r())),
        });
      });
    });
  }
}
