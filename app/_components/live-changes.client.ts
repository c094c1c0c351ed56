"use client";

// One change stream per browser (EventSource on /api/changes/stream), shared by every live island on the
// page and by every tab of the same origin: each island says which changes concern it and is called,
// debounced, when one arrives. While the stream is open islands poll slowly (a safety net); when it fails
// they poll at their usual rate. A stream the server refused or that broke is tried again after a minute; a
// stream that came back may have missed changes, so its reopening counts as "anything changed".
//
// Tabs share: a browser opens at most six HTTP/1.1 connections to one host, and a stream holds one for as
// long as its tab is open, so with a stream per tab the seventh tab would never load. The tab holding the
// Web Lock "crows-nest-changes" opens the stream and passes what it hears to the others on a
// BroadcastChannel of that name; when it closes, the next tab in line takes the lock and opens its own
// (counted as a reopening). Browsers without Web Locks keep a stream per tab.
import { useEffect, useRef, useSyncExternalStore } from "react";
import { ANY_CLUSTER, clustersOfEvent } from "@/lib/live/changes";
import { refreshScheduler } from "@/lib/live/refresh-scheduler";

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

const SHARED_NAME = "crows-nest-changes";
type SharedMessage = { type: "change"; clusters: string[] } | { type: "status"; connected: boolean } | { type: "hello" };
/** The channel to the other tabs while this tab has live islands (null: not sharing). */
let channel: BroadcastChannel | null = null;
/** This tab holds the lock: its stream serves every tab. */
let leading = false;
/** Ends this tab's hold on the lock, or its wait for it. */
let leaveLock: (() => void) | null = null;
/** This tab heard another tab's stream before it led: its own stream's first opening is a reopening. */
let followed = false;

function setConnected(value: boolean) {
  if (leading) post({ type: "status", connected: value });
  if (connected === value) return;
  connected = value;
  for (const w of statusWatchers) w();
}

function deliver(clusters: string[]) {
  if (leading) post({ type: "change", clusters });
  events++;
  for (const l of listeners) l(clusters);
  for (const w of statusWatchers) w();
}

function post(message: SharedMessage) {
  channel?.postMessage(message);
}

function onShared(message: SharedMessage) {
  if (message.type === "hello") {
    if (leading) post({ type: "status", connected });
  } else if (!leading) {
    followed = true;
    if (message.type === "status") setConnected(message.connected);
    else deliver(message.clusters);
  }
}

/** Joins the tabs' shared stream (or opens one of its own when the browser cannot share). */
function join() {
  if (channel || source) return;
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  if (!locks || typeof BroadcastChannel === "undefined") {
    open();
    return;
  }
  channel = new BroadcastChannel(SHARED_NAME);
  channel.onmessage = (e: MessageEvent<SharedMessage>) => onShared(e.data);
  const aborted = new AbortController();
  let release: (() => void) | undefined;
  leaveLock = () => {
    aborted.abort();
    release?.();
  };
  locks
    .request(SHARED_NAME, { signal: aborted.signal }, () => {
      leading = true;
      if (followed) everOpened = true;
      open();
      // Held while this tab has live islands (or until it closes: the browser then frees the lock).
      return new Promise<void>((resolve) => (release = resolve));
    })
    .catch(() => {}); // aborted while waiting: this tab left first
  post({ type: "hello" });
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
  leaveLock?.();
  leaveLock = null;
  leading = false;
  followed = false;
  channel?.close();
  channel = null;
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  join();
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
 * Calls `onChange` when a change the island shows arrives: debounced, one at a time (return the refresh's
 * promise), once more after a refresh that a change overtook (see lib/live/refresh-scheduler.ts). Returns
 * whether the stream is open (poll slowly then) and how many change events this tab has heard.
 */
export function useLiveChanges(
  concerns: (clusters: string[]) => boolean,
  onChange: () => Promise<unknown> | void,
): { streaming: boolean; events: number } {
  const latest = useRef({ concerns, onChange });
  useEffect(() => {
    latest.current = { concerns, onChange };
  });
  useEffect(() => {
    const refresh = refreshScheduler(() => latest.current.onChange(), DEBOUNCE_MS);
    const off = subscribe((clusters) => {
      if (latest.current.concerns(clusters)) refresh.changed();
    });
    return () => {
      refresh.stop();
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
