// Discovery source (d): EKS ListClusters and DescribeCluster in every configured region.
import { type EksApi, type EksClusterInfo, eksClusterKey, splitEksClusterKey } from "../../aws/eks";
import { mapLimit } from "../../concurrency";
import { ENV_LABELS, pick, TEAM_LABELS, type Candidate } from "./candidates";
import type { SourceProblems } from "./problems";

/** A cluster as DescribeCluster describes it (tags give env and team like labels do). */
export function candidateFromEks(name: string, region: string, info: EksClusterInfo): Candidate {
  return {
    name,
    via: "eks",
    path: { via: "eks", region },
    endpoint: info.endpoint,
    eksArn: info.arn,
    eksName: name,
    region,
    accountId: info.accountId,
    env: pick(info.tags, ENV_LABELS),
    team: pick(info.tags, TEAM_LABELS),
    labels: {},
    provisioners: [],
  };
}

/**
 * Every configured region's DescribeCluster answers, by `region/name`. Discovery builds candidates from them
 * (eksCandidates) only when it computes anew: a reused discovery compares the answers and builds nothing.
 */
export async function eksAnswers(
  apis: EksApi[],
  list: (api: EksApi) => Promise<string[]>,
  describe: (api: EksApi, name: string) => Promise<EksClusterInfo>,
  problems: SourceProblems,
): Promise<Map<string, EksClusterInfo>> {
  const eksInfo = new Map<string, EksClusterInfo>();
  for (const api of apis) {
    try {
      const names = await list(api);
      // DescribeCluster a few at a time: a thousand at once only times out (and AWS throttles).
      await mapLimit(names, 8, async (name) => {
        try {
          eksInfo.set(eksClusterKey(api.region, name), await describe(api, name));
        } catch (err) {
          problems.failed(`DescribeCluster ${name} in ${api.region}`, err);
        }
      });
    } catch (err) {
      problems.failed(`ListClusters in ${api.region}`, err);
    }
  }
  return eksInfo;
}

/** A cluster per answer, named as it was listed in its region. */
export function eksCandidates(eksInfo: Map<string, EksClusterInfo>): Candidate[] {
  return [...eksInfo].map(([key, info]) => {
    const { region, name } = splitEksClusterKey(key);
    return candidateFromEks(name, region, info);
  });
}
