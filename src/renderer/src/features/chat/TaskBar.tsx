import type { ReactNode } from 'react'
import { retirementDate } from '../../../../shared/models'
import { listedModels, useProviderModelsStore } from '../../common/settings/provider-models-store'
import { useChatStore } from '../../common/chat/chat-store'
import type { TaskStatus, TaskView, UsageTotals } from '../../common/chat/task-view'

// Deliberately not "Cancelled": that word belongs to the cut-off reply itself.
const STATUS_LABEL: Record<TaskStatus, string> = {
  running: 'Working…',
  waiting: 'Waiting for you',
  idle: 'Idle',
  stopped: 'Stopped at a limit',
  completed: 'Done',
  failed: 'Failed',
  cancelled: 'Stopped',
  interrupted: 'Interrupted'
}

/** Task title, status and token/cost/context meters (a retry's countdown is a row of the chat). */
export function TaskBar({ view }: { view: TaskView }): ReactNode {
  const title = useChatStore((state) => (state.activeTaskId ? state.tasks[state.activeTaskId]?.title : undefined))
  return (
    <div className="task-bar">
      <h1 className="task-title" title={title}>
        {title ?? 'Task'}
      </h1>
      <span className={`task-status task-status-${view.status}`} aria-live="polite">
        {STATUS_LABEL[view.status]}
      </span>
      {view.mode && <span className="note">mode: {view.mode}</span>}
      {view.model && <ModelNote model={view.model} />}
      {view.usage && <Meters usage={view.usage} />}
    </div>
  )
}

/** The task's model, with its retirement date when the provider or the table gives one. */
function ModelNote({ model }: { model: string }): ReactNode {
  const retiresOn = useProviderModelsStore((state) => retirementDate(model, listedModels(state.listings)))
  return (
    <span className="note task-model">
      {model}
      {retiresOn && (
        <span className="model-retiring" title="Pick a newer model in Settings before this date">
          {' '}
          · retires {retiresOn}
        </span>
      )}
    </span>
  )
}

export const formatTokens = (n: number): string =>
  n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n)

export const formatCost = (usd: number | null): string =>
  usd === null ? 'cost unknown' : usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`

function Meters({ usage }: { usage: UsageTotals }): ReactNode {
  const share = usage.contextWindow ? Math.min(1, usage.contextTokens / usage.contextWindow) : null
  return (
    <span className="meters">
      <span title="Tokens sent / received over the whole task">
        <span aria-hidden="true">
          ↑{formatTokens(usage.inputTokens)} ↓{formatTokens(usage.outputTokens)}
        </span>
        <span className="sr-only">{`Tokens: ${usage.inputTokens} in, ${usage.outputTokens} out`}</span>
      </span>
      {(usage.cacheReadTokens > 0 || usage.cacheWriteTokens > 0) && (
        <span title="Prompt cache reads / writes">
          cache {formatTokens(usage.cacheReadTokens)}/{formatTokens(usage.cacheWriteTokens)}
        </span>
      )}
      <span className="cost" title="Cost so far">
        {formatCost(usage.costUsd)}
      </span>
      {share !== null && (
        <span className="context-meter" title={`Context: ${usage.contextTokens} of ${usage.contextWindow} tokens`}>
          <span
            className="context-bar"
            role="meter"
            aria-label="Context window used"
            aria-valuemin={0}
            aria-valuemax={usage.contextWindow!}
            aria-valuenow={usage.contextTokens}
          >
            <span style={{ width: `${Math.round(share * 100)}%` }} className={share > 0.8 ? 'high' : ''} />
          </span>
          {Math.round(share * 100)}%
        </span>
      )}
    </span>
  )
}
