import { describe, expect, it } from 'vitest'
import { firstMatch } from '../../../src/shared/policy/rules'

/**
 * firstMatch skips a rule whose command word no form starts with. That shortcut must never change
 * an answer. The reference disables it: a form whose word is not plain ASCII (here 'é', which no
 * rule but `*` matches, and `*` matches every form anyway) makes every rule's regex run.
 */
const RULES = [
  'git',
  'git push',
  'git * main',
  'npm run test:*',
  'ls *',
  'rm',
  'RM -rf',
  './git',
  'Rm*',
  'sudo rm',
  'ﬁnd',
  'git:*',
  'x\ty',
  'kubectl',
  '*'
]
const FORMS = [
  'git',
  'git push origin',
  'gitk',
  'GIT PUSH',
  'git checkout main',
  'npm run test',
  'npm run test:e2e',
  'ls',
  'lsof',
  'rm -rf /',
  'RM -RF /',
  'rmdir x',
  './git status',
  'sudo rm x',
  'find .',
  'ﬁnd .',
  'x y',
  'é x',
  'KUBECTL get',
  '\u212Aubectl get',
  ''
]

describe('the command-word shortcut in rule matching', () => {
  for (const matchCase of ['exact', 'folded'] as const)
    it(`gives the same answer as running every rule's regex (${matchCase})`, () => {
      for (let n = 1; n <= RULES.length; n++) {
        const rules = RULES.slice(0, n)
        for (const form of FORMS)
          expect(firstMatch(rules, [form], matchCase), `${matchCase} ${n} ${JSON.stringify(form)}`).toBe(
            firstMatch(rules, [form, 'é'], matchCase)
          )
      }
    })

  it('folded matching still finds a deny rule in any case', () => {
    expect(firstMatch(['rm'], ['RM -rf /'], 'folded')).toBe('rm')
    expect(firstMatch(['kubectl delete'], ['KubeCtl delete pod'], 'folded')).toBe('kubectl delete')
    expect(firstMatch(['rm'], ['RM -rf /'], 'exact')).toBeUndefined()
  })
})
