import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import noSqlOutsideStore from './eslint/rules/no-sql-outside-store.js';

const noElectron = {
  name: 'electron',
  message: 'Only src/main and src/preload may import electron: core, shared, sandbox and cli run under plain Node.',
};
const noNodeBuiltins = {
  group: ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'https', 'net', 'crypto'],
  message: 'This code runs in the renderer or in both processes: no Node built-ins.',
};

export default tseslint.config(
  { ignores: ['out/', 'dist/', 'test-results/', 'coverage/', 'node_modules/', '.scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        project: [
          './tsconfig.node.json',
          './tsconfig.web.json',
          './test/e2e/tsconfig.json',
          './test/bench/tsconfig.json',
        ],
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.svelte'],
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/only-throw-error': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { parser: tseslint.parser },
    },
  },
  {
    files: ['src/core/**', 'src/sandbox/**', 'src/cli/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] },
  },
  {
    files: ['src/shared/**', 'src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noNodeBuiltins] }] },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Playwright fixtures take an empty destructuring pattern by design.
    files: ['test/e2e/**'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    // Tests read JSON:API documents as they come over the wire; types there would only restate the assertions.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // SQL only in the store (and the simulator's own tables): no better-sqlite3 import, and no
    // prepare/exec/pragma/transaction on a value typed as its Database. Test: lint-boundaries-sql.test.ts.
    name: 'boundaries/sql-in-store',
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.svelte'],
    ignores: ['src/core/store/**', 'src/sandbox/**', 'test/**'],
    plugins: { 'quayside-store': { rules: { 'no-sql-outside-store': noSqlOutsideStore } } },
    rules: { 'quayside-store/no-sql-outside-store': 'error' },
  },
);
