// When a page section refreshes after a change is heard (pure timing, no React): a burst of changes becomes
// one refresh a short delay after the first; a refresh is never cancelled or doubled by the next change (a
// steady stream of changes, one a second, would otherwise cancel every refresh slower than a second and the
// section would show nothing new until the changes stopped); and a change heard while a refresh runs is
// never dropped: that refresh may have read the data before it, so one more follows when it ends.

export interface RefreshScheduler {
  /** A change the section shows was heard. */
  changed(): void;
  /** The section is gone: no refresh starts after this. */
  stop(): void;
}

export function refreshScheduler(refresh: () => unknown, delayMs: number): RefreshScheduler {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let heardWhileRunning = false;
  let stopped = false;

  const schedule = () => {
    timer ??= setTimeout(() => void run(), delayMs);
  };
  const run = async () => {
    timer = undefined;
    running = true;
    try {
      await refresh();
    } catch {
      // The section shows its own fetch errors; the next change or poll tries again.
    } finally {
      running = false;
    }
    if (heardWhileRunning && !stopped) {
      heardWhileRunning = false;
      schedule();
    }
  };

  return {
    changed() {
      if (stopped) return;
      if (running) heardWhileRunning = true;
      else schedule();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
