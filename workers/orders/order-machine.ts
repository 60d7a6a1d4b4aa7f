/**
 * The order's state machine (contract section 7, "Orders"), as a table of the
 * allowed transitions and who may make each. Anything not in the table is one
 * refusal naming both states; nothing else in the code decides transitions.
 */

export const ORDER_STATUSES = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export type PaymentStatus = 'unpaid' | 'paid' | 'cancelled' | 'refunded';

/** Who asks for a change: a successful payment, the customer, an administrator, or the clock (unpaid orders expire). */
export type OrderActor = 'payment' | 'customer' | 'admin' | 'clock';

interface Transition {
  readonly by: readonly OrderActor[];
  /** The payment status after the change, when it changes. */
  readonly payment?: PaymentStatus;
  /** Tracked stock taken by the order goes back. */
  readonly returnsStock?: true;
}

export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, Readonly<Partial<Record<OrderStatus, Transition>>>>> = {
  pending: {
    paid: { by: ['payment'], payment: 'paid' },
    cancelled: { by: ['customer', 'admin', 'clock'], payment: 'cancelled', returnsStock: true },
  },
  paid: {
    shipped: { by: ['admin'] },
    cancelled: { by: ['customer', 'admin'], payment: 'refunded', returnsStock: true },
  },
  shipped: {
    delivered: { by: ['admin'] },
  },
  delivered: {},
  cancelled: {},
};

const FINAL_STATUSES: ReadonlySet<OrderStatus> = new Set(ORDER_STATUSES.filter((status) => Object.keys(ORDER_TRANSITIONS[status]).length === 0));

/** Delivered and cancelled: no transition leaves them (the order's event stream ends there). */
export const isFinalStatus = (status: OrderStatus): boolean => FINAL_STATUSES.has(status);

export type TransitionVerdict = { readonly allowed: true; readonly transition: Transition } | { readonly allowed: false; readonly reason: string };

export function judgeTransition(from: OrderStatus, to: OrderStatus, actor: OrderActor): TransitionVerdict {
  const transition = ORDER_TRANSITIONS[from][to];
  if (transition === undefined || !transition.by.includes(actor)) return { allowed: false, reason: `an order that is ${from} cannot become ${to}` };
  return { allowed: true, transition };
}
