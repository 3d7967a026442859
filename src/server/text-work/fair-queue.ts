// The line in front of the text threads, one per owner (an account, or an address when signed out),
// so one owner's work cannot crowd out another's (issue 42, decision 0087). A free thread takes the
// next task of the owner with the fewest tasks running, then of the one that used the threads least
// lately (their time, halved every USE_HALF_LIFE_MS), then the one that came first: an account asking
// for a caption now and then goes next, not behind everything the busy ones have queued.

interface Owner<T> {
  waiting: Array<{ item: T; seq: number }>;
  running: number;
}

const always = () => true;
/** How fast an owner's use of the threads is forgotten. */
const USE_HALF_LIFE_MS = 10_000;
/** Use below this (ms) is forgotten, so the memory of it stays small. */
const USE_FORGOTTEN_MS = 1;

export class FairQueue<T> {
  private readonly owners = new Map<string, Owner<T>>();
  /** Thread time used per owner, as of `at`; kept after the owner's line empties. */
  private readonly used = new Map<string, { ms: number; at: number }>();
  private waitingCount = 0;
  private seq = 0;

  /**
   * @param perOwner tasks one owner may have waiting
   * @param total tasks waiting in all; when full, the owner with the most waiting gives way
   */
  constructor(
    private readonly perOwner: number,
    private readonly total: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.waitingCount;
  }

  /**
   * Puts `item` behind its owner's other tasks. Returns what is refused: `item` itself when its owner
   * has its share waiting already, the newest task of the owner with the most waiting when the line
   * is full, or null.
   */
  add(ownerKey: string, item: T): T | null {
    const owner = this.owner(ownerKey);
    if (owner.waiting.length >= this.perOwner) return this.refuse(ownerKey, item);
    let pushedOut: T | null = null;
    if (this.waitingCount >= this.total) {
      let longestKey = '';
      let longest: Owner<T> | null = null;
      for (const [key, o] of this.owners) {
        if (!longest || o.waiting.length > longest.waiting.length) [longestKey, longest] = [key, o];
      }
      // Only an owner with more waiting than this one will have after it gives way.
      if (!longest || longest.waiting.length <= owner.waiting.length + 1) return this.refuse(ownerKey, item);
      pushedOut = (longest.waiting.pop() as { item: T }).item;
      this.waitingCount--;
      this.forgetIfIdle(longestKey);
    }
    owner.waiting.push({ item, seq: ++this.seq });
    this.waitingCount++;
    return pushedOut;
  }

  /** Takes `item` out of the line (it waited too long); false when it was no longer there. */
  remove(ownerKey: string, item: T): boolean {
    const owner = this.owners.get(ownerKey);
    const at = owner ? owner.waiting.findIndex((w) => w.item === item) : -1;
    if (!owner || at < 0) return false;
    owner.waiting.splice(at, 1);
    this.waitingCount--;
    this.forgetIfIdle(ownerKey);
    return true;
  }

  /** The task to run next (of an owner `may` allow), counted as running for its owner until `done`. */
  next(may: (owner: string) => boolean = always): { owner: string; item: T } | null {
    const [key, owner] = this.pick(may);
    if (!owner) return null;
    owner.running++;
    this.waitingCount--;
    return { owner: key, item: (owner.waiting.shift() as { item: T }).item };
  }

  /** A task taken by `next` ended, after `ms` on a thread. */
  done(ownerKey: string, ms: number): void {
    const now = this.now();
    this.used.set(ownerKey, { ms: this.usedBy(ownerKey, now) + ms, at: now });
    const owner = this.owners.get(ownerKey);
    if (owner) {
      owner.running--;
      this.forgetIfIdle(ownerKey);
    }
    if (this.used.size > 2 * (this.owners.size + 100)) {
      for (const key of this.used.keys()) if (this.usedBy(key, now) < USE_FORGOTTEN_MS) this.used.delete(key);
    }
  }

  /** Empties the line, returning what waited (the pool closes). */
  drain(): T[] {
    const all = [...this.owners.values()].flatMap((o) => o.waiting.map((w) => w.item));
    this.owners.clear();
    this.waitingCount = 0;
    return all;
  }

  private usedBy(key: string, now: number): number {
    const u = this.used.get(key);
    return u ? u.ms * 2 ** (-(now - u.at) / USE_HALF_LIFE_MS) : 0;
  }

  private pick(may: (owner: string) => boolean): [string, Owner<T> | null] {
    const now = this.now();
    let bestKey = '';
    let best: Owner<T> | null = null;
    let bestUse = 0;
    for (const [key, o] of this.owners) {
      if (!o.waiting.length || !may(key)) continue;
      const use = this.usedBy(key, now);
      const better =
        !best ||
        o.running < best.running ||
        (o.running === best.running && (use < bestUse || (use === bestUse && o.waiting[0].seq < best.waiting[0].seq)));
      if (better) [bestKey, best, bestUse] = [key, o, use];
    }
    return [bestKey, best];
  }

  private owner(key: string): Owner<T> {
    let owner = this.owners.get(key);
    if (!owner) {
      owner = { waiting: [], running: 0 };
      this.owners.set(key, owner);
    }
    return owner;
  }

  private refuse(key: string, item: T): T {
    this.forgetIfIdle(key);
    return item;
  }

  // The line holds only owners with work, so its size is bounded by the line and the threads.
  private forgetIfIdle(key: string) {
    const owner = this.owners.get(key);
    if (owner && !owner.waiting.length && owner.running <= 0) this.owners.delete(key);
  }
}
