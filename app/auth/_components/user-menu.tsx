// Who is signed in, their role, and a sign-out button: for the dashboard header.
import { getSession } from "@/lib/auth/guard";
import { authConfig } from "@/lib/auth/config";

export async function UserMenu() {
  const session = await getSession();
  if (!session) return null;
  const signInOff = authConfig().mode === "none";
  return (
    <div className="flex items-center gap-2 text-sm" data-testid="user-menu">
      <span className="hidden max-w-40 truncate md:inline" title={session.email ?? session.name}>
        {session.name}
      </span>
      <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300" data-testid="user-role">
        {session.role}
      </span>
      {signInOff ? null : (
        <form action="/auth/logout" method="post">
          <button type="submit" className="underline-offset-2 hover:underline">
            Sign out
          </button>
        </form>
      )}
    </div>
  );
}
