// What a Kustomization applied (status.inventory): counts by kind, the objects on request.
import { Section } from "@/app/_components/triage-section";
import type { ObjectDetail } from "@/lib/db/queries/objects";

export function InventorySection({ inventory }: { inventory: ObjectDetail["inventory"] }) {
  if (!inventory) return null;
  return (
    <Section id="inventory" title={`Inventory (${inventory.total})`}>
      <p className="text-sm">{inventory.byKind.map((k) => `${k.count} ${k.kind}`).join(" · ") || "empty"}</p>
      {inventory.entries.length ? (
        <details className="mt-2">
          <summary className="cursor-pointer text-sm text-sky-700 dark:text-sky-400">Show objects</summary>
          <ul className="mt-2 columns-1 text-xs sm:columns-2">
            {inventory.entries.map((e, i) => (
              <li key={i} className="break-all font-mono">
                {e.kind} {e.namespace ? `${e.namespace}/` : ""}
                {e.name}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </Section>
  );
}
