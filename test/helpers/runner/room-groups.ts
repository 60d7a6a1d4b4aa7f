/**
 * Writes the groups in which `npm test` and `npm run test:quick` run the
 * in-process rooms: build/groups/<room>-<folder>-<n>.test.js, each importing
 * up to FILES_PER_GROUP compiled test files of one folder of test/unit/ or
 * test/http/ (run after `npm run build:tests`, from the project root). The
 * process and fault rooms keep a process per file (ava.suite.config.js).
 *
 * Why groups: ava runs every test file in a process of its own, and starting
 * one (Node, then ava's own modules) costs about 0.24 s of CPU before the
 * first test; the service's modules, the OpenAPI validator's compiled
 * schemas and the like are loaded again in each. For the 134 in-process
 * files that was about a third of their CPU. A group pays it once for
 * several files of one concern. One file alone still runs in a process of
 * its own (ava.compiled.config.js), as docs/testing.md says.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const BUILD = 'build';
const ROOMS = ['test/unit', 'test/http'];
/**
 * Small enough that one group's tests, all started at once, keep its event
 * loop responsive; large enough that few processes pay the start. 24 against
 * 12 (17 groups to 12): test:quick's ava part 26.1 to 28.1 s against 28.7 to 30.2 s in
 * five alternating pairs, 2026-11-28 14:45Z (docs/testing.md).
 */
const FILES_PER_GROUP = 24;
const OUT = join(BUILD, 'groups');

/** Compiled test files under `folder` (relative to build/), sorted, subfolders included. */
function testFiles(folder: string): string[] {
  return readdirSync(join(BUILD, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.js'))
    .map((name) => `${folder}/${name}`)
    .sort();
}

/** A hook that runs around each test would run around every test of the group, other files' too. */
const PER_TEST_HOOK = /\btest(\.serial)?\.(beforeEach|afterEach)\b/;

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT);
let groups = 0;
for (const room of ROOMS) {
  const entries = readdirSync(join(BUILD, room));
  const prefix = room.replace('test/', '');
  const folders = entries.filter((name) => statSync(join(BUILD, room, name)).isDirectory());
  const loose = entries.filter((name) => name.endsWith('.test.js')).map((name) => `${room}/${name}`);
  const sets: [string, string[]][] = [[prefix, loose], ...folders.map((folder): [string, string[]] => [`${prefix}-${folder}`, testFiles(`${room}/${folder}`)])];
  for (const [name, files] of sets) {
    const hooked = files.find((file) => PER_TEST_HOOK.test(readFileSync(join(BUILD, file), 'utf8')));
    if (hooked !== undefined) throw new Error(`${hooked} has a beforeEach or afterEach hook, which would run around every test of its group: start what each test needs in the test`);
    for (let start = 0; start < files.length; start += FILES_PER_GROUP) {
      const imports = files.slice(start, start + FILES_PER_GROUP).map((file) => `import '../${file}';\n`);
      writeFileSync(join(OUT, `${name}-${start / FILES_PER_GROUP + 1}.test.js`), imports.join(''));
      groups++;
    }
  }
}
console.log(`${groups} groups of at most ${FILES_PER_GROUP} in-process test files in ${OUT}/`);
