"use client";

// The burn-down: clusters not yet on the target per day, and the line that reaches zero on the deadline.
// The same numbers are in the table under it.
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { BurnDownPoint } from "@/lib/upgrades/campaign";

export function BurnDownChart({ points }: { points: BurnDownPoint[] }) {
  const axis = { stroke: "currentColor", fontSize: 12 };
  const data = points.map((p) => ({ date: p.date.slice(5), remaining: p.remaining, ideal: p.ideal }));
  return (
    <figure
      aria-labelledby="burn-down-title"
      className="rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <figcaption id="burn-down-title" className="mb-2 text-sm font-medium">
        Clusters still to upgrade
      </figcaption>
      <div className="h-64 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data}>
            <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
            <XAxis dataKey="date" tick={axis} />
            <YAxis allowDecimals={false} tick={axis} />
            <Tooltip />
            <Legend />
            <Line type="stepAfter" dataKey="remaining" name="still to upgrade" stroke="#dc2626" dot={false} isAnimationActive={false} />
            <Line
              type="linear"
              dataKey="ideal"
              name="on track"
              stroke="#6b7280"
              strokeDasharray="4 4"
              dot={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
