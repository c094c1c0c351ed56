// GET /api/upgrades: per cluster version, support status and dates, days to end of standard support,
// extended-support state and its monthly cost, blockers for N→N+1; and the fleet totals (clusters whose
// version is not observed now are counted apart in totals.unknownCost, never summed as $0).
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
        // how the version is known: observed now, last known (with its age and why), desired, or unknown
        versionSource: c.knowledge.source,
        versionAsOf: c.knowledge.asOf,
        versionWhy: c.knowledge.why,
        versionLabel: c.versionLabel,
        // where the version came from (eks-api | crossplane | kubernetes), and why not the EKS API when it is not
        versionFrom: c.knowledge.from,
        eksAccess: c.knowledge.eksAccess,
        eksFactsNote: c.eksFactsNote,
        versionStatus: c.versionStatus,
        endOfStandardSupport: c.endOfStandardSupport,
        endOfExtendedSupport: c.endOfExtendedSupport,
        daysToEndOfStandardSupport: c.daysToEndOfStandardSupport,
        inExtendedSupport: c.inExtendedSupport,
        pastExtendedSupport: c.pastExtendedSupport,
        // null when the version is unknown; an estimate (not in the totals) when it is not observed now
        monthlyExtendedSupportCostUSD: c.monthlyExtendedSupportCostUSD,
        costKnown: c.costKnown,
        blockers: c.blockers,
        // beyond the minimum: enough to act on without a second call
        next: c.next,
        supportType: c.supportType,
        crossesIntoExtendedSoon: c.crossesIntoExtendedSoon,
        skew: c.skew,
        warnings: c.warnings,
        upcoming: c.upcoming,
        ready: c.ready,
        url: c.upgradeUrl,
      })),
      totals: o.totals,
      figures: o.figures,
    });
  } catch (err) {
    return fromError(err);
  }
}
