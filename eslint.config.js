// Lint: typescript-eslint's strict type-checked preset over everything that is TypeScript.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'node_modules/', 'bench/peers/'] },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Numbers in messages and headers are what templates are for.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `(value) => resolve(value)` and `.on('x', () => done())` read plainly; the rule's other cases stay.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // `const { dropped: _dropped, ...rest } = value` is how a key is left out.
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // The store thread, and the front's per-request paths: on Node 20 (V8 11.3)
    // an object that begins with a spread and has more members costs about
    // 0.5 µs a further member and leaves a new hidden class in the old
    // generation each time, garbage only a full collection takes
    // (docs/design.md, "Why it is shaped this way").
    files: ['workers/**/*.ts', 'src/http/**/*.ts', 'src/store/**/*.ts', 'src/orders/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ObjectExpression > SpreadElement:first-child ~ *',
          message: 'An object that begins with a spread and goes on is slow on Node 20 and leaves garbage in the old generation: put the members first (when no key overlaps) or name every field (docs/design.md, "Why it is shaped this way").',
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // After-hooks guard services that a failed before-hook never assigned,
      // and assertions guard answers the types promise but a bug may break.
      '@typescript-eslint/no-unnecessary-condition': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable' } },
  },
);
