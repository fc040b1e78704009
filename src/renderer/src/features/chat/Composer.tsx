import { FormError } from '../../components/FormError'
import { Icon } from '../../components/icons'
import { useRef, useState, type ReactNode } from 'react'
import { useClient } from '../../client/client-context'
import { useChatStore } from '../../common/chat/chat-store'
import { ModePicker, useModeOptions } from './ModePicker'
import { useApprovalsStore } from '../../common/approvals/approvals-store'
import { composerField, focusWhenReady } from '../../components/focus-after'
import { forRequest, useImageAttachments } from './attachments/use-image-attachments'
import { AttachImageButton, AttachmentTray } from './attachments/AttachmentTray'
import { useSlashCommands } from './slash-commands/use-slash-commands'
import { SlashMenu, slashComboboxProps } from './slash-commands/SlashMenu'
import { runSlashCommand } from './slash-commands/run-slash-command'
import { unavailableReason } from './slash-commands/run-builtin'
import { useMentionCompletion } from './mentions/use-mention-completion'
import { comboboxProps, fieldProps, MentionPopover } from './mentions/MentionPopover'

/** Starts a task or continues the active one, in the mode picked here; cancels a running task. */
export function Composer(): ReactNode {
  const client = useClient()
  const activeTaskId = useChatStore((state) => state.activeTaskId)
  const status = useChatStore((state) =>
    activeTaskId ? (state.views[activeTaskId]?.status ?? state.tasks[activeTaskId]?.status) : undefined
  )
  const taskMode = useChatStore((state) =>
    activeTaskId ? (state.views[activeTaskId]?.mode ?? state.tasks[activeTaskId]?.mode ?? null) : null
  )
  const picked = useChatStore((state) => state.composerMode)
  const modes = useModeOptions()
  const mode = picked ?? taskMode ?? modes.defaultSlug
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [note, setNote] = useState<string | null>(null)
  const busy = status === 'running' || status === 'waiting'
  const attachments = useImageAttachments()
  const slash = useSlashCommands(client, text, setText)
  const field = useRef<HTMLTextAreaElement>(null)
  const mentions = useMentionCompletion(text, setText, field)

  const send = async (): Promise<void> => {
    let message = text.trim()
    // An image alone is a message too.
    if (!message && attachments.images.length === 0) return
    setError(null)
    setNote(null)
    try {
      const command = await slash.invoked(message)
      if (command) {
        const ran = await runSlashCommand(
          client,
          command,
          modes.options.map((option) => option.slug),
          busy
        )
        if (ran.note !== undefined) {
          setNote(ran.note)
          setText('')
          return
        }
        message = ran.prompt
      }
      const switchMode = picked && picked !== taskMode ? picked : undefined
      const images = forRequest(attachments.images)
      await useChatStore.getState().submit(client, { text: message, mode, switchMode, images })
      setText('')
      attachments.clear()
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    }
  }

  const cancel = async (): Promise<void> => {
    if (!activeTaskId) return
    // Cancel turns into Send (disabled while the field is empty): the keyboard goes on to the message field.
    focusWhenReady(composerField)
    const problem = await useChatStore.getState().cancel(client, activeTaskId)
    if (problem) setError(problem)
  }

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault()
        void send()
      }}
    >
      {!activeTaskId && <LeftTaskNotice />}
      <SlashMenu slash={slash} unavailable={(name) => unavailableReason(name, { taskId: activeTaskId, busy })} />
      <AttachmentTray attachments={attachments} />
      <div className="composer-field" {...comboboxProps(mentions)}>
        <textarea
          ref={field}
          {...fieldProps(mentions)}
          {...slashComboboxProps(slash)}
          onPaste={attachments.onPaste}
          onDrop={attachments.onDrop}
          onDragOver={attachments.onDragOver}
          aria-label="Message"
          placeholder={
            activeTaskId
              ? 'Answer or give more instructions…'
              : 'Describe a task…  (Enter to send, Shift+Enter for a new line)'
          }
          value={text}
          onChange={(event) => {
            setText(event.target.value)
            mentions.update(event.target.value, event.target.selectionStart, true)
          }}
          onBlur={mentions.close}
          onKeyDown={(event) => {
            if (slash.onKeyDown(event)) return
            if (mentions.onKeyDown(event)) return
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault()
              void send()
            }
          }}
        />
        <MentionPopover completion={mentions} />
      </div>
      <div className="composer-actions">
        <ModePicker
          options={modes.options}
          value={mode}
          onChange={(slug) => useChatStore.getState().setComposerMode(slug)}
        />
        <AttachImageButton attachments={attachments} />
        <span className="spacer" />
        {activeTaskId && (
          <button
            type="button"
            onClick={() => useChatStore.getState().startNewTask()}
            title={busy ? 'This task carries on; you find it again in History' : 'Start a new task'}
          >
            <Icon name="plus" />
            New task
          </button>
        )}
        {busy ? (
          <button type="button" onClick={() => void cancel()}>
            Cancel
          </button>
        ) : (
          <button type="submit" disabled={!text.trim() && attachments.images.length === 0}>
            <Icon name="send" />
            Send
          </button>
        )}
      </div>
      <FormError message={error} />
      {note && (
        <p className="note slash-note" role="status">
          {note}
        </p>
      )}
    </form>
  )
}

/** After "New task": the task left behind keeps running or waiting, and one click goes back to it. */
function LeftTaskNotice(): ReactNode {
  const id = useChatStore((state) => state.leftTaskId)
  const status = useChatStore((state) => (id ? (state.views[id]?.status ?? state.tasks[id]?.status) : undefined))
  const title = useChatStore((state) => (id ? state.tasks[id]?.title : undefined))
  const approvals = useApprovalsStore((state) => state.items.filter((item) => item.taskId === id).length)
  if (!id || (status !== 'running' && status !== 'waiting')) return null
  const where =
    approvals > 0
      ? `its ${approvals === 1 ? 'approval stays' : `${approvals} approvals stay`} in Approvals.`
      : 'it stays in History.'
  return (
    <p className="note left-task" role="status">
      “{title ?? 'The previous task'}”{' '}
      {status === 'waiting' ? `keeps waiting for you: ${where}` : 'keeps running in the background.'}{' '}
      <button type="button" className="link" onClick={() => useChatStore.getState().setActiveTask(id)}>
        Back to it
      </button>
    </p>
  )
}
