// ESLint for the whole repository: typescript-eslint's type-checked recommended rules on TypeScript,
// React's hook rules in the renderer, and plain recommended rules on the .mjs scripts. Run through
// `node scripts/lint.mjs` (part of `npm test`), which supplies the TypeScript API these rules need.
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'src/shared/universal-globals.d.ts',
      'out/**',
      'dist/**',
      'node_modules/**',
      'resources/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**'
    ]
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } }
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.json'], tsconfigRootDir: import.meta.dirname }
    }
  },
  {
    // The classic hook rules. The plugin's React Compiler rules (refs, set-state-in-effect, …) judge code
    // for the compiler's memoisation, which this renderer does not use.
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // The renderer runs on Preact's compat layer (preact-compat.config.ts), where these props do less.
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='autoFocus']",
          message: 'Preact only sets the attribute, which a page honours once: use ref={focusOnMount}.'
        },
        {
          selector: "JSXOpeningElement[name.name=/^[a-z]/] > JSXAttribute[name.name='onSelect']",
          message: "Preact's onSelect is the native select event, not fired by caret moves: use selectionchange."
        }
      ]
    }
  },
  {
    // Tests, e2e specs and benchmarks read untyped JSON off the wire and logs to assert on it, stub async
    // interfaces with plain values, and pass methods to `expect`: the rules against those patterns protect
    // production code and would only add casts here.
    files: ['test/**', 'e2e/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off'
    }
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      // Modus builds objects with factories whose functions are closures that never read `this`
      // (architecture.md: factories, no classes), so passing `store.add` along cannot lose a receiver;
      // the compiler already checks every signature.
      '@typescript-eslint/unbound-method': 'off',
      // `async` on a function without `await` is deliberate here: IPC handlers, tool executors and ports
      // implement promise-returning interfaces, and `async` turns a synchronous throw into the rejection
      // their callers handle.
      '@typescript-eslint/require-await': 'off',
      // `_`-prefixed names mark parameters an interface requires but this implementation does not use.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }
      ]
    }
  },
  {
    // Shell parsing, path checks and terminal output handling match control characters on purpose.
    rules: { 'no-control-regex': 'off' }
  }
)
