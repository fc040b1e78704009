// `npm run lint` (and a step of `npm test`): ESLint with type information, then Prettier's check.
// Exits non-zero on any finding; `--fix` applies ESLint's fixes and Prettier's formatting instead.
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..')
const fix = process.argv.includes('--fix')

export function lint({ fix: applyFixes = false } = {}) {
  const eslint = spawnSync(
    process.execPath,
    [
      '--require',
      resolve(root, 'scripts/lint/typescript-api.cjs'),
      resolve(root, 'node_modules/eslint/bin/eslint.js'),
      '--max-warnings=0',
      ...(applyFixes ? ['--fix'] : []),
      '.'
    ],
    { cwd: root, stdio: 'inherit' }
  ).status
  const prettier = spawnSync(
    process.execPath,
    [
      resolve(root, 'node_modules/prettier/bin/prettier.cjs'),
      applyFixes ? '--write' : '--check',
      '--log-level=warn',
      '.'
    ],
    { cwd: root, stdio: 'inherit' }
  ).status
  if (eslint !== 0) console.error('lint: ESLint found problems')
  if (prettier !== 0) console.error('lint: files are not formatted (run `npm run lint -- --fix`)')
  return eslint === 0 && prettier === 0
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  process.exit(lint({ fix }) ? 0 : 1)
}
