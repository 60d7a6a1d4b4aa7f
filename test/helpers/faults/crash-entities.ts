/**
 * Things the crash writers make under names no one else uses (a product, a
 * /produkte item), and what the service may hold of each after a crash: what
 * the last acknowledged write left, or, when the one write in flight to it
 * went unanswered, what that write would have left. A writer sends one write
 * at a time, so an entity has at most one write in flight.
 */

/** One entity as a list answer shows it. */
export interface SeenItem<F> {
  readonly id: number;
  readonly name: string;
  readonly fields: F;
}

/** What a reconcile found: broken promises, and what became of the writes in flight. */
export interface Reconciled {
  readonly violations: string[];
  readonly inFlight: { applied: number; notApplied: number };
}

export interface TrackedEntity<F> {
  readonly name: string;
  /** Known once a create is acknowledged or the entity is seen. */
  id: number | undefined;
  /** What the last acknowledged write left; undefined: absent (not created yet, or deleted). */
  confirmed: F | undefined;
  /** The write in flight: what it leaves if applied (fields undefined: a delete). */
  pending: { readonly fields: F | undefined } | undefined;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export class EntityBook<F> {
  readonly #label: string;
  readonly #byName = new Map<string, TrackedEntity<F>>();
  #highestId = 0;

  constructor(label: string) {
    this.#label = label;
  }

  /** The highest id ever acknowledged or seen. */
  get highestId(): number {
    return this.#highestId;
  }

  /** A create about to be sent. */
  creating(name: string, fields: F): TrackedEntity<F> {
    if (this.#byName.has(name)) throw new Error(`${this.#label} "${name}" made twice by the workload`);
    const entity: TrackedEntity<F> = { name, id: undefined, confirmed: undefined, pending: { fields } };
    this.#byName.set(name, entity);
    return entity;
  }

  /** A replace (fields) or a delete (undefined) about to be sent. */
  changing(entity: TrackedEntity<F>, fields: F | undefined): void {
    entity.pending = { fields };
  }

  /** The answer came: acknowledged, the write's result is what the entity is; refused, nothing changed. */
  settle(entity: TrackedEntity<F>, acknowledged: boolean, id?: number): void {
    if (acknowledged) {
      entity.confirmed = entity.pending?.fields;
      if (id !== undefined) this.#sawId(entity, id);
    }
    entity.pending = undefined;
  }

  /**
   * Compares every entity with what a list answer holds of the names this
   * book keeps: each must be in a state its writes allow, once at most, and
   * no unknown name may appear. Then takes what it saw as the state.
   */
  reconcile(seen: readonly SeenItem<F>[]): Reconciled {
    const violations: string[] = [];
    const inFlight = { applied: 0, notApplied: 0 };
    const byName = new Map<string, SeenItem<F>[]>();
    for (const item of seen) byName.set(item.name, [...(byName.get(item.name) ?? []), item]);
    for (const [name, items] of byName) {
      if (!this.#byName.has(name)) violations.push(`${this.#label} ${items.map((item) => item.id).join(', ')} "${name}" was never written`);
    }
    for (const entity of this.#byName.values()) {
      const items = byName.get(entity.name) ?? [];
      if (items.length > 1) violations.push(`${this.#label} "${entity.name}" is there ${items.length} times: ids ${items.map((item) => item.id).join(', ')}`);
      const item = items[0];
      const allowed = entity.pending === undefined ? [entity.confirmed] : [entity.confirmed, entity.pending.fields];
      const fitting = allowed.findIndex((fields) => (fields === undefined ? item === undefined : item !== undefined && sameJson(fields, item.fields) && (entity.id === undefined || entity.id === item.id)));
      if (entity.pending !== undefined && fitting === 0) inFlight.notApplied++;
      if (entity.pending !== undefined && fitting === 1) inFlight.applied++;
      if (fitting === -1) {
        const said = item === undefined ? 'absent' : `id ${item.id} ${JSON.stringify(item.fields)}`;
        violations.push(`${this.#label} "${entity.name}" (id ${entity.id ?? 'not acknowledged'}) is ${said}; acknowledged: ${JSON.stringify(entity.confirmed ?? 'absent')}${entity.pending === undefined ? '' : `, in flight: ${JSON.stringify(entity.pending.fields ?? 'deleted')}`}`);
      }
      entity.confirmed = item?.fields;
      entity.pending = undefined;
      if (item !== undefined) this.#sawId(entity, item.id);
    }
    return { violations, inFlight };
  }

  #sawId(entity: TrackedEntity<F>, id: number): void {
    entity.id = id;
    this.#highestId = Math.max(this.#highestId, id);
  }
}
