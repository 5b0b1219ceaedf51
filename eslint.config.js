import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';
import importPlugin from 'eslint-plugin-import';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-ssr/**', '**/node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  { languageOptions: { globals: { ...globals.node } } },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Configuration is read once, in config.ts: one place parses and validates it.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/config.ts', '**/*.test.ts', 'apps/server/src/test/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration in config.ts.' },
      ],
    },
  },
  {
    // The React console runs in the browser.
    files: ['apps/web/**/*.{ts,tsx}'],
    ignores: ['apps/web/vite.config.ts'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    // Architecture: each source file belongs to one layer (an element), and imports between
    // layers follow the policies below. Paths are resolved with the node resolver (relative
    // imports, TypeScript extensions); test files are classified but never checked, since a
    // test may reach into any layer it exercises.
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] } },
      // Packages cannot import our files back: no need to parse them (a large bundle overflows).
      'import/ignore': ['node_modules'],
      'boundaries/elements': [
        // Server.
        { type: 'test', pattern: 'apps/server/src/test', partialMatch: false },
        // Single files of src/ (mode 'file' still works in this major version): config.ts and
        // app-context.ts are plumbing every layer reads; app.ts and main.ts compose the server.
        { type: 'config', pattern: 'apps/server/src/{config,app-context}.ts', mode: 'file' },
        { type: 'app', pattern: 'apps/server/src/{app,main}.ts', mode: 'file' },
        { type: 'http', pattern: 'apps/server/src/http' },
        { type: 'db', pattern: 'apps/server/src/db' },
        { type: 'identity', pattern: 'apps/server/src/identity' },
        { type: 'mail', pattern: 'apps/server/src/mail' },
        { type: 'webhooks', pattern: 'apps/server/src/webhooks' },
        { type: 'bootstrap', pattern: 'apps/server/src/bootstrap' },
        { type: 'module', pattern: 'apps/server/src/modules/*', capture: ['name'] },
        // Console.
        { type: 'web-test', pattern: 'apps/web/src/test' },
        { type: 'web-app', pattern: 'apps/web/src/app' },
        { type: 'feature', pattern: 'apps/web/src/features/*', capture: ['name'] },
        { type: 'shared', pattern: 'apps/web/src/{components,lib}' },
        { type: 'locales', pattern: 'apps/web/src/locales' },
        { type: 'web-main', pattern: 'apps/web/src/main.tsx', mode: 'file' },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'apps/server/src/test/**', 'apps/web/src/test/**'],
    rules: {
      // Imports within one element (one module, one feature, one layer folder) are free.
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: {
                element: { types: ['http', 'db', 'identity', 'mail', 'webhooks', 'config'] },
              },
              disallow: { to: { element: { types: ['module', 'bootstrap'] } } },
              message:
                'The {{from.element.type}} layer lies below the modules: move the shared piece down into it, or let the module pass it in.',
            },
            {
              // A module's public surface is its index.ts; the rest is its own business.
              disallow: { to: { element: { type: 'module', fileInternalPath: '!index.ts' } } },
              message:
                'Import modules/{{to.element.captured.name}} through its index.ts, not its internal files.',
            },
            {
              // Initial data composes modules, so only the entry points that start the server run it.
              from: { element: { type: '!{app,bootstrap}' } },
              disallow: { to: { element: { type: 'bootstrap' } } },
              message: 'Only app.ts, main.ts and bootstrap/ compose the bootstrap code.',
            },
            {
              disallow: { to: { element: { types: ['test', 'web-test'] } } },
              message: 'Production code never imports test helpers.',
            },
            {
              from: { element: { type: 'feature' } },
              disallow: { to: { element: { types: ['web-app', 'feature', 'web-main'] } } },
              message:
                'features/{{from.element.captured.name}} must not import {{to.element.type}} {{to.element.captured.name}}: move the shared code to lib/ or components/; only app/ composes features.',
            },
            {
              from: { element: { types: ['shared', 'locales'] } },
              disallow: { to: { element: { types: ['web-app', 'feature', 'web-main'] } } },
              message: 'Shared code must not import features or app/; only app/ composes them.',
            },
          ],
        },
      ],
    },
  },
  {
    // No import cycles: a cycle makes module initialisation order matter and hides layering.
    files: [
      'apps/server/src/**/*.ts',
      'apps/web/src/**/*.{ts,tsx}',
      'packages/contract/src/**/*.ts',
    ],
    // Nothing imports a test file, so no cycle can pass through one: checking from a test file
    // only walked the graph the files it imports are checked from anyway (a third of lint).
    ignores: ['**/*.test.{ts,tsx}'],
    plugins: { import: importPlugin },
    settings: {
      // The other files of a cycle are parsed too, so TypeScript must be among their extensions.
      'import/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] } },
      // Packages cannot import our files back: no need to parse them (a large bundle overflows).
      'import/ignore': ['node_modules'],
    },
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // CommonJS entry points (apps/server/start.cjs) load with require by design.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
