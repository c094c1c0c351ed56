// What the simulated controllers have due next: the routine reconciles' steps, the kubelets' reports.
/** A binary min-heap on `at`. */
export class DueQueue<T extends { at: number }> {
  private items: T[] = [];
  peek(): T | undefined {
    return this.items[0];
  }
  push(item: T) {
    const a = this.items;
    a.push(item);
    for (let i = a.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (a[parent].at <= a[i].at) break;
      [a[parent], a[i]] = [a[i], a[parent]];
      i = parent;
    }
  }
  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length && last) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l].at < a[m].at) m = l;
        if (r < a.length && a[r].at < a[m].at) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
  /** Empties the queue, returning what it held (in no order). */
  drain(): T[] {
    const items = this.items;
    this.items = [];
    return items;
  }
}
