// @vitest-environment happy-dom
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createModeHandlers, createModeStore } from '../../../src/main/core/modes'
import { routeEvents } from '../../../src/renderer/src/client/event-router'
import { createModesApi } from '../../../src/renderer/src/features/modes/client-modes-api'
import { ModesScreen } from '../../../src/renderer/src/features/modes/ModesView'
import { useModesStore } from '../../../src/renderer/src/features/modes/modes-store'
import { byButton, byLabel, click, inProcessClient, render, type, waitFor, type Rendered } from './dom'

let root: string
let workspace: string
let dataDir: string
let view: Rendered | undefined
let stopRouting: (() => void) | undefined

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'modus-modes-ui-'))
  workspace = join(root, 'project')
  dataDir = join(root, 'data')
  mkdirSync(join(workspace, 'docs'), { recursive: true })
  mkdirSync(dataDir)
  writeFileSync(join(workspace, 'README.md'), '# hi\n')
  writeFileSync(join(workspace, 'docs', 'guide.md'), '# guide\n')
  writeFileSync(join(workspace, 'index.ts'), 'export {}\n')
  useModesStore.setState({ listing: null, selection: null, revision: 0 })
})

afterEach(() => {
  view?.unmount()
  view = undefined
  stopRouting?.()
  stopRouting = undefined
  rmSync(root, { recursive: true, force: true })
})

let store: ReturnType<typeof createModeStore>

async function mount(withWorkspace = true, projectTrusted?: boolean): Promise<Rendered> {
  store = createModeStore({ dataDir, workspaceRoot: withWorkspace ? workspace : undefined })
  // Store changes reach the page as `modes:changed`, as the core's wiring sends them.
  const client = inProcessClient(createModeHandlers(store), (listener) =>
    store.onChange((snapshot) => listener('modes:changed', snapshot))
  )
  // As in the app, the event router hands `modes:changed` to the modes slice.
  stopRouting = routeEvents(client)
  view = await render(<ModesScreen api={createModesApi(client)} projectTrusted={projectTrusted} />, client)
  await waitFor(() => view!.container.querySelector('nav[aria-label="Mode list"]'))
  return view
}

const modeButton = (container: HTMLElement, name: RegExp) =>
  [...container.querySelectorAll<HTMLButtonElement>('nav[aria-label="Mode list"] button')].find((b) =>
    name.test(b.textContent ?? '')
  )

describe('mode editor', () => {
  it('lists the built-in modes in their group', async () => {
    const { container } = await mount()
    const names = [...container.querySelectorAll('nav[aria-label="Mode list"] .mode-item span:first-child')].map(
      (n) => n.textContent
    )
    expect(names).toEqual(['Code', 'Architect', 'Ask', 'Debug', 'Orchestrator'])
    expect(container.querySelector('.mode-group h2')?.textContent).toBe('Built-in')
  })

  it('creates a project mode; its pattern lists matching files and the file holds it', async () => {
    const { container } = await mount()
    await click(byButton(container, 'New mode'))
    const form = container.querySelector<HTMLFormElement>('form[aria-label="New mode"]')!
    await type(byLabel(form, 'Name'), 'Docs Writer')
    expect(byLabel(form, 'Slug').value).toBe('docs-writer')
    await type(byLabel<HTMLTextAreaElement>(form, 'Role definition'), 'You maintain the docs.')
    await click(byLabel(form, /^Edit \(/))
    await type(byLabel(form, 'File pattern for edits (regular expression)'), '\\.md$')
    const matches = await waitFor(() => form.querySelector('[aria-label="Matching files"]'))
    expect([...matches.querySelectorAll('li')].map((li) => li.textContent).sort()).toEqual([
      'README.md',
      'docs/guide.md'
    ])
    expect(matches.textContent).toContain('2 files of 3 in the workspace match.')

    await click(byLabel(form, 'Edit files'))
    await type(byLabel<HTMLTextAreaElement>(form, 'Deny'), 'git push *')
    await click(byButton(form, 'Save mode'))
    await waitFor(() => container.querySelector('form[aria-label="Edit mode Docs Writer"]'))
    const saved = readFileSync(join(workspace, '.modus', 'modes.yaml'), 'utf8')
    expect(saved).toContain('slug: docs-writer')
    expect(saved).toContain('edit: true')
    expect(saved).toContain('git push *')
    expect(modeButton(container, /Docs Writer/)?.textContent).not.toContain('not trusted')
  })

  it('marks project modes only while the workspace is untrusted', async () => {
    mkdirSync(join(workspace, '.modus'), { recursive: true })
    writeFileSync(
      join(workspace, '.modus', 'modes.yaml'),
      'customModes:\n  - slug: proj\n    name: Proj\n    roleDefinition: R\n    groups: [read]\n    autoApprove: { edit: true }\n'
    )
    const { container } = await mount(true, true)
    await waitFor(() => modeButton(container, /^Proj/))
    expect(modeButton(container, /^Proj/)!.textContent).not.toContain('not trusted')
    await click(modeButton(container, /^Proj/)!)
    expect(container.textContent).not.toContain('Until you trust this workspace')
  })

  it('shows errors next to the fields and writes nothing when the draft is invalid', async () => {
    const { container } = await mount()
    await click(byButton(container, 'New mode'))
    const form = container.querySelector<HTMLFormElement>('form[aria-label="New mode"]')!
    await type(byLabel(form, 'Slug'), 'no spaces allowed')
    await click(byButton(form, 'Save mode'))
    const slugInput = byLabel(form, 'Slug')
    expect(slugInput.getAttribute('aria-invalid')).toBe('true')
    const described = form.querySelector(`#${CSS.escape(slugInput.getAttribute('aria-describedby')!)}`)
    expect(described?.textContent).toBe('Slug must contain only letters, numbers and dashes')
    expect(form.textContent).toContain('Role definition must not be empty')
    expect(() => readFileSync(join(workspace, '.modus', 'modes.yaml'))).toThrow()
  })

  it('overrides a built-in with its auto-approve toggles, then resets it after confirmation', async () => {
    const { container } = await mount()
    await click(modeButton(container, /^Code/)!)
    let form = container.querySelector<HTMLFormElement>('form[aria-label="Edit mode Code"]')!
    expect(byLabel(form, 'Edit files').checked).toBe(false)
    await click(byLabel(form, 'Edit files'))
    await type(byLabel<HTMLSelectElement>(form, 'Save to'), 'global')
    await click(byButton(form, 'Save override'))
    await waitFor(() => container.textContent?.includes('overrides built-in'))
    expect(readFileSync(join(dataDir, 'modes.yaml'), 'utf8')).toContain('edit: true')

    form = container.querySelector<HTMLFormElement>('form[aria-label="Edit mode Code"]')!
    expect(byLabel(form, 'Edit files').checked).toBe(true)
    await click(byButton(form, 'Reset to built-in'))
    await click(byButton(container.querySelector('[role="alertdialog"]')!, 'Reset'))
    await waitFor(() => !container.textContent?.includes('overrides built-in'))
    form = container.querySelector<HTMLFormElement>('form[aria-label="Edit mode Code"]')!
    expect(byLabel(form, 'Edit files').checked).toBe(false)
  })

  it('edits the browser toggle and URL allow rules of a mode, refusing a rule that is not a URL', async () => {
    const { container } = await mount()
    await click(modeButton(container, /^Code/)!)
    const form = container.querySelector<HTMLFormElement>('form[aria-label="Edit mode Code"]')!
    const toggle = byLabel(form, /^Open local pages in the browser/)
    expect(toggle.checked).toBe(false)
    await click(toggle)
    const rules = byLabel<HTMLTextAreaElement>(form, 'Open without asking')
    expect(rules.disabled).toBe(false)
    await type(rules, 'https://docs.example.com\nexample.com')
    await type(byLabel<HTMLSelectElement>(form, 'Save to'), 'global')
    await click(byButton(form, 'Save override'))
    expect(rules.getAttribute('aria-invalid')).toBe('true')
    const described = form.querySelector(`#${CSS.escape(rules.getAttribute('aria-describedby')!)}`)
    expect(described?.textContent).toBe(
      'A URL rule must be an http(s):// or file:// origin or URL prefix: “example.com”'
    )
    expect(() => readFileSync(join(dataDir, 'modes.yaml'))).toThrow()

    await type(rules, 'https://docs.example.com\nhttps://example.com/app/')
    await click(byButton(form, 'Save override'))
    await waitFor(() => container.textContent?.includes('overrides built-in'))
    const saved = readFileSync(join(dataDir, 'modes.yaml'), 'utf8')
    expect(saved).toContain('browser: true')
    expect(saved).toMatch(/browserRules:\s+allow:\s+- https:\/\/docs\.example\.com\s+- https:\/\/example\.com\/app\//)
    const again = container.querySelector<HTMLFormElement>('form[aria-label="Edit mode Code"]')!
    expect(byLabel(again, /^Open local pages in the browser/).checked).toBe(true)
    expect(byLabel<HTMLTextAreaElement>(again, 'Open without asking').value).toBe(
      'https://docs.example.com\nhttps://example.com/app/'
    )

    // Without the Browser group the rules cannot be edited (they would do nothing).
    await click(byLabel(again, /^Browser \(/))
    expect(byLabel<HTMLTextAreaElement>(again, 'Open without asking').disabled).toBe(true)
  })

  it('duplicates a mode under a free slug, renames it, and deletes it after confirmation', async () => {
    const { container } = await mount()
    await click(modeButton(container, /^Architect/)!)
    await click(byButton(container, 'Duplicate'))
    let form = container.querySelector<HTMLFormElement>('form[aria-label="New mode"]')!
    expect(byLabel(form, 'Slug').value).toBe('architect-copy')
    expect(byLabel(form, 'File pattern for edits (regular expression)').value).toBe('\\.md$')
    await type(byLabel<HTMLSelectElement>(form, 'Save to'), 'global')
    await click(byButton(form, 'Save mode'))
    form = await waitFor(() =>
      container.querySelector<HTMLFormElement>('form[aria-label="Edit mode Architect (copy)"]')
    )

    await type(byLabel(form, 'Slug'), 'planner')
    await click(byButton(form, 'Save mode'))
    await waitFor(() => modeButton(container, /planner/))
    expect(modeButton(container, /architect-copy/)).toBeUndefined()

    form = container.querySelector<HTMLFormElement>('form[aria-label="Edit mode Architect (copy)"]')!
    await click(byButton(form, 'Delete'))
    await click(byButton(container.querySelector('[role="alertdialog"]')!, 'Delete'))
    await waitFor(() => !modeButton(container, /planner/))
    expect(readFileSync(join(dataDir, 'modes.yaml'), 'utf8')).not.toContain('planner')
  })

  it('imports pasted .roomodes YAML without any auto-approve, and reports a broken paste', async () => {
    const { container } = await mount()
    await click(byButton(container, 'Import…'))
    const panel = container.querySelector<HTMLFormElement>('form[aria-label="Import modes"]')!
    await type(
      byLabel<HTMLTextAreaElement>(panel, 'Or paste YAML or JSON'),
      'customModes:\n  - slug: reviewer\n    name: Reviewer\n    roleDefinition: Reviews code.\n    groups: [read]\n    autoApprove: { edit: true }\n'
    )
    // The content has Modus settings, so it reads as Modus's; chosen as Roo's, it grants nothing.
    expect(byLabel<HTMLSelectElement>(panel, 'Format').value).toBe('modus')
    await type(byLabel<HTMLSelectElement>(panel, 'Format'), 'roo')
    await type(byLabel<HTMLSelectElement>(panel, 'Import into'), 'global')
    await click(byButton(panel, 'Import'))
    await waitFor(() => panel.textContent?.includes('Imported 1 mode: reviewer'))
    await click(modeButton(container, /Reviewer/)!)
    const form = container.querySelector<HTMLFormElement>('form[aria-label="Edit mode Reviewer"]')!
    expect([...form.querySelectorAll<HTMLInputElement>('[role="switch"]')].some((toggle) => toggle.checked)).toBe(false)

    await type(byLabel<HTMLTextAreaElement>(panel, 'Or paste YAML or JSON'), 'customModes: [ {slug: x\n')
    await click(byButton(panel, 'Import'))
    const alert = await waitFor(() => panel.querySelector('[role="alert"]'))
    expect(alert.textContent).toMatch(/line \d+/)
  })

  it('keeps an unsaved draft when modes change elsewhere, and lists the new mode', async () => {
    const { container } = await mount()
    await click(modeButton(container, /^Ask/)!)
    const form = container.querySelector<HTMLFormElement>('form[aria-label="Edit mode Ask"]')!
    await type(byLabel<HTMLTextAreaElement>(form, 'Custom instructions'), 'My unsaved words')
    await store.save(
      { slug: 'from-elsewhere', name: 'From Elsewhere', roleDefinition: 'R', groups: ['read'] },
      'global'
    )
    await waitFor(() => modeButton(container, /From Elsewhere/))
    const still = container.querySelector<HTMLFormElement>('form[aria-label="Edit mode Ask"]')!
    expect(byLabel<HTMLTextAreaElement>(still, 'Custom instructions').value).toBe('My unsaved words')
  })

  it('without a workspace: no project scope, and the pattern is checked without a file list', async () => {
    const { container } = await mount(false)
    await click(byButton(container, 'New mode'))
    const scope = byLabel<HTMLSelectElement>(container, 'Save to')
    expect(scope.value).toBe('global')
    expect(scope.querySelector<HTMLOptionElement>('option[value="project"]')!.disabled).toBe(true)
    // A pattern can still be checked, but there are no files to list.
    await click(byLabel(container, /^Edit \(/))
    await type(byLabel(container, 'File pattern for edits (regular expression)'), '\\.md$')
    expect(container.textContent).toContain('Open a workspace to see which files it matches.')
    expect(container.querySelector('.file-regex .field-error')).toBeNull()
  })
})
