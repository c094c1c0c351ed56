// Change → visible in an open browser page, for `npm run bench`: the production web app against the
// collector's database, headless Chromium with one `/failures?cluster=<c>` tab per sample, and per sample one
// change the simulator makes on purpose (a healthy Kustomization that fails). The time from the change
// (the simulator's clock, this machine's) to the moment the failing object's link is in the tab's page is
// the sample; a tab that never shows it within the wait counts as unseen, never as a latency. Where the time
// goes is printed too: change → the object's row written (flux_object."updatedAt") and change → the tab told
// by its change stream (the shared EventSource or, in the other tabs, its BroadcastChannel).
import type { Browser, Page } from "@playwright/test";
import pg from "pg";
import { objectPath } from "../../lib/fleet/urls";
import { freePort } from "../../lib/db/embedded";
import { nextBin, startChild, stopChild, waitForHttp, type Child } from "./processes";
import { DEMO_DIST_DIR } from "./web-build";

export interface BrowserLatency {
  p50Seconds: number | null;
  p95Seconds: number | null;
  /** Change → the object's row written, over the seen samples. */
  rowP50Seconds?: number | null;
  rowP95Seconds?: number | null;
  /** Change → the tab told by its change stream, over the seen samples. */
  streamP50Seconds?: number | null;
  streamP95Seconds?: number | null;
  /** The tabs' refreshes (`/api/failures` fetches) while the changes were made: how many, how many failed, how long. */
  refreshes?: { finished: number; failed: number; p50Seconds: number | null; p95Seconds: number | null };
  samples: number;
  unseen: number;
  /** How it was measured, in a line. */
  measure: string;
}

interface Target {
  cluster: string;
  namespace: string;
  name: string;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : null;

/**
 * Healthy Kustomizations the churn never touched (their next churn change is a failure), one per cluster
 * the collector reads, up to `count`.
 */
async function pickTargets(db: pg.Pool, controlUrl: string, count: number): Promise<Target[]> {
  const log = (await (await fetch(`${controlUrl}/churn?since=0&limit=1000000`)).json()) as {
    changes: Array<{ cluster: string; kind: string; namespace: string; name: string }>;
  };
  const churned = new Set(log.changes.map((c) => `${c.cluster}/${c.kind}/${c.namespace}/${c.name}`));
  const { rows } = await db.query<Target>(
    `SELECT DISTINCT ON (c.name) c.name AS cluster, o.namespace, o.name
       FROM flux_object o JOIN cluster c ON c.id = o."clusterId"
      WHERE o.kind = 'Kustomization' AND o.health = 'ready' AND NOT o.suspended AND o."deletedAt" IS NULL
        AND c."lastSuccessAt" IS NOT NULL AND (c."lastErrorAt" IS NULL OR c."lastSuccessAt" > c."lastErrorAt")
      ORDER BY c.name, md5(o.namespace || '/' || o.name)`,
  );
  return rows.filter((t) => !churned.has(`${t.cluster}/Kustomization/${t.namespace}/${t.name}`)).slice(0, count);
}

export async function measureChangeToBrowser(options: {
  databaseUrl: string;
  controlUrl: string;
  samples: number;
  /** Between two changes. */
  spacingMs: number;
  /** How long a tab may take to show its change. */
  waitMs: number;
  log: (line: string) => void;
}): Promise<BrowserLatency> {
  const db = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
  const port = await freePort();
  let web: Child | undefined;
  let browser: Browser | undefined;
  try {
    const targets = await pickTargets(db, options.controlUrl, options.samples);
    if (!targets.length) throw new Error("no healthy, untouched Kustomization to fail in a cluster the collector reads");
    web = startChild(
      "web",
      process.execPath,
      [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"],
      { ...process.env, DATABASE_URL: options.databaseUrl, NEXT_DIST_DIR: DEMO_DIST_DIR, HOSTNAME: "127.0.0.1", PORT: String(port) },
      { quiet: true },
    );
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/api/health`, 120_000, web);
    // One render first: the server's first /failures loads what pages share (seconds at 1,000 clusters).
    await fetch(`${base}/failures`, { signal: AbortSignal.timeout(120_000) });
    // Loaded here, not at the top: the bench's collector process would otherwise hold Playwright from its start.
    const { chromium } = await import("@playwright/test");
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-background-timer-throttling"],
    });
    const context = await browser.newContext();
    // Every change notification a tab hears, with the time: from the EventSource (the tab holding the
    // stream) or the BroadcastChannel (the tabs it passes them to).
    await context.addInitScript(() => {
      const heard: { at: number; clusters: string[] }[] = [];
      (window as unknown as { __heard: typeof heard }).__heard = heard;
      const note = (clusters: unknown) => {
        if (Array.isArray(clusters)) heard.push({ at: Date.now(), clusters: clusters.map(String) });
      };
      const Original = window.EventSource;
      window.EventSource = class extends Original {
        constructor(url: string | URL, init?: EventSourceInit) {
          super(url, init);
          this.addEventListener("change", (e) => {
            try {
              note((JSON.parse((e as MessageEvent<string>).data) as { clusters?: unknown }).clusters);
            } catch {
              // not ours to judge
            }
          });
        }
      };
      new BroadcastChannel("crows-nest-changes").onmessage = (e: MessageEvent<{ type?: string; clusters?: unknown }>) => {
        if (e.data?.type === "change") note(e.data.clusters);
      };
    });
    // One tab per target, each on its cluster's failures with its change stream open, before any change.
    const pages: Page[] = [];
    // The tabs' refreshes, counted from the first change on.
    let counting = false;
    const refreshTimes: number[] = [];
    let finished = 0;
    let failed = 0;
    const isRefresh = (url: string) => url.includes("/api/failures");
    let streamless = 0;
    for (const target of targets) {
      const page = await context.newPage();
      page.on("requestfinished", (request) => {
        if (!counting || !isRefresh(request.url())) return;
        finished++;
        // Milliseconds from the request's start; -1 when the browser did not time it (then no duration).
        const end = request.timing().responseEnd;
        if (end >= 0) refreshTimes.push(end / 1000);
      });
      page.on("requestfailed", (request) => {
        if (counting && isRefresh(request.url())) failed++;
      });
      await page.goto(`${base}/failures?cluster=${encodeURIComponent(target.cluster)}`, {
        waitUntil: "domcontentloaded",
        timeout: 120_000,
      });
      await page.waitForSelector('[data-testid="failures-totals"]', { timeout: 60_000 });
      // Its change stream open (a server with streams off, LIVE_STREAMS_MAX=0, leaves the page polling).
      await page.waitForSelector('[data-testid="failures-totals"][data-stream="open"]', { timeout: 10_000 }).catch(() => {
        streamless++;
      });
      pages.push(page);
    }
    options.log(`browser phase: ${pages.length} tabs open on the production web app; making one change per tab`);
    counting = true;
    const seen = targets.map(async (target, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * options.spacingMs));
      const response = await fetch(`${options.controlUrl}/churn/object`, {
        method: "POST",
        body: JSON.stringify({ cluster: target.cluster, kind: "Kustomization", namespace: target.namespace, name: target.name }),
      });
      if (!response.ok) throw new Error(`the simulator refused the change: HTTP ${response.status} ${await response.text()}`);
      const change = (await response.json()) as { at: number; change: string };
      if (change.change !== "failed") throw new Error(`expected a failure of ${target.cluster} ${target.name}, got ${change.change}`);
      const href = objectPath({ cluster: target.cluster, kind: "Kustomization", namespace: target.namespace, name: target.name });
      try {
        await pages[i].waitForSelector(`a[href="${href}"]`, { state: "attached", timeout: options.waitMs });
      } catch {
        return null;
      }
      const shown = (Date.now() - change.at) / 1000;
      const heardAt = await pages[i].evaluate(
        ({ cluster, since }) =>
          (window as unknown as { __heard: { at: number; clusters: string[] }[] }).__heard.find(
            (h) => h.at >= since && (h.clusters.includes(cluster) || h.clusters.includes("*")),
          )?.at ?? null,
        { cluster: target.cluster, since: change.at },
      );
      const { rows } = await db.query<{ at: string }>(
        `SELECT (extract(epoch FROM o."updatedAt") * 1000)::bigint::text AS at
           FROM flux_object o JOIN cluster c ON c.id = o."clusterId"
          WHERE c.name = $1 AND o.kind = 'Kustomization' AND o.namespace = $2 AND o.name = $3`,
        [target.cluster, target.namespace, target.name],
      );
      const rowAt = rows[0] ? Number(rows[0].at) : null;
      return {
        shown,
        row: rowAt === null ? null : (rowAt - change.at) / 1000,
        stream: heardAt === null ? null : (heardAt - change.at) / 1000,
      };
    });
    const results = await Promise.all(seen);
    counting = false;
    refreshTimes.sort((a, b) => a - b);
    const done = results.filter((r) => r !== null);
    const sorted = (pick: (r: (typeof done)[number]) => number | null) =>
      done
        .map(pick)
        .filter((v): v is number => v !== null)
        .sort((a, b) => a - b);
    const latencies = sorted((r) => r.shown);
    const rowTimes = sorted((r) => r.row);
    const streamTimes = sorted((r) => r.stream);
    return {
      p50Seconds: percentile(latencies, 0.5),
      p95Seconds: percentile(latencies, 0.95),
      rowP50Seconds: percentile(rowTimes, 0.5),
      rowP95Seconds: percentile(rowTimes, 0.95),
      streamP50Seconds: percentile(streamTimes, 0.5),
      streamP95Seconds: percentile(streamTimes, 0.95),
      refreshes: {
        finished,
        failed,
        p50Seconds: percentile(refreshTimes, 0.5),
        p95Seconds: percentile(refreshTimes, 0.95),
      },
      samples: latencies.length,
      unseen: results.length - latencies.length,
      measure:
        `${targets.length} tabs on /failures?cluster=<c>${streamless ? ` (${streamless} without a change stream: polling)` : ""}, ` +
        `one Kustomization made to fail per tab ${options.spacingMs / 1000} s apart; ` +
        `change (simulator) → the object's link in the tab, waiting at most ${Math.round(options.waitMs / 1000)} s`,
    };
  } finally {
    await browser?.close().catch(() => {});
    if (web) await stopChild(web);
    await db.end();
  }
}
