"use client";

// One change stream per browser tab (EventSource on /api/changes/stream), shared by every live island on the
// page: each says which changes concern it and is called, debounced, when one arrives. While the stream is
// open islands poll slowly (a safety net); when it fails they poll at their usual rate. A stream the server
// refused or that broke is tried again after a minute; a stream that came back may have missed changes, so
// its reopening counts as "anything changed".
import { useEffect, useRef, useSyncExternalStore } from "react";
import { ANY_CLUSTER, clustersOfEvent } from "@/lib/live/changes";

export const STREAM_PATH = "/api/changes/stream";
/** A burst of notifications (the collector sends at most one a second) becomes one refresh. */
const DEBOUNCE_MS = 500;
const RETRY_CLOSED_MS = 60_000;

type Listener = (clusters: string[]) => void;

const listeners = new Set<Listener>();
const statusWatchers = new Set<() => void>();
let source: EventSource | null = null;
let connected = false;
let everOpened = false;
let events = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;

function setConnected(value: boolean) {
  if (connected === value) return;
  connected = value;
  for (const w of statusWatchers) w();
}

function deliver(clusters: string[]) {
  events++;
  for (const l of listeners) l(clusters);
  for (const w of statusWatchers) w();
}

function open() {
  if (source || typeof EventSource === "undefined") return;
  clearTimeout(retryTimer);
  const es = new EventSource(STREAM_PATH);
  source = es;
  const onEvent = (e: MessageEvent<string>) => deliver(clustersOfEvent(e.data));
  es.addEventListener("change", onEvent);
  es.addEventListener("reconnect", onEvent);
  es.addEventListener("open", () => {
    // Reopened after a break: what happened meanwhile was not heard.
    if (everOpened) deliver([ANY_CLUSTER]);
    everOpened = true;
    setConnected(true);
  });
  es.addEventListener("error", () => {
    setConnected(false);
    // CONNECTING: the browser retries by itself (after the server's retry: hint). CLOSED: refused (503, 401).
    if (es.readyState === EventSource.CLOSED) {
      es.close();
      if (source === es) source = null;
      if (listeners.size) retryTimer = setTimeout(open, RETRY_CLOSED_MS);
    }
  });
}

function close() {
  clearTimeout(retryTimer);
  source?.close();
  source = null;
  // The next live page is rendered fresh: its stream's first opening is not a reopening.
  everOpened = false;
  setConnected(false);
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  open();
  return () => {
    listeners.delete(listener);
    if (!listeners.size) close();
  };
}

const watchStatus = (w: () => void) => {
  statusWatchers.add(w);
  return () => statusWatchers.delete(w);
};

/**
 * Calls `onChange` (debounced) when a change the island shows arrives; returns whether the stream is open
 * (poll slowly then) and how many change events this tab has heard.
 */
export function useLiveChanges(concerns: (clusters: string[]) => boolean, onChange: () => void): { streaming: boolean; events: number } {
  const latest = useRef({ concerns, onChange });
  useEffect(() => {
    latest.current = { concerns, onChange };
  });
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = subscribe((clusters) => {
      if (!latest.current.concerns(clusters) || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        latest.current.onChange();
      }, DEBOUNCE_MS);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, []);
  const streaming = useSyncExternalStore(
    watchStatus,
    () => connected,
    () => false,
  );
  const heard = useSyncExternalStore(
    watchStatus,
    () => events,
    () => 0,
  );
  return { streaming, events: heard };
}

/** Poll interval of an island: its usual one without the stream, a slow safety net with it. */
export const pollInterval = (streaming: boolean, usualMs: number) => (streaming ? Math.max(usualMs, 60_000) : usualMs);
