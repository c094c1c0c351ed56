// Jobs other parts of the project add to the collector loop, loaded when their modules exist:
// operator actions (./actions.ts, processOperatorActions) and upstream chart versions
// (./upstream, refreshUpstreamVersions).
import type { Logger } from "../logger";

type Hooks = {
  processOperatorActions?: (ctx: unknown) => Promise<unknown>;
  refreshUpstreamVersions?: (db: import("pg").Pool, logger: Logger) => Promise<{ updated: number }>;
};

async function optional(specifier: string): Promise<Record<string, unknown> | undefined> {
  try {
    return (await import(/* @vite-ignore */ specifier)) as Record<string, unknown>;
  } catch (err) {
    const text = String((err as { code?: string }).code ?? "") + String(err);
    if (/ERR_MODULE_NOT_FOUND|Cannot find module|Failed to load/.test(text)) return undefined;
    throw err;
  }
}

export async function loadHooks(log: Logger): Promise<Hooks> {
  const hooks: Hooks = {};
  const actions = await optional(new URL("./actions.ts", import.meta.url).href).catch((err) => {
    log.warn({ error: String(err) }, "operator actions module failed to load");
    return undefined;
  });
  if (typeof actions?.processOperatorActions === "function")
    hooks.processOperatorActions = actions.processOperatorActions as Hooks["processOperatorActions"];
  const upstream = await optional(new URL("./upstream/index.ts", import.meta.url).href).catch((err) => {
    log.warn({ error: String(err) }, "upstream versions module failed to load");
    return undefined;
  });
  if (typeof upstream?.refreshUpstreamVersions === "function")
    hooks.refreshUpstreamVersions = upstream.refreshUpstreamVersions as Hooks["refreshUpstreamVersions"];
  return hooks;
}
