import { useId, useState, type FormEvent, type ReactNode } from 'react'
import { useClient } from '../../client/client-context'
import { FormError } from '../../components/FormError'
import { useWorktreesStore } from './worktrees-store'
import { focusOnMount } from '../../components/focus-after'

/** "Task in a worktree…": a task on its own branch and folder, optionally with the main tree's uncommitted changes. */
export function NewWorktreeTask(): ReactNode {
  const client = useClient()
  const id = useId()
  const [open, setOpen] = useState(false)
  const [text, setText] = useState('')
  const [name, setName] = useState('')
  const [carry, setCarry] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault()
    if (!text.trim()) return setError('Say what the task should do.')
    setBusy(true)
    setError(null)
    try {
      await useWorktreesStore
        .getState()
        .start(client, { text: text.trim(), name: name.trim() || undefined, carryChanges: carry })
      setText('')
      setName('')
      setCarry(false)
      setOpen(false)
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    } finally {
      setBusy(false)
    }
  }

  if (!open) {
    return (
      <button type="button" className="primary" onClick={() => setOpen(true)}>
        Task in a worktree…
      </button>
    )
  }
  return (
    <form className="new-worktree-task" aria-label="Task in a worktree" onSubmit={(event) => void submit(event)}>
      <label htmlFor={`${id}-text`}>What should the task do?</label>
      <textarea
        id={`${id}-text`}
        value={text}
        rows={3}
        ref={focusOnMount}
        onChange={(event) => setText(event.target.value)}
      />
      <label htmlFor={`${id}-name`}>Name (optional; its branch is modus/&lt;name&gt;)</label>
      <input id={`${id}-name`} value={name} onChange={(event) => setName(event.target.value)} />
      <div>
        <input
          id={`${id}-carry`}
          type="checkbox"
          checked={carry}
          onChange={(event) => setCarry(event.target.checked)}
        />{' '}
        <label htmlFor={`${id}-carry`}>Carry my uncommitted changes into it</label>
      </div>
      <FormError message={error} />
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          Start in a worktree
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  )
}
