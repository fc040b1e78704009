// Run in a child process by file-regex.test.ts: a catastrophic pattern from a project's modes file
// checked against a crafted path. On a backtracking engine this never returns.
import { checkFileRestriction } from '../../../../src/shared/policy/tool-access'

const mode = { slug: 'evil', name: 'Evil', roleDefinition: 'x', groups: ['read'] } as never
try {
  checkFileRestriction(mode, { fileRegex: '^(a+)+$' }, 'write_to_file', [`${'a'.repeat(48)}!`])
  console.log('allowed')
} catch (error) {
  console.log((error as Error).name)
}
