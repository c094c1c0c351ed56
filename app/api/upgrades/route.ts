// GET /api/upgrades: per cluster version, support status and dates, days to end of standard support,
// extended-support state and its monthly cost, blockers for N→N+1; and the fleet totals.
import { authorizeRequest } from "@/lib/auth/guard";
import { getUpgradesOverview } from "@/lib/db/queries/upgrades";
import { fromError, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  try {
    const o = await getUpgradesOverview();
    return json({
      generatedAt: o.generatedAt,
      clusters: o.clusters.map((c) => ({
        name: c.name,
        version: c.version,
        versionStatus: c.versionStatus,
        endOfStandardSupport: c.endOfStandardSupport,
        endOfExtendedSupport: c.endOfExtendedSupport,
        daysToEndOfStandardSupport: c.daysToEndOfStandardSupport,
        inExtendedSupport: c.inExtendedSupport,
        monthlyExtendedSupportCostUSD: c.monthlyExtendedSupportCostUSD,
        blockers: c.blockers,
        // beyond the minimum: enough to act on without a second call
        next: c.next,
        supportType: c.supportType,
        crossesIntoExtendedSoon: c.crossesIntoExtendedSoon,
        skew: c.skew,
        warnings: c.warnings,
        ready: c.ready,
        url: c.upgradeUrl,
      })),
      totals: o.totals,
    });
  } catch (err) {
    return fromError(err);
  }
}
