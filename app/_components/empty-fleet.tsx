/** Shown wherever there is nothing to show yet because no cluster has been collected. */
export function EmptyFleet() {
  return (
    <section
      aria-labelledby="empty-fleet-title"
      className="mx-auto mt-8 max-w-xl rounded-lg border border-dashed border-zinc-300 p-8 text-center dark:border-zinc-700"
    >
      <h2 id="empty-fleet-title" className="text-lg font-semibold">
        No clusters yet — start the collector
      </h2>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        Crow&apos;s Nest shows what its collector has seen. Point it at your hub and run it:
      </p>
      <pre className="mt-4 overflow-x-auto rounded bg-zinc-100 p-3 text-left text-sm dark:bg-zinc-900">
        <code>KUBECONFIG=~/.kube/hub.kubeconfig npm run collector</code>
      </pre>
      <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">
        or try it on a simulated fleet with <code className="font-mono">npm run demo</code>.
      </p>
    </section>
  );
}
