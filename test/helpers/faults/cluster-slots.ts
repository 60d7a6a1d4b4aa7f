/**
 * Three instances of the built service (`node dist/main.js`) on one
 * PostgreSQL database, each in a slot (0, 1, 2) that keeps its place across
 * a stop or a kill and a restart (on a new port, PORT=0: the instance
 * advertises the one it binds): the soak's nemesis (issue 29) kills,
 * restarts, pauses and resumes them by slot, the rolling restart stops and
 * starts them in turn; clients ask for a slot's URL at each request
 * (undefined while the slot's process is down).
 *
 * Nothing here is ava's: the soak script (bench/cluster/soak.ts) runs it as
 * well as the tests, and whoever starts it ends it (`end`, in a finally or a
 * t.teardown), every process killed, also when something failed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { MAIN, childEnv } from '../service/service.js';
import { TEST_CLUSTER_SECRET } from './postgres-cluster.js';

/** How long a start may take on a busy machine before the soak gives up on it. */
const START_CEILING_MS = 60_000;
/** Output kept per slot (every process that ran in it), for the report of a failure. */
const OUTPUT_KEPT = 200_000;

export type SlotState = 'up' | 'down' | 'paused';

interface Slot {
  child: ChildProcess | undefined;
  url: string | undefined;
  state: SlotState;
  output: string;
  exited: Promise<unknown> | undefined;
}

export interface ClusterHealthView {
  readonly role: 'writer' | 'follower';
  readonly appliedSeq: number;
  readonly lag: { readonly commands: number; readonly seconds: number };
  readonly stepDowns: number;
  readonly reloads: number;
}

export class ClusterSlots {
  readonly #env: Readonly<Record<string, string>>;
  readonly #slots: Slot[] = [0, 1, 2].map(() => ({ child: undefined, url: undefined, state: 'down', output: '', exited: undefined }));

  /** `env`: the instances' settings (DATABASE_URL, LEASE_SECONDS, the shop's); each gets PORT=0 and the cluster secret too. */
  constructor(env: Readonly<Record<string, string>>) {
    this.#env = { LOG_LEVEL: 'info', PORT: '0', CLUSTER_SECRET: TEST_CLUSTER_SECRET, ...env };
  }

  get size(): number {
    return this.#slots.length;
  }

  /** The first slot takes the lease (it starts alone), the others follow. */
  async start(): Promise<void> {
    await this.restart(0);
    await Promise.all([1, 2].map((slot) => this.restart(slot)));
  }

  urlOf(slot: number): string | undefined {
    const state = this.#slot(slot);
    return state.state === 'down' ? undefined : state.url;
  }

  stateOf(slot: number): SlotState {
    return this.#slot(slot).state;
  }

  outputOf(slot: number): string {
    return this.#slot(slot).output;
  }

  /** Starts the slot's process (again) and resolves once it listens. */
  async restart(slot: number): Promise<void> {
    const state = this.#slot(slot);
    if (state.state !== 'down') throw new Error(`slot ${slot} is ${state.state}, not down`);
    const child = spawn(process.execPath, [MAIN, '--port', '0'], { env: childEnv(this.#env), stdio: ['ignore', 'pipe', 'pipe'] });
    let own = '';
    const keep = (chunk: string): void => {
      own += own.length < 10_000 ? chunk : '';
      state.output = (state.output + chunk).slice(-OUTPUT_KEPT);
    };
    child.stdout.setEncoding('utf8').on('data', keep);
    child.stderr.setEncoding('utf8').on('data', keep);
    const exited = once(child, 'close');
    state.child = child;
    state.exited = exited;
    state.output += `\n--- slot ${slot}: a new process (pid ${child.pid ?? '?'}) ---\n`;
    const url = await new Promise<string>((resolve, reject) => {
      const ceiling = setTimeout(() => reject(new Error(`slot ${slot} did not listen within ${START_CEILING_MS} ms`)), START_CEILING_MS);
      const listening = (): void => {
        const found = /listening on (\S+)/.exec(own)?.[1];
        if (found === undefined) return;
        clearTimeout(ceiling);
        child.stdout.off('data', listening);
        resolve(found);
      };
      child.stdout.on('data', listening);
      void exited.then(() => {
        clearTimeout(ceiling);
        reject(new Error(`slot ${slot} exited before it listened: ${state.output.slice(-1500)}`));
      });
    });
    state.url = url;
    state.state = 'up';
  }

  /** kill -9; resolves once the process is gone. */
  async kill(slot: number): Promise<void> {
    const state = this.#slot(slot);
    state.state = 'down';
    state.child?.kill('SIGKILL');
    await state.exited;
  }

  /** A clean stop (SIGTERM): resolves with how the process ended. */
  async stop(slot: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const state = this.#slot(slot);
    const child = state.child;
    if (child === undefined || state.exited === undefined) throw new Error(`slot ${slot} has no process`);
    child.kill('SIGTERM');
    const [code, signal] = (await state.exited) as [number | null, NodeJS.Signals | null];
    state.state = 'down';
    return { code, signal };
  }

  pause(slot: number): void {
    const state = this.#slot(slot);
    if (state.state !== 'up') return;
    state.child?.kill('SIGSTOP');
    state.state = 'paused';
  }

  resume(slot: number): void {
    const state = this.#slot(slot);
    if (state.state !== 'paused') return;
    state.child?.kill('SIGCONT');
    state.state = 'up';
  }

  /** /health of the slot, or undefined when it does not answer within a second. */
  async healthOf(slot: number): Promise<ClusterHealthView | undefined> {
    const url = this.urlOf(slot);
    if (url === undefined || this.stateOf(slot) !== 'up') return undefined;
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) });
      return response.status === 200 ? ((await response.json()) as ClusterHealthView) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The slot whose instance says it is the writer, if one does. */
  async writerSlot(): Promise<number | undefined> {
    const roles = await Promise.all(this.#slots.map(async (_, slot) => (await this.healthOf(slot))?.role));
    const index = roles.indexOf('writer');
    return index === -1 ? undefined : index;
  }

  /** Whether any process of the slots exited when nobody killed it (the soak's instances must not stop by themselves). */
  unexpectedExits(): string[] {
    return this.#slots.flatMap((state, slot) => (state.state !== 'down' && state.child !== undefined && (state.child.exitCode !== null || state.child.signalCode !== null) ? [`slot ${slot} exited (${state.child.exitCode ?? state.child.signalCode})`] : []));
  }

  /** Every process woken and killed: the soak's end, whatever happened. */
  async end(): Promise<void> {
    await Promise.all(
      this.#slots.map(async (state) => {
        const child = state.child;
        if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGCONT');
        child.kill('SIGKILL');
        await state.exited;
      }),
    );
  }

  #slot(slot: number): Slot {
    const state = this.#slots[slot];
    if (state === undefined) throw new Error(`no slot ${slot}`);
    return state;
  }
}
