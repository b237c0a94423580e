import type { SearchOptions } from '../types';
import { KeyedSerialQueue } from './queue';
import { checkLimit } from './records';

/**
 * What the LanceDB and Weaviate adapters do alike around their backend: one write queue per
 * table, every call refused once the store is closed, and each search started the same way.
 */
export abstract class VectorStoreAdapter {
  /** Writes (and drops) per table or collection run one at a time, in order. */
  protected readonly queue = new KeyedSerialQueue();
  protected closedFlag = false;

  /** The store as the closed-store error names it, e.g. "LanceStore at /data/lancedb". */
  protected abstract readonly label: string;

  get closed(): boolean {
    return this.closedFlag;
  }

  protected assertOpen(): void {
    if (this.closedFlag) throw new Error(`${this.label} is closed`);
  }

  /** A search's start: the store is open and the caller has not given up. Returns the checked limit. */
  protected beginSearch(opts: SearchOptions): number {
    this.assertOpen();
    opts.signal?.throwIfAborted();
    return checkLimit(opts.limit);
  }
}
