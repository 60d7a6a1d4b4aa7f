import { SortedIdList } from '../products/sorted-id-list.js';
import { ORDER_STATUSES, type OrderStatus } from './order-machine.js';

/** One page of ids, newest first, and how many matched in all. */
export interface IdPage {
  readonly ids: number[];
  readonly total: number;
}

export interface OrderFilter {
  readonly status: OrderStatus | null;
  readonly userId: number | null;
}

/**
 * The orders' lists, newest first (highest id first: ids are given in
 * placement order). Orders are never deleted and ids run from 1 without gaps,
 * so the whole list needs no structure at all; each user's ids are an
 * ascending array; each status keeps an order-statistic list of its ids, so
 * a status page is found by position, not by walking every order. A user's
 * orders filtered by status are few enough to walk.
 */
export class OrderLists {
  readonly #byUser = new Map<number, number[]>();
  readonly #byStatus = new Map<OrderStatus, SortedIdList>(ORDER_STATUSES.map((status) => [status, new SortedIdList(() => 0, 256)]));
  readonly #statusOf: (orderId: number) => OrderStatus | undefined;
  #count = 0;

  constructor(statusOf: (orderId: number) => OrderStatus | undefined) {
    this.#statusOf = statusOf;
  }

  /** A new order (its id one past the last). */
  add(orderId: number, userId: number, status: OrderStatus): void {
    let ids = this.#byUser.get(userId);
    if (ids === undefined) {
      ids = [];
      this.#byUser.set(userId, ids);
    }
    ids.push(orderId);
    this.#list(status).insert(orderId);
    this.#count++;
  }

  move(orderId: number, from: OrderStatus, to: OrderStatus): void {
    this.#list(from).delete(orderId);
    this.#list(to).insert(orderId);
  }

  page({ status, userId }: OrderFilter, offset: number, limit: number): IdPage {
    if (userId !== null) return this.#userPage(this.#byUser.get(userId) ?? [], status, offset, limit);
    if (status !== null) {
      const list = this.#list(status);
      const ids: number[] = [];
      list.scanBackward(list.length - 1 - offset, list.length - offset - limit, (id) => ids.push(id) > 0);
      return { ids, total: list.length };
    }
    const ids: number[] = [];
    for (let id = this.#count - offset; id > 0 && ids.length < limit; id--) ids.push(id);
    return { ids, total: this.#count };
  }

  #userPage(userIds: readonly number[], status: OrderStatus | null, offset: number, limit: number): IdPage {
    if (status === null) {
      const ids: number[] = [];
      for (let index = userIds.length - 1 - offset; index >= 0 && ids.length < limit; index--) ids.push(userIds[index] ?? 0);
      return { ids, total: userIds.length };
    }
    const ids: number[] = [];
    let total = 0;
    for (let index = userIds.length - 1; index >= 0; index--) {
      const id = userIds[index] ?? 0;
      if (this.#statusOf(id) !== status) continue;
      if (total >= offset && ids.length < limit) ids.push(id);
      total++;
    }
    return { ids, total };
  }

  #list(status: OrderStatus): SortedIdList {
    const list = this.#byStatus.get(status);
    if (list === undefined) throw new Error(`no list for status ${status}`);
    return list;
  }
}
