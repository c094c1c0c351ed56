// The simulated Amazon EKS API (restJson1, as @aws-sdk/client-eks 3.1169.0 speaks it). Requests must carry a
// valid SigV4 signature for service "eks"; the signing region selects the region, as the regional endpoint
// eks.<region>.amazonaws.com would.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { SimClock } from "../clock";
import type { RuntimeInfo } from "../contract";
import type { SimFleet } from "../fleet/index";
import {
  addonNames,
  addonVersionInfos,
  clusterSpec,
  clusterVersionInfos,
  clustersInRegion,
  describeAddon,
  describeCluster,
  describeNodegroup,
  insightsFor,
  nodegroupNames,
} from "./eks-data";
import { decodeToken, encodeToken, readBody, sendJson } from "./http";
import { authenticate, parseRawQuery } from "./request-auth";

export interface EksServerContext {
  model: SimFleet;
  runtime: RuntimeInfo;
  clock: SimClock;
  /** wall-clock time (signatures are made with it); injectable for tests */
  realNow?: () => number;
}

class EksError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

const notFoundCluster = (name: string) =>
  new EksError(404, "ResourceNotFoundException", `No cluster found for name: ${name}.`, { clusterName: name });

function sendError(res: ServerResponse, error: EksError): void {
  sendJson(res, error.status, { message: error.message, ...error.fields }, { "x-amzn-errortype": error.code });
}

function one(query: Record<string, string | string[]>, key: string): string | undefined {
  const v = query[key];
  return Array.isArray(v) ? v[0] : v;
}

function many(query: Record<string, string | string[]>, key: string): string[] | undefined {
  const v = query[key];
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? v : [v]).flatMap((x) => x.split(",")).filter(Boolean);
}

function maxResultsOf(raw: string | number | undefined, fallback = 100): number {
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100) {
    throw new EksError(
      400,
      "InvalidParameterException",
      `1 validation error detected: Value '${raw}' at 'maxResults' failed to satisfy constraint: Member must have value between 1 and 100`,
    );
  }
  return n;
}

function bool(raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  return raw === "true";
}

/** Applies maxResults/nextToken to a full list; the token is bound to the list it came from. */
function paginate<T>(items: T[], maxResults: number, nextToken: string | undefined, scope: string): { page: T[]; nextToken?: string } {
  let offset = 0;
  if (nextToken) {
    const decoded = decodeToken(nextToken, scope);
    if (decoded === undefined) throw new EksError(400, "InvalidParameterException", "The nextToken provided is invalid.");
    offset = decoded;
  }
  const page = items.slice(offset, offset + maxResults);
  const next = offset + maxResults < items.length ? encodeToken(offset + maxResults, scope) : undefined;
  return next ? { page, nextToken: next } : { page };
}

export function createEksHandler(ctx: EksServerContext) {
  const realNow = ctx.realNow ?? Date.now;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const body = await readBody(req);
      const auth = authenticate({ method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, body }, "eks", [
        realNow(),
        ctx.clock.now(),
      ]);
      if (!auth.ok) throw new EksError(auth.status, auth.code, auth.message);
      const [rawPath, rawQuery = ""] = (req.url ?? "/").split("?", 2);
      const query = parseRawQuery(rawQuery);
      const segments = rawPath.split("/").filter(Boolean).map(decodeURIComponent);
      const t = ctx.clock.now();
      const region = auth.region;
      const method = req.method ?? "GET";
      const result = route(ctx, method, segments, query, body, region, t, auth.identity.arn);
      sendJson(res, 200, result);
    } catch (error) {
      if (error instanceof EksError) sendError(res, error);
      else if (error instanceof SyntaxError)
        sendError(res, new EksError(400, "InvalidRequestException", "Request body is not valid JSON."));
      else sendError(res, new EksError(500, "ServerException", "An internal error occurred."));
    }
  };
}

/** The operation names AWS puts in an AccessDenied message, by route. */
function operationOf(method: string, segments: string[]): string {
  const [, , sub, item] = segments;
  if (sub === "node-groups") return item ? "eks:DescribeNodegroup" : "eks:ListNodegroups";
  if (sub === "addons") return item ? "eks:DescribeAddon" : "eks:ListAddons";
  if (sub === "insights") return method === "POST" ? "eks:ListInsights" : "eks:DescribeInsight";
  return "eks:DescribeCluster";
}

function clusterIn(ctx: EksServerContext, name: string, region: string, caller?: { arn: string; operation: string }) {
  const spec = clusterSpec(ctx.model, name);
  if (!spec || spec.region !== region) throw notFoundCluster(name);
  // A cluster in an account the caller has no role in: IAM refuses before EKS looks.
  if (caller && spec.roles.includes("no-eks-access")) {
    const resource = `arn:aws:eks:${spec.region}:${spec.accountId}:cluster/${spec.name}`;
    throw new EksError(
      403,
      "AccessDeniedException",
      `User: ${caller.arn} is not authorized to perform: ${caller.operation} on resource: ${resource} because no identity-based policy allows the ${caller.operation} action`,
    );
  }
  return spec;
}

function route(
  ctx: EksServerContext,
  method: string,
  segments: string[],
  query: Record<string, string | string[]>,
  body: Buffer,
  region: string,
  t: number,
  callerArn: string,
): unknown {
  const { model, runtime } = ctx;
  const [root, name, sub, item, extra] = segments;
  const caller = { arn: callerArn, operation: operationOf(method, segments) };

  if (method === "GET" && root === "clusters" && segments.length === 1) {
    const names = clustersInRegion(model, region);
    const { page, nextToken } = paginate(names, maxResultsOf(one(query, "maxResults")), one(query, "nextToken"), `clusters:${region}`);
    return { clusters: page, ...(nextToken ? { nextToken } : {}) };
  }
  if (method === "GET" && root === "clusters" && segments.length === 2) {
    const spec = clusterIn(ctx, name, region, caller);
    return { cluster: describeCluster(model, runtime, spec, t) };
  }
  if (root === "clusters" && sub === "node-groups" && method === "GET") {
    const spec = clusterIn(ctx, name, region, caller);
    if (segments.length === 3) {
      const names = nodegroupNames(spec, t, model.epoch);
      const { page, nextToken } = paginate(names, maxResultsOf(one(query, "maxResults")), one(query, "nextToken"), `ng:${name}`);
      return { nodegroups: page, ...(nextToken ? { nextToken } : {}) };
    }
    if (segments.length === 4) {
      const nodegroup = describeNodegroup(model, spec, item, t);
      if (!nodegroup) {
        throw new EksError(404, "ResourceNotFoundException", `No node group found for name: ${item}.`, {
          clusterName: name,
          nodegroupName: item,
        });
      }
      return { nodegroup };
    }
  }
  if (root === "clusters" && sub === "addons" && method === "GET") {
    const spec = clusterIn(ctx, name, region, caller);
    if (segments.length === 3) {
      const { page, nextToken } = paginate(addonNames(), maxResultsOf(one(query, "maxResults")), one(query, "nextToken"), `addons:${name}`);
      return { addons: page, ...(nextToken ? { nextToken } : {}) };
    }
    if (segments.length === 4) {
      const addon = describeAddon(model, spec, item, t);
      if (!addon) {
        throw new EksError(404, "ResourceNotFoundException", `No addon: ${item} found in cluster: ${name}`, {
          clusterName: name,
          addonName: item,
        });
      }
      return { addon };
    }
  }
  if (method === "GET" && root === "addons" && name === "supported-versions" && segments.length === 2) {
    const infos = addonVersionInfos({
      kubernetesVersion: one(query, "kubernetesVersion"),
      addonName: one(query, "addonName"),
      types: many(query, "types"),
      publishers: many(query, "publishers"),
      owners: many(query, "owners"),
    });
    const scope = `addon-versions:${one(query, "kubernetesVersion") ?? ""}:${one(query, "addonName") ?? ""}`;
    const { page, nextToken } = paginate(infos, maxResultsOf(one(query, "maxResults")), one(query, "nextToken"), scope);
    return { addons: page, ...(nextToken ? { nextToken } : {}) };
  }
  if (method === "GET" && root === "cluster-versions" && segments.length === 1) {
    const clusterType = one(query, "clusterType");
    const infos =
      clusterType && clusterType !== "eks"
        ? []
        : clusterVersionInfos(
            {
              clusterVersions: many(query, "clusterVersions"),
              versionStatus: one(query, "versionStatus"),
              status: one(query, "status"),
              defaultOnly: bool(one(query, "defaultOnly")),
              includeAll: bool(one(query, "includeAll")),
            },
            t,
          );
    const { page, nextToken } = paginate(
      infos,
      maxResultsOf(one(query, "maxResults")),
      one(query, "nextToken"),
      `cluster-versions:${JSON.stringify(query.clusterVersions ?? "")}`,
    );
    return { clusterVersions: page, ...(nextToken ? { nextToken } : {}) };
  }
  if (root === "clusters" && sub === "insights") {
    const spec = clusterIn(ctx, name, region, caller);
    const insights = insightsFor(model, spec, t);
    if (method === "POST" && segments.length === 3) {
      const input = (body.length ? JSON.parse(body.toString("utf8")) : {}) as {
        filter?: { categories?: string[]; kubernetesVersions?: string[]; statuses?: string[] };
        maxResults?: number;
        nextToken?: string;
      };
      const filter = input.filter ?? {};
      const matching = insights.filter(
        (i) =>
          (!filter.categories?.length || filter.categories.includes(i.category)) &&
          (!filter.kubernetesVersions?.length || filter.kubernetesVersions.includes(i.kubernetesVersion)) &&
          (!filter.statuses?.length || filter.statuses.includes(i.insightStatus.status)),
      );
      const { page, nextToken } = paginate(
        matching,
        maxResultsOf(input.maxResults),
        input.nextToken,
        `insights:${name}:${JSON.stringify(filter)}`,
      );
      return {
        insights: page.map((i) => ({
          id: i.id,
          name: i.name,
          category: i.category,
          kubernetesVersion: i.kubernetesVersion,
          lastRefreshTime: i.lastRefreshTime,
          lastTransitionTime: i.lastTransitionTime,
          description: i.description,
          insightStatus: i.insightStatus,
        })),
        ...(nextToken ? { nextToken } : {}),
      };
    }
    if (method === "GET" && segments.length === 4 && extra === undefined) {
      const insight = insights.find((i) => i.id === item);
      if (!insight) throw new EksError(404, "ResourceNotFoundException", `No insight found for id: ${item}.`, { clusterName: name });
      return { insight };
    }
  }
  throw new EksError(404, "UnknownOperationException", `No operation matches ${method} /${segments.join("/")}.`);
}
