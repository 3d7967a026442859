// The line in front of the text threads, one per owner (an account, or an address when signed out),
// so one owner's work cannot crowd out another's (issue 42, decision 0087). A free thread takes the
// next task of the owner with the fewest tasks running, among those the longest since their last
// turn: an owner who was quiet goes next, not behind everything the busy ones have queued.

interface Owner<T> {
  waiting: T[];
  running: number;
  /** When this owner last had a task taken (a count of turns); 0 for an owner new to the line. */
  turn: number;
}

export class FairQueue<T> {
  private readonly owners = new Map<string, Owner<T>>();
  private waitingCount = 0;
  private turns = 0;

  /**
   * @param perOwner tasks one owner may have waiting
   * @param total tasks waiting in all; when full, the owner with the most waiting gives way
   */
  constructor(
    private readonly perOwner: number,
    private readonly total: number,
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
      pushedOut = longest.waiting.pop() as T;
      this.waitingCount--;
      this.forgetIfIdle(longestKey);
    }
    owner.waiting.push(item);
    this.waitingCount++;
    return pushedOut;
  }

  /** Takes `item` out of the line (it waited too long); false when it was no longer there. */
  remove(ownerKey: string, item: T): boolean {
    const owner = this.owners.get(ownerKey);
    const at = owner ? owner.waiting.indexOf(item) : -1;
    if (!owner || at < 0) return false;
    owner.waiting.splice(at, 1);
    this.waitingCount--;
    this.forgetIfIdle(ownerKey);
    return true;
  }

  /** The task to run next, counted as running for its owner until `done`. */
  next(): { owner: string; item: T } | null {
    let bestKey = '';
    let best: Owner<T> | null = null;
    for (const [key, o] of this.owners) {
      if (!o.waiting.length) continue;
      if (!best || o.running < best.running || (o.running === best.running && o.turn < best.turn)) {
        [bestKey, best] = [key, o];
      }
    }
    if (!best) return null;
    best.running++;
    best.turn = ++this.turns;
    this.waitingCount--;
    return { owner: bestKey, item: best.waiting.shift() as T };
  }

  /** A task taken by `next` ended. */
  done(ownerKey: string): void {
    const owner = this.owners.get(ownerKey);
    if (!owner) return;
    owner.running--;
    this.forgetIfIdle(ownerKey);
  }

  /** Empties the line, returning what waited (the pool closes). */
  drain(): T[] {
    const all = [...this.owners.values()].flatMap((o) => o.waiting);
    this.owners.clear();
    this.waitingCount = 0;
    return all;
  }

  private owner(key: string): Owner<T> {
    let owner = this.owners.get(key);
    if (!owner) {
      owner = { waiting: [], running: 0, turn: 0 };
      this.owners.set(key, owner);
    }
    return owner;
  }

  private refuse(key: string, item: T): T {
    this.forgetIfIdle(key);
    return item;
  }

  // The map holds only owners with work, so its size is bounded by the line and the threads.
  private forgetIfIdle(key: string) {
    const owner = this.owners.get(key);
    if (owner && !owner.waiting.length && owner.running <= 0) this.owners.delete(key);
  }
}
