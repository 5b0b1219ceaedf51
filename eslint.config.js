import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const webSrc = resolve(dirname(fileURLToPath(import.meta.url)), 'apps/web/src');

/** The feature folder a path of apps/web/src lies in ('auth' for features/auth/...), else null. */
function featureOf(path) {
  const parts = relative(webSrc, path).split(sep);
  return parts[0] === 'features' && parts.length > 2 ? parts[1] : null;
}

/**
 * bulletproof-react's import boundaries (docs/decisions/): a feature never imports another feature,
 * and shared code (lib/, components/, ...) never imports a feature; only app/ composes them.
 * The import is resolved against the importing file, so `../../tenant/x` is caught as well
 * as `../features/tenant/x` or `@/features/tenant/x`.
 */
const featureBoundaries = {
  meta: {
    type: 'problem',
    messages: {
      crossFeature:
        'features/{{from}} must not import features/{{to}}: move the shared code to lib/ or components/.',
      sharedImportsFeature:
        'Shared code must not import features/{{to}}; only app/ composes features.',
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    if (relative(webSrc, file).startsWith('..')) return {};
    const from = featureOf(file);
    const inApp = relative(webSrc, file).split(sep)[0] === 'app';
    const check = (node) => {
      const source = node?.type === 'Literal' ? node.value : null;
      if (typeof source !== 'string') return;
      let target;
      if (source.startsWith('.')) target = resolve(dirname(file), source);
      else if (source.startsWith('@/')) target = resolve(webSrc, source.slice(2));
      else return;
      const to = featureOf(target);
      if (!to || to === from || (inApp && !from)) return;
      context.report({
        node,
        messageId: from ? 'crossFeature' : 'sharedImportsFeature',
        data: { from, to },
      });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**'] },
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
    plugins: {
      'react-hooks': reactHooks,
      architecture: { rules: { 'feature-boundaries': featureBoundaries } },
    },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'architecture/feature-boundaries': 'error',
    },
  },
  {
    // CommonJS entry points (apps/server/start.cjs) load with require by design.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
