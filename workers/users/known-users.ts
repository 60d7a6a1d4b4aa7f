/**
 * What other domains (addresses, wish lists, carts, orders, reviews) may read
 * of the customers: whether an id is a user's, and the name reviews show.
 * Every per-user command answers USER_NOT_FOUND for an id no one has (an
 * administrator reading /users/999/...), so each domain is given this at
 * assembly (store-dispatch.ts) rather than the whole user store.
 */
export interface KnownUsers {
  has(userId: number): boolean;
  nameOf(userId: number): string | undefined;
}
