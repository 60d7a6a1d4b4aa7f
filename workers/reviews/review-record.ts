import type { ReviewFields } from './review-protocol.js';

/** A review as the store holds it and the service shows it. */
export interface Review extends ReviewFields {
  readonly id: number;
  readonly productId: number;
  readonly userId: number;
  /** The customer's name when the review was written. */
  readonly author: string;
  /** ISO 8601, UTC. */
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Key order is the contract's: id, productId, userId, author, rating, title, body, createdAt, updatedAt. */
export function reviewJson(review: Review): string {
  return JSON.stringify({
    id: review.id,
    productId: review.productId,
    userId: review.userId,
    author: review.author,
    rating: review.rating,
    title: review.title,
    body: review.body,
    createdAt: review.createdAt,
    updatedAt: review.updatedAt,
  });
}
