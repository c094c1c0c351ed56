import Link from "next/link";

export default function NotFound() {
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">There is nothing at this address.</p>
      <p className="mt-6">
        <Link href="/" className="underline">
          Back to the fleet
        </Link>
      </p>
    </main>
  );
}
