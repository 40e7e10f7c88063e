import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import noSqlOutsideStore from './eslint/rules/no-sql-outside-store.js';

const noElectron = {
  name: 'electron',
  message:
    'Only src/main and src/preload may import electron (and the Electron e2e suite): core, shared, sandbox, cli, scripts and tests run under plain Node, the renderer in a sandboxed page.',
};
const noNodeBuiltins = {
  group: ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'https', 'net', 'crypto'],
  message: 'This code runs in the renderer or in both processes: no Node built-ins.',
};

export default tseslint.config(
  {
    ignores: [
      'out/',
      'dist/',
      'test-results/',
      'coverage/',
      'node_modules/',
      '.scratch/',
      // Files that break the boundary rules on purpose; test/unit/lint-boundaries.test.ts lints them.
      'test/fixtures/lint/',
    ],
  },
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
    files: ['src/shared/**', 'src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': ['error', { patterns: [noNodeBuiltins] }] },
  },
  // Boundaries: who may import what (table in docs/ARCHITECTURE.md). Each rule has a test that
  // feeds it a violating file: test/unit/lint-boundaries.test.ts.
  {
    name: 'boundaries/resolver',
    plugins: { 'import-x': importX },
    settings: {
      // Relative imports without extensions, no path aliases: the Node resolver with our extensions.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.svelte', '.json'] })],
      // Modules the cycle rule reads: TypeScript and JavaScript. Components (.svelte) are linted
      // themselves but not followed (a component may render itself; parsing one needs its own parser).
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
  },
  {
    name: 'boundaries/layers',
    files: ['src/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: './src/core',
              from: './src/sandbox',
              message: 'src/core never imports the sandbox: demo mode gets its service injected (CoreOptions.demo).',
            },
            {
              target: './src/renderer',
              from: './src',
              except: ['./renderer', './shared'],
              message: 'The renderer imports only src/shared, its own files and packages; main is reached over IPC.',
            },
          ],
        },
      ],
    },
  },
  {
    name: 'boundaries/electron',
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.svelte'],
    ignores: ['src/main/**', 'src/preload/**', 'test/e2e/electron/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [noElectron], patterns: [{ group: ['electron/*'], message: noElectron.message }] },
      ],
    },
  },
  {
    name: 'boundaries/no-cycle',
    files: ['**/*.ts', '**/*.svelte'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
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
