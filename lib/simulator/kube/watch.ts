// Watch streams: one JSON event per line, as kube-apiserver writes them (chunked on HTTP/1.1, DATA frames
// on h2). Bookmarks follow the cacher: only with allowWatchBookmarks, only for resources with a watch
// cache (never Events), only once the resource changed since the cache started, carrying apiVersion, kind
// and the resource's last change; about every bookmark interval, at the resource's own tick
// (bookmark-timing.ts), and once 2 s before the watch's deadline.
import { groupVersionOf, resourceKey, type ResourceType } from "./registry";
import { matchesFields, matchesLabels, type FieldRequirement, type LabelSelector } from "./selectors";
import { badRequest, KubeError, statusBody } from "./status";
import type { ClusterStore, ObjectVersion, StoreEvent } from "./store";
import { type ApiRequest, type ApiResponse, flushHead, isHttp2, writeBody } from "./exchange";
import { bookmarkSendAt, cacherSeed } from "./bookmark-timing";

export interface WatchRequest {
  store: ClusterStore;
  type: ResourceType;
  namespace: string | undefined;
  params: URLSearchParams;
  labelSelector: LabelSelector;
  fieldSelector: FieldRequirement[];
  headers: Record<string, string>;
  bookmarkIntervalMs: number;
}

/** Without timeoutSeconds kube-apiserver picks 30 to 60 minutes; the simulator takes the lower end. */
const DEFAULT_TIMEOUT_SECONDS = 30 * 60;
/** The cacher's last bookmark goes out this long before the watch's deadline. */
const FINAL_BOOKMARK_LEAD_MS = 2_000;

export function serveWatch(request: ApiRequest, response: ApiResponse, watch: WatchRequest) {
  const { store, type, params } = watch;
  const resource = resourceKey(type);
  const namespace = type.namespaced ? watch.namespace : undefined;
  const rvParam = params.get("resourceVersion") ?? "";
  const allowBookmarks = params.get("allowWatchBookmarks") === "true" || params.get("allowWatchBookmarks") === "1";
  const sendInitialEvents = params.get("sendInitialEvents") === "true";
  const timeoutParam = params.get("timeoutSeconds");
  const timeoutSeconds = timeoutParam ? Number(timeoutParam) : DEFAULT_TIMEOUT_SECONDS;
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds < 0) throw badRequest(`invalid timeoutSeconds: ${timeoutParam}`);
  if (rvParam !== "" && !/^\d+$/.test(rvParam)) throw badRequest(`invalid resource version: ${rvParam}`);
  if (sendInitialEvents && !allowBookmarks) {
    throw new KubeError(
      422,
      "Invalid",
      'ListOptions.meta.k8s.io "" is invalid: allowWatchBookmarks: Required value: allowWatchBookmarks required when sendInitialEvents is set',
      {
        group: "meta.k8s.io",
        kind: "ListOptions",
      },
    );
  }

  const matches = (version: ObjectVersion) =>
    (namespace === undefined || version.namespace === namespace) &&
    (watch.labelSelector.length === 0 || matchesLabels(watch.labelSelector, version.labels)) &&
    (watch.fieldSelector.length === 0 || matchesFields(watch.fieldSelector, version.object));

  // Transfer-Encoding is HTTP/1.1 only; h2 frames the body itself.
  response.writeHead(200, isHttp2(response) ? watch.headers : { ...watch.headers, "Transfer-Encoding": "chunked" });
  flushHead(response);

  let lastRv = 0;
  let ended = false;
  const write = (type: string, json: string) => {
    if (!ended) writeBody(response, `{"type":"${type}","object":${json}}\n`);
  };
  const sendEvent = (event: StoreEvent) => {
    if (event.resource !== resource || event.version.rv <= lastRv) return;
    lastRv = event.version.rv;
    if (matches(event.version)) write(event.type, event.version.json);
  };
  const bookmark = (annotations?: Record<string, string>, rv = store.bookmarkRv(resource)) => {
    if (rv === null) return;
    // As kube-apiserver writes them: a custom resource's bookmark is an unstructured object, its keys in
    // sorted order (recorded: {"apiVersion":…,"kind":…,"metadata":{"resourceVersion":"307"}}); a built-in
    // kind's is typed, kind first.
    const metadata: Record<string, unknown> = annotations ? { annotations } : {};
    metadata.resourceVersion = String(rv);
    const object = type.group
      ? { apiVersion: groupVersionOf(type), kind: type.kind, metadata }
      : { kind: type.kind, apiVersion: groupVersionOf(type), metadata };
    write("BOOKMARK", JSON.stringify(object));
  };

  const timers: NodeJS.Timeout[] = [];
  let nextBookmark: NodeJS.Timeout | undefined;
  const end = () => {
    if (ended) return;
    ended = true;
    unsubscribe();
    clearTimeout(nextBookmark);
    for (const timer of timers) clearTimeout(timer);
    response.end();
  };

  // Subscribing, replaying and sending the initial state all happen in this tick, so nothing is missed.
  const unsubscribe = store.subscribe(sendEvent);
  const deadlineMs = timeoutSeconds * 1000;
  if (allowBookmarks) {
    // Each bookmark is due an interval after the last one (or the start), and goes out at its resource's tick.
    const seed = cacherSeed(store.clusterName, resource);
    const scheduleBookmark = (from: number) => {
      if (ended) return;
      const at = bookmarkSendAt(from + watch.bookmarkIntervalMs, watch.bookmarkIntervalMs, seed);
      nextBookmark = setTimeout(
        () => {
          bookmark();
          scheduleBookmark(Date.now());
        },
        Math.max(0, at - Date.now()),
      );
    };
    scheduleBookmark(Date.now());
    if (deadlineMs > FINAL_BOOKMARK_LEAD_MS) timers.push(setTimeout(() => bookmark(), deadlineMs - FINAL_BOOKMARK_LEAD_MS));
  }
  timers.push(setTimeout(end, deadlineMs));
  request.on("close", end);

  if (rvParam === "" || rvParam === "0" || sendInitialEvents) {
    // "Get state and start at most recent": synthetic ADDED events for what exists now.
    const current = store.list(type, { namespace, labelSelector: watch.labelSelector, fieldSelector: watch.fieldSelector });
    for (const version of current.items) write("ADDED", version.json);
    lastRv = current.resourceVersion;
    if (sendInitialEvents) bookmark({ "k8s.io/initial-events-end": "true" }, current.resourceVersion);
    return;
  }
  try {
    const replay = store.eventsSince(Number(rvParam), resource);
    lastRv = Number(rvParam);
    for (const event of replay) sendEvent(event);
    lastRv = Math.max(lastRv, store.resourceVersion);
  } catch (error) {
    if (!(error instanceof KubeError)) throw error;
    // HTTP 200 with one ERROR event carrying the Status, then the stream ends.
    write("ERROR", statusBody(error));
    end();
  }
}
