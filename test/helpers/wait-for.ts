/** Polling for a condition a test cannot be told about (a file on disk, a count of answers), with a ceiling that names what never came. */
import { setTimeout as delay } from 'node:timers/promises';

/** Polls until `ready` holds; throws with `what` after `ceilingMs`. */
export async function waitFor(what: string, ready: () => boolean, ceilingMs = 30_000): Promise<void> {
  for (let waited = 0; !ready(); waited += 20) {
    if (waited > ceilingMs) throw new Error(`waited ${ceilingMs} ms for ${what}`);
    await delay(20);
  }
}

/** Polls until the asynchronous `ready` holds (an answer over HTTP); throws with `what` after `ceilingMs`. */
export async function waitUntil(what: string, ready: () => Promise<boolean>, ceilingMs = 30_000): Promise<void> {
  const deadline = performance.now() + ceilingMs;
  while (!(await ready())) {
    if (performance.now() > deadline) throw new Error(`waited ${ceilingMs} ms for ${what}`);
    await delay(20);
  }
}
