// The change stream one web replica serves to open pages (Server-Sent Events): every notification on the
// change channel this replica's shared LISTEN connection receives goes out as `event: change` with the
// cluster names, a LISTEN connection that came back as `event: reconnect` ("*": notifications may have been
// missed). A comment every `heartbeatMs` keeps proxies from closing an idle stream; `retry:` tells the
// browser how soon to reconnect. A stream holds one subscription and one timer, released when the client
// goes away (abort or cancel) or the server shuts down, and at most `maxStreams` are open at once per
// replica: past that the page is answered 503 and keeps polling.
import { CHANGE_CHANNEL } from "../db/channels";
import type { NotificationListener } from "../db/notifications";
import { ANY_CLUSTER, clustersOfPayload, sseEvent } from "./changes";

export interface ChangeStreamOptions {
  listener: NotificationListener;
  maxStreams: number;
  heartbeatMs?: number;
  retryMs?: number;
  channel?: string;
}

const releases = new Set<() => void>();

/** Streams open in this process now. */
export const openChangeStreams = () => releases.size;

/**
 * Ends every open stream. A server shutting down (SIGTERM, a rolling update) waits for open responses; a
 * stream never ends by itself, so it is ended here and the browser reconnects, to another replica.
 */
export function closeAllChangeStreams(): void {
  for (const release of [...releases]) release();
}

/** Set on shutdown: the browser would reopen its stream on the same keep-alive connection and hold the server up again. */
let shuttingDown = false;

let signalsHooked = false;
function closeOnShutdown() {
  // Only inside the Next.js server, whose own handlers exit after this; elsewhere a listener would keep the
  // process from exiting on the signal.
  if (signalsHooked || !process.env.NEXT_RUNTIME) return;
  signalsHooked = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const)
    process.once(signal, () => {
      shuttingDown = true;
      closeAllChangeStreams();
    });
}

export function changeStreamResponse(signal: AbortSignal, options: ChangeStreamOptions): Response {
  if (shuttingDown) {
    return Response.json(
      { error: { code: "shutting_down", message: "this server is stopping; poll or reconnect to another" } },
      { status: 503, headers: { "retry-after": "5", connection: "close" } },
    );
  }
  if (releases.size >= options.maxStreams) {
    return Response.json(
      { error: { code: "too_many_streams", message: `this server keeps ${options.maxStreams} change streams open at most; poll instead` } },
      { status: 503, headers: { "retry-after": "60" } },
    );
  }
  const heartbeatMs = options.heartbeatMs ?? 20_000;
  const encoder = new TextEncoder();
  let release = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      closeOnShutdown();
      let done = false;
      const send = (text: string) => {
        if (done) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          release(); // the stream was closed under us
        }
      };
      const offChange = options.listener.subscribe(options.channel ?? CHANGE_CHANNEL, (payload) =>
        send(sseEvent("change", { clusters: clustersOfPayload(payload) })),
      );
      const offReconnect = options.listener.onReconnect(() => send(sseEvent("reconnect", { clusters: [ANY_CLUSTER] })));
      const heartbeat = setInterval(() => send(": heartbeat\n\n"), heartbeatMs);
      heartbeat.unref?.();
      release = () => {
        if (done) return;
        done = true;
        releases.delete(release);
        clearInterval(heartbeat);
        offChange();
        offReconnect();
        signal.removeEventListener("abort", onAbort);
        try {
          controller.close();
        } catch {
          // already closed or cancelled
        }
      };
      releases.add(release);
      const onAbort = () => release();
      if (signal.aborted) return release();
      signal.addEventListener("abort", onAbort);
      send(`retry: ${options.retryMs ?? 5_000}\n\n`);
      send(sseEvent("ready", { listening: options.listener.listening() }));
    },
    cancel() {
      release();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      // Buffering proxies (nginx) pass events through as they come.
      "x-accel-buffering": "no",
    },
  });
}
