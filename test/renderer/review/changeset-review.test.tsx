// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ApprovalDecision, ChangeView } from '../../../src/shared/contract/approvals'
import { computeHunks } from '../../../src/shared/diff/hunks'
import { createFakeClient } from '../chat/fake-client'
import { button, click, mount, settle, typeInto } from '../chat/dom'

// Monaco is covered by the e2e run; here the diff pane is a plain editable field.
vi.mock('../../../src/renderer/src/monaco/MonacoDiff', () => ({
  default: (props: { path: string; modified: string; onModifiedChange?: (text: string) => void }) => (
    <textarea
      aria-label={`Proposed ${props.path}`}
      defaultValue={props.modified}
      onChange={(event) => props.onModifiedChange?.(event.target.value)}
    />
  )
}))

const { default: ChangesetReview } = await import('../../../src/renderer/src/common/review/ChangesetReview')

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n'
const original = lines(20)
const proposed = original.replace('line 2\n', 'line 2 changed\n').replace('line 18\n', 'line 18 changed\n')

const change = (id: string, path: string, extra: Partial<ChangeView> = {}): ChangeView => ({
  id,
  taskId: 't',
  callId: 'c',
  path,
  operation: 'modify',
  original,
  proposed,
  hunks: computeHunks(original, proposed),
  status: 'proposed',
  auto: false,
  createdAt: 0,
  ...extra
})

let cleanup: (() => void) | null = null
afterEach(() => {
  cleanup?.()
  cleanup = null
})

async function review(changes: ChangeView[], fake = createFakeClient()) {
  const decisions: ApprovalDecision[] = []
  const view = await mount(
    <ChangesetReview changes={changes} approvalId="ap1" onDecide={async (decision) => void decisions.push(decision)} />,
    fake.client
  )
  cleanup = view.unmount
  await settle()
  return { view, decisions }
}

describe('ChangesetReview', () => {
  it('accepts one hunk and rejects another', async () => {
    const { view, decisions } = await review([change('ch1', 'src/a.ts')])
    expect(view.container.querySelectorAll('.hunk')).toHaveLength(2)
    await click(button(view.container, 'Reject hunk 2'))
    expect(view.container.textContent).toContain('1 of 2 hunks accepted')
    await click(button(view.container, 'Accept selected hunks'))
    expect(decisions).toEqual([
      {
        approvalId: 'ap1',
        outcome: 'approve',
        scope: 'call',
        reason: undefined,
        changes: [{ changeId: 'ch1', acceptedHunks: ['h1'] }]
      }
    ])
  })

  it('a new file’s hunk spans its lines only, with no row for its final newline', async () => {
    const created = {
      ...change('ch1', 'src/new.ts'),
      operation: 'create' as const,
      original: '',
      proposed: 'one\ntwo\n',
      hunks: computeHunks('', 'one\ntwo\n')
    }
    const { view } = await review([created])
    expect(view.container.querySelector('.hunk')?.textContent).toContain('Hunk 1 · lines 1–2 · +2 −0')
  })

  it('reviews several files as one changeset and sends the edited proposal', async () => {
    const { view, decisions } = await review([change('ch1', 'src/a.ts'), change('ch2', 'src/b.ts')])
    const files = view.container.querySelector('[aria-label="Changed files"]')!
    expect([...files.querySelectorAll('.path')].map((p) => p.textContent)).toEqual(['src/a.ts', 'src/b.ts'])
    await click(button(files, 'src/b.ts, modify'))
    const editor = view.container.querySelector<HTMLTextAreaElement>('textarea[aria-label="Proposed src/b.ts"]')!
    const edited = proposed.replace('line 2 changed', 'line 2 edited by me')
    await typeInto(editor, edited)
    expect(view.container.textContent).toContain('You edited the proposed side')
    await click(button(view.container, 'Accept all changes'))
    expect(decisions[0].changes).toEqual([{ changeId: 'ch1' }, { changeId: 'ch2', editedContent: edited }])
  })

  it('rejects everything with the reason for the model', async () => {
    const { view, decisions } = await review([change('ch1', 'src/a.ts')])
    await typeInto(
      view.container.querySelector<HTMLTextAreaElement>('.changeset-actions textarea')!,
      'keep the old API'
    )
    await click(button(view.container, 'Reject all changes'))
    expect(decisions).toEqual([{ approvalId: 'ap1', outcome: 'reject', scope: 'call', reason: 'keep the old API' }])
  })

  it('shows a conflict when the file changed on disk', async () => {
    const { view } = await review([
      change('ch1', 'src/a.ts', { status: 'failed', conflict: 'src/a.ts changed on disk since the proposal' })
    ])
    expect(view.container.querySelector('.conflict')?.textContent).toBe(
      'Conflict: src/a.ts changed on disk since the proposal'
    )
    expect(view.container.querySelector('.conflict-flag')).not.toBeNull()
  })

  it('warns before accepting when a file changed on disk since the proposal', async () => {
    const fake = createFakeClient({
      'changes:check': (input: { changeIds: string[] }) => [
        {
          changeId: input.changeIds[0],
          conflict: true,
          message: 'src/a.ts changed on disk since the change was proposed, and hunks h1 no longer apply'
        },
        {
          changeId: input.changeIds[1],
          conflict: false,
          message: 'src/b.ts changed on disk since the change was proposed; accepting merges the change onto it'
        }
      ]
    })
    const { view } = await review([change('ch1', 'src/a.ts'), change('ch2', 'src/b.ts')], fake)
    expect(fake.callsTo('changes:check')).toEqual([{ changeIds: ['ch1', 'ch2'] }])
    expect(view.container.querySelector('.conflict')?.textContent).toBe(
      'Conflict: src/a.ts changed on disk since the change was proposed, and hunks h1 no longer apply'
    )
    await click(button(view.container, 'src/b.ts, modify, changed on disk'))
    expect(view.container.querySelector('.drift')?.textContent).toContain('Changed on disk: src/b.ts changed on disk')
    expect(button(view.container, 'src/a.ts, modify, conflict')).toBeTruthy()
  })
})
