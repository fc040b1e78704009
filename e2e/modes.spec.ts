import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, openWorkspaceAndProvider, test } from './harness'
import { saveScreenshot } from './screenshots'

test('creates a custom mode whose file pattern lists the workspace files it matches', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Modes' }).click()
  await page.getByRole('button', { name: 'New mode' }).click()
  const editor = page.getByRole('form', { name: 'New mode' })
  await editor.getByLabel('Name', { exact: true }).fill('Docs Writer')
  await expect(editor.getByLabel('Slug')).toHaveValue('docs-writer')
  await editor.getByLabel('Role definition').fill('You write and maintain the project documentation.')
  await editor.getByLabel(/^Edit \(/).check()

  const pattern = editor.getByLabel('File pattern for edits (regular expression)')
  await pattern.fill('([')
  await expect(editor.getByText(/Invalid regular expression/)).toBeVisible()
  await pattern.fill('\\.md$')
  const matches = editor.getByRole('region', { name: 'Matching files' })
  await expect(matches.getByText('README.md')).toBeVisible()
  await expect(matches.getByText('src/greet.ts')).toHaveCount(0)
  await pattern.fill('^src/')
  await expect(matches.getByText('src/greet.ts')).toBeVisible()
  await expect(matches.getByText('README.md')).toHaveCount(0)
  await pattern.fill('\\.md$')
  await editor.getByLabel('Pattern description (shown to the model)').fill('Markdown files only')
  await expect(matches.getByText('README.md')).toBeVisible()
  await editor.getByLabel('Allow', { exact: true }).fill('npm test\ngit diff *')
  await editor.getByRole('switch', { name: 'Read files in the workspace' }).check()
  await editor.getByRole('switch', { name: 'Edit files' }).check()
  if (process.env.MODUS_SCREENSHOTS) {
    // A taller window, scrolled to the tool groups, so the picture shows the pattern and its matches.
    await page.setViewportSize({ width: 1280, height: 960 })
    await page
      .getByRole('group', { name: 'Tool groups' })
      .evaluate((element) => element.scrollIntoView({ block: 'start' }))
    await saveScreenshot(page, 'modes')
    await page.setViewportSize({ width: 1280, height: 800 })
  }
  await editor.getByLabel('Save to').selectOption('project')
  await editor.getByRole('button', { name: 'Save mode' }).click()

  const list = page.getByRole('navigation', { name: 'Mode list' })
  await expect(list.getByRole('button', { name: /Docs Writer/ })).toBeVisible()
  await expect(page.getByRole('form', { name: 'Edit mode Docs Writer' })).toBeVisible()

  // Saved to the project's modes file, with Modus's own keys.
  const file = readFileSync(join(modus.workspace, '.modus', 'modes.yaml'), 'utf8')
  expect(file).toContain('slug: docs-writer')
  expect(file).toContain('fileRegex: \\.md$')
  expect(file).toContain('git diff *')

  // Validation errors stand next to their field and nothing is saved.
  await page.getByRole('button', { name: 'New mode' }).click()
  const second = page.getByRole('form', { name: 'New mode' })
  await second.getByLabel('Slug').fill('bad slug!')
  await second.getByRole('button', { name: 'Save mode' }).click()
  await expect(second.getByText('Slug must contain only letters, numbers and dashes')).toBeVisible()
  await expect(second.getByText('Name must not be empty')).toBeVisible()
})

test("a mode's auto-approve toggle persists after a reload, and a built-in can be reset", async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Modes' }).click()
  const list = page.getByRole('navigation', { name: 'Mode list' })
  await list.getByRole('button', { name: /^Code/ }).click()
  const editor = page.getByRole('form', { name: 'Edit mode Code' })
  const editToggle = editor.getByRole('switch', { name: 'Edit files' })
  await expect(editToggle).not.toBeChecked()
  await editToggle.check()
  await editor.getByLabel('Request cap per task').fill('25')
  await editor.getByLabel('Save to').selectOption('global')
  await editor.getByRole('button', { name: 'Save override' }).click()
  await expect(editor.getByText('overrides built-in')).toBeVisible()

  await page.reload()
  await page.getByRole('button', { name: 'Modes' }).click()
  await page.getByRole('navigation', { name: 'Mode list' }).getByRole('button', { name: /^Code/ }).click()
  const reloaded = page.getByRole('form', { name: 'Edit mode Code' })
  await expect(reloaded.getByRole('switch', { name: 'Edit files' })).toBeChecked()
  await expect(reloaded.getByRole('switch', { name: 'Read files in the workspace' })).toBeChecked()
  await expect(reloaded.getByLabel('Request cap per task')).toHaveValue('25')

  await reloaded.getByRole('button', { name: 'Reset to built-in' }).click()
  await page.getByRole('alertdialog', { name: 'Reset to built-in?' }).getByRole('button', { name: 'Reset' }).click()
  const reset = page.getByRole('form', { name: 'Edit mode Code' })
  await expect(reset.getByText('overrides built-in')).toHaveCount(0)
  await expect(reset.getByRole('switch', { name: 'Edit files' })).not.toBeChecked()
})

const ROOMODES = `customModes:
  - slug: translator
    name: Translator
    roleDefinition: You translate the project's user-facing strings.
    whenToUse: Translating UI text.
    groups:
      - read
      - - edit
        - fileRegex: \\.json$
          description: Locale files
    source: project
`

test('imports a Roo .roomodes file and exports a mode as YAML', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Modes' }).click()
  await page.getByRole('button', { name: 'Import…' }).click()
  const panel = page.getByRole('form', { name: 'Import modes' })
  await panel
    .getByLabel(/Modes file/)
    .setInputFiles({ name: '.roomodes', mimeType: 'text/yaml', buffer: Buffer.from(ROOMODES) })
  await expect(panel.getByLabel('Format')).toHaveValue('roo')
  await panel.getByLabel('Import into').selectOption('global')
  await panel.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(panel.getByText('Imported 1 mode: translator')).toBeVisible()

  const list = page.getByRole('navigation', { name: 'Mode list' })
  await list.getByRole('button', { name: /Translator/ }).click()
  const editor = page.getByRole('form', { name: 'Edit mode Translator' })
  await expect(editor.getByLabel('File pattern for edits (regular expression)')).toHaveValue('\\.json$')
  // Roo modes start with no auto-approve at all.
  for (const toggle of await editor.getByRole('switch').all()) await expect(toggle).not.toBeChecked()

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    editor.getByRole('button', { name: 'Export YAML' }).click()
  ])
  expect(download.suggestedFilename()).toBe('translator.modes.yaml')
  const exported = readFileSync(await download.path(), 'utf8')
  expect(exported).toContain('slug: translator')
  expect(exported).toContain('Locale files')

  // A broken paste is refused with its line, and nothing is imported.
  await panel
    .getByLabel('Or paste YAML or JSON')
    .fill('customModes:\n  - slug: "bad slug"\n    name: X\n    roleDefinition: Y\n    groups: [read]\n')
  await panel.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(panel.getByRole('alert')).toContainText('Slug must contain only letters, numbers and dashes')
})

test("a project's own modes are marked untrusted, and a broken modes file is reported with its line and kept", async ({
  page,
  modus
}) => {
  writeFileSync(
    join(modus.workspace, '.roomodes'),
    ROOMODES.replace('translator', 'project-translator').replace('Translator', 'Project Translator')
  )
  mkdirSync(join(modus.workspace, '.modus'), { recursive: true })
  const broken = 'customModes:\n  - slug: ok\n    name: OK\n    roleDefinition: Fine\n    groups: [read, read]\n'
  writeFileSync(join(modus.workspace, '.modus', 'modes.yaml'), broken)

  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Modes' }).click()
  const list = page.getByRole('navigation', { name: 'Mode list' })
  const projectMode = list.getByRole('button', { name: /Project Translator/ })
  await expect(projectMode).toContainText('not trusted')
  await projectMode.click()
  await expect(
    page.getByText(/Until you trust this workspace, its auto-approve toggles and allow rules are off/)
  ).toBeVisible()

  const problem = page.getByRole('alert').filter({ hasText: 'modes.yaml' })
  await expect(problem).toContainText('Duplicate groups are not allowed: read')
  await expect(problem).toContainText(/line \d+/)

  // Saving into the broken file is refused with the reason; the file stays as the user wrote it.
  await page.getByRole('button', { name: 'New mode' }).click()
  const editor = page.getByRole('form', { name: 'New mode' })
  await editor.getByLabel('Name', { exact: true }).fill('Reviewer')
  await editor.getByLabel('Role definition').fill('Reviews changes.')
  await editor.getByLabel('Save to').selectOption('project')
  await editor.getByRole('button', { name: 'Save mode' }).click()
  await expect(editor.getByRole('alert')).toContainText('modes.yaml')
  expect(readFileSync(join(modus.workspace, '.modus', 'modes.yaml'), 'utf8')).toBe(broken)
})

test('the mode editor works from the keyboard, with labelled controls and a visible focus', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Modes' }).click()
  await page.getByRole('button', { name: 'New mode' }).focus()
  await page.keyboard.press('Tab')
  const focused = page.getByRole('button', { name: 'Import…' })
  await expect(focused).toBeFocused()
  expect(await focused.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe('none')

  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Enter')
  const editor = page.getByRole('form', { name: 'New mode' })
  await expect(editor).toBeVisible()

  // Every field has a name a screen reader can announce.
  const unlabelled = await editor.locator('input, textarea, select').evaluateAll((controls) =>
    controls
      .filter((control) => {
        const element = control as HTMLInputElement
        return (
          element.labels?.length === 0 &&
          !element.getAttribute('aria-label') &&
          !element.getAttribute('aria-labelledby')
        )
      })
      .map((control) => control.outerHTML.slice(0, 80))
  )
  expect(unlabelled).toEqual([])

  await editor.getByLabel('Name', { exact: true }).focus()
  await page.keyboard.type('Keyboard Mode')
  await page.keyboard.press('Tab')
  await expect(editor.getByLabel('Slug')).toBeFocused()
  await editor.getByLabel('Role definition').focus()
  await page.keyboard.type('Typed without a mouse.')
  await editor.getByRole('switch', { name: 'Start subtasks' }).focus()
  await page.keyboard.press('Space')
  await expect(editor.getByRole('switch', { name: 'Start subtasks' })).toBeChecked()
  // Enter in a text field submits the form.
  await editor.getByLabel('Slug').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('form', { name: 'Edit mode Keyboard Mode' })).toBeVisible()
  await expect(
    page.getByRole('form', { name: 'Edit mode Keyboard Mode' }).getByRole('switch', { name: 'Start subtasks' })
  ).toBeChecked()
})

test('trusting the workspace lifts the untrusted mark from its modes', async ({ page, modus }) => {
  writeFileSync(
    join(modus.workspace, '.roomodes'),
    ROOMODES.replace('translator', 'project-translator').replace('Translator', 'Project Translator')
  )
  mkdirSync(join(modus.workspace, '.modus'), { recursive: true })
  writeFileSync(
    join(modus.workspace, '.modus', 'modes.yaml'),
    'customModes:\n  - slug: fixer\n    name: Fixer\n    roleDefinition: Fixes.\n    groups: [read, edit]\n    autoApprove: { edit: true }\n'
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Modes' }).click()
  const fixer = page.getByRole('navigation', { name: 'Mode list' }).getByRole('button', { name: /Fixer/ })
  await expect(fixer).toContainText('not trusted')
  await page.getByRole('button', { name: 'Trust this workspace' }).click()
  await expect(fixer).not.toContainText('not trusted')
  await fixer.click()
  await expect(page.getByText(/Until you trust this workspace/)).toHaveCount(0)
})

// A Roo export saved under a name Modus also uses, with a rule file and a group Modus lacks.
const ROO_EXPORT = `customModes:
  - slug: reviewer
    name: Reviewer
    roleDefinition: Reviews pull requests.
    groups:
      - read
      - subtasks
    source: project
    rulesFiles:
      - relativePath: rules-reviewer/01.md
        content: Be kind.
`

test('import reads the format from the content, reports a group Modus lacks, and exports all modes', async ({
  page,
  modus
}) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Modes' }).click()
  await page.getByRole('button', { name: 'Import…' }).click()
  const panel = page.getByRole('form', { name: 'Import modes' })
  // Called like a Modus file, but Roo's content: read as Roo's.
  await panel
    .getByLabel(/Modes file/)
    .setInputFiles({ name: 'roomodes.yaml', mimeType: 'text/yaml', buffer: Buffer.from(ROO_EXPORT) })
  await expect(panel.getByLabel('Format')).toHaveValue('roo')
  await expect(panel.getByText(/Read as a Roo Code file: it has Roo's fields/)).toBeVisible()
  await panel.getByLabel('Import into').selectOption('global')
  await panel.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(panel.getByText('Imported 1 mode: reviewer')).toBeVisible()
  const warnings = panel.getByRole('list', { name: 'Import warnings' })
  await expect(warnings).toContainText('Mode "reviewer": Modus has no group "subtasks"; imported without it')
  await expect(warnings).toContainText('Mode "reviewer": its rule files were not imported')

  // Called like Roo's file, but Modus's content (auto-approve settings): read as Modus's.
  const modusText =
    'customModes:\n  - slug: tidy\n    name: Tidy\n    roleDefinition: Tidies.\n    groups: [read, edit]\n    autoApprove:\n      edit: true\n'
  await panel
    .getByLabel(/Modes file/)
    .setInputFiles({ name: '.roomodes', mimeType: 'text/yaml', buffer: Buffer.from(modusText) })
  await expect(panel.getByLabel('Format')).toHaveValue('modus')
  await expect(panel.getByText(/Read as a Modus file: it has Modus settings \(autoApprove\)/)).toBeVisible()
  await panel.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(panel.getByText('Imported 1 mode: tidy')).toBeVisible()

  await page.getByRole('button', { name: 'Export all…' }).click()
  const exportPanel = page.getByRole('region', { name: 'Export all modes' })
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    exportPanel.getByRole('button', { name: 'Download .roomodes (for Roo Code)' }).click()
  ])
  expect(download.suggestedFilename()).toBe('all-modes.roomodes')
  const exported = readFileSync(await download.path(), 'utf8')
  expect(exported).toContain('slug: reviewer')
  expect(exported).toContain('slug: tidy')
  expect(exported).not.toContain('autoApprove')
  expect(exported).not.toContain('slug: architect') // built-ins as shipped stay out
})
