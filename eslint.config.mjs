// Lint with the layer rules of docs/architecture.md: core imports neither vscode nor the MCP SDK, server never
// imports vscode, extension never imports server (it launches the bundle by path); no console in server/extension/core.
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ['error', { patterns }];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.tools/**', 'test-results/**', 'bench/.work/**', '**/*.mjs', '**/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['vscode'], message: 'core must not depend on the VS Code API' },
        { group: ['@modelcontextprotocol/*'], message: 'core must not depend on the MCP SDK' },
        { group: ['**/server/**', '**/extension/**', '**/cli/**'], message: 'core is the bottom layer' },
      ]),
      'no-console': 'error',
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['vscode'], message: 'the server runs outside VS Code' },
        { group: ['**/extension/**'], message: 'the server must not depend on the extension' },
      ]),
      'no-console': 'error',
    },
  },
  {
    files: ['src/extension/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['**/server/**', '@modelcontextprotocol/*'], message: 'the extension launches dist/server.js by path; it does not import the server' },
      ]),
      'no-console': 'error',
    },
  },
);
