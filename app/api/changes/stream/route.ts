import { authorizeRequest } from "@/lib/auth/guard";
import { notificationListener } from "@/lib/db/notifications";
import { env } from "@/lib/env";
import { changeStreamResponse } from "@/lib/live/change-stream";

// A stream per open page, never cached or prerendered.
export const dynamic = "force-dynamic";

/** Server-Sent Events: which clusters' stored data changed, as this replica hears it from the collector. */
export async function GET(request: Request) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  return changeStreamResponse(request.signal, { listener: notificationListener(), maxStreams: env().LIVE_STREAMS_MAX });
}
