/**
 * Keys by the time they fall due, earliest first: a binary min-heap over two
 * parallel arrays. The refresh families need a heap where the orders' expiry
 * needs only a queue (workers/orders/expiry-queue.ts): a refresh moves its
 * family's expiry later, and REFRESH_TTL may differ from one start to the
 * next, so families do not fall due in the order they were begun.
 */
export class ExpiryHeap {
  readonly #due: number[] = [];
  readonly #keys: string[] = [];

  get size(): number {
    return this.#keys.length;
  }

  push(key: string, due: number): void {
    this.#due.push(due);
    this.#keys.push(key);
    this.#up(this.#keys.length - 1);
  }

  /** The earliest key if it is due at `now` (taken off the heap), else undefined. */
  takeDue(now: number): string | undefined {
    if (this.#keys.length === 0 || (this.#due[0] as number) > now) return undefined;
    const key = this.#keys[0] as string;
    const lastDue = this.#due.pop() as number;
    const lastKey = this.#keys.pop() as string;
    if (this.#keys.length > 0) {
      this.#due[0] = lastDue;
      this.#keys[0] = lastKey;
      this.#down(0);
    }
    return key;
  }

  #up(index: number): void {
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if ((this.#due[parent] as number) <= (this.#due[child] as number)) return;
      this.#swap(parent, child);
      child = parent;
    }
  }

  #down(index: number): void {
    const length = this.#keys.length;
    let parent = index;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let least = parent;
      if (left < length && (this.#due[left] as number) < (this.#due[least] as number)) least = left;
      if (right < length && (this.#due[right] as number) < (this.#due[least] as number)) least = right;
      if (least === parent) return;
      this.#swap(parent, least);
      parent = least;
    }
  }

  #swap(a: number, b: number): void {
    const due = this.#due[a] as number;
    const key = this.#keys[a] as string;
    this.#due[a] = this.#due[b] as number;
    this.#keys[a] = this.#keys[b] as string;
    this.#due[b] = due;
    this.#keys[b] = key;
  }
}
