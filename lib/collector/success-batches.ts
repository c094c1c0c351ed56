// Clusters' "last success" rows, written in batches: one UPDATE for up to `batchSize` clusters, each within
// `delayMs` of being queued, so a cluster's success never waits for the rest of a cycle. In watch mode the
// heartbeats of ~100 clusters (of 1,000) come in one sweep every 6 s: one write for each sweep (batches of
// 50 took two, a third of an idle collector's queries), the timer's write being the usual path.
import type { PollSuccess } from "../db/writes/clusters";

export class SuccessBatches {
  private pending: PollSuccess[] = [];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly write: (batch: PollSuccess[]) => Promise<void>,
    /** A timed write that failed (the database down): the batch is dropped; each cluster's next success writes again. */
    private readonly onTimedFailure: (err: unknown) => void,
    private readonly batchSize = 200,
    private readonly delayMs = 1_000,
  ) {}

  /** Queues a success. Filling a batch writes it at once, and the promise says how that write went. */
  async queue(success: PollSuccess): Promise<void> {
    this.pending.push(success);
    if (this.pending.length >= this.batchSize) {
      await this.flush();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch(this.onTimedFailure);
    }, this.delayMs);
  }

  /** Writes what is queued now (a cycle's end, a cluster back from unreachable, shutdown). */
  async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    await this.write(batch);
  }

  /** No timed write after this (shutdown: call flush for what is left). */
  stopTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
