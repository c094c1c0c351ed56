// 404 for alert labels that match nothing, with the nearest objects and cluster names.
import Link from "next/link";
import { CandidateList, GoChrome } from "./go-chrome";
import { goResultStore } from "./go-store";

export default function GoNotFound() {
  const resolution = goResultStore().resolution;
  const decision = resolution?.decision;
  const nf = decision?.type === "not-found" ? decision : null;
  return (
    <GoChrome title="No object matches this alert" labels={resolution?.labels ?? null}>
      <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300" data-testid="go-problem">
        {nf?.problem ?? "Nothing matches these labels."}
      </p>
      {nf?.nearestClusters.length ? (
        <p className="mt-4 text-sm">
          Clusters with a similar name:{" "}
          {nf.nearestClusters.map((c, i) => (
            <span key={c}>
              {i ? ", " : ""}
              <Link href={`/clusters/${encodeURIComponent(c)}`} className="text-sky-700 underline dark:text-sky-400">
                {c}
              </Link>
            </span>
          ))}
        </p>
      ) : null}
      {nf?.nearest.length ? (
        <>
          <h2 className="mt-6 text-lg font-semibold">Nearest matches</h2>
          <CandidateList items={nf.nearest} label="Nearest matches" />
        </>
      ) : null}
    </GoChrome>
  );
}
