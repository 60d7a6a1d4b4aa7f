/** Polling for a condition a test cannot be told about (a file on disk, a count of answers), with a ceiling that names what never came. */
import { setTimeout as delay } from 'node:timers/promises';

/** Polls until `ready` holds; throws with `what` after `ceilingMs`. */
export async function waitFor(what: string, ready: () => boolean, ceilingMs = 30_000): Promise<void> {
  for (let waited = 0; !ready(); waited += 20) {
    if (waited > ceilingMs) throw new Error(`waited ${ceilingMs} ms for ${what}`);
    await delay(20);
  }
}

/**
 * Asks until the answer is the one awaited (a request whose answer says so),
 * each ask `everyMs` after the last is answered (more often than what it
 * waits for can change only costs CPU); resolves with it, or throws with
 * `what` and the last answer seen after `ceilingMs`.
 */
export async function waitForAnswer<T>(what: string, ask: () => Promise<T>, ready: (answer: T) => boolean, { everyMs = 20, ceilingMs = 30_000 } = {}): Promise<T> {
  const started = Date.now();
  for (;;) {
    const answer = await ask();
    if (ready(answer)) return answer;
    if (Date.now() - started > ceilingMs) throw new Error(`waited ${ceilingMs} ms for ${what}; the last answer: ${shown(answer)}`);
    await delay(everyMs);
  }
}

function shown(answer: unknown): string {
  try {
    return (JSON.stringify(answer) ?? String(answer)).slice(0, 300);
  } catch {
    return String(answer);
  }
}
