"use client";

// Trend charts (recharts). The same numbers are in the table the server page renders under them.
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TrendPoint } from "@/lib/upgrades/trends";

const PALETTE = ["#7c3aed", "#2563eb", "#0891b2", "#059669", "#65a30d", "#ca8a04", "#ea580c", "#dc2626", "#db2777", "#4b5563"];

function ChartBox({ title, id, children }: { title: string; id: string; children: React.ReactElement }) {
  return (
    <figure aria-labelledby={id} className="rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900">
      <figcaption id={id} className="mb-2 text-sm font-medium">
        {title}
      </figcaption>
      <div className="h-64 w-full">
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

export function TrendCharts({ points, versions }: { points: TrendPoint[]; versions: string[] }) {
  const data = points.map((p) => ({
    date: p.date.slice(5),
    ...Object.fromEntries(versions.map((v) => [v, p.byVersion[v] ?? 0])),
    supported: p.supportedShare == null ? null : Math.round(p.supportedShare * 1000) / 10,
    latest: p.addonLatestShare == null ? null : Math.round(p.addonLatestShare * 1000) / 10,
    lag: p.medianLag,
  }));
  const axis = { stroke: "currentColor", fontSize: 12 };
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <ChartBox id="chart-versions" title="Clusters per Kubernetes version">
        <BarChart data={data}>
          <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
          <XAxis dataKey="date" tick={axis} />
          <YAxis allowDecimals={false} tick={axis} />
          <Tooltip />
          <Legend />
          {versions.map((v, i) => (
            <Bar key={v} dataKey={v} stackId="v" fill={PALETTE[i % PALETTE.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ChartBox>
      <ChartBox id="chart-shares" title="Clusters in standard support and add-ons on latest (%)">
        <LineChart data={data}>
          <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
          <XAxis dataKey="date" tick={axis} />
          <YAxis domain={[0, 100]} tick={axis} />
          <Tooltip />
          <Legend />
          <Line
            type="stepAfter"
            dataKey="supported"
            name="clusters in standard support"
            stroke="#059669"
            dot={{ r: 3 }}
            isAnimationActive={false}
            connectNulls
          />
          <Line
            type="stepAfter"
            dataKey="latest"
            name="add-on installations on latest"
            stroke="#2563eb"
            dot={{ r: 3 }}
            isAnimationActive={false}
            connectNulls
          />
        </LineChart>
      </ChartBox>
      <ChartBox id="chart-lag" title="Median version lag (minors behind the newest EKS version)">
        <LineChart data={data}>
          <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
          <XAxis dataKey="date" tick={axis} />
          <YAxis allowDecimals tick={axis} />
          <Tooltip />
          <Line type="stepAfter" dataKey="lag" name="median lag" stroke="#ea580c" dot={{ r: 3 }} isAnimationActive={false} connectNulls />
        </LineChart>
      </ChartBox>
    </div>
  );
}
