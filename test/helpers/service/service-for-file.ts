/**
 * One in-process service for a whole test file, for tests that leave the
 * store as they found it (refusals, logins, reads): started before the first
 * test and stopped after the last, also when a test fails, so each such test
 * is spared a start. A test that writes starts its own (ownService).
 */
import test from 'ava';
import { startInProcess, type InProcessOptions, type ServiceUnderTest } from './service.js';

/** Registers the file's hooks; the function it returns gives the running service inside a test. */
export function serviceForFile(options: InProcessOptions = {}): () => ServiceUnderTest {
  let service: ServiceUnderTest | undefined;
  test.before(async () => {
    service = await startInProcess(options);
  });
  test.after.always(async () => {
    await service?.stop();
  });
  return () => {
    if (service === undefined) throw new Error("the file's service is not running: ask for it inside a test");
    return service;
  };
}
