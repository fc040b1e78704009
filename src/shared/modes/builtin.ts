import type { ModeConfig } from './schema'

export const DEFAULT_MODE_SLUG = 'code'

const READ_ONLY_AUTO_APPROVE = { read: true } as const

/**
 * Code and Debug auto-approve commands that match their allow list: the project's tests and
 * read-only git. Everything else asks; deny rules, writes and always-ask constructs still apply.
 */
export const CODE_COMMAND_RULES = {
  allow: [
    'npm test *',
    'npm run test *',
    'pnpm test *',
    'pnpm run test *',
    'yarn test *',
    'bun test *',
    'npx vitest run *',
    'npx jest *',
    'pytest *',
    'python -m pytest *',
    'python3 -m pytest *',
    'cargo test *',
    'go test *',
    'git status *',
    'git diff *',
    'git log *',
    'git show *',
    'git blame *',
    'git ls-files *',
    'git rev-parse *',
    'git branch --show-current'
  ]
} as const

const CODE_AUTO_APPROVE = { read: true, command: true } as const

/**
 * Code and Debug run commands in the OS sandbox wherever it can start: writes to the workspace and
 * the temp dir, protected paths read-only, credential stores unreadable, each new host (loopback
 * too) asked. A user may turn it off per mode in the mode editor.
 */
export const DEFAULT_MODE_SANDBOX = { enabled: true, whereAvailable: true, network: 'ask' } as const

/** Modus's own built-in modes. Every one auto-approves reads inside the workspace; Code and Debug also their allow-listed commands. */
export const BUILT_IN_MODES: readonly ModeConfig[] = [
  {
    slug: 'code',
    name: 'Code',
    roleDefinition:
      'You are Modus, a careful software engineer working inside the user’s project. You make focused, correct changes and verify them.',
    whenToUse: 'Writing, changing or refactoring code, and running the commands that check it.',
    description: 'Write and change code',
    customInstructions:
      'Read the code you touch before editing it. Prefer small targeted edits over rewriting files. Run the project’s tests or type checker after a change when one exists.',
    groups: ['read', 'edit', 'command', 'browser', 'mcp'],
    autoApprove: { ...CODE_AUTO_APPROVE },
    commandRules: { allow: [...CODE_COMMAND_RULES.allow] },
    sandbox: { ...DEFAULT_MODE_SANDBOX }
  },
  {
    slug: 'architect',
    name: 'Architect',
    roleDefinition:
      'You are Modus in planning mode: you study the project, ask what is unclear and write a plan others can follow.',
    whenToUse: 'Designing a change or breaking a large task into steps before any code is written.',
    description: 'Plan before building',
    customInstructions:
      'Gather context first. Keep the plan as a todo list with update_todo_list. Write longer plans as Markdown files. Give no time estimates. Switch to Code mode when the user approves the plan.',
    groups: ['read', ['edit', { fileRegex: '\\.md$', description: 'Markdown files only' }], 'browser', 'mcp'],
    autoApprove: { ...READ_ONLY_AUTO_APPROVE }
  },
  {
    slug: 'ask',
    name: 'Ask',
    roleDefinition:
      'You are Modus as a technical guide: you answer questions about code and technology clearly and accurately, without changing anything.',
    whenToUse: 'Explanations, code walkthroughs and questions that need no changes.',
    description: 'Answer questions, change nothing',
    customInstructions:
      'Read the relevant code before answering and cite the files you rely on. Use diagrams when they help. Do not propose to edit files unless asked.',
    groups: ['read', 'mcp'],
    autoApprove: { ...READ_ONLY_AUTO_APPROVE }
  },
  {
    slug: 'debug',
    name: 'Debug',
    roleDefinition: 'You are Modus as a debugger: you find the cause of a failure by evidence before you fix it.',
    whenToUse: 'Tracking down bugs, failing tests, crashes and unexpected behaviour.',
    description: 'Find the cause, then fix',
    customInstructions:
      'List the plausible causes, narrow them to the one or two most likely, and confirm with logs, tests or a reproduction before changing code. Tell the user the diagnosis before the fix.',
    groups: ['read', 'edit', 'command', 'mcp'],
    autoApprove: { ...CODE_AUTO_APPROVE },
    commandRules: { allow: [...CODE_COMMAND_RULES.allow] },
    sandbox: { ...DEFAULT_MODE_SANDBOX }
  },
  {
    slug: 'orchestrator',
    name: 'Orchestrator',
    roleDefinition:
      'You are Modus as a coordinator: you split complex work into subtasks and delegate each to the mode best suited for it.',
    whenToUse: 'Large tasks that span several areas or need different modes in turn.',
    description: 'Split work into subtasks',
    customInstructions:
      'Break the task into self-contained subtasks. Delegate each with new_task, giving the full context it needs and what it must report back. Track progress with update_todo_list and summarise the results at the end.',
    groups: [],
    autoApprove: { ...READ_ONLY_AUTO_APPROVE }
  }
]

export const isBuiltInSlug = (slug: string): boolean => BUILT_IN_MODES.some((mode) => mode.slug === slug)
