/**
 * The import rules of the layout (docs/design.md, "Import rules"): layers import one way.
 *
 *   src/log, src/config      import no other layer
 *   src/http                 imports only src/config and src/log
 *   src/auth                 imports src/http, src/config, src/log
 *   src/store                imports src/http, src/log and workers' protocol modules
 *   domains (the rest of src/<folder>) import src/http, src/auth, src/store,
 *                            src/config, src/log and workers' protocol modules,
 *                            never another domain
 *   workers/                 never imports src/
 *   src/main.ts, src/serve.ts, src/service.ts, src/store-start.ts, src/app.ts
 *                            compose everything
 *
 * The front may import from workers/ only the protocol modules (the files both
 * threads share), and types only: the worker's code never lands in the front.
 *
 * test/ and bench/ check and measure the code and are never imported by it;
 * no test file is imported by another (what tests share is in test/helpers/).
 * bench/ measures the code and is never imported by it. Its rooms import one
 * way too (BENCH_ROOMS: each room and the rooms below it); every room may use
 * src/ and workers/, and test/helpers/ where the benches share the tests'
 * workloads.
 */
const LOWER_LAYERS = '^src/(http|auth|store|config|log)/';
const COMPOSITION = '^src/(main|serve|service|store-start|app)[.]ts$';

/** Each room of bench/ and the rooms it may import besides itself. */
const BENCH_ROOMS = {
  harness: [], // servers, load, /proc, pinning, seeding, report cells: what every bench uses
  peers: [], // the comparison servers, written as their users would: nothing of ours
  search: ['harness'],
  checkout: ['harness'],
  http: ['harness', 'search', 'checkout'],
  journal: ['harness', 'checkout', 'http'],
  cluster: ['harness', 'journal'],
  streams: ['harness', 'checkout'],
  'start-up': ['harness'],
};

const benchRoomRules = Object.entries(BENCH_ROOMS).map(([room, below]) => ({
  name: `bench-${room}-imports-lower-rooms-only`,
  severity: 'error',
  from: { path: `^bench/${room}/` },
  to: { path: '^bench/', pathNot: [room, ...below].map((allowed) => `^bench/${allowed}/`) },
}));

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Import circles hide which module is lower.', from: {}, to: { circular: true } },
    {
      name: 'log-and-config-stand-alone',
      severity: 'error',
      comment: 'The logger and the settings know nothing of the layers above them.',
      from: { path: '^src/(log|config)/' },
      to: { path: '^src/', pathNot: ['^src/log/', '^src/config/'] },
    },
    {
      name: 'http-knows-no-domain',
      severity: 'error',
      comment: 'The transport serves every domain and knows none: only the settings and the logger are below it.',
      from: { path: '^src/http/' },
      to: { path: ['^src/', '^workers/'], pathNot: ['^src/(http|config|log)/'] },
    },
    {
      name: 'auth-below-domains',
      severity: 'error',
      from: { path: '^src/auth/' },
      to: { path: ['^src/', '^workers/'], pathNot: ['^src/(auth|http|config|log)/'] },
    },
    {
      name: 'store-below-domains',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/', pathNot: ['^src/(store|http|log)/'] },
    },
    {
      name: 'domains-import-lower-layers-only',
      severity: 'error',
      comment: 'A domain uses the layers below it and its own folder, never another domain.',
      from: { path: '^src/([^/]+)/', pathNot: [LOWER_LAYERS] },
      to: { path: '^src/', pathNot: [LOWER_LAYERS, '^src/$1/'] },
    },
    {
      name: 'only-composition-imports-the-root',
      severity: 'error',
      from: { path: '^src/', pathNot: [COMPOSITION] },
      to: { path: COMPOSITION },
    },
    {
      name: 'workers-never-import-the-front',
      severity: 'error',
      comment: 'The store thread owns the data and depends on nothing of the front.',
      from: { path: '^workers/' },
      to: { path: '^src/' },
    },
    {
      name: 'front-imports-only-protocols',
      severity: 'error',
      comment: 'Both threads share the protocol modules and nothing else.',
      from: { path: '^src/' },
      to: { path: '^workers/', pathNot: ['-protocol[.]ts$'] },
    },
    {
      name: 'front-imports-protocol-types-only',
      severity: 'error',
      comment: "Protocol values (a version number, a reader) belong to the side that uses them; the front takes types, so no worker code is bundled into it.",
      from: { path: '^src/', pathNot: ['^src/store/'] },
      to: { path: '^workers/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'code-never-imports-bench',
      severity: 'error',
      comment: 'The service and its worker know nothing of what measures them.',
      from: { path: '^(src|workers)/' },
      to: { path: '^bench/' },
    },
    {
      name: 'code-never-imports-tests',
      severity: 'error',
      comment: 'The service ships without its tests: nothing in src/ or workers/ may need test/.',
      from: { path: '^(src|workers)/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-test-imports-a-test',
      severity: 'error',
      comment: 'A test file is run by ava, never imported: what two tests share lives in test/helpers/.',
      from: {},
      to: { path: '[.]test[.]ts$' },
    },
    {
      name: 'bench-imports-test-helpers-only',
      severity: 'error',
      comment: 'A bench may share a workload with the tests (test/helpers/), never a test file.',
      from: { path: '^bench/' },
      to: { path: '^test/', pathNot: ['^test/helpers/'] },
    },
    ...benchRoomRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
