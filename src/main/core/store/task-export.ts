import type { AgentEvent } from '../../../shared/agent/events'
import type { ReplayedTask } from './task-replay'

/** A readable transcript: what the user saw, in order, with tool calls and their results. */
export function exportTaskMarkdown(task: ReplayedTask): string {
  const lines: string[] = [
    `# ${task.meta.title}`,
    '',
    `- Task: ${task.meta.id}`,
    `- Mode: ${task.mode}`,
    `- Workspace: ${task.meta.workspace}`,
    `- Started: ${new Date(task.meta.createdAt).toISOString()}`
  ]
  if (task.costUsd !== null) lines.push(`- Cost: $${task.costUsd.toFixed(4)}`)
  lines.push('')
  let assistantText = ''
  const flush = () => {
    if (assistantText.trim()) lines.push('## Assistant', '', assistantText.trim(), '')
    assistantText = ''
  }
  for (const event of task.events) {
    if (event.type === 'text-delta') {
      assistantText += event.text
      continue
    }
    const block = describe(event)
    if (block) {
      flush()
      lines.push(...block, '')
    }
  }
  flush()
  return lines.join('\n')
}

function describe(event: AgentEvent): string[] | null {
  switch (event.type) {
    case 'user-message':
      return ['## User', '', event.text]
    case 'tool-call':
      return [`### Tool call: ${event.name}`, '', fence(JSON.stringify(event.args, null, 2), 'json')]
    case 'tool-result':
      return [`#### Result${event.isError ? ' (error)' : ''}`, '', fence(event.text)]
    case 'tool-decision':
      return event.decision === 'allow' ? null : [`> Policy: ${event.decision} (${event.rule}) — ${event.reason}`]
    case 'completion':
      return ['## Result', '', event.result]
    case 'followup':
      return [
        '## Question',
        '',
        event.question,
        ...event.suggestions.map((s) => `- ${s.answer}${s.mode ? ` (→ ${s.mode})` : ''}`)
      ]
    case 'mode-changed':
      return [`> Mode: ${event.mode}${event.reason ? ` — ${event.reason}` : ''}`]
    case 'context-condensed':
      return ['> Context condensed. Summary:', '', event.summary]
    case 'error':
      return [`> Error: ${event.message}`]
    case 'subtask':
      return [`> Subtask ${event.childId} (${event.mode}) ${event.status}${event.result ? `: ${event.result}` : ''}`]
    default:
      return null
  }
}

const fence = (text: string, lang = ''): string => {
  const ticks = text.includes('```') ? '````' : '```'
  return `${ticks}${lang}\n${text}\n${ticks}`
}

/** Everything the log holds, for tools and bug reports. */
export function exportTaskJson(task: ReplayedTask): string {
  return JSON.stringify(
    {
      meta: task.meta,
      mode: task.mode,
      todos: task.todos,
      costUsd: task.costUsd,
      events: task.events,
      messages: task.messages
    },
    null,
    2
  )
}

/** The task as a file to save: a readable transcript (markdown) or the full record (json). */
export function exportTaskFile(task: ReplayedTask, format: 'markdown' | 'json'): { fileName: string; content: string } {
  const base = `modus-task-${slugOf(task.meta.title)}-${task.meta.id.slice(0, 8)}`
  return format === 'markdown'
    ? { fileName: `${base}.md`, content: exportTaskMarkdown(task) }
    : { fileName: `${base}.json`, content: exportTaskJson(task) }
}

const slugOf = (title: string): string =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'task'
