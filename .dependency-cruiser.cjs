/**
 * Import rules (docs/architecture.md, "Packages"), checked by `./run test`.
 * sdk ← core ← {workers, gateway} ← cli (composition root); plugins/examples → sdk only;
 * dashboard → gateway *types* only; no cycles anywhere.
 */
const pkg = (name) => `^(${name})/`;
module.exports = {
  forbidden: [
    { name: 'no-unresolvable-imports', severity: 'error', from: {}, to: { couldNotResolve: true } },
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'sdk-depends-on-nothing-internal',
      severity: 'error',
      from: { path: pkg('sdk') },
      to: { path: pkg('core|workers|gateway|cli|dashboard|plugins|examples|test') },
    },
    {
      name: 'core-depends-on-sdk-only',
      severity: 'error',
      from: { path: pkg('core'), pathNot: '\\.test\\.ts$' },
      to: { path: pkg('workers|gateway|cli|dashboard|plugins|examples|test') },
    },
    {
      name: 'core-has-no-http-or-react',
      severity: 'error',
      from: { path: pkg('core') },
      to: { path: 'node_modules/(fastify|@fastify|react|react-dom|@blueprintjs)/' },
    },
    {
      // The NATS driver sits beside the bus port, as the MongoDB driver sits beside the store port.
      name: 'core-uses-nats-in-the-bus-only',
      severity: 'error',
      from: { path: pkg('core'), pathNot: '^core/src/bus/' },
      to: { path: 'node_modules/(@nats-io|nats)/' },
    },
    {
      name: 'workers-do-not-import-gateway-or-cli',
      severity: 'error',
      from: { path: pkg('workers') },
      to: { path: pkg('gateway|cli|dashboard') },
    },
    {
      name: 'gateway-does-not-import-workers-or-cli',
      severity: 'error',
      from: { path: pkg('gateway') },
      to: { path: pkg('workers|cli|dashboard') },
    },
    {
      name: 'plugins-and-examples-use-the-sdk-only',
      severity: 'error',
      from: { path: pkg('plugins|examples') },
      to: { path: pkg('core|workers|gateway|cli|dashboard') },
    },
    {
      name: 'dashboard-imports-gateway-types-only',
      severity: 'error',
      from: { path: pkg('dashboard') },
      to: { path: pkg('gateway'), dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'dashboard-imports-no-server-package',
      severity: 'error',
      from: { path: pkg('dashboard') },
      to: { path: pkg('core|workers|cli|plugins') },
    },
    {
      name: 'only-tests-and-benches-import-test-support',
      severity: 'error',
      from: { path: pkg('sdk|core|workers|gateway|cli|plugins|examples|dashboard'), pathNot: '\\.test\\.ts$' },
      to: { path: pkg('test') },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules stay in the graph as leaves (doNotFollow), so rules about third-party imports can fire.
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
    },
    // Resolve workspace packages to their real folders so rules see core/… rather than node_modules/@tagsonic/core/….
    preserveSymlinks: false,
  },
};
