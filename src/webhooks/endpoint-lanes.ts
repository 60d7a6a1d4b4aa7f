import type { WebhookSend } from '../../workers/webhooks/webhook-protocol.js';

/** How long an endpoint that could not be reached is left alone before it is tried again. */
export const COOL_DOWN_MS = 1000;

/** One endpoint as the sender sees it: deliveries taken from the store and waiting for a slot, attempts in flight, and whether it was unreachable a moment ago. */
export interface Lane {
  readonly endpointId: number;
  readonly ready: WebhookSend[];
  inFlight: number;
  /** Until when its deliveries are not attempted (a refused connection, a name that does not resolve), and why. */
  unreachable: { readonly until: number; readonly error: string } | undefined;
}

/**
 * The sender's endpoints (at most 100), kept in memory only: what the store
 * leased to the sender waits here for one of the endpoint's
 * WEBHOOK_CONCURRENCY slots, so that an attempt ending starts the next at
 * once, without a trip to the store; and an endpoint found unreachable is
 * left alone for COOL_DOWN_MS, its due deliveries failed in one deferral
 * instead of a connection each (a dead endpoint would otherwise cost a
 * refused connection per delivery per retry).
 */
export class EndpointLanes {
  readonly #lanes = new Map<number, Lane>();

  /** Forgets every lane (the sender stopped: what they held stays leased in the store and falls due again there). */
  clear(): void {
    this.#lanes.clear();
  }

  lane(endpointId: number): Lane {
    let lane = this.#lanes.get(endpointId);
    if (lane === undefined) {
      lane = { endpointId, ready: [], inFlight: 0, unreachable: undefined };
      this.#lanes.set(endpointId, lane);
    }
    return lane;
  }

  /** Whether the endpoint could take more now: no lane yet, or fewer than `half` ready, and not unreachable. */
  hasRoom(endpointId: number, half: number, now: number): boolean {
    const lane = this.#lanes.get(endpointId);
    if (lane === undefined) return true;
    if (lane.unreachable !== undefined && lane.unreachable.until > now) return false;
    return lane.ready.length < half;
  }

  /** The endpoints to leave out of the next read: unreachable until after `now`. */
  skipped(now: number): number[] {
    const skipped: number[] = [];
    for (const lane of this.#lanes.values()) {
      if (lane.unreachable === undefined) continue;
      if (lane.unreachable.until > now) skipped.push(lane.endpointId);
      else lane.unreachable = undefined;
    }
    return skipped;
  }

  /** The earliest time an unreachable endpoint may be tried again; infinity when none is waiting. */
  nextRetry(): number {
    let next = Number.POSITIVE_INFINITY;
    for (const lane of this.#lanes.values()) if (lane.unreachable !== undefined && lane.unreachable.until < next) next = lane.unreachable.until;
    return next;
  }

  /** Takes out of the lanes what was taken under another revision of its endpoint than `revisions` lists (or of one not listed): [endpoint, event] each. */
  outdated(revisions: ReadonlyMap<number, number>): [number, number][] {
    const outdated: [number, number][] = [];
    for (const lane of this.#lanes.values()) {
      if (lane.ready.length === 0) continue;
      const revision = revisions.get(lane.endpointId);
      const kept = lane.ready.filter((send) => send.revision === revision);
      if (kept.length === lane.ready.length) continue;
      for (const send of lane.ready) if (send.revision !== revision) outdated.push([send.endpointId, send.eventId]);
      lane.ready.splice(0, lane.ready.length, ...kept);
    }
    return outdated;
  }

  /** Forgets lanes with nothing in them (a deleted endpoint's), so the map stays as small as the endpoints. */
  sweep(): void {
    for (const [endpointId, lane] of this.#lanes) if (lane.ready.length === 0 && lane.inFlight === 0 && lane.unreachable === undefined) this.#lanes.delete(endpointId);
  }
}
