/**
 * The child process of the front's allocation budget (front-allocation.ts):
 * the service in this process (the front here, the store on its worker
 * thread, whose heap is its own and not counted), and on the parent's word
 * the main thread's heap before and after a window of requests. Started with
 * --expose-gc and a new space large enough that no scavenge runs inside a
 * window, so the heap's growth is what the window allocated; the parent is
 * told how many collections ran, and a window with one is measured again.
 */
import { getHeapStatistics } from 'node:v8';
import { PerformanceObserver } from 'node:perf_hooks';
import { startInProcess } from '../service/service.js';
import type { ProbeReply, ProbeRequest } from './front-allocation.js';

const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error('the allocation probe needs node --expose-gc');
const send = (reply: ProbeReply): void => void process.send?.(reply);

const env = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>;
const service = await startInProcess({ env: { LOG_LEVEL: 'silent', ...env } });
let collections = 0;
/** Set while the forced collection's own entry is awaited: the window starts once it is in. */
let starting = false;
let before = 0;
const begin = (): void => {
  starting = false;
  collections = 0;
  before = getHeapStatistics().used_heap_size;
  send({ kind: 'started' });
};
new PerformanceObserver((list) => {
  // The observer hears of a collection a moment after it ran, the forced one included.
  if (starting) begin();
  else collections += list.getEntries().length;
}).observe({ entryTypes: ['gc'] });

process.on('message', (message: ProbeRequest) => {
  if (message === 'start') {
    starting = true;
    collect();
  } else if (message === 'stop') {
    send({ kind: 'stopped', bytes: getHeapStatistics().used_heap_size - before, collections });
  } else {
    void service.stop().then(() => process.exit(0));
  }
});
send({ kind: 'listening', port: service.port });
